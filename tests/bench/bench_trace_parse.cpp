// Trace reading speed: MB/s of .traceg text turned into instruction records, on the
// reference "imix" shape (Volta binary 70, one thread block of 16 warps, each warp
// alternating FFMA and IADD3 on R3 R4 R5 into R20..R27, then EXIT) held in memory, so the
// figure is the parser's alone (no disk, no engine).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>

extern "C" {
#include "smtlm/trace.h"
}

namespace {

std::string imix_trace(unsigned warps, unsigned insts)
{
    std::string t = "-kernel name = imix\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (" + std::to_string(32 * warps) +
                    ",1,1)\n-shmem = 0\n-nregs = 32\n-binary version = 70\n-cuda stream id = 0\n"
                    "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007f1000000000\n"
                    "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
                    "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
                    "[adrrescompress?] [mem_addresses]\n\n#BEGIN_TB\n\nthread block = 0,0,0\n\n";
    char line[96];
    for (unsigned w = 0; w < warps; w++) {
        t += "warp = " + std::to_string(w) + "\ninsts = " + std::to_string(insts + 1) + "\n";
        for (unsigned i = 0; i < insts; i++) {
            std::snprintf(line, sizeof line, "%04x ffffffff 1 R%u %s 3 R3 R4 R5 0\n", i * 16, 20 + i % 8,
                          i % 2 ? "IADD3" : "FFMA");
            t += line;
        }
        std::snprintf(line, sizeof line, "%04x ffffffff 0 EXIT 0 0\n\n", insts * 16);
        t += line;
    }
    return t + "#END_TB\n";
}

void BM_TraceParseImix(benchmark::State &state)
{
    const std::string text = imix_trace(16, (unsigned)state.range(0));
    char err[256];
    smtlm_trace_tb *tb = smtlm_trace_tb_new();
    for (auto _ : state) {
        smtlm_trace *t = nullptr;
        if (smtlm_trace_open_mem(text.data(), text.size(), "imix", nullptr, &t, err, sizeof err) < 0) {
            state.SkipWithError(err);
            break;
        }
        int rc;
        while ((rc = smtlm_trace_next_tb(t, tb, err, sizeof err)) > 0)
            benchmark::DoNotOptimize(smtlm_trace_tb_n_warps(tb));
        smtlm_trace_close(t);
        if (rc < 0) {
            state.SkipWithError(err);
            break;
        }
    }
    smtlm_trace_tb_free(tb);
    state.SetBytesProcessed((int64_t)state.iterations() * (int64_t)text.size());
    state.counters["warp_insts"] = benchmark::Counter((double)state.iterations() * 16 * (double)(state.range(0) + 1),
                                                      benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TraceParseImix)->Arg(1000)->Arg(20000);

} // namespace
