// Muon scoreboard, called directly: the four WAR options, counter saturation, the WAW gate,
// the past-WAW walk and its fence, untracked registers, the holder queries, bad input.
#include <gtest/gtest.h>

#include <string>

#include "muon_test_util.hpp"

namespace {

using muon::inst;
using muon::Sb;
using muon::sb_cfg;

// Admits and expects success; returns the operand masks.
smtlm_muon_sb_operands admit(Sb &s, smtlm_iref tag, const smtlm_inst &in)
{
    smtlm_muon_sb_operands ops{0xFF, 0xFF};
    EXPECT_EQ(smtlm_muon_sb_admit(s.get(), tag, &in, &ops), SMTLM_MUON_ADMIT);
    return ops;
}

int chk(Sb &s, const smtlm_inst &in) { return smtlm_muon_sb_check(s.get(), &in); }
int try_admit(Sb &s, unsigned tag, const smtlm_inst &in)
{
    smtlm_muon_sb_operands ops;
    return smtlm_muon_sb_admit(s.get(), (smtlm_iref)tag, &in, &ops);
}

TEST(MuonSb, InitValidatesTheConfiguration)
{
    std::unique_ptr<smtlm_muon_sb> sb(new smtlm_muon_sb);
    smtlm_muon_sb_cfg c = sb_cfg(SMTLM_MUON_WAR_OPTION1);
    c.n_warps = 0;
    EXPECT_EQ(smtlm_muon_sb_init(sb.get(), &c), SMTLM_EINVAL);
    c.n_warps = SMTLM_MAX_WARPS + 1;
    EXPECT_EQ(smtlm_muon_sb_init(sb.get(), &c), SMTLM_ERANGE);
    c = sb_cfg(SMTLM_MUON_WAR_OPTION1, 0, 0);
    EXPECT_EQ(smtlm_muon_sb_init(sb.get(), &c), SMTLM_ERANGE);
    EXPECT_NE(std::string(sb->cfg_error).find("-smtlm_muon_pending_read_bits"), std::string::npos);
    c = sb_cfg(SMTLM_MUON_WAR_OPTION1, 0, SMTLM_MUON_MAX_READ_BITS + 1);
    EXPECT_EQ(smtlm_muon_sb_init(sb.get(), &c), SMTLM_ERANGE);
    c = sb_cfg((smtlm_muon_war)4);
    EXPECT_EQ(smtlm_muon_sb_init(sb.get(), &c), SMTLM_EINVAL);
    // Must-forward: uncounted busy readers are only safe when they receive the forwarded value.
    c = sb_cfg(SMTLM_MUON_WAR_OPTION2_FWD, 0);
    EXPECT_EQ(smtlm_muon_sb_init(sb.get(), &c), SMTLM_EINVAL);
    EXPECT_NE(std::string(sb->cfg_error).find("-smtlm_muon_forwarding 1"), std::string::npos);
    c = sb_cfg(SMTLM_MUON_WAR_OPTION1);
    c.zero_reg = SMTLM_MAX_REG + 1;
    EXPECT_EQ(smtlm_muon_sb_init(sb.get(), &c), SMTLM_ERANGE);
    c = sb_cfg(SMTLM_MUON_WAR_OPTION2_FWD, 1, SMTLM_MUON_MAX_READ_BITS);
    EXPECT_EQ(smtlm_muon_sb_init(sb.get(), &c), SMTLM_OK);
    EXPECT_EQ(sb->max_reads, 127u);
}

TEST(MuonSb, Option1GatesAdmissionOfAWriterWhileItsRegisterHasPendingReads)
{
    Sb s(sb_cfg(SMTLM_MUON_WAR_OPTION1));
    ASSERT_EQ(s.rc, SMTLM_OK);
    const smtlm_inst rd = inst(0, {7}, {5});
    const smtlm_inst wr = inst(0, {5}, {1});
    const smtlm_muon_sb_operands ops = admit(s, 1, rd);
    EXPECT_EQ(ops.busy, 0);
    EXPECT_EQ(ops.none, 0);
    EXPECT_EQ(smtlm_muon_sb_pending_reads(s.get(), 0, 5), 1u);
    EXPECT_EQ(smtlm_muon_sb_check(s.get(), &wr), SMTLM_MUON_STALL_WAR);
    smtlm_muon_sb_operands o2;
    EXPECT_EQ(smtlm_muon_sb_admit(s.get(), 2, &wr, &o2), SMTLM_MUON_STALL_WAR);
    EXPECT_FALSE(smtlm_muon_sb_pending_write(s.get(), 0, 5)); // refused admission changed nothing
    EXPECT_EQ(chk(s, inst(1, {5}, {})), SMTLM_MUON_ADMIT) << "other warps are independent";
    smtlm_muon_sb_read_done(s.get(), 1, 1u);
    EXPECT_EQ(smtlm_muon_sb_pending_reads(s.get(), 0, 5), 0u);
    admit(s, 2, wr);
    EXPECT_TRUE(smtlm_muon_sb_wb_allowed(s.get(), 2)); // never gated at writeback under option1
    EXPECT_EQ(smtlm_muon_sb_writeback(s.get(), 2), 1);
    EXPECT_FALSE(smtlm_muon_sb_pending_write(s.get(), 0, 5));
}

TEST(MuonSb, Option1CountsBusyReadersOnlyWithoutForwarding)
{
    for (int fwd = 0; fwd <= 1; fwd++) {
        Sb s(sb_cfg(SMTLM_MUON_WAR_OPTION1, fwd));
        admit(s, 1, inst(0, {5}, {}));
        const smtlm_muon_sb_operands ops = admit(s, 2, inst(0, {8}, {5, 6}));
        EXPECT_EQ(ops.busy, 1u) << "r5 has a pending write";
        // Without forwarding the busy reader reads the register file after the writeback, so the
        // next writer of r5 must wait for it; with forwarding its value never comes from there.
        EXPECT_EQ(smtlm_muon_sb_pending_reads(s.get(), 0, 5), fwd ? 0u : 1u);
        EXPECT_EQ(smtlm_muon_sb_pending_reads(s.get(), 0, 6), 1u);
        EXPECT_EQ(smtlm_muon_sb_writeback(s.get(), 1), 1);
        EXPECT_EQ(chk(s, inst(0, {5}, {})),
                  fwd ? SMTLM_MUON_ADMIT : SMTLM_MUON_STALL_WAR);
    }
}

TEST(MuonSb, Option2AdmitsTheWriterAndStallsItsWritebackUntilReadsDrain)
{
    Sb s(sb_cfg(SMTLM_MUON_WAR_OPTION2));
    admit(s, 1, inst(0, {7}, {5}));        // i0: reads r5
    admit(s, 2, inst(0, {5}, {1}));        // i1: writes r5, admitted despite the pending read
    EXPECT_FALSE(smtlm_muon_sb_wb_allowed(s.get(), 2));
    EXPECT_EQ(smtlm_muon_sb_writeback(s.get(), 2), 0);
    EXPECT_TRUE(smtlm_muon_sb_pending_write(s.get(), 0, 5)) << "a refused writeback changes nothing";
    smtlm_muon_sb_read_done(s.get(), 1, 1u);
    EXPECT_TRUE(smtlm_muon_sb_wb_allowed(s.get(), 2));
    smtlm_muon_sb_read_done(s.get(), 2, 1u); // its own read of r1
    EXPECT_TRUE(smtlm_muon_sb_live(s.get(), 2));
    EXPECT_EQ(smtlm_muon_sb_writeback(s.get(), 2), 1);
    EXPECT_FALSE(smtlm_muon_sb_live(s.get(), 2)) << "nothing held after its reads and its writeback";
}

TEST(MuonSb, Option2CountsBusyReadersSoTheDeadlockSequenceCannotWriteBack)
{
    Sb s(sb_cfg(SMTLM_MUON_WAR_OPTION2, 1)); // forwarding does not help: the reader still counts
    admit(s, 1, inst(0, {7}, {5}, 0x00));   // i0: lw r7 <- r5
    admit(s, 2, inst(0, {5}, {1}, 0x10));   // i1: add r5 <- r1
    const smtlm_muon_sb_operands ops = admit(s, 3, inst(0, {8}, {5}, 0x20)); // i2: sub r8 <- r5
    EXPECT_EQ(ops.busy, 1u);
    EXPECT_EQ(smtlm_muon_sb_pending_reads(s.get(), 0, 5), 2u);
    smtlm_muon_sb_read_done(s.get(), 1, 1u); // i0 reads r5
    smtlm_muon_sb_read_done(s.get(), 2, 1u); // i1 reads r1
    // i2 can only read r5 after i1's writeback, which waits for i2's count: a cycle.
    EXPECT_FALSE(smtlm_muon_sb_wb_allowed(s.get(), 2));
    smtlm_muon_sb_holder h[4];
    ASSERT_EQ(smtlm_muon_sb_wb_blockers(s.get(), 2, h, 4), 1u);
    EXPECT_EQ(h[0].tag, 3);
    EXPECT_EQ(h[0].warp, 0);
    EXPECT_EQ(h[0].pc, 0x20u);
    EXPECT_EQ(h[0].slot, 0);
    EXPECT_EQ(h[0].reg, 5);
}

TEST(MuonSb, Option2FwdDoesNotCountForwardedReaders)
{
    Sb s(sb_cfg(SMTLM_MUON_WAR_OPTION2_FWD, 1));
    admit(s, 1, inst(0, {7}, {5}));
    admit(s, 2, inst(0, {5}, {1}));
    const smtlm_muon_sb_operands ops = admit(s, 3, inst(0, {8}, {5}));
    EXPECT_EQ(ops.busy, 1u);
    EXPECT_EQ(smtlm_muon_sb_pending_reads(s.get(), 0, 5), 1u) << "only the older register-file reader";
    EXPECT_FALSE(smtlm_muon_sb_wb_allowed(s.get(), 2)) << "the older reader still protects r5";
    smtlm_muon_sb_read_done(s.get(), 1, 1u);
    EXPECT_EQ(smtlm_muon_sb_writeback(s.get(), 2), 1);
    EXPECT_EQ(s->ticket[3].reads, 0) << "the forwarded reader holds no count";
    smtlm_muon_sb_read_done(s.get(), 3, 1u); // a read-done of an uncounted slot is a no-op
    EXPECT_EQ(smtlm_muon_sb_pending_reads(s.get(), 0, 5), 0u);
}

TEST(MuonSb, Option2EpochSeparatesReadersBeforeAndAfterTheWriter)
{
    Sb s(sb_cfg(SMTLM_MUON_WAR_OPTION2_EPOCH));
    admit(s, 1, inst(0, {7}, {5}));      // epoch 0
    admit(s, 2, inst(0, {5}, {1}));      // waits on epoch 0 of r5, new readers go to epoch 1
    admit(s, 3, inst(0, {8}, {5}));      // busy, counted in epoch 1
    EXPECT_EQ(s->reads[0][0][5], 1);
    EXPECT_EQ(s->reads[1][0][5], 1);
    EXPECT_FALSE(smtlm_muon_sb_wb_allowed(s.get(), 2));
    smtlm_muon_sb_holder h[4];
    ASSERT_EQ(smtlm_muon_sb_wb_blockers(s.get(), 2, h, 4), 1u);
    EXPECT_EQ(h[0].tag, 1) << "only the older reader blocks";
    EXPECT_EQ(h[0].epoch, 0);
    EXPECT_EQ(smtlm_muon_sb_holders(s.get(), 0, 5, h, 4), 2u);
    smtlm_muon_sb_read_done(s.get(), 1, 1u);
    EXPECT_EQ(smtlm_muon_sb_writeback(s.get(), 2), 1) << "the younger reader's count is in the other epoch";
    // The next writer waits on epoch 1 (the reader of the first writer's value) and flips back.
    admit(s, 4, inst(0, {5}, {}));
    EXPECT_FALSE(smtlm_muon_sb_wb_allowed(s.get(), 4));
    admit(s, 5, inst(0, {9}, {5}));      // busy on writer 4, counted in epoch 0
    EXPECT_EQ(s->reads[0][0][5], 1);
    smtlm_muon_sb_read_done(s.get(), 3, 1u);
    EXPECT_TRUE(smtlm_muon_sb_wb_allowed(s.get(), 4));
    EXPECT_EQ(smtlm_muon_sb_writeback(s.get(), 4), 1);
}

TEST(MuonSb, Option2EpochReaderOfItsOwnDestinationCountsInTheOlderEpoch)
{
    Sb s(sb_cfg(SMTLM_MUON_WAR_OPTION2_EPOCH));
    admit(s, 1, inst(0, {5}, {5}));      // add r5 <- r5: reads the old value
    EXPECT_EQ(s->reads[0][0][5], 1);
    EXPECT_FALSE(smtlm_muon_sb_wb_allowed(s.get(), 1));
    smtlm_muon_sb_read_done(s.get(), 1, 1u);
    EXPECT_EQ(smtlm_muon_sb_writeback(s.get(), 1), 1);
}

TEST(MuonSb, SaturationStallsAdmissionUntilTheCounterDrops)
{
    Sb s(sb_cfg(SMTLM_MUON_WAR_OPTION1, 0, 2)); // counters hold 0..3
    admit(s, 1, inst(0, {}, {5}));
    admit(s, 2, inst(0, {}, {5, 5})); // a register named twice counts twice
    EXPECT_EQ(smtlm_muon_sb_pending_reads(s.get(), 0, 5), 3u);
    const smtlm_inst more = inst(0, {}, {6, 5});
    EXPECT_EQ(smtlm_muon_sb_check(s.get(), &more), SMTLM_MUON_STALL_SATURATED);
    smtlm_muon_sb_operands ops;
    EXPECT_EQ(smtlm_muon_sb_admit(s.get(), 3, &more, &ops), SMTLM_MUON_STALL_SATURATED);
    EXPECT_EQ(smtlm_muon_sb_pending_reads(s.get(), 0, 6), 0u) << "nothing counted on a refusal";
    smtlm_muon_sb_read_done(s.get(), 2, 2u); // one of the two slots
    EXPECT_EQ(smtlm_muon_sb_pending_reads(s.get(), 0, 5), 2u);
    EXPECT_EQ(smtlm_muon_sb_check(s.get(), &more), SMTLM_MUON_ADMIT);
    EXPECT_EQ(chk(s, inst(0, {}, {5, 5})), SMTLM_MUON_STALL_SATURATED) << "2 + 2 > 3";
    smtlm_muon_sb_read_done(s.get(), 2, 3u); // slot 0 now; slot 1 already done is ignored
    EXPECT_EQ(smtlm_muon_sb_pending_reads(s.get(), 0, 5), 1u);
}

TEST(MuonSb, OneBitCountersAndPerEpochSaturation)
{
    Sb s(sb_cfg(SMTLM_MUON_WAR_OPTION2_EPOCH, 0, 1)); // 0..1 per epoch
    admit(s, 1, inst(0, {}, {5}));
    EXPECT_EQ(chk(s, inst(0, {}, {5})), SMTLM_MUON_STALL_SATURATED);
    admit(s, 2, inst(0, {5}, {}));                   // the writer moves new readers to epoch 1
    admit(s, 3, inst(0, {}, {5}));                   // epoch 1 has room
    EXPECT_EQ(chk(s, inst(0, {}, {5})), SMTLM_MUON_STALL_SATURATED);
}

TEST(MuonSb, WawGateAdmitsOneWriterPerRegister)
{
    for (int war = SMTLM_MUON_WAR_OPTION1; war <= SMTLM_MUON_WAR_OPTION2_EPOCH; war++) {
        Sb s(sb_cfg((smtlm_muon_war)war, 1));
        ASSERT_EQ(s.rc, SMTLM_OK);
        admit(s, 1, inst(0, {5, 5}, {})); // a destination named twice holds one write
        EXPECT_EQ(s->ticket[1].writes, 1u);
        const smtlm_inst second = inst(0, {9, 5}, {});
        EXPECT_EQ(smtlm_muon_sb_check(s.get(), &second), SMTLM_MUON_STALL_WAW) << smtlm_muon_war_name((smtlm_muon_war)war);
        EXPECT_EQ(smtlm_muon_sb_writeback(s.get(), 1), 1);
        EXPECT_EQ(smtlm_muon_sb_check(s.get(), &second), SMTLM_MUON_ADMIT);
    }
}

TEST(MuonSb, RegisterZeroAndTheZeroRegisterAreNeverTracked)
{
    smtlm_muon_sb_cfg c = sb_cfg(SMTLM_MUON_WAR_OPTION1);
    c.zero_reg = 256; // trace mode's RZ
    Sb s(c);
    const smtlm_muon_sb_operands ops = admit(s, 1, inst(0, {256}, {256, 0, 4, -1}));
    EXPECT_EQ(ops.none, 0xBu) << "slots 0, 1, 3 read nothing";
    EXPECT_FALSE(smtlm_muon_sb_pending_write(s.get(), 0, 256));
    EXPECT_EQ(smtlm_muon_sb_pending_reads(s.get(), 0, 256), 0u);
    EXPECT_EQ(chk(s, inst(0, {256}, {})), SMTLM_MUON_ADMIT);
    EXPECT_EQ(chk(s, inst(0, {4}, {})), SMTLM_MUON_STALL_WAR);
    // An instruction holding nothing is not live and its writeback is a no-op.
    admit(s, 2, inst(0, {0}, {256}));
    EXPECT_FALSE(smtlm_muon_sb_live(s.get(), 2));
    EXPECT_EQ(smtlm_muon_sb_writeback(s.get(), 2), 1);
}

TEST(MuonSb, MalformedInputIsRefused)
{
    Sb s(sb_cfg(SMTLM_MUON_WAR_OPTION1));
    EXPECT_EQ(chk(s, inst(0, {SMTLM_MAX_REG + 1}, {})), SMTLM_EINPUT);
    EXPECT_EQ(chk(s, inst(0, {}, {SMTLM_MAX_REG + 1})), SMTLM_EINPUT);
    EXPECT_EQ(chk(s, inst(8, {}, {})), SMTLM_EINPUT) << "warp beyond n_warps";
    smtlm_inst many = inst(0, {}, {});
    many.n_src = SMTLM_MAX_SRC + 1;
    EXPECT_EQ(smtlm_muon_sb_check(s.get(), &many), SMTLM_EINPUT);
    admit(s, 7, inst(0, {5}, {}));
    EXPECT_EQ(try_admit(s, 7, inst(0, {6}, {})), SMTLM_EINPUT) << "tag in flight";
    EXPECT_EQ(try_admit(s, SMTLM_MUON_MAX_TAGS, inst(0, {6}, {})), SMTLM_EINPUT);
    EXPECT_FALSE(smtlm_muon_sb_pending_write(s.get(), 0, 6));
}

TEST(MuonSb, SelectConsidersOnlyTheHeadWithoutPastWaw)
{
    Sb s(sb_cfg(SMTLM_MUON_WAR_OPTION1));
    admit(s, 1, inst(0, {5}, {}));
    const smtlm_inst h = inst(0, {5}, {2}), y = inst(0, {6}, {3});
    const smtlm_inst *win[] = {&h, &y};
    unsigned pick = 99;
    int hv = -9;
    EXPECT_EQ(smtlm_muon_sb_select(s.get(), win, 2, &pick, &hv), 0);
    EXPECT_EQ(hv, SMTLM_MUON_STALL_WAW);
    const smtlm_inst *win2[] = {&y, &h};
    EXPECT_EQ(smtlm_muon_sb_select(s.get(), win2, 2, &pick, &hv), 1);
    EXPECT_EQ(pick, 0u);
    EXPECT_EQ(hv, SMTLM_MUON_ADMIT);
}

TEST(MuonSb, PastWawLooksBeyondABlockedHeadBehindAFence)
{
    Sb s(sb_cfg(SMTLM_MUON_WAR_OPTION1, 0, 2, 1));
    admit(s, 1, inst(0, {5}, {}));                       // older writer of r5 in flight
    const smtlm_inst h = inst(0, {5}, {2});              // head: WAW on r5
    const smtlm_inst raw = inst(0, {9}, {5});            // reads the skipped head's destination
    const smtlm_inst waw = inst(0, {5}, {});             // writes it
    const smtlm_inst war = inst(0, {2}, {});             // writes the skipped head's source
    const smtlm_inst ok = inst(0, {6}, {2, 3});          // independent (reading r2 is fine)
    unsigned pick = 99;
    int hv = -9;
    for (const smtlm_inst *blocked : {&raw, &waw, &war}) {
        const smtlm_inst *win[] = {&h, blocked};
        EXPECT_EQ(smtlm_muon_sb_select(s.get(), win, 2, &pick, &hv), 0);
        EXPECT_EQ(hv, SMTLM_MUON_STALL_WAW);
    }
    const smtlm_inst *win[] = {&h, &raw, &ok};
    EXPECT_EQ(smtlm_muon_sb_select(s.get(), win, 3, &pick, &hv), 1);
    EXPECT_EQ(pick, 2u) << "fenced instructions are skipped too";
    // The skipped fenced instruction fences its own registers: raw wrote r9.
    const smtlm_inst after_raw = inst(0, {10}, {9});
    const smtlm_inst *win3[] = {&h, &raw, &after_raw, &ok};
    EXPECT_EQ(smtlm_muon_sb_select(s.get(), win3, 4, &pick, &hv), 1);
    EXPECT_EQ(pick, 3u);
    // Any other stall stops the walk: a WAR-gated instruction is head-of-line.
    admit(s, 2, inst(0, {}, {7}));
    const smtlm_inst war_gated = inst(0, {7}, {});
    const smtlm_inst *win4[] = {&h, &war_gated, &ok};
    EXPECT_EQ(smtlm_muon_sb_select(s.get(), win4, 3, &pick, &hv), 0);
    const smtlm_inst other_warp = inst(1, {6}, {});
    const smtlm_inst *win5[] = {&h, &other_warp};
    EXPECT_EQ(smtlm_muon_sb_select(s.get(), win5, 2, &pick, &hv), SMTLM_EINPUT);
}

TEST(MuonSb, HoldersListEveryCountedReaderAndResetClearsAll)
{
    Sb s(sb_cfg(SMTLM_MUON_WAR_OPTION2, 0, 3));
    admit(s, 10, inst(0, {}, {5, 6, 5}, 0x40));
    admit(s, 11, inst(0, {}, {5}, 0x50));
    admit(s, 12, inst(1, {}, {5}, 0x60)); // another warp's r5
    smtlm_muon_sb_holder h[2];
    EXPECT_EQ(smtlm_muon_sb_holders(s.get(), 0, 5, h, 2), 3u) << "the count exceeds the room given";
    EXPECT_EQ(h[0].tag, 10);
    EXPECT_EQ(h[0].slot, 0);
    EXPECT_EQ(h[1].tag, 10);
    EXPECT_EQ(h[1].slot, 2);
    smtlm_muon_sb_reset(s.get());
    EXPECT_EQ(smtlm_muon_sb_holders(s.get(), 0, 5, h, 2), 0u);
    EXPECT_EQ(smtlm_muon_sb_pending_reads(s.get(), 0, 5), 0u);
    EXPECT_FALSE(smtlm_muon_sb_live(s.get(), 10));
}

} // namespace
