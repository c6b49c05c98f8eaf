// The lrr issue loop counts a cycle in which every live warp is stuck without walking (and
// keeps no issued_last). Checked every cycle against what the per-scheduler walk counts: one
// category per scheduler and cycle (IDLE always for a scheduler without a live warp), at most
// one stall per live warp, none for an exited warp. Random programs of uneven lengths make
// schedulers go idle at different times.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "kernel_test_util.hpp"

namespace {

using ktu::ffma;
using ktu::iadd;
using ktu::mufu;
using ktu::prog;

std::vector<smtlm_inst_desc> random_prog(std::mt19937 &rng)
{
    std::vector<smtlm_inst_desc> p;
    const unsigned len = 1 + rng() % 40;
    for (unsigned i = 0; i < len; i++) {
        const int d = 10 + (int)(rng() % 6), a = 10 + (int)(rng() % 6); // short chains of dependences
        switch (rng() % 3) {
        case 0: p.push_back(ffma(d, {a, 4, 5})); break;
        case 1: p.push_back(iadd(d, {a, 4})); break;
        default: p.push_back(mufu(d, {a})); break;
        }
    }
    return prog(p);
}

TEST(IssueLrrCounts, EveryCycleMatchesThePerSchedulerLoop)
{
    std::mt19937 rng(7);
    uint64_t idle_cycles = 0, scoreboard_cycles = 0; // both paths were taken
    for (unsigned trial = 0; trial < 20; trial++) {
        smtlm_sm_cfg cfg = ktu::qv100();
        ASSERT_EQ(cfg.issue.policy, SMTLM_SCHED_LRR);
        ktu::Rig rig(cfg);
        ASSERT_EQ(rig.init_rc, SMTLM_OK);
        const unsigned warps = 1 + rng() % 9;
        std::vector<std::vector<smtlm_inst_desc>> progs;
        for (unsigned w = 0; w < warps; w++)
            progs.push_back(random_prog(rng));
        ASSERT_GE(rig.load(progs), 0);
        const smtlm_issue &iss = rig.sm()->iss;
        const unsigned n = iss.shape.n_sched;
        uint64_t distro[SMTLM_MAX_SCHED][SMTLM_DISTRO_SIZE], stall[SMTLM_MAX_WARPS][SMTLM_WS_COUNT];
        std::memcpy(distro, iss.distro, sizeof distro);
        std::memcpy(stall, iss.warp_stall, sizeof stall);
        uint64_t live_before[SMTLM_MAX_SCHED], exited_before = iss.exited;
        for (unsigned s = 0; s < n; s++)
            live_before[s] = iss.sched_live[s];
        rig.after_cycle = [&](ktu::Rig &r) {
            const smtlm_issue &is = r.sm()->iss;
            for (unsigned s = 0; s < n; s++) {
                uint64_t other = 0, lanes = 0;
                for (unsigned c = 0; c < SMTLM_DISTRO_SIZE; c++)
                    (c < SMTLM_DISTRO_W0 ? other : lanes) += is.distro[s][c] - distro[s][c];
                EXPECT_EQ(other, lanes ? 0u : 1u) << "cycle " << r.now() << " scheduler " << s;
                if (!live_before[s]) { // no live warp during this cycle's issue (exits come later)
                    EXPECT_EQ(is.distro[s][SMTLM_DISTRO_IDLE] - distro[s][SMTLM_DISTRO_IDLE], 1u) << "cycle " << r.now();
                    idle_cycles++;
                }
                if (is.distro[s][SMTLM_DISTRO_SCOREBOARD] != distro[s][SMTLM_DISTRO_SCOREBOARD])
                    scoreboard_cycles++;
                live_before[s] = is.sched_live[s];
            }
            for (unsigned w = 0; w < SMTLM_MAX_WARPS; w++) {
                uint64_t d = 0;
                for (unsigned k = 0; k < SMTLM_WS_COUNT; k++)
                    d += is.warp_stall[w][k] - stall[w][k];
                if (exited_before >> w & 1)
                    EXPECT_EQ(d, 0u) << "cycle " << r.now() << " exited warp " << w;
                else
                    EXPECT_LE(d, 1u) << "cycle " << r.now() << " warp " << w;
            }
            exited_before = is.exited;
            std::memcpy(distro, is.distro, sizeof distro);
            std::memcpy(stall, is.warp_stall, sizeof stall);
        };
        rig.run();
        ASSERT_EQ(rig.last_rc, SMTLM_OK);
        EXPECT_FALSE(rig.active());
    }
    EXPECT_GT(idle_cycles, 0u);
    EXPECT_GT(scoreboard_cycles, 0u);
}

} // namespace
