// The GPU's sample hook: called after every step with that cycle and after every bulk idle
// skip with its length, the SMs' state being that at the end of those cycles; it changes
// nothing in the run.
#include <gtest/gtest.h>

#include <algorithm>

#include "micro.hpp"

namespace {

struct Call {
    uint64_t first, n;
    unsigned cu_busy; // the collector units holding an instruction at the end of the cycles
};

void record(void *ctx, const smtlm_gpu *gpu, uint64_t first, uint64_t n)
{
    smtlm_sm_view v;
    smtlm_gpu_sm_view(gpu, 0, &v);
    static_cast<std::vector<Call> *>(ctx)->push_back({first, n, v.oc->busy});
}

// A global load every 8 instructions with a slow memory: the SM waits with nothing to do, so
// the GPU skips cycles in bulk.
std::vector<smtlm_inst_desc> loads_and_math()
{
    std::vector<smtlm_inst_desc> p;
    for (unsigned i = 0; i < 32; i++) {
        smtlm_inst_desc d = micro::alu(i % 8 ? SMTLM_OP_SP : SMTLM_OP_LOAD, 2, {2, 4}, 4, 2);
        if (d.op == SMTLM_OP_LOAD) {
            d.mem_space = SMTLM_MEM_GLOBAL;
            d.mem_width = 4;
            for (unsigned k = 0; k < 32; k++)
                d.addr[k] = 0x1000 + 4 * k;
        }
        d.pc = i * 16;
        p.push_back(d);
    }
    smtlm_inst_desc e = micro::exit_inst();
    e.pc = 32 * 16;
    p.push_back(e);
    return p;
}

TEST(SampleHook, OneCallPerStepWithTheStateAtTheEndOfTheCycle)
{
    micro::Runner r(micro::Runner::qv100());
    ASSERT_EQ(r.init_rc, SMTLM_OK);
    std::vector<Call> calls;
    smtlm_gpu_set_sample_hook(r.gpu(), record, &calls);
    ASSERT_EQ(r.run(micro::program("dep", 16), 2), SMTLM_RUN_DONE);
    ASSERT_FALSE(calls.empty());
    // the launch latency is fast-forwarded (no SM has work: no call); from the first SM cycle
    // on, every cycle up to the last is one call of one cycle (this run never idles)
    for (size_t i = 0; i < calls.size(); i++) {
        EXPECT_EQ(calls[i].n, 1u);
        if (i) {
            EXPECT_EQ(calls[i].first, calls[i - 1].first + 1);
        }
    }
    EXPECT_EQ(calls.back().first + 1, r.cycles());
    // occupancy at the end of cycle t: the instructions allocated a collector unit at or before
    // t and dispatched from it after t (the retire hook's cu_alloc and oc_ex cycles)
    for (const Call &c : calls) {
        unsigned want = 0;
        for (const micro::Event &e : r.events)
            want += e.ev[SMTLM_EV_CU_ALLOC] <= c.first && e.ev[SMTLM_EV_OC_EX] > c.first;
        ASSERT_EQ(c.cu_busy, want) << "cycle " << c.first;
    }
}

TEST(SampleHook, AnIdleSkipIsOneCallCoveringItsCycles)
{
    smtlm_gpu_cfg cfg = micro::Runner::qv100();
    cfg.mem_latency = 600;
    micro::Runner r(cfg);
    ASSERT_EQ(r.init_rc, SMTLM_OK);
    std::vector<Call> calls;
    smtlm_gpu_set_sample_hook(r.gpu(), record, &calls);
    ASSERT_EQ(r.run(loads_and_math(), 1), SMTLM_RUN_DONE);
    ASSERT_GT(r.gpu()->skipped_cycles, 0u);
    // the calls tile the cycles from the first SM cycle to the end without a gap or overlap;
    // the long ones are exactly the skipped cycles
    uint64_t skipped = 0;
    for (size_t i = 1; i < calls.size(); i++) {
        EXPECT_EQ(calls[i].first, calls[i - 1].first + calls[i - 1].n);
    }
    for (const Call &c : calls) {
        ASSERT_GE(c.n, 1u);
        if (c.n > 1) {
            skipped += c.n;
            EXPECT_EQ(c.cu_busy, 0u); // a skipped SM is quiescent
        }
    }
    EXPECT_EQ(skipped, r.gpu()->skipped_cycles);
    EXPECT_EQ(calls.back().first + calls.back().n, r.cycles());
}

TEST(SampleHook, ChangesNothingInTheRun)
{
    smtlm_gpu_cfg cfg = micro::Runner::qv100();
    cfg.mem_latency = 600;
    micro::Runner plain(cfg), hooked(cfg);
    std::vector<Call> calls;
    smtlm_gpu_set_sample_hook(hooked.gpu(), record, &calls);
    ASSERT_EQ(plain.run(loads_and_math(), 4), SMTLM_RUN_DONE);
    ASSERT_EQ(hooked.run(loads_and_math(), 4), SMTLM_RUN_DONE);
    EXPECT_EQ(plain.cycles(), hooked.cycles());
    EXPECT_EQ(plain.gpu()->skipped_cycles, hooked.gpu()->skipped_cycles);
    ASSERT_EQ(plain.events.size(), hooked.events.size());
    for (size_t i = 0; i < plain.events.size(); i++)
        EXPECT_TRUE(std::equal(plain.events[i].ev, plain.events[i].ev + SMTLM_EV_COUNT, hooked.events[i].ev)) << i;
}

} // namespace
