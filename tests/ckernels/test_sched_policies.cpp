// Every warp-scheduling policy on an 8-warp kernel: scheduler 0 supervises warps 0 and 4.
// Front end (fetch starts after warp 0, four decode/fetch rounds per cycle): with 8 warps, warps 1-3 can issue at cycle 1, warps
// 4-7 at 2 and warp 0 at 3 (fetch starts at warp 1; four fetches per cycle, the fourth is
// decoded the next cycle). Cycles are relative to the SM's first cycle.
#include <gtest/gtest.h>

#include "micro.hpp"

namespace {

uint64_t issue_at(const micro::Runner &r, unsigned warp, uint32_t pc) { return r.rel(r.find(warp, pc)->ev[SMTLM_EV_ISSUE]); }

micro::Runner run(smtlm_sched_policy p, const char *kind, unsigned n, unsigned active = 6)
{
    smtlm_gpu_cfg c = micro::Runner::qv100();
    c.sm.issue.policy = p;
    c.sm.issue.two_level_active = active;
    micro::Runner r(c);
    EXPECT_EQ(r.run(micro::program(kind, n), 8), SMTLM_RUN_DONE);
    return r;
}

TEST(SchedPolicies, EveryPolicyRetiresEveryInstruction)
{
    for (smtlm_sched_policy p : {SMTLM_SCHED_LRR, SMTLM_SCHED_GTO, SMTLM_SCHED_OLDEST, SMTLM_SCHED_RRR, SMTLM_SCHED_TWO_LEVEL}) {
        micro::Runner r = run(p, "indep", 16);
        EXPECT_EQ(r.insn(), 8u * 17 * 32) << "policy " << p;
        EXPECT_EQ(r.events.size(), 8u * 17) << "policy " << p;
    }
}

// oldest: warp 0 (dynamic id 0) is preferred over warp 4 whenever it can issue. Warp 4 is
// alone at cycle 2 (warp 0's ibuffer is still empty) and issues pc 0; from cycle 3 warp 0
// issues every cycle its unit path allows, so warp 4's pc 0x10 waits until warp 0 stalls.
TEST(SchedPolicies, OldestPrefersTheOlderWarp)
{
    micro::Runner r = run(SMTLM_SCHED_OLDEST, "indep", 8);
    EXPECT_EQ(issue_at(r, 4, 0x00), 2u);
    EXPECT_EQ(issue_at(r, 0, 0x00), 3u);
    EXPECT_EQ(issue_at(r, 0, 0x10), 4u);
    EXPECT_GT(issue_at(r, 4, 0x10), issue_at(r, 0, 0x40)); // warp 0 went on first
}

// rrr (dep_nc chains): the turn starts at warp 0, whose ibuffer is empty until cycle 3, so
// nothing issues at 1-2 (lrr would issue warp 4 at 2). 3: warp 0 pc0. 4: after an issue the
// turn moves to warp 4: pc0. 5: turn back to warp 0, stalled on its scoreboard (pc0 released at
// 3 + 7 = 10) but not waiting, so it keeps the turn: pc 0x10 at 10. 11: turn to warp 4; its
// pc0 reached the SP unit only at 8 (warp 0's FFMA held the unit's dispatch register for II=2:
// FU issue 6, free at 8), so it is released at 8 + 4 = 12: pc 0x10 at 12.
TEST(SchedPolicies, RrrKeepsTheTurnWhileTheWarpIsStalled)
{
    micro::Runner r = run(SMTLM_SCHED_RRR, "dep_nc", 4);
    EXPECT_EQ(issue_at(r, 0, 0x00), 3u);
    EXPECT_EQ(issue_at(r, 4, 0x00), 4u);
    EXPECT_EQ(issue_at(r, 0, 0x10), 10u);
    EXPECT_EQ(issue_at(r, 4, 0x10), 12u);
    micro::Runner l = run(SMTLM_SCHED_LRR, "dep_nc", 4);
    EXPECT_EQ(issue_at(l, 4, 0x00), 2u);
}

// two_level_active:1: one active warp per scheduler (warp 0, first supervised). It stays
// active until it waits: after its EXIT issues (13) it is functionally done, is demoted at the
// next ordering, and warp 4, ready since cycle 2, is promoted and issues at 14.
TEST(SchedPolicies, TwoLevelWithOneActiveWarpRunsWarpsOneAfterAnother)
{
    micro::Runner r = run(SMTLM_SCHED_TWO_LEVEL, "indep", 8, 1);
    EXPECT_EQ(issue_at(r, 0, 0x00), 3u);
    EXPECT_EQ(issue_at(r, 0, 0x80), 13u); // warp 0's EXIT
    EXPECT_EQ(issue_at(r, 4, 0x00), 14u);
}

} // namespace
