// The Writeback module driven alone through its sockets: a test initiator hands instructions
// into EX_WB (StagePut), and test targets stand for the register file (answering each
// RfTryWrite) and the issue stage (recording the warp events). The sockets are its whole
// interface; the expected sequences are GPGPU-Sim's writeback, instruction by instruction: a
// register write per destination, then one WarpWrittenBack event that releases the written
// destinations in the scoreboard (not a buffered one: the register file releases it when the
// write lands), counts the instruction completed and retires it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "smtlm/tlm/writeback.h"

namespace {

struct Bench : sc_core::sc_module {
    // the test targets' handlers (declared before their sockets)
    void on_rf(smtlm::SmTransaction &t)
    {
        log.push_back("write w" + std::to_string(t.warp) + " s" + std::to_string(t.sched) + " R" + std::to_string(t.reg));
        t.result = answer;
    }
    void on_event(smtlm::SmTransaction &t)
    {
        switch (t.cmd) {
        case smtlm::SmCommand::WarpRelease: log.push_back("release w" + std::to_string(t.warp) + " R" + std::to_string(t.reg)); break;
        case smtlm::SmCommand::WarpCompleted: log.push_back("completed pc" + std::to_string(t.in->pc)); break;
        case smtlm::SmCommand::WarpRetired: log.push_back("retired w" + std::to_string(t.warp)); break;
        case smtlm::SmCommand::WarpWrittenBack: {
            std::string e = "written back pc" + std::to_string(t.in->pc) + " w" + std::to_string(t.warp) + " release";
            for (unsigned i = 0; i < t.in->n_dst; i++)
                if ((unsigned long)t.result >> i & 1)
                    e += " R" + std::to_string(t.in->dst[i]);
            log.push_back(e);
            break;
        }
        default: log.push_back("other"); break;
        }
    }
    smtlm::SmInitiatorSocket exec;
    smtlm::SmTargetSocket<&Bench::on_rf> rf;
    smtlm::SmTargetSocket<&Bench::on_event> issue;
    smtlm::Writeback wb;
    smtlm_inst_pool pool;
    smtlm_regset row[SMTLM_NUM_REGSETS];
    std::vector<std::string> log;
    smtlm_rf_write_result answer = SMTLM_RF_WRITTEN;
    explicit Bench(int oldest_first)
        : sc_core::sc_module("bench"), exec("exec"), rf("rf", this), issue("issue", this), wb("wb")
    {
        exec.bind(wb.ex_wb);
        wb.rf.bind(rf);
        wb.events.bind(issue);
        smtlm_pool_init(&pool);
        for (smtlm_regset &r : row)
            smtlm_regset_init(&r, 2);
        wb.init(oldest_first);
        wb.bind_ports(row, &pool);
    }
    // An instruction of `warp` (scheduler warp % 4) writing `dsts`, issued as number `uid`.
    smtlm_iref inst(unsigned warp, uint32_t pc, std::vector<int16_t> dsts, uint64_t uid)
    {
        smtlm_inst_desc d{};
        d.pc = pc;
        d.mask = ~0u;
        d.op = SMTLM_OP_SP;
        d.n_dst = (uint8_t)dsts.size();
        for (size_t i = 0; i < dsts.size(); i++)
            d.dst[i] = dsts[i];
        d.latency = d.ii = 2;
        const smtlm_iref r = smtlm_pool_alloc(&pool, &d, (uint16_t)warp);
        smtlm_inst *in = smtlm_pool_get(&pool, r);
        in->uid = uid;
        in->sched = (uint8_t)(warp % 4);
        return r;
    }
    int put(smtlm_iref r)
    {
        smtlm::SmTransaction t{smtlm::SmCommand::StagePut};
        t.set = SMTLM_EX_WB;
        t.inst = r;
        t.uid = smtlm_pool_get(&pool, r)->uid;
        return exec.call(t);
    }
};

TEST(WritebackAlone, WritesReleasesCompletesAndRetiresEachInstruction)
{
    Bench b(0);
    const smtlm_iref a = b.inst(5, 0x10, {10, 11}, 2), c = b.inst(2, 0x20, {7}, 1);
    ASSERT_EQ(b.put(a), SMTLM_OK);
    ASSERT_EQ(b.put(c), SMTLM_OK);
    EXPECT_EQ(b.put(b.inst(3, 0x30, {4}, 3)), SMTLM_EFULL); // EX_WB is 2 wide: back-pressure
    EXPECT_FALSE(b.wb.idle());
    b.wb.cycle(42);
    const std::vector<std::string> want = {"write w5 s1 R10", "write w5 s1 R11", "written back pc16 w5 release R10 R11",
                                           "write w2 s2 R7", "written back pc32 w2 release R7"};
    EXPECT_EQ(b.log, want);
    EXPECT_TRUE(b.wb.idle());
    EXPECT_EQ(b.row[SMTLM_EX_WB].count, 0u);
}

// -smtlm_fix_wb_bank_conflict's order: the oldest instruction (lowest issue number) first;
// a buffered write is not released by writeback (the register file releases it later); a
// dropped write (GPGPU-Sim loses it) still releases.
TEST(WritebackAlone, OldestFirstAndBufferedWritesAreNotReleased)
{
    Bench b(1);
    ASSERT_EQ(b.put(b.inst(5, 0x10, {10}, 9)), SMTLM_OK);
    ASSERT_EQ(b.put(b.inst(2, 0x20, {7}, 4)), SMTLM_OK);
    b.answer = SMTLM_RF_BUFFERED;
    b.wb.cycle(1);
    EXPECT_EQ(b.log, (std::vector<std::string>{"write w2 s2 R7", "written back pc32 w2 release", "write w5 s1 R10",
                                               "written back pc16 w5 release"}));
    b.log.clear();
    b.answer = SMTLM_RF_DROPPED;
    ASSERT_EQ(b.put(b.inst(1, 0x40, {3}, 11)), SMTLM_OK);
    b.wb.cycle(2);
    EXPECT_EQ(b.log, (std::vector<std::string>{"write w1 s1 R3", "written back pc64 w1 release R3"}));
}

} // namespace
