// GPGPU-Sim quirks reproduced in faithful mode and the -smtlm_fix_<name> switches that remove
// them (docs/OPTIONS.md, smtlm options): sub-core
// head-of-line blocking, fixed op-type allocation order, never-stalling ALU writeback.
#include <gtest/gtest.h>

#include "kernel_test_util.hpp"

namespace {

using ktu::ffma;
using ktu::iadd;
using ktu::mufu;
using ktu::prog;

// indep_8_w4, warp 0 pc 0x40 (issued 6): in faithful mode its CU allocation is at 8, not 7
// (as Accel-Sim's timeline shows): in cycle 7 the oldest ID_OC_SP entry belonged to a
// sub-core whose two CUs were busy, and every port retries only that entry. With
// fix_subcore_hol each sub-core allocates its own oldest instruction: CU 0 (free in 7) is
// taken in 7.
TEST(Quirks, SubCoreHeadOfLineBlockingAndFix)
{
    for (int fix = 0; fix <= 1; fix++) {
        smtlm_sm_cfg c = ktu::qv100();
        c.oc.fix_subcore_hol = fix;
        ktu::Rig rig(c);
        rig.load_all(micro::program("indep", 8), 4);
        rig.run();
        ASSERT_EQ(rig.last_rc, SMTLM_OK);
        const ktu::Ev *e = rig.find(0, 0x40);
        ASSERT_NE(e, nullptr);
        EXPECT_EQ(e->issue(), 6u) << "fix " << fix;
        EXPECT_EQ(e->cu(), fix ? 7u : 8u) << "fix " << fix;
    }
}

// Op-type priority. One warp: 4 MUFUs (A..D), then E = IADD3 (issued 5), F = FFMA (issued 6).
// A, B pass through CU 0; C holds CU 0 from 4 and D CU 1 from 5 (both wait for OC_EX_SFU, which
// frees at 12 and 20). E waits in ID_OC_INT and F in ID_OC_SP for a CU of sub-core 0. In step 1
// of cycle 12, C is dispatched and CU 0 frees; the ports then scan SP before INT:
//  faithful: F (younger) gets CU 0 in 12; it is dispatched in step 1 of 13 and E takes CU 0 then.
//  fix_optype_priority: the older E gets CU 0 in 12, F in 13.
TEST(Quirks, OpTypePriorityAndFix)
{
    const std::vector<smtlm_inst_desc> p = prog({mufu(20, {3}), mufu(21, {3}), mufu(22, {3}), mufu(23, {3}),
                                                 iadd(24, {4, 5}), ffma(25, {4, 5, 6})});
    for (int fix = 0; fix <= 1; fix++) {
        smtlm_sm_cfg c = ktu::qv100();
        c.oc.fix_optype_priority = fix;
        ktu::Rig rig(c);
        rig.load({p});
        rig.run();
        ASSERT_EQ(rig.last_rc, SMTLM_OK);
        const ktu::Ev e = rig.at(0, 4), f = rig.at(0, 5);
        EXPECT_EQ(rig.at(0, 2).cu(), 4u);
        EXPECT_EQ(rig.at(0, 2).oc_ex(), 12u);
        EXPECT_EQ(rig.at(0, 3).cu(), 5u);
        EXPECT_EQ(e.issue(), 5u);
        EXPECT_EQ(f.issue(), 6u);
        EXPECT_LT(e.uid, f.uid);
        EXPECT_EQ(f.cu(), fix ? 13u : 12u) << "fix " << fix;
        EXPECT_EQ(e.cu(), fix ? 12u : 13u) << "fix " << fix;
    }
}

// Two results of one warp land on one bank in the same cycle:
//   P  IADD3 R7 <- R3   (L 3, II 1): issue 1, FU 4, writeback 9 (R7 = register 8, bank 0)
//   I0 IADD3 R10 <- R4  (L 3, II 1): issue 2, FU 5, writeback 10 into register 11, bank 3
//   I1 FFMA R14 <- R5,R6           : issue 3, FU 6, writeback 10 into register 15, bank 3
//   X  FFMA R20 <- R7,R2: RAW on P, issues 9, CU 10 (step 1), reads banks 0 and 3
//   Y  FFMA R24 <- R14  : RAW on I1
// Faithful (GPGPU-Sim ignores the failed write): I1's write is dropped with no delay; R14 is
// released at 10 (Y issues at 10); X's bank-3 read is granted in step 2 of 10.
// fix_wb_bank_conflict: I1's write waits in the bank's buffer, blocking bank 3's reads for the
// rest of cycle 10; it is written in cycle 11 (claiming step 1 of 11), R14 is released at 11 (Y
// issues at 11) and X's read is granted in step 2 of 11: X's FU issue moves from 12 to 13.
TEST(Quirks, WritebackBankConflictDroppedOrBuffered)
{
    const std::vector<smtlm_inst_desc> p =
        prog({ktu::alu(SMTLM_OP_INTP, 7, {3}, 3, 1), ktu::alu(SMTLM_OP_INTP, 10, {4}, 3, 1), ffma(14, {5, 6}),
              ffma(20, {7, 2}), ffma(24, {14})});
    for (int fix = 0; fix <= 1; fix++) {
        smtlm_sm_cfg c = ktu::qv100();
        c.rf.fix_wb_bank_conflict = fix;
        ktu::Rig rig(c);
        rig.load({p});
        rig.run();
        ASSERT_EQ(rig.last_rc, SMTLM_OK);
        const ktu::Ev pp = rig.at(0, 0), i0 = rig.at(0, 1), i1 = rig.at(0, 2), x = rig.at(0, 3), y = rig.at(0, 4);
        EXPECT_EQ(pp.wb(), 9u);
        EXPECT_EQ(i0.wb(), 10u);
        EXPECT_EQ(i1.wb(), 10u); // the instruction retires in 10 either way
        EXPECT_EQ(x.issue(), 9u);
        EXPECT_EQ(x.cu(), 10u);
        EXPECT_EQ(x.operands(), fix ? 11u : 10u) << "fix " << fix;
        EXPECT_EQ(x.fu(), fix ? 13u : 12u) << "fix " << fix;
        EXPECT_EQ(y.issue(), fix ? 11u : 10u) << "fix " << fix;
        const smtlm_sm *sm = rig.sm();
        EXPECT_EQ(sm->rf.dropped_writes, fix ? 0u : 1u);
        EXPECT_EQ(sm->rf.buffered_writes, fix ? 1u : 0u);
        EXPECT_EQ(sm->rf.writes[3], fix ? 2u : 1u); // a dropped write never reaches the bank
        EXPECT_EQ(sm->rf.blocked, 0u);
        EXPECT_FALSE(smtlm_rf_writes_pending(&sm->rf));
    }
}

// The writeback kernel directly: fix mode drains one buffered write per bank per cycle, and the
// bank refuses reads (both steps) while a write is buffered.
TEST(Quirks, WritebackBufferBlocksReadsUntilDrained)
{
    ktu::KernelCtx k(ktu::RfSetup{{16, SMTLM_ALLOC_FIFO, 1}, {4, 1}, 8});
    ktu::WarpEvents ev;
    const smtlm_release_port rfo = ev.rf_ops();
    smtlm_rf_bind(k.rf.get(), &rfo);
    std::unique_ptr<smtlm_wb> wb(new smtlm_wb);
    smtlm_wb_init(wb.get(), 1);
    const smtlm_write_port port = smtlm_rf_write_port(k.rf.get());
    const smtlm_warp_port warps = ev.ops();
    smtlm_wb_bind(wb.get(), &k.rs[SMTLM_EX_WB], k.pool.get(), &port, &warps);
    smtlm_scoreboard *sb = ev.sb.get();
    // One writeback phase as the SM runs it: buffered writes land, then EX_WB drains.
    auto writeback = [&] {
        if (smtlm_rf_writes_pending(k.rf.get()))
            smtlm_rf_drain_writes(k.rf.get());
        smtlm_wb_cycle(wb.get(), 0);
    };
    // Three results of warp 0 into bank 3 (registers 3, 7, 11) in one cycle.
    const int regs[] = {3, 7, 11};
    for (int i = 0; i < 3; i++) {
        smtlm_iref r = k.make(SMTLM_OP_SP, 0, 0, {}, {regs[i]});
        smtlm_sb_reserve(sb, 0, k.get(r), 0);
        k.put(SMTLM_EX_WB, (unsigned)i, r);
    }
    ASSERT_EQ(smtlm_rf_request(k.rf.get(), 3, smtlm_read_req{0, 0, 15}), SMTLM_OK);
    smtlm_read_grant g[SMTLM_MAX_BANKS];
    // cycle 1: one write, two buffered; the bank is write-allocated (step 1) and blocked (both).
    writeback();
    EXPECT_EQ(ev.retired, 3u);
    EXPECT_EQ(ev.completed, 3u);
    EXPECT_EQ(k.rf->buffered_writes, 2u);
    EXPECT_FALSE(smtlm_sb_test(sb, 0, 3));
    EXPECT_TRUE(smtlm_sb_test(sb, 0, 7));
    EXPECT_TRUE(smtlm_sb_test(sb, 0, 11));
    EXPECT_EQ(smtlm_rf_arbitrate(k.rf.get(), g), 0u);
    smtlm_rf_end_step(k.rf.get());
    EXPECT_EQ(smtlm_rf_arbitrate(k.rf.get(), g), 0u); // step 2: still blocked by the buffer
    smtlm_rf_end_step(k.rf.get());
    // cycle 2: register 7 drained (FIFO), 11 still waits.
    writeback();
    EXPECT_FALSE(smtlm_sb_test(sb, 0, 7));
    EXPECT_TRUE(smtlm_sb_test(sb, 0, 11));
    EXPECT_EQ(smtlm_rf_arbitrate(k.rf.get(), g), 0u);
    smtlm_rf_end_step(k.rf.get());
    EXPECT_EQ(smtlm_rf_arbitrate(k.rf.get(), g), 0u);
    smtlm_rf_end_step(k.rf.get());
    // cycle 3: the last one drained; the bank unblocks after the step-1 write.
    writeback();
    EXPECT_FALSE(smtlm_sb_test(sb, 0, 11));
    EXPECT_FALSE(smtlm_rf_writes_pending(k.rf.get()));
    EXPECT_EQ(smtlm_rf_arbitrate(k.rf.get(), g), 0u);
    smtlm_rf_end_step(k.rf.get());
    EXPECT_EQ(smtlm_rf_arbitrate(k.rf.get(), g), 1u);
    EXPECT_EQ(k.rf->writes[3], 3u);
    EXPECT_EQ(k.rf->dropped_writes, 0u);
}

// Faithful writeback never stalls: the same three results release all registers at once and two
// writes are dropped.
TEST(Quirks, FaithfulWritebackDropsSameBankWrites)
{
    ktu::KernelCtx k(ktu::RfSetup{{16, SMTLM_ALLOC_FIFO, 0}, {4, 1}, 8});
    ktu::WarpEvents ev;
    std::unique_ptr<smtlm_wb> wb(new smtlm_wb);
    smtlm_wb_init(wb.get(), 0);
    const smtlm_write_port port = smtlm_rf_write_port(k.rf.get());
    const smtlm_warp_port warps = ev.ops();
    smtlm_wb_bind(wb.get(), &k.rs[SMTLM_EX_WB], k.pool.get(), &port, &warps);
    const int regs[] = {3, 7, 11, 4};
    for (int i = 0; i < 4; i++) {
        smtlm_iref r = k.make(SMTLM_OP_SP, 0, 0, {}, {regs[i]});
        smtlm_sb_reserve(ev.sb.get(), 0, k.get(r), 0);
        k.put(SMTLM_EX_WB, (unsigned)i, r);
    }
    smtlm_wb_cycle(wb.get(), 0);
    EXPECT_EQ(ev.retired, 4u);
    EXPECT_EQ(k.rs[SMTLM_EX_WB].count, 0);
    for (int reg : regs)
        EXPECT_FALSE(smtlm_sb_test(ev.sb.get(), 0, (unsigned)reg));
    EXPECT_EQ(k.rf->dropped_writes, 2u);
    EXPECT_EQ(k.rf->writes[3], 1u);
    EXPECT_EQ(k.rf->writes[0], 1u); // register 4 -> bank 0
    EXPECT_EQ(k.rf->blocked, 0u);
    EXPECT_FALSE(smtlm_rf_writes_pending(k.rf.get()));
}

// RZ (R255 -> register 256) is read through a real bank; duplicate operands are read once
// (as Accel-Sim's GPGPU-Sim does): IMAD.MOV R1, RZ, RZ costs one read of bank 256 mod 4 = 0 in warp 0.
TEST(Quirks, RzIsReadThroughABankOnce)
{
    ktu::Rig rig(ktu::qv100());
    rig.load({prog({iadd(1, {255, 255})})});
    rig.run();
    EXPECT_EQ(rig.sm()->rf.reads[0], 1u);
    EXPECT_EQ(rig.sm()->rf.reads[1] + rig.sm()->rf.reads[2] + rig.sm()->rf.reads[3], 0u);
    EXPECT_EQ(rig.sm()->rf.writes[2], 1u); // R1 = register 2
}

} // namespace
