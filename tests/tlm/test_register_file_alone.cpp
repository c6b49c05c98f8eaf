// The RegisterFile module driven alone through its sockets by test initiators: the sockets are
// its whole interface. QV100 sub-core register file: 16 banks, 4 schedulers, 8 collector units.
#include <gtest/gtest.h>

#include <vector>

#include "smtlm/tlm/register_file.h"

namespace {

// A test bench: initiators bound to the RegisterFile's targets, and a target that records the
// releases it sends.
struct Bench : sc_core::sc_module {
    void on_release(smtlm::SmTransaction &t) { released.emplace_back(t.warp, t.reg); } // issue
    smtlm::SmInitiatorSocket oc, wb, ldst;
    smtlm::SmTargetSocket<&Bench::on_release> issue;
    smtlm::RegisterFile rf;
    std::vector<std::pair<unsigned, unsigned>> released;
    explicit Bench(int fix)
        : sc_core::sc_module("bench"), oc("oc"), wb("wb"), ldst("ldst"), issue("issue", this), rf("rf")
    {
        oc.bind(rf.read);
        wb.bind(rf.wb_write);
        ldst.bind(rf.ldst_write);
        rf.release.bind(issue);
        EXPECT_EQ(rf.init(smtlm_rf_cfg{16, SMTLM_ALLOC_FIFO, fix}, smtlm_sm_shape{4, 1}, 8), SMTLM_OK);
    }
    unsigned bank(unsigned reg, unsigned warp, unsigned sched)
    {
        smtlm::SmTransaction t{smtlm::SmCommand::RfBank};
        t.reg = reg;
        t.warp = warp;
        t.sched = sched;
        oc.call(t);
        return (unsigned)t.result;
    }
    int request(unsigned bank, uint8_t cu, uint8_t op, uint16_t reg)
    {
        smtlm::SmTransaction t{smtlm::SmCommand::RfRequest};
        t.bank = bank;
        t.req = smtlm_read_req{cu, op, reg};
        return oc.call(t);
    }
    // One RfRequestReads transaction with `list`; returns (status, instructions queued whole).
    std::pair<int, long> request_reads(const std::vector<smtlm::SmInstReads> &list)
    {
        smtlm::SmTransaction t{smtlm::SmCommand::RfRequestReads};
        t.reads = list.data();
        t.n_reads = (unsigned)list.size();
        oc.call(t);
        return {t.status, t.result};
    }
    std::vector<smtlm_read_grant> arbitrate()
    {
        smtlm_read_grant g[SMTLM_MAX_BANKS];
        smtlm::SmTransaction t{smtlm::SmCommand::RfArbitrate};
        t.grants = g;
        oc.call(t);
        return std::vector<smtlm_read_grant>(g, g + t.result);
    }
    long write(smtlm::SmInitiatorSocket &s, smtlm::SmCommand c, unsigned warp, unsigned sched, unsigned reg)
    {
        smtlm::SmTransaction t{c};
        t.warp = warp;
        t.sched = sched;
        t.reg = reg;
        s.call(t);
        return t.result;
    }
};

// Sub-core bank of register r for warp w on scheduler s: ((r + w) mod 4) + 4 s.
TEST(RegisterFileAlone, ReadsAreQueuedPerBankAndTheHeadIsGranted)
{
    Bench b(0);
    EXPECT_EQ(b.bank(7, 0, 0), 3u);
    EXPECT_EQ(b.bank(7, 1, 2), 8u);
    // two reads on bank 3 (CUs 0 and 1), one on bank 1: one step grants the heads of both banks
    EXPECT_EQ(b.request(3, 0, 0, 7), SMTLM_OK);
    EXPECT_EQ(b.request(3, 1, 0, 11), SMTLM_OK);
    EXPECT_EQ(b.request(1, 0, 1, 5), SMTLM_OK);
    std::vector<smtlm_read_grant> g = b.arbitrate();
    ASSERT_EQ(g.size(), 2u);
    EXPECT_EQ(g[0].bank, 1);
    EXPECT_EQ(g[1].bank, 3);
    EXPECT_EQ(g[1].cu, 0);
    g = b.arbitrate(); // next step: the second read of bank 3
    ASSERT_EQ(g.size(), 1u);
    EXPECT_EQ(g[0].cu, 1);
    EXPECT_TRUE(b.arbitrate().empty()); // empty file: no grant
    EXPECT_EQ(b.rf.state().wait_steps[3], 1u); // bank 3 left a read waiting in the first step
}

// RfRequestReads: the reads of several instructions in one transaction, queued in list order
// (each instruction's slots in operand order), as one request per operand would queue them.
TEST(RegisterFileAlone, AListOfInstructionReadsIsQueuedInOrder)
{
    Bench b(0);
    const int16_t a[] = {7, 5}, c[] = {6};
    // CU 2 (warp 0): R7 -> bank 3, R5 -> bank 1; CU 1 (warp 1): R6 -> (6 + 1) mod 4 = bank 3
    EXPECT_EQ(b.request_reads({{a, 0, 2, 0, 0x3}, {c, 1, 1, 0, 0x1}}), std::make_pair((int)SMTLM_OK, 2L));
    std::vector<smtlm_read_grant> g = b.arbitrate();
    ASSERT_EQ(g.size(), 2u);
    EXPECT_EQ(g[0].bank, 1);
    EXPECT_EQ(g[0].cu, 2);
    EXPECT_EQ(g[0].operand, 1);
    EXPECT_EQ(g[1].bank, 3);
    EXPECT_EQ(g[1].cu, 2); // queued before CU 1's read of the same bank
    EXPECT_EQ(g[1].operand, 0);
    g = b.arbitrate();
    ASSERT_EQ(g.size(), 1u);
    EXPECT_EQ(g[0].cu, 1);
}

// A refused instruction (scheduler 4 of 4 has no banks) stops the list: the ones before it are
// queued, the status says why and the result counts them.
TEST(RegisterFileAlone, AListStopsAtARefusedInstruction)
{
    Bench b(0);
    const int16_t r4[] = {4}, r5[] = {5};
    // CU 3 (warp 0, scheduler 1): R4 -> bank 0 + 4; CU 4: scheduler 4 does not exist; CU 5 not reached
    EXPECT_EQ(b.request_reads({{r4, 0, 3, 1, 0x1}, {r5, 0, 4, 4, 0x1}, {r5, 0, 5, 0, 0x1}}),
              std::make_pair((int)SMTLM_EINVAL, 1L));
    const std::vector<smtlm_read_grant> g = b.arbitrate();
    ASSERT_EQ(g.size(), 1u);
    EXPECT_EQ(g[0].bank, 4);
    EXPECT_EQ(g[0].cu, 3);
    EXPECT_TRUE(b.arbitrate().empty());
}

TEST(RegisterFileAlone, AWriteBlocksItsBankForTheStep)
{
    Bench b(0);
    EXPECT_EQ(b.write(b.wb, smtlm::SmCommand::RfTryWrite, 0, 0, 3), SMTLM_RF_WRITTEN);  // bank 3
    EXPECT_EQ(b.write(b.wb, smtlm::SmCommand::RfTryWrite, 0, 0, 7), SMTLM_RF_DROPPED);  // bank 3 again
    EXPECT_EQ(b.write(b.ldst, smtlm::SmCommand::RfCanWrite, 0, 0, 11), 0);             // LDST must wait
    EXPECT_EQ(b.write(b.ldst, smtlm::SmCommand::RfCanWrite, 0, 0, 4), 1);              // bank 0 is free
    EXPECT_EQ(b.request(3, 0, 0, 7), SMTLM_OK);
    EXPECT_TRUE(b.arbitrate().empty()); // write-allocated in this step
    smtlm_rf_end_step(&b.rf.kernel());
    EXPECT_EQ(b.arbitrate().size(), 1u);
    EXPECT_EQ(b.rf.state().dropped_writes, 1u);
}

// Fix mode: a colliding write is buffered; when it lands (next writeback phase) the register
// file releases the register through its `release` socket.
TEST(RegisterFileAlone, ABufferedWriteIsReleasedWhenItLands)
{
    Bench b(1);
    EXPECT_EQ(b.write(b.wb, smtlm::SmCommand::RfTryWrite, 2, 0, 3), SMTLM_RF_WRITTEN);
    EXPECT_EQ(b.write(b.wb, smtlm::SmCommand::RfTryWrite, 2, 0, 7), SMTLM_RF_BUFFERED);
    EXPECT_TRUE(b.released.empty());
    EXPECT_FALSE(b.rf.idle());
    smtlm_rf_end_step(&b.rf.kernel());
    smtlm_rf_drain_writes(&b.rf.kernel()); // the writeback phase, as the SM runs it
    ASSERT_EQ(b.released.size(), 1u);
    EXPECT_EQ(b.released[0], std::make_pair(2u, 7u));
    EXPECT_TRUE(b.rf.idle());
}

} // namespace
