// A memory error response names the trace line of the instruction whose access it answers,
// for a load (waiting for its data) and a store (gone from the SM before its access is sent).
#include <gtest/gtest.h>

#include <string>

#include "trace_files.hpp"

using namespace e2e;

extern "C" {
#include "smtlm/engine.h"
}

namespace {

const uint64_t kBadAddr = 0x7f0000100000ull; // the failing memory's window

int fail_window(void *, const smtlm_mem_req *req, uint64_t, uint64_t *)
{
    return req->addr >= kBadAddr && req->addr < kBadAddr + 0x1000 ? -1 : 0;
}

int create_failing(void **self, const smtlm_gpu_cfg *cfg, const smtlm_engine_params *p, smtlm_gpu **gpu, char *msg,
                   size_t n)
{
    if (smtlm_c_engine()->create(self, cfg, p, gpu, msg, n))
        return -1;
    const smtlm_mem_ops ops = {nullptr, fail_window};
    for (unsigned i = 0; i < (*gpu)->n_sm; i++)
        smtlm_mem_bind(&(*gpu)->mem[i], &ops);
    return 0;
}

smtlm_run_status run_failing(void *self) { return smtlm_c_engine()->run(self); }
void destroy_failing(void *self) { smtlm_c_engine()->destroy(self); }

} // namespace

TEST(TraceInputMessages, MemoryErrorResponseNamesTheInstructionLine)
{
    const smtlm_engine failing = {"c", create_failing, run_failing, destroy_failing, 1};
    const smtlm_engine *engines[] = {&failing};
    for (const char *op : {"1 R4 LDG.E 1 R2", "0 STG.E 2 R2 R4"}) {
        SCOPED_TRACE(op);
        const std::string text = header("(1,1,1)", "(32,1,1)") +
                                 "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 5\n"
                                 "0000 ffffffff 1 R2 IADD3 2 R2 R3 0\n"
                                 "0010 ffffffff 1 R5 LDG.E 1 R2 4 1 0x7f0000000000 4\n"
                                 "0020 ffffffff " + std::string(op) + " 4 1 0x7f0000100000 4\n"
                                 "0030 ffffffff 1 R6 IADD3 2 R5 R3 0\n"
                                 "0040 ffffffff 0 EXIT 0 0\n#END_TB\n";
        const std::string list = write_list(std::string("memerr_") + op[0], {text}, false);
        const e2e::Result r = e2e::smsim({"-trace", list}, engines, 1);
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(r.err.rfind("smsim: " + dir_of(list) + "/kernel-1.traceg:" + std::to_string(line_of(text, "0020 ")) +
                                  ": memory error response at address 0x7f0000100000 (sm 0 warp 0 pc 0x0020, ",
                              0),
                  0u)
            << r.err;
    }
}
