// The finer per-warp stall breakdown names the real cause of a wait.
#include <gtest/gtest.h>

#include <cstring>

#include "kernel_test_util.hpp"

namespace {
// FFMA dst <- src, src, src: each depends on the one before through `src`.
smtlm_inst_desc ffma_dep(int dst, int src) { return ktu::ffma(dst, {src, src, src}); }
} // namespace

// After its EXIT a warp drains; those cycles are not MEMBAR stalls (the warp has no MEMBAR).
// dep_nc 4-chain: EXIT issues at 23 (timeline dep_nc_4_w1) and the warp is examined while
// draining in cycles 24..29 = 6 cycles.
TEST(WarpStall, DrainingWarpIsNotCountedAsMembarStall)
{
    ktu::Rig rig(ktu::qv100());
    rig.load({micro::program("dep_nc", 4)});
    rig.run();
    const smtlm_sm *sm = rig.sm();
    EXPECT_EQ(sm->iss.warp_stall[0][SMTLM_WS_MEMBAR], 0u);
    EXPECT_EQ(sm->iss.warp_stall[0][SMTLM_WS_BARRIER], 0u);
    EXPECT_EQ(sm->iss.warp_stall[0][SMTLM_WS_ATOMIC], 0u);
    EXPECT_EQ(sm->iss.warp_stall[0][SMTLM_WS_DRAINING], 6u);
}

// A scheduler that issues nothing in a cycle has examined every live warp it supervises, so each
// of them gains exactly one stall count that cycle (whatever its reason); a scheduler that issues
// counts ISSUED for one warp and at most one count for each other. Dependent FFMA chains keep all
// of a scheduler's warps blocked on the scoreboard for most cycles, the case where the walk counts
// the stuck warps in bulk from one mask per cycle.
TEST(WarpStall, EveryLiveWarpOfAnIdleSchedulerIsCountedOncePerCycle)
{
    std::vector<smtlm_inst_desc> chain = {ffma_dep(20, 3)};
    for (int i = 1; i < 12; i++)
        chain.push_back(ffma_dep(20 + i, 20 + i - 1));
    for (smtlm_sched_policy pol : {SMTLM_SCHED_LRR, SMTLM_SCHED_GTO, SMTLM_SCHED_OLDEST}) {
        smtlm_sm_cfg c = ktu::qv100();
        c.issue.policy = pol;
        ktu::Rig rig(c);
        ASSERT_GE(rig.load_all(ktu::prog(chain), 8), 0);
        const unsigned n_sched = rig.sm()->iss.shape.n_sched;
        uint64_t before[SMTLM_MAX_WARPS][SMTLM_WS_COUNT] = {};
        uint8_t live[SMTLM_MAX_WARPS] = {};
        for (unsigned w = 0; w < 8; w++)
            live[w] = 1;
        unsigned idle_checks = 0;
        rig.after_cycle = [&](ktu::Rig &r) {
            const smtlm_issue &iss = r.sm()->iss;
            for (unsigned s = 0; s < n_sched; s++) {
                unsigned issued = 0;
                for (unsigned w = s; w < 8; w += n_sched)
                    issued += (unsigned)(iss.warp_stall[w][SMTLM_WS_ISSUED] - before[w][SMTLM_WS_ISSUED]);
                EXPECT_LE(issued, 1u) << "cycle " << r.now() << " scheduler " << s;
                for (unsigned w = s; w < 8; w += n_sched) {
                    uint64_t d = 0;
                    for (unsigned k = 0; k < SMTLM_WS_COUNT; k++)
                        d += iss.warp_stall[w][k] - before[w][k];
                    if (!live[w])
                        EXPECT_EQ(d, 0u) << "cycle " << r.now() << " warp " << w;
                    else if (issued == 0) {
                        EXPECT_EQ(d, 1u) << "cycle " << r.now() << " warp " << w;
                        idle_checks++;
                    } else
                        EXPECT_LE(d, 1u) << "cycle " << r.now() << " warp " << w;
                }
            }
            std::memcpy(before, iss.warp_stall, sizeof before);
            for (unsigned w = 0; w < 8; w++)
                live[w] = !iss.warp[w].done_exit;
        };
        rig.run();
        ASSERT_EQ(rig.last_rc, SMTLM_OK);
        EXPECT_GT(idle_checks, 100u) << "policy " << pol; // the bulk path really ran
        uint64_t sb = 0;
        for (unsigned w = 0; w < 8; w++)
            sb += rig.sm()->iss.warp_stall[w][SMTLM_WS_SCOREBOARD];
        EXPECT_GT(sb, 100u) << "policy " << pol;
    }
}
