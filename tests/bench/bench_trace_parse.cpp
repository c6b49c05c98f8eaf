// Trace reading speed: MB/s of .traceg text turned into instruction records (and, with a feed,
// handed out instruction by instruction, thread blocks held whole or streamed), on the
// reference "imix" shape (Volta binary 70, one thread block of 16 warps, each warp
// alternating FFMA and IADD3 on R3 R4 R5 into R20..R27, then EXIT) held in memory, so the
// figure is the parser's alone (no disk, no engine).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" {
#include "smtlm/trace.h"
}
#include "refgen_text.h"

namespace {

// The reference imix text (refgen_text.h, as smtlm_refgen writes it) with `insts` per warp.
std::string imix_trace(unsigned insts)
{
    refgen g;
    refgen_kind(&g, "imix");
    g.insts = insts;
    char *buf = nullptr;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f == nullptr)
        return std::string();
    refgen_write(f, &g);
    std::fclose(f);
    std::string text(buf, len);
    std::free(buf);
    return text;
}

void BM_TraceParseImix(benchmark::State &state)
{
    const std::string text = imix_trace((unsigned)state.range(0));
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

// What the engine's reading costs in all: the thread block read (held whole, or checked and
// streamed) and then every instruction handed out through a feed, one warp after the other in
// turn as the engine takes them (a streamed block's cursors parse its lines a second time).
void trace_feed(benchmark::State &state, size_t limit)
{
    const std::string text = imix_trace((unsigned)state.range(0));
    char err[256];
    smtlm_trace_tb *tb = smtlm_trace_tb_new();
    smtlm_trace_feed *f = smtlm_trace_feed_new();
    smtlm_inst_desc d;
    for (auto _ : state) {
        smtlm_trace *t = nullptr;
        if (smtlm_trace_open_mem(text.data(), text.size(), "imix", nullptr, &t, err, sizeof err) < 0) {
            state.SkipWithError(err);
            break;
        }
        smtlm_trace_set_stream_limit(t, limit);
        int rc;
        while ((rc = smtlm_trace_next_tb(t, tb, err, sizeof err)) > 0 &&
               (rc = smtlm_trace_feed_bind(f, t, tb, err, sizeof err)) == 0)
            for (int any = 1; any;) {
                any = 0;
                for (unsigned w = 0; w < smtlm_trace_tb_n_warps(tb); w++)
                    any |= smtlm_trace_feed_next(f, w, &d) > 0;
                benchmark::DoNotOptimize(d.pc);
            }
        smtlm_trace_feed_unbind(f);
        smtlm_trace_close(t);
        if (rc < 0) {
            state.SkipWithError(err);
            break;
        }
    }
    smtlm_trace_feed_free(f);
    smtlm_trace_tb_free(tb);
    state.SetBytesProcessed((int64_t)state.iterations() * (int64_t)text.size());
}
void BM_TraceFeedWholeImix(benchmark::State &state) { trace_feed(state, SIZE_MAX); }
void BM_TraceFeedStreamedImix(benchmark::State &state) { trace_feed(state, 0); }
BENCHMARK(BM_TraceFeedWholeImix)->Arg(20000);
BENCHMARK(BM_TraceFeedStreamedImix)->Arg(20000);

} // namespace
