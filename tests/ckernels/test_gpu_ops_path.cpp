// The GPU step calls the C engine's SM ops directly when it is bound to them (smtlm_sm_c_ops
// with the GPU as context) and through the ops table otherwise (another engine's SMs). A copy
// of the C engine's table at another address takes the table path with the same functions:
// every run must come out the same either way. The SM records its progress cycle (the
// watchdog's input) once per writeback drain: it must still be the last cycle in which an
// instruction issued or was written back.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "micro.hpp"

namespace {

struct Outcome {
    smtlm_run_status status;
    uint64_t cycles, insn, last_progress, skipped;
    std::vector<micro::Event> events;
};

smtlm_sm_ops table_copy; // the C engine's functions behind another table: the generic path

// The microbenchmark programs, plus "ldg": global loads through the SM's memory port (the
// memory model's cycle runs in the GPU step).
std::vector<smtlm_inst_desc> program(const std::string &kind, unsigned n)
{
    if (kind != "ldg")
        return micro::program(kind, n);
    std::vector<smtlm_inst_desc> p = micro::program("lds1", n);
    for (size_t i = 0; i + 1 < p.size(); i++)
        p[i].mem_space = SMTLM_MEM_GLOBAL;
    return p;
}

Outcome run(const std::string &kind, unsigned n, unsigned warps, bool through_table, uint64_t max_cycle)
{
    smtlm_gpu_cfg cfg = micro::Runner::qv100();
    cfg.max_cycle = max_cycle;
    micro::Runner r(cfg);
    EXPECT_EQ(r.init_rc, SMTLM_OK);
    table_copy = *smtlm_sm_c_ops();
    if (through_table)
        r.gpu()->ops = &table_copy;
    Outcome o;
    o.status = r.run(program(kind, n), warps);
    o.cycles = r.cycles();
    o.insn = r.insn();
    o.last_progress = r.sm()->last_progress;
    o.skipped = r.gpu()->skipped_cycles;
    o.events = r.events;
    return o;
}

void expect_same(const Outcome &a, const Outcome &b)
{
    EXPECT_EQ(a.status, b.status);
    EXPECT_EQ(a.cycles, b.cycles);
    EXPECT_EQ(a.insn, b.insn);
    EXPECT_EQ(a.last_progress, b.last_progress);
    EXPECT_EQ(a.skipped, b.skipped);
    ASSERT_EQ(a.events.size(), b.events.size());
    for (size_t i = 0; i < a.events.size(); i++) {
        EXPECT_EQ(a.events[i].warp, b.events[i].warp) << i;
        EXPECT_EQ(a.events[i].pc, b.events[i].pc) << i;
        for (unsigned e = 0; e < SMTLM_EV_COUNT; e++)
            EXPECT_EQ(a.events[i].ev[e], b.events[i].ev[e]) << i << " event " << e;
    }
}

TEST(GpuOpsPath, DirectAndTableRunsAgree)
{
    for (const char *kind : {"imix", "sfu", "dep", "lds4", "sts1", "ldg"}) {
        SCOPED_TRACE(kind);
        const Outcome direct = run(kind, 120, 8, false, 0);
        EXPECT_EQ(direct.status, SMTLM_RUN_DONE);
        EXPECT_EQ(direct.insn, 8u * 121u * 32u); // every instruction and the EXIT of 8 full warps
        expect_same(direct, run(kind, 120, 8, true, 0));
    }
    EXPECT_GT(run("ldg", 120, 8, false, 0).skipped, 0u); // the idle skip ran between responses
}

TEST(GpuOpsPath, MaxCycleStopAgrees)
{
    const Outcome direct = run("sfu", 200, 4, false, 150);
    EXPECT_EQ(direct.status, SMTLM_RUN_MAX_CYCLE);
    EXPECT_EQ(direct.cycles, 150u);
    expect_same(direct, run("sfu", 200, 4, true, 150));
}

TEST(GpuOpsPath, ProgressIsTheLastIssueOrWriteback)
{
    // ALU work only: the SM progresses when an instruction issues or is written back (the
    // EXIT issues and is never written back: it has no event past issue).
    const Outcome o = run("imix", 64, 4, false, 0);
    ASSERT_EQ(o.status, SMTLM_RUN_DONE);
    uint64_t last = 0;
    for (const micro::Event &e : o.events)
        for (unsigned k : {(unsigned)SMTLM_EV_ISSUE, (unsigned)SMTLM_EV_WRITEBACK})
            if (e.ev[k] != UINT64_MAX)
                last = std::max(last, e.ev[k]);
    EXPECT_GT(last, 0u);
    EXPECT_EQ(o.last_progress, last);
}

} // namespace
