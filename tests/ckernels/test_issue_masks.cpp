// The issue stage's event-kept masks (issue.h: may_wait, sb_blocked with the
// scoreboard's dirty mask, ib_empty, sched_live, the gto/oldest age lists) checked against the warp state
// they summarise after every cycle of runs with membars, atomics, barriers, loads, dependent
// chains and exits. A mask that went stale (a missed event) fails here.
#include <gtest/gtest.h>

#include <algorithm>

#include "kernel_test_util.hpp"

namespace {

using ktu::ffma;
using ktu::prog;

// Every mask bit that claims something about warp w must hold.
void check_masks(const smtlm_issue &iss, uint64_t now)
{
    for (unsigned w = 0; w < iss.cfg.max_warps; w++) {
        const smtlm_warp &wp = iss.warp[w];
        if (wp.done_exit)
            continue;
        const uint64_t b = 1ull << w;
        if (!(iss.may_wait & b)) {
            EXPECT_FALSE(wp.membar) << "cycle " << now << " warp " << w;
            EXPECT_EQ(wp.n_atomic, 0u) << "cycle " << now << " warp " << w;
            EXPECT_NE(wp.n_completed, SMTLM_WARP_SIZE) << "cycle " << now << " warp " << w;
            EXPECT_FALSE(iss.cta[wp.cta].at_barrier & b) << "cycle " << now << " warp " << w;
        }
        const bool empty = !wp.ib_valid[0] && !wp.ib_valid[1];
        EXPECT_EQ((iss.ib_empty & b) != 0, empty) << "cycle " << now << " warp " << w;
        if ((iss.sb_blocked & ~iss.sb.dirty & b) && wp.ib_valid[wp.next]) {
            const smtlm_inst *in = &iss.ports.pool->inst[wp.ib[wp.next]];
            EXPECT_NE(smtlm_sb_collision(&iss.sb, w, in), 0)
                << "cycle " << now << " warp " << w;
        }
    }
    for (unsigned s = 0; s < iss.shape.n_sched; s++) {
        const smtlm_sched &sc = iss.sched[s];
        std::vector<unsigned> want, got(sc.age, sc.age + sc.n_age);
        for (unsigned i = 0; i < sc.n_sup; i++)
            if (!iss.warp[sc.sup[i]].done_exit)
                want.push_back(sc.sup[i]);
        std::sort(want.begin(), want.end(), [&](unsigned a, unsigned b) { return iss.warp[a].dyn_id < iss.warp[b].dyn_id; });
        EXPECT_EQ(got, want) << "cycle " << now << " scheduler " << s;
        EXPECT_EQ(iss.sched_live[s], sc.sup_mask & ~iss.exited) << "cycle " << now << " scheduler " << s;
    }
}

smtlm_inst_desc atomic_add(int dst)
{
    smtlm_inst_desc d = ktu::global(SMTLM_OP_LOAD, dst, {2}, 0x2000, 4);
    d.atomic = 1;
    return d;
}

smtlm_inst_desc membar() { return ktu::alu(SMTLM_OP_MEMBAR, -1, {}, 1, 1); }

std::vector<std::vector<smtlm_inst_desc>> mixed_programs()
{
    std::vector<std::vector<smtlm_inst_desc>> p;
    for (unsigned w = 0; w < 12; w++) {
        std::vector<smtlm_inst_desc> q;
        q.push_back(ktu::global(SMTLM_OP_LOAD, 10, {2}, 0x1000 + 0x100 * w, 4));
        if (w % 3 == 0)
            q.push_back(membar());
        if (w % 4 == 1)
            q.push_back(atomic_add(11));
        q.push_back(ffma(12, {10, 4, 5}));
        q.push_back(ffma(12, {12, 4, 5}));
        q.push_back(ktu::bar());
        for (unsigned k = 0; k < 3 + w % 5; k++)
            q.push_back(ffma((int)(13 + k % 2), {12, 13, 14}));
        if (w % 5 == 2)
            q.push_back(ktu::exit_mask(0x0000FFFFu)); // half the lanes leave early
        q.push_back(ktu::bar());
        q.push_back(ffma(20, {13, 3, 4}));
        p.push_back(prog(q));
    }
    return p;
}

class IssueMasks : public ::testing::TestWithParam<smtlm_sched_policy> {};

TEST_P(IssueMasks, StayTrueToTheWarpStateEveryCycle)
{
    smtlm_sm_cfg cfg = ktu::qv100();
    cfg.issue.policy = GetParam();
    if (GetParam() == SMTLM_SCHED_TWO_LEVEL)
        cfg.issue.two_level_active = 2;
    ktu::Rig rig(cfg, 20, 64);
    ASSERT_EQ(rig.init_rc, SMTLM_OK);
    ASSERT_GE(rig.load(mixed_programs()), 0);
    unsigned checked = 0;
    rig.after_cycle = [&](ktu::Rig &r) {
        check_masks(r.sm()->iss, r.now());
        checked++;
    };
    rig.run();
    ASSERT_EQ(rig.last_rc, SMTLM_OK);
    EXPECT_FALSE(rig.active());
    EXPECT_GT(checked, 50u);
    EXPECT_GT(smtlm_issue_issued(&rig.sm()->iss), 12u * 8);
}

INSTANTIATE_TEST_SUITE_P(Policies, IssueMasks,
                         ::testing::Values(SMTLM_SCHED_LRR, SMTLM_SCHED_GTO, SMTLM_SCHED_OLDEST, SMTLM_SCHED_RRR,
                                           SMTLM_SCHED_TWO_LEVEL));

// A second CTA in the freed slot: its warps are the youngest in the age lists.
TEST(IssueMasksRelaunch, AgeListsFollowRelaunchedWarps)
{
    smtlm_sm_cfg cfg = ktu::qv100();
    ktu::Rig rig(cfg);
    ASSERT_EQ(rig.init_rc, SMTLM_OK);
    ASSERT_GE(rig.load_all(prog({ffma(20, {3, 4, 5}), ffma(21, {20, 4, 5})}), 6), 0);
    rig.after_cycle = [&](ktu::Rig &r) { check_masks(r.sm()->iss, r.now()); };
    rig.run();
    ASSERT_EQ(rig.last_rc, SMTLM_OK);
    ASSERT_GE(rig.load_all(prog({ffma(20, {3, 4, 5}), ktu::bar(), ffma(21, {20, 4, 5})}), 5), 0);
    rig.run();
    ASSERT_EQ(rig.last_rc, SMTLM_OK);
    EXPECT_FALSE(rig.active());
}

} // namespace
