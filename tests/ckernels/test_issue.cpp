// Front end and issue through the SM (GPGPU-Sim fetch, decode, scheduler_unit, barriers):
// warp -> scheduler binding, fetch order at CTA start, ibuffer refill, lrr vs gto, dual issue,
// no INT->SP fallback, BAR release, EXIT with partial masks. Cycle 0 = the SM's first cycle.
#include <gtest/gtest.h>

#include "kernel_test_util.hpp"

namespace {

using ktu::ffma;
using ktu::iadd;
using ktu::mufu;
using ktu::prog;

TEST(Issue, WarpsAreBoundToSchedulerWidModN)
{
    ktu::Rig rig(ktu::qv100());
    ASSERT_EQ(rig.init_rc, SMTLM_OK);
    const smtlm_issue &iss = rig.sm()->iss;
    for (unsigned s = 0; s < 4; s++) {
        ASSERT_EQ(iss.sched[s].n_sup, 16u);
        for (unsigned i = 0; i < 16; i++)
            EXPECT_EQ(iss.sched[s].sup[i], s + 4 * i);
    }
    ASSERT_EQ(rig.load_all(prog({ffma(20, {3, 4, 5}), ffma(21, {3, 4, 5})}), 8), 0);
    rig.run();
    ASSERT_EQ(rig.events.size(), 8u * 3);
    for (const ktu::Ev &e : rig.events)
        EXPECT_EQ(e.sched, e.warp % 4) << "warp " << e.warp;
}

// GPGPU-Sim's m_last_warp_fetched starts at 0 (seen in Accel-Sim's timelines too),
// so the first scan starts at warp 1. Four decode/fetch rounds per cycle; a warp fetched in the
// 4th round is decoded in the next cycle, after that cycle's issue.
TEST(Issue, FirstFetchStartsAtWarpOne)
{
    struct Case {
        unsigned warps;
        std::vector<uint64_t> first_issue;
    };
    const Case cases[] = {
        {1, {1}},                       // fetched round 1, decoded round 2 of cycle 0
        {4, {2, 1, 1, 1}},              // rounds 1-3: warps 1-3; round 4: warp 0
        {8, {3, 1, 1, 1, 2, 2, 2, 2}},  // cycle 1 decodes 4 (round 1), 5, 6, 7 and fetches 0 last
    };
    for (const Case &c : cases) {
        ktu::Rig rig(ktu::qv100());
        rig.load_all(prog({ffma(20, {3, 4, 5})}), c.warps);
        rig.run();
        for (unsigned w = 0; w < c.warps; w++)
            EXPECT_EQ(rig.at(w, 0).issue(), c.first_issue[w]) << c.warps << " warps, warp " << w;
    }
}

// The ibuffer holds the next two trace instructions; a warp is fetched again only when both slots
// are empty, and a slot emptied by issue in cycle c is refilled in cycle c (fetch runs after
// issue), so alternating SP/INT instructions issue every cycle (frontend §3.10).
TEST(Issue, IbufferRefillsOnlyWhenEmptyAndInTheSameCycle)
{
    ktu::Rig rig(ktu::qv100());
    std::vector<smtlm_inst_desc> p;
    for (int i = 0; i < 8; i++)
        p.push_back(i % 2 ? iadd(20 + i, {3, 4, 5}) : ffma(20 + i, {3, 4, 5}));
    rig.load({prog(p)});
    std::vector<uint64_t> decoded;
    std::vector<int> valid0, valid1;
    rig.after_cycle = [&](ktu::Rig &r) {
        decoded.push_back(r.sm()->iss.decoded);
        valid0.push_back(r.sm()->iss.warp[0].ib_valid[0]);
        valid1.push_back(r.sm()->iss.warp[0].ib_valid[1]);
    };
    rig.run();
    for (unsigned i = 0; i < 9; i++)
        EXPECT_EQ(rig.at(0, i).issue(), 1u + i) << "instruction " << i;
    // cycle 0: slots 0,1 decoded; cycle 1: slot 0 issued, slot 1 still valid -> no fetch;
    // cycle 2: slot 1 issued -> empty -> refetched and decoded in cycle 2.
    EXPECT_EQ(decoded[0], 2u);
    EXPECT_EQ(decoded[1], 2u);
    EXPECT_EQ(valid0[1], 0);
    EXPECT_EQ(valid1[1], 1);
    EXPECT_EQ(decoded[2], 4u);
    EXPECT_EQ(valid0[2], 1);
    EXPECT_EQ(valid1[2], 1);
    EXPECT_EQ(decoded[8], 9u); // 8 + EXIT: decode pairs (0,1) (2,3) (4,5) (6,7) (8)
}

// Two busy warps on scheduler 1 (warps 1 and 5 of 8; the others only EXIT), each running
// SP, INT, SP, INT, EXIT (issuable every cycle on its own).
//  lrr: the order starts after the last warp that issued: warps 1 and 5 alternate.
//  gto: the last warp that issued goes first: warp 1 runs to its EXIT, then warp 5.
TEST(Issue, LrrAlternatesGtoIsGreedy)
{
    const std::vector<smtlm_inst_desc> busy =
        prog({ffma(20, {3, 4, 5}), iadd(21, {3, 4, 5}), ffma(22, {3, 4, 5}), iadd(23, {3, 4, 5})});
    const std::vector<smtlm_inst_desc> idle = prog({});
    std::vector<std::vector<smtlm_inst_desc>> progs(8, idle);
    progs[1] = progs[5] = busy;
    const smtlm_sched_policy pol[] = {SMTLM_SCHED_LRR, SMTLM_SCHED_GTO};
    const std::vector<uint64_t> want1[] = {{1, 3, 5, 7, 9}, {1, 2, 3, 4, 5}};
    const std::vector<uint64_t> want5[] = {{2, 4, 6, 8, 10}, {6, 7, 8, 9, 10}};
    for (int k = 0; k < 2; k++) {
        smtlm_sm_cfg c = ktu::qv100();
        c.issue.policy = pol[k];
        ktu::Rig rig(c);
        rig.load(progs);
        rig.run();
        std::vector<uint64_t> got1, got5;
        for (unsigned i = 0; i < 5; i++) {
            got1.push_back(rig.at(1, i).issue());
            got5.push_back(rig.at(5, i).issue());
        }
        EXPECT_EQ(got1, want1[k]) << (k ? "gto" : "lrr");
        EXPECT_EQ(got5, want5[k]) << (k ? "gto" : "lrr");
    }
}

// max_insn_issue_per_warp 2 with dual_issue_diff_exec_units (frontend §6): the decode pair
// (2k, 2k+1) may issue in one cycle only if the two go to different unit types.
// FFMA+MUFU pairs at cycle 1; FFMA+FFMA does not (cycles 2 and 3); EXIT (SP on TITANX) at 4.
TEST(Issue, DualIssueOnlyWithDifferentUnitTypes)
{
    for (int sub_core = 1; sub_core >= 0; sub_core--) {
        smtlm_sm_cfg c = ktu::titanx();
        c.shape.sub_core = sub_core; // without sub-core ID_OC_SP has 4 free slots: only the rule blocks
        ktu::Rig rig(c);
        ASSERT_EQ(rig.init_rc, SMTLM_OK);
        rig.load({prog({ffma(20, {3, 4, 5}), mufu(21, {3}), ffma(22, {3, 4, 5}), ffma(23, {3, 4, 5})})});
        rig.run();
        ASSERT_EQ(rig.last_rc, SMTLM_OK);
        const uint64_t want[] = {1, 1, 2, 3, 4};
        for (unsigned i = 0; i < 5; i++)
            EXPECT_EQ(rig.at(0, i).issue(), want[i]) << "sub_core " << sub_core << " inst " << i;
        EXPECT_EQ(rig.at(0, 4).unit, SMTLM_UNIT_SP); // no INT units: EXIT goes to SP
        EXPECT_EQ(rig.sm()->iss.dual_issue[0], 1u);
        EXPECT_EQ(smtlm_issue_single(&rig.sm()->iss, 0), 3u);
        EXPECT_EQ(rig.sm()->iss.distro[0][SMTLM_DISTRO_W0 + 32], 5u); // one W32 per instruction
    }
    // Without the different-units rule (and without sub-core slots) FFMA+FFMA pairs too.
    smtlm_sm_cfg c = ktu::titanx();
    c.shape.sub_core = 0;
    c.issue.dual_issue_diff_units = 0;
    ktu::Rig rig(c);
    rig.load({prog({ffma(20, {3, 4, 5}), mufu(21, {3}), ffma(22, {3, 4, 5}), ffma(23, {3, 4, 5})})});
    rig.run();
    const uint64_t want[] = {1, 1, 2, 2, 3};
    for (unsigned i = 0; i < 5; i++)
        EXPECT_EQ(rig.at(0, i).issue(), want[i]) << "inst " << i;
    EXPECT_EQ(rig.sm()->iss.dual_issue[0], 2u);
    EXPECT_EQ(smtlm_issue_single(&rig.sm()->iss, 0), 1u);
}

// Without DP units a DP instruction goes to the SFU (frontend §7.2; the sfu unit accepts DP_OP)
// and counts as an SFU instruction for the dual-issue rule: DADD+MUFU cannot pair, FFMA+DADD can.
TEST(Issue, DpRunsOnSfuWithoutDpUnits)
{
    ktu::Rig rig(ktu::titanx());
    const smtlm_inst_desc dadd = ktu::alu(SMTLM_OP_DP, 20, {4, 6}, 8, 4);
    rig.load({prog({dadd, mufu(21, {3}), ffma(22, {3, 4, 5}), ktu::alu(SMTLM_OP_DP, 24, {6, 8}, 8, 4)})});
    rig.run();
    ASSERT_EQ(rig.last_rc, SMTLM_OK);
    EXPECT_EQ(rig.at(0, 0).unit, SMTLM_UNIT_SFU);
    EXPECT_EQ(rig.at(0, 3).unit, SMTLM_UNIT_SFU);
    EXPECT_EQ(rig.at(0, 0).issue(), 1u);
    EXPECT_EQ(rig.at(0, 1).issue(), 2u); // same unit type: not paired
    EXPECT_EQ(rig.at(0, 2).issue(), 3u); // refill at 2: FFMA + DADD pair at 3
    EXPECT_EQ(rig.at(0, 3).issue(), 3u);
    const smtlm_sm_cfg c = ktu::titanx();
    EXPECT_EQ(rig.sm()->ex.fu[ktu::fu_index(c, SMTLM_FU_SFU, 0)].issued, 3u);
}

// Under max issue 1 (QV100) a pair never issues together.
TEST(Issue, SingleIssueUnderMaxOne)
{
    ktu::Rig rig(ktu::qv100());
    rig.load({prog({ffma(20, {3, 4, 5}), mufu(21, {3})})});
    rig.run();
    EXPECT_EQ(rig.at(0, 0).issue(), 1u);
    EXPECT_EQ(rig.at(0, 1).issue(), 2u);
    EXPECT_EQ(rig.sm()->iss.dual_issue[0], 0u);
}

// No INT->SP fallback (semantics §3.2): IADD3s wait for ID_OC_INT even when ID_OC_SP is free.
TEST(Issue, NoIntToSpFallback)
{
    ktu::Rig rig(ktu::qv100());
    std::vector<smtlm_inst_desc> p;
    for (int i = 0; i < 16; i++)
        p.push_back(iadd(20 + i % 8, {3, 4, 5}));
    rig.load({prog(p)});
    unsigned sp_used = 0, busy_with_sp_free = 0;
    uint64_t last_busy = 0;
    rig.after_cycle = [&](ktu::Rig &r) {
        const smtlm_sm *sm = r.sm();
        sp_used += sm->rs[SMTLM_ID_OC_SP].count;
        const uint64_t b = sm->iss.warp_stall[0][SMTLM_WS_UNIT_BUSY];
        if (b != last_busy && sm->rs[SMTLM_ID_OC_SP].count == 0)
            busy_with_sp_free++;
        last_busy = b;
    };
    rig.run();
    ASSERT_EQ(rig.events.size(), 17u);
    for (const ktu::Ev &e : rig.events)
        EXPECT_EQ(e.unit, SMTLM_UNIT_INT);
    EXPECT_EQ(sp_used, 0u);
    EXPECT_GT(busy_with_sp_free, 0u); // blocked on ID_OC_INT while ID_OC_SP sat empty
    // Same shape as the SP-only indep trace: the 6th IADD3 stalls at cycle 7 (ID_OC_INT full).
    EXPECT_EQ(rig.at(0, 5).issue(), 6u);
    EXPECT_EQ(rig.at(0, 6).issue(), 8u);
}

// Accel-Sim measured iadd_64 (64 independent IADD3, 1 warp) = 5162 (frontend §3.9).
TEST(Issue, Iadd64MatchesAccelSim)
{
    std::vector<smtlm_inst_desc> p;
    for (int i = 0; i < 64; i++)
        p.push_back(iadd(20 + i % 8, {3, 4, 5}));
    micro::Runner r(micro::Runner::qv100());
    ASSERT_EQ(r.run(prog(p), 1), SMTLM_RUN_DONE);
    EXPECT_EQ(r.cycles(), 5162u);
}

// BAR (frontend §5.1): every BAR is a full-CTA sync; when the last warp arrives at cycle c all are
// released inside that issue: warps of schedulers that run later in cycle c's rotation issue at
// c, the others (and the last arriver itself) at c + 1.
// Warp 3 arrives last: FFMA 1, dependent FFMA 8, BAR 9 (decoded after the refill at 8).
// Cycle 9 runs the schedulers in the order 1, 2, 3, 0 (Issue_Prio = 9 mod 4).
TEST(Issue, BarrierReleasesAllWarpsWhenTheLastArrives)
{
    const std::vector<smtlm_inst_desc> early = prog({ktu::bar(), ffma(20, {3, 4, 5})});
    const std::vector<smtlm_inst_desc> late =
        prog({ffma(2, {2, 4, 5}), ffma(2, {2, 4, 5}), ktu::bar(), ffma(20, {3, 4, 5})});
    ktu::Rig rig(ktu::qv100());
    rig.load({early, early, early, late});
    rig.run();
    ASSERT_EQ(rig.last_rc, SMTLM_OK);
    EXPECT_EQ(rig.at(3, 2).issue(), 9u); // last arrival
    EXPECT_EQ(rig.at(0, 0).issue(), 2u);
    EXPECT_EQ(rig.at(1, 0).issue(), 1u);
    EXPECT_EQ(rig.at(2, 0).issue(), 1u);
    EXPECT_EQ(rig.at(0, 1).issue(), 9u);  // scheduler 0 runs after scheduler 3 in cycle 9
    EXPECT_EQ(rig.at(1, 1).issue(), 10u); // schedulers 1 and 2 ran before the release
    EXPECT_EQ(rig.at(2, 1).issue(), 10u);
    EXPECT_EQ(rig.at(3, 3).issue(), 10u); // the last arriver itself: next cycle
    const smtlm_issue &iss = rig.sm()->iss;
    EXPECT_EQ(iss.warp_stall[1][SMTLM_WS_BARRIER], 8u); // cycles 2..9
    EXPECT_EQ(iss.warp_stall[2][SMTLM_WS_BARRIER], 8u);
    EXPECT_EQ(iss.warp_stall[0][SMTLM_WS_BARRIER], 6u); // cycles 3..8
    EXPECT_EQ(iss.warp_stall[3][SMTLM_WS_BARRIER], 0u);
}

// MEMBAR (frontend §5.2): the warp waits while any of its registers is reserved; the first look
// that finds none lets it go. LDG R10 (memory latency 10) is written back, releasing R10, in
// cycle 21 (see test_ldst.cpp); the MEMBAR issued at 2 holds the independent FFMA until then.
TEST(Issue, MembarWaitsForPendingRegisterWrites)
{
    ktu::Rig rig(ktu::qv100(), 10, 64);
    smtlm_inst_desc membar = ktu::alu(SMTLM_OP_MEMBAR, -1, {}, 1, 1);
    rig.load({prog({ktu::global(SMTLM_OP_LOAD, 10, {2}, 0x1000, 4), membar, ffma(11, {3, 4, 5})})});
    uint64_t membar_stalls_at_21 = 0;
    rig.after_cycle = [&](ktu::Rig &r) {
        if (r.now() == 21)
            membar_stalls_at_21 = r.sm()->iss.warp_stall[0][SMTLM_WS_MEMBAR];
    };
    rig.run();
    ASSERT_EQ(rig.last_rc, SMTLM_OK);
    EXPECT_EQ(rig.at(0, 0).wb(), 21u);
    EXPECT_EQ(rig.at(0, 1).issue(), 2u);
    EXPECT_EQ(rig.at(0, 1).unit, SMTLM_UNIT_MEM);
    EXPECT_EQ(rig.at(0, 2).issue(), 21u);
    EXPECT_EQ(membar_stalls_at_21, 18u); // cycles 3..20
    // Without the MEMBAR the FFMA goes at 3 (after the refill at 2).
    ktu::Rig free_rig(ktu::qv100(), 10, 64);
    free_rig.load({prog({ktu::global(SMTLM_OP_LOAD, 10, {2}, 0x1000, 4), ffma(12, {3, 4, 5}), ffma(11, {3, 4, 5})})});
    free_rig.run();
    EXPECT_EQ(free_rig.at(0, 2).issue(), 3u);
}

// shader_cycle_distro (frontend §8): every scheduler adds one entry per cycle it does not issue,
// and one W<lanes> entry per issued instruction, so the sum over categories is
// n_sched x cycles + dual issues. An instruction with an all-zero mask counts as "Stall" (W0).
TEST(Issue, CycleDistroSumsAndZeroMaskCountsAsStall)
{
    ktu::Rig rig(ktu::titanx());
    rig.load({prog({ffma(20, {3, 4, 5}), mufu(21, {3}), ktu::with_mask(ffma(22, {3, 4, 5}), 0u),
                    ktu::with_mask(ffma(23, {3, 4, 5}), 0x7u)})});
    const uint64_t cycles = rig.run();
    const smtlm_sm *sm = rig.sm();
    uint64_t sum = 0;
    for (unsigned k = 0; k < SMTLM_DISTRO_SIZE; k++)
        sum += smtlm_sm_distro(sm, k);
    EXPECT_EQ(sum, 4 * cycles + sm->iss.dual_issue[0]);
    EXPECT_EQ(sm->iss.dual_issue[0], 1u);
    EXPECT_EQ(smtlm_sm_distro(sm, SMTLM_DISTRO_W0 + 3), 1u);
    EXPECT_EQ(smtlm_sm_distro(sm, SMTLM_DISTRO_W0 + 32), 3u); // FFMA, MUFU, EXIT
    // Stall: the zero-mask FFMA (W0) and nothing else in this run.
    EXPECT_EQ(smtlm_sm_distro(sm, SMTLM_DISTRO_STALL), 1u);
    // Schedulers 1-3 supervise no live warp: W0_Idle every cycle.
    EXPECT_EQ(sm->iss.distro[1][SMTLM_DISTRO_IDLE], cycles);
    EXPECT_EQ(sm->stats.thread_insts, 32u + 32 + 0 + 3 + 32);
}

// A warp that exits without reaching the barrier releases the others when it was the last one
// missing (barrier_set_t::warp_exit at the EXIT's issue).
TEST(Issue, ExitOfTheLastMissingWarpReleasesTheBarrier)
{
    ktu::Rig rig(ktu::qv100());
    rig.load({prog({ktu::bar(), ffma(20, {3, 4, 5})}), prog({ffma(2, {2, 4, 5}), ffma(2, {2, 4, 5})})});
    rig.run();
    ASSERT_EQ(rig.last_rc, SMTLM_OK);
    EXPECT_EQ(rig.at(0, 0).issue(), 1u);
    EXPECT_EQ(rig.at(1, 2).issue(), 9u); // warp 1's EXIT
    EXPECT_EQ(rig.at(0, 1).issue(), 9u); // scheduler 0 runs after scheduler 1 in cycle 9
}

// trace_done of a warp whose last decode filled both slots is asked of has_more only when its
// EXIT issues (the stream cannot move in between). Warp 1's pair (FFMA, EXIT) leaves its stream
// empty without next() saying so: the EXIT must still see trace_done and leave the barrier, or
// warp 0 waits at its BAR forever. Warp 0's EXIT comes alone (next() ran dry): no question.
TEST(Issue, ExitAsksHasMoreOnceAndLeavesTheBarrier)
{
    struct Counting {
        smtlm_inst_source inner;
        unsigned asked[2] = {0, 0};
        static int next(void *ctx, unsigned sm, unsigned w, smtlm_inst_desc *d)
        {
            const Counting *c = static_cast<Counting *>(ctx);
            return c->inner.next(c->inner.ctx, sm, w, d);
        }
        static int more(void *ctx, unsigned sm, unsigned w)
        {
            Counting *c = static_cast<Counting *>(ctx);
            c->asked[w]++;
            return c->inner.has_more(c->inner.ctx, sm, w);
        }
    };
    ktu::Rig rig(ktu::qv100());
    ASSERT_GE(rig.load({prog({ktu::bar(), ffma(20, {3, 4, 5})}), prog({ffma(2, {2, 4, 5})})}), 0);
    Counting counting;
    counting.inner = rig.sm()->src;
    const smtlm_inst_source src = {&counting, &Counting::next, &Counting::more, nullptr, 0, 0, nullptr, nullptr, nullptr};
    smtlm_sm_set_source(rig.sm(), &src);
    rig.run(1000);
    ASSERT_EQ(rig.last_rc, SMTLM_OK);
    EXPECT_FALSE(rig.active());
    EXPECT_EQ(counting.asked[1], 1u);
    EXPECT_EQ(counting.asked[0], 0u);
    EXPECT_GT(rig.at(0, 1).issue(), rig.at(1, 1).issue()); // warp 0 passes BAR after warp 1's EXIT
}

// EXIT retires only the lanes of its mask; the warp goes on until all of its lanes are done.
TEST(Issue, ExitWithPartialMasks)
{
    ktu::Rig rig(ktu::qv100());
    rig.load({prog({ffma(20, {3, 4, 5}), ktu::exit_mask(0x0000FFFFu),
                    ktu::with_mask(ffma(21, {3, 4, 5}), 0xFFFF0000u), ktu::exit_mask(0xFFFF0000u)})});
    uint32_t lanes_after_first_exit = 0;
    rig.after_cycle = [&](ktu::Rig &r) {
        if (r.now() == 2)
            lanes_after_first_exit = r.sm()->iss.warp[0].active_lanes;
    };
    rig.run();
    ASSERT_EQ(rig.last_rc, SMTLM_OK);
    EXPECT_EQ(lanes_after_first_exit, 0xFFFF0000u);
    EXPECT_EQ(rig.at(0, 1).issue(), 2u);
    EXPECT_EQ(rig.at(0, 2).issue(), 3u); // still scheduled after the partial EXIT
    EXPECT_EQ(rig.events.size(), 4u);
    EXPECT_EQ(rig.sm()->stats.warp_insts, 4u);
    EXPECT_EQ(rig.sm()->stats.thread_insts, 32u + 16 + 16 + 16);
    EXPECT_EQ(rig.sm()->iss.warp[0].done_exit, 1);
}

// A CTA of 48 threads: warp 1 has 16 threads; its lanes 16-31 count as completed from the start,
// so an EXIT of the 16 real lanes finishes it.
TEST(Issue, PartialWarpOfACtaExitsWithItsOwnLanes)
{
    ktu::Rig rig(ktu::qv100());
    rig.load({prog({ffma(20, {3, 4, 5})}),
              prog({ktu::with_mask(ffma(20, {3, 4, 5}), 0xFFFFu), ktu::exit_mask(0xFFFFu)})},
             48);
    EXPECT_EQ(rig.sm()->iss.warp[1].n_threads, 16u);
    EXPECT_EQ(rig.sm()->iss.not_completed, 48u);
    rig.run();
    ASSERT_EQ(rig.last_rc, SMTLM_OK);
    EXPECT_FALSE(rig.active());
    EXPECT_EQ(rig.sm()->iss.not_completed, 0u);
    EXPECT_EQ(rig.sm()->stats.thread_insts, 64u + 32);
}

// A stream that ends without retiring every lane is treated as an implicit EXIT (no hang).
TEST(Issue, StreamEndingWithLiveLanesEndsTheWarp)
{
    ktu::Rig rig(ktu::qv100());
    rig.load({prog({ffma(20, {3, 4, 5}), ktu::exit_mask(0xFFu)})});
    rig.run(1000);
    ASSERT_EQ(rig.last_rc, SMTLM_OK);
    EXPECT_FALSE(rig.active());
    EXPECT_EQ(rig.sm()->stats.thread_insts, 32u + 8);
}

} // namespace
