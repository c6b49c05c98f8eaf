// Named timing tests on the QV100-like SM (16 banks, 4 schedulers, sub-core, 8 generic CUs, port
// throughput 2, SP latency 2 / II 2). Cycles are the SM's own (cycle 0 = first cycle after the
// CTA launch, the origin of the Accel-Sim timelines). Derivations follow GPGPU-Sim's cycle order
// (docs/ARCHITECTURE.md, "One SM cycle"): an ALU instruction issued at t gets its CU in step 1 of t+1, its operands
// in step 2 of t+1 (distinct banks), OC_EX in step 1 of t+2, the FU at t+3 (execute() precedes
// read_operands()), stage L-II at t+3+II, EX_WB at t+4+L and is written back (scoreboard
// released, before issue()) at t+5+L.
#include <gtest/gtest.h>

#include "kernel_test_util.hpp"

namespace {

using ktu::ffma;
using ktu::iadd;
using ktu::prog;

std::vector<uint64_t> issues(const ktu::Rig &r, unsigned warp, unsigned n)
{
    std::vector<uint64_t> v;
    for (unsigned i = 0; i < n; i++)
        v.push_back(r.at(warp, i).issue());
    return v;
}

// Dependent FFMA -> FFMA: issue t, CU t+1 step 1, reads t+1 step 2, OC_EX t+2 step 1, FU t+3,
// stage L-II = 0 at t+5, EX_WB t+6, writeback and release t+7 => distance L+5 = 7.
// With -gpgpu_reg_file_port_throughput 1 every OC phase takes a whole cycle: CU t+1, reads t+2,
// OC_EX t+3, FU t+4, release t+8 => distance L+6 = 8.
TEST(Timing, DependentFfmaDistanceIsLPlus5AndLPlus6WithOnePort)
{
    ktu::Rig two(ktu::qv100());
    two.load({micro::program("dep_nc", 4)});
    two.run();
    EXPECT_EQ(issues(two, 0, 4), (std::vector<uint64_t>{1, 8, 15, 22}));
    const ktu::Ev a = two.at(0, 0);
    EXPECT_EQ(a.cu(), 2u);
    EXPECT_EQ(a.operands(), 2u);
    EXPECT_EQ(a.oc_ex(), 3u);
    EXPECT_EQ(a.fu(), 4u);
    EXPECT_EQ(a.wb(), 8u);

    smtlm_sm_cfg c = ktu::qv100();
    c.reg_file_port_throughput = 1;
    ktu::Rig one(c);
    one.load({micro::program("dep_nc", 4)});
    one.run();
    EXPECT_EQ(issues(one, 0, 4), (std::vector<uint64_t>{1, 9, 17, 25}));
    const ktu::Ev b = one.at(0, 0);
    EXPECT_EQ(b.cu(), 2u);
    EXPECT_EQ(b.operands(), 3u);
    EXPECT_EQ(b.oc_ex(), 4u);
    EXPECT_EQ(b.fu(), 5u);
    EXPECT_EQ(b.wb(), 9u);
}

// An initiation interval of 0 (Accel-Sim 2.0's "1,0" for SM90_H100's tensor unit): the dispatch
// register lets the instruction go at its first visit (t+4, as II 1), into stage L = 2, one past
// the stage L - 1 that II 1 enters: stage 0 at t+6, EX_WB t+7, writeback and release t+8, one
// cycle after II 1 (and II 2, whose two cycles in the dispatch register end in stage 0 too): the
// dependent distance is L+6 = 8 instead of L+5 = 7. The unit's depth (2 on the QV100 SP) holds it,
// as it holds II 1's start stage L - 1.
TEST(Timing, InitiationIntervalZeroDelaysTheResultOneCycle)
{
    for (unsigned ii : {1u, 0u}) {
        std::vector<smtlm_inst_desc> p = micro::program("dep_nc", 4);
        for (smtlm_inst_desc &d : p)
            if (d.op == SMTLM_OP_SP)
                d.ii = (uint16_t)ii;
        ktu::Rig r(ktu::qv100());
        r.load({p});
        r.run();
        const uint64_t d = ii ? 7 : 8;
        EXPECT_EQ(issues(r, 0, 4), (std::vector<uint64_t>{1, 1 + d, 1 + 2 * d, 1 + 3 * d})) << "II " << ii;
        EXPECT_EQ(r.at(0, 0).fu(), 4u) << "II " << ii;
        EXPECT_EQ(r.at(0, 0).wb(), ii ? 8u : 9u) << "II " << ii;
    }
}

// Bank conflicts on a dependent chain (warp 0, bank = register mod 4; trace Rn = register n+1):
//  dep_nc R2,R4,R5 (banks 3,1,2): all reads granted in step 2 of t+1: distance 7, operands t+1.
//  dep R2,R4,R6 (3,1,3, 2-way): R6 waits for step 1 of t+2; the CU dispatches in step 2 of t+2,
//      still before execute() of t+3: 0 cycles lost, distance 7, operands t+2, OC_EX t+2.
//  dep3 R2,R6,R10 (3,3,3): grants in step 2 of t+1, steps 1 and 2 of t+2; dispatch in step 1 of
//      t+3, FU t+4: 1 cycle lost, distance 8.
//  dep4 R2,R6,R10,R14 (3,3,3,3): the 4th grant in step 1 of t+3, dispatch in step 2 of t+3: FU
//      still t+4 (each further grant costs half a cycle), distance 8.
// Counters per instruction: steps that leave a read waiting (dep: step 2 of t+1; dep3: also step
// 1 of t+2; dep4: also step 2 of t+2) and the cycles containing them (dep 1, dep3 2, dep4 2).
TEST(Timing, LoneTwoWayConflictIsFreeThreeWayCostsOneCycle)
{
    struct Case {
        const char *kind;
        std::vector<int> srcs;
        std::vector<uint64_t> issue;
        uint64_t operands, oc_ex, fu;
        uint64_t conflict_cycles, wait3, reads3;
    };
    const Case cases[] = {
        {"dep_nc", {2, 4, 5}, {1, 8, 15, 22}, 2, 3, 4, 0, 0, 4},
        {"dep", {2, 4, 6}, {1, 8, 15, 22}, 3, 3, 4, 4, 4, 8},
        {"dep3", {2, 6, 10}, {1, 9, 17, 25}, 3, 4, 5, 8, 8, 12},
        {"dep4", {2, 6, 10, 14}, {1, 9, 17, 25}, 4, 4, 5, 8, 12, 16},
    };
    for (const Case &c : cases) {
        ktu::Rig rig(ktu::qv100());
        rig.load({prog(std::vector<smtlm_inst_desc>(4, ffma(2, c.srcs)))});
        rig.run();
        EXPECT_EQ(issues(rig, 0, 4), c.issue) << c.kind;
        const ktu::Ev e = rig.at(0, 0);
        EXPECT_EQ(e.cu(), 2u) << c.kind;
        EXPECT_EQ(e.operands(), c.operands) << c.kind;
        EXPECT_EQ(e.oc_ex(), c.oc_ex) << c.kind;
        EXPECT_EQ(e.fu(), c.fu) << c.kind;
        const smtlm_sm *sm = rig.sm();
        EXPECT_EQ(sm->stats.conflict_cycles, c.conflict_cycles) << c.kind;
        EXPECT_EQ(sm->rf.wait_steps[3], c.wait3) << c.kind;
        EXPECT_EQ(sm->rf.steps_with_wait, c.wait3) << c.kind;
        EXPECT_EQ(sm->rf.reads[3], c.reads3) << c.kind;
        EXPECT_EQ(sm->rf.writes[3], 4u) << c.kind; // R2 (register 3) written 4 times
    }
    // The micro::program kinds of the microbenchmarks are the same chains.
    ktu::Rig dep3(ktu::qv100());
    dep3.load({micro::program("dep3", 4)});
    dep3.run();
    EXPECT_EQ(issues(dep3, 0, 4), (std::vector<uint64_t>{1, 9, 17, 25}));
}

// A write blocks its bank in the first read step only. Warps 0 and 4 share sub-core 0 and its bank
// rotation (bank = register mod 4 for both); warps 1-3 only EXIT. Fetch order makes warp 0 issue
// at 2 and warp 4 at 3.
//  warp 0: P  IADD3 R2 <- R3 (L=1, II=1): issue 2, CU 3, OC_EX 4, FU 5, writeback 8.
//          X  FFMA R20 <- R2,R4,R6 (banks 3,1,3): RAW on R2, issues 8; CU 9 step 1; R2 and R4
//             granted in step 2 of 9; R6 would be granted in step 1 of 10.
//  warp 4: W  FFMA R10 <- R3,R4,R5: issue 3, CU 4, OC_EX 5, FU 6, writeback 10 into register 11,
//             bank 3 (control run: R11 -> register 12, bank 0).
// In cycle 10 W's write claims bank 3 for step 1: R6 is granted in step 2 of cycle 10 (not in
// cycle 11), so X's operands are still done at 10 but its dispatch slips to step 1 of 11 and
// its FU issue from 11 to 12.
TEST(Timing, WriteBlocksItsBankInTheFirstStepOnly)
{
    for (int conflict = 1; conflict >= 0; conflict--) {
        const std::vector<smtlm_inst_desc> w0 =
            prog({ktu::alu(SMTLM_OP_INTP, 2, {3}, 1, 1), ffma(20, {2, 4, 6})});
        const std::vector<smtlm_inst_desc> w4 = prog({ffma(conflict ? 10 : 11, {3, 4, 5})});
        const std::vector<smtlm_inst_desc> idle = prog({});
        ktu::Rig rig(ktu::qv100());
        rig.load({w0, idle, idle, idle, w4});
        rig.run();
        ASSERT_EQ(rig.last_rc, SMTLM_OK);
        const ktu::Ev p = rig.at(0, 0), x = rig.at(0, 1), w = rig.at(4, 0);
        EXPECT_EQ(p.issue(), 2u);
        EXPECT_EQ(p.wb(), 8u);
        EXPECT_EQ(w.issue(), 3u);
        EXPECT_EQ(w.wb(), 10u);
        EXPECT_EQ(x.issue(), 8u);
        EXPECT_EQ(x.cu(), 9u);
        EXPECT_EQ(x.operands(), 10u) << "granted in step 2 of the write's cycle";
        EXPECT_EQ(x.oc_ex(), conflict ? 11u : 10u);
        EXPECT_EQ(x.fu(), conflict ? 12u : 11u);
        EXPECT_EQ(x.wb(), conflict ? 16u : 15u);
        // Bank 3 left a read waiting in step 2 of 9 and (blocked) in step 1 of 10.
        EXPECT_EQ(rig.sm()->rf.wait_steps[3], conflict ? 2u : 1u);
        EXPECT_EQ(rig.sm()->stats.conflict_cycles, conflict ? 2u : 1u);
    }
}

// -smtlm_oc_allocator wavefront: at most one grant per collector unit per step, so even three
// distinct-bank operands need three steps (step 2 of t+1, steps 1 and 2 of t+2): dispatch in
// step 1 of t+3, FU t+4, distance 8 instead of 7 for the dep_nc chain.
TEST(Timing, WavefrontAllocatorGrantsOneOperandPerCuPerStep)
{
    smtlm_sm_cfg c = ktu::qv100();
    c.rf.policy = SMTLM_ALLOC_WAVEFRONT;
    ktu::Rig rig(c);
    rig.load({micro::program("dep_nc", 4)});
    rig.run();
    EXPECT_EQ(issues(rig, 0, 4), (std::vector<uint64_t>{1, 9, 17, 25}));
    EXPECT_EQ(rig.at(0, 0).operands(), 3u);
    EXPECT_EQ(rig.at(0, 0).oc_ex(), 4u);
    EXPECT_EQ(rig.at(0, 0).fu(), 5u);
    // Reads wait although their bank is idle (their CU was already served): steps 2 of t+1 and 1
    // of t+2 leave reads queued, in two different cycles, for each of the 4 FFMAs.
    EXPECT_EQ(rig.sm()->rf.steps_with_wait, 8u);
    EXPECT_EQ(rig.sm()->stats.conflict_cycles, 8u);
}

// One unit accepts a new instruction only every II cycles (its dispatch register), so
// independent back-to-back instructions reach the FU II cycles apart: FFMA (II 2) at 4, 6, 8;
// MUFU (L 20, II 8) at 4, 12, 20, 28, each written back L+2 after its FU issue (timelines
// indep_8_w1, sfu_4_w1).
TEST(Timing, InitiationIntervalSpacesFuIssues)
{
    ktu::Rig sp(ktu::qv100());
    sp.load({micro::program("indep", 8)});
    sp.run();
    EXPECT_EQ(sp.at(0, 0).fu(), 4u);
    EXPECT_EQ(sp.at(0, 1).fu(), 6u);
    EXPECT_EQ(sp.at(0, 2).fu(), 8u);
    EXPECT_EQ(sp.at(0, 1).issue(), 2u); // issued back to back, spaced only at the unit
    EXPECT_EQ(sp.at(0, 1).wb(), 10u);

    ktu::Rig sfu(ktu::qv100());
    sfu.load({micro::program("sfu", 4)});
    sfu.run();
    for (unsigned i = 0; i < 4; i++) {
        EXPECT_EQ(sfu.at(0, i).issue(), 1u + i);
        EXPECT_EQ(sfu.at(0, i).fu(), 4u + 8 * i);
        EXPECT_EQ(sfu.at(0, i).wb(), 4u + 8 * i + 22);
    }
    const smtlm_sm_cfg c = ktu::qv100();
    EXPECT_EQ(smtlm_exec_unit_busy_cycles(&sfu.sm()->ex, ktu::fu_index(c, SMTLM_FU_SFU, 0)), 20u + 3 * 8);
    EXPECT_EQ(sfu.sm()->ex.fu[ktu::fu_index(c, SMTLM_FU_SFU, 0)].issued, 4u);
}

// Result-bus exhaustion: EX_WB width 1 = one result bus. Warps 0 and 1 (sub-cores 0 and 1) each
// issue an FFMA at 1 and an EXIT at 2; all four reach OC_EX at 3. In execute() of cycle 4 the
// units are tried in m_fu order: SP0 takes bit 2 (completion slot 6); SP1 finds it taken and
// the FFMA of warp 1 waits in OC_EX; INT0's EXIT (L=1) takes slot 5; INT1's EXIT finds slot 5
// taken. Cycle 5: SP1 takes slot 7 (FU issue 5); INT1 needs slot 6 (SP0's). Cycle 6: slot 7
// (SP1's). Cycle 7: slot 8 is free: FU issue 7. Four refusals in all.
TEST(Timing, ResultBusExhaustionStallsInOcEx)
{
    const std::vector<smtlm_inst_desc> p = prog({ffma(20, {3, 4, 5})});
    smtlm_sm_cfg c = ktu::qv100();
    c.width[SMTLM_EX_WB] = 1;
    ktu::Rig rig(c);
    ASSERT_EQ(rig.init_rc, SMTLM_OK);
    rig.load_all(p, 2);
    rig.run();
    ASSERT_EQ(rig.last_rc, SMTLM_OK);
    for (unsigned w = 0; w < 2; w++) {
        EXPECT_EQ(rig.at(w, 0).issue(), 1u);
        EXPECT_EQ(rig.at(w, 0).oc_ex(), 3u);
        EXPECT_EQ(rig.at(w, 1).oc_ex(), 3u);
    }
    EXPECT_EQ(rig.at(0, 0).fu(), 4u);
    EXPECT_EQ(rig.at(1, 0).fu(), 5u); // waited one cycle in OC_EX for a bus
    EXPECT_EQ(rig.at(0, 1).fu(), 4u);
    EXPECT_EQ(rig.at(1, 1).fu(), 7u);
    EXPECT_EQ(rig.at(0, 0).wb(), 8u);
    EXPECT_EQ(rig.at(1, 0).wb(), 9u);
    EXPECT_EQ(rig.at(0, 1).wb(), 7u);
    EXPECT_EQ(rig.at(1, 1).wb(), 10u);
    EXPECT_EQ(rig.sm()->ex.rb.stalls, 4u);
    EXPECT_EQ(rig.sm()->ex.exwb_overflow, 0u);

    ktu::Rig wide(ktu::qv100()); // 8 buses: nobody waits
    wide.load_all(p, 2);
    wide.run();
    for (unsigned w = 0; w < 2; w++)
        for (unsigned i = 0; i < 2; i++)
            EXPECT_EQ(wide.at(w, i).fu(), 4u);
    EXPECT_EQ(wide.sm()->ex.rb.stalls, 0u);
}

// Counters on small cases.
// FFMA (dep_nc operands) + EXIT, one warp: FFMA CU 2 -> OC_EX 3; EXIT CU 3 and OC_EX 3 (no
// operands: collected at allocation in step 1, dispatched in step 2). Busy CUs at the end of
// cycles 0..8 (the warp exits in 8, after the FFMA's writeback): 0,0,1,0,0,0,0,0,0.
TEST(Counters, CollectorOccupancyAndCollectionLatency)
{
    ktu::Rig rig(ktu::qv100());
    rig.load({micro::program("dep_nc", 1)});
    EXPECT_EQ(rig.run(), 9u);
    const smtlm_opcoll &oc = rig.sm()->oc;
    EXPECT_EQ(oc.occupancy_sum, 1u);
    EXPECT_EQ(oc.occupancy_hist[0], 8u);
    EXPECT_EQ(oc.occupancy_hist[1], 1u);
    EXPECT_EQ(oc.collect_lat_hist[0], 2u);
    EXPECT_EQ(smtlm_opcoll_allocations(&oc), 2u);
    EXPECT_EQ(smtlm_opcoll_dispatches(&oc), 2u);

    // dep (2-way conflict): the FFMA is collected one cycle after its allocation.
    ktu::Rig dep(ktu::qv100());
    dep.load({micro::program("dep", 1)});
    dep.run();
    EXPECT_EQ(dep.sm()->oc.collect_lat_hist[0], 1u); // EXIT
    EXPECT_EQ(dep.sm()->oc.collect_lat_hist[1], 1u); // FFMA
}

// sfu_4_w1 (timeline): CU intervals [cu, oc_ex) = A [2,3), B [3,4), C [4,12), D [5,20), EXIT
// allocated and dispatched in 12. Busy at the end of cycle: 2,3,4 -> 1; 5..11 -> 2; 12..19 -> 1;
// 20..50 -> 0 (last writeback 50).
TEST(Counters, SfuOccupancyHistogram)
{
    ktu::Rig rig(ktu::qv100());
    rig.load({micro::program("sfu", 4)});
    EXPECT_EQ(rig.run(), 51u);
    const smtlm_opcoll &oc = rig.sm()->oc;
    EXPECT_EQ(oc.occupancy_sum, 3u + 7 * 2 + 8);
    EXPECT_EQ(oc.occupancy_hist[2], 7u);
    EXPECT_EQ(oc.occupancy_hist[1], 11u);
    EXPECT_EQ(oc.occupancy_hist[0], 33u);
    EXPECT_EQ(rig.at(0, 4).cu(), 12u);
}

// dep_nc chain of 4 + EXIT: the FFMAs issue at 1, 8, 15, 22 (each waits on R2 in the 6 cycles
// before), EXIT at 23 (refill at 22). Cycle 0: the ibuffer is still empty.
TEST(Counters, PerWarpStallReasonsAndFuBusyCycles)
{
    ktu::Rig rig(ktu::qv100());
    rig.load({micro::program("dep_nc", 4)});
    rig.run();
    const smtlm_sm *sm = rig.sm();
    EXPECT_EQ(sm->iss.warp_stall[0][SMTLM_WS_ISSUED], 5u);
    EXPECT_EQ(sm->iss.warp_stall[0][SMTLM_WS_IBUFFER_EMPTY], 1u);
    EXPECT_EQ(sm->iss.warp_stall[0][SMTLM_WS_SCOREBOARD], 3u * 6); // 2..7, 9..14, 16..21
    EXPECT_EQ(sm->iss.warp_stall[0][SMTLM_WS_UNIT_BUSY], 0u);
    const smtlm_sm_cfg c = ktu::qv100();
    // Each FFMA keeps SP unit 0 busy L = 2 cycles (dispatch register, stage 0); EXIT INT unit 0 1.
    EXPECT_EQ(smtlm_exec_unit_busy_cycles(&sm->ex, ktu::fu_index(c, SMTLM_FU_SP, 0)), 8u);
    EXPECT_EQ(smtlm_exec_unit_busy_cycles(&sm->ex, ktu::fu_index(c, SMTLM_FU_INT, 0)), 1u);
    EXPECT_EQ(smtlm_exec_unit_busy_cycles(&sm->ex, ktu::fu_index(c, SMTLM_FU_SP, 1)), 0u);
    EXPECT_EQ(sm->stats.unit_insts[SMTLM_UNIT_SP], 4u);
    EXPECT_EQ(sm->stats.unit_insts[SMTLM_UNIT_INT], 1u);
    EXPECT_EQ(sm->rf.reads[3] + sm->rf.reads[1] + sm->rf.reads[2], 12u);
}

} // namespace
