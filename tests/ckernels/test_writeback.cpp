// The writeback kernel's parts (writeback.h): the writes through the register file's own port
// (inline) and through any other write port give the same release mask and register-file
// state, and the drain empties EX_WB in slot order (faithful) or oldest first (fix mode).
#include <gtest/gtest.h>

#include <vector>

#include "kernel_test_util.hpp"

extern "C" {
#include "smtlm/writeback.h"
}

namespace {

// A write port that is not the C engine's own function: smtlm_wb_write calls it.
smtlm_rf_write_result wrapped_try_write(void *rf, unsigned warp, unsigned sched, unsigned reg)
{
    return smtlm_rf_try_write(static_cast<smtlm_rf *>(rf), warp, sched, reg);
}

// Fix mode, 4 banks per scheduler (16 banks, 4 schedulers, sub-core). Warp 1, scheduler 2:
// register r lands in bank (r + 1) % 4 + 8. Destinations 2, 6, 5: 2 and 6 share bank 11 (the
// second is buffered), 5 goes to bank 10.
struct WriteCase {
    ktu::KernelCtx k{ktu::RfSetup{{16, SMTLM_ALLOC_FIFO, 1}, {4, 1}, 8}};
    smtlm_wb wb;
    smtlm_iref r;
    explicit WriteCase(bool direct)
    {
        smtlm_wb_init(&wb, 1);
        smtlm_write_port port = smtlm_rf_write_port(k.rf.get());
        if (!direct)
            port.try_write = wrapped_try_write;
        const smtlm_warp_port warps{};
        smtlm_wb_bind(&wb, &k.rs[SMTLM_EX_WB], k.pool.get(), &port, &warps);
        r = k.make(SMTLM_OP_SP, 1, 2, {}, {2, 6, 5});
    }
};

} // namespace

TEST(Writeback, DirectAndPortWritesAgree)
{
    WriteCase d(true), p(false);
    ASSERT_EQ(d.k.init_rc, SMTLM_OK);
    ASSERT_EQ(p.k.init_rc, SMTLM_OK);
    const unsigned md = smtlm_wb_write(&d.wb, d.k.get(d.r));
    const unsigned mp = smtlm_wb_write(&p.wb, p.k.get(p.r));
    EXPECT_EQ(md, 0x5u); // destination 1 (register 6) buffered: released when it lands
    EXPECT_EQ(mp, md);
    for (const smtlm_rf *rf : {d.k.rf.get(), p.k.rf.get()}) {
        EXPECT_EQ(rf->writes[11], 1u);
        EXPECT_EQ(rf->writes[10], 1u);
        EXPECT_EQ(rf->write_alloc, (1ull << 11) | (1ull << 10));
        EXPECT_EQ(rf->blocked, 1ull << 11);
        EXPECT_EQ(rf->buffered_writes, 1u);
        EXPECT_EQ(rf->dropped_writes, 0u);
        EXPECT_EQ(rf->wbuf_len[11], 1u);
        EXPECT_EQ(rf->wbuf[11][rf->wbuf_head[11]].reg, 6u);
    }
}

// Faithful mode: a write to a bank already written this step is dropped, yet released.
TEST(Writeback, DroppedWriteIsReleased)
{
    ktu::KernelCtx k(ktu::RfSetup{{16, SMTLM_ALLOC_FIFO, 0}, {4, 1}, 8});
    smtlm_wb wb;
    smtlm_wb_init(&wb, 0);
    const smtlm_write_port port = smtlm_rf_write_port(k.rf.get());
    const smtlm_warp_port warps{};
    smtlm_wb_bind(&wb, &k.rs[SMTLM_EX_WB], k.pool.get(), &port, &warps);
    const smtlm_iref r = k.make(SMTLM_OP_SP, 1, 2, {}, {2, 6, 5});
    EXPECT_EQ(smtlm_wb_write(&wb, k.get(r)), 0x7u);
    EXPECT_EQ(k.rf->dropped_writes, 1u);
    EXPECT_EQ(k.rf->writes[11], 1u); // a dropped write never reaches the bank
    EXPECT_EQ(k.rf->blocked, 0u);
}

// smtlm_wb_take: the first occupied slot in faithful mode, the oldest under oldest_first; the
// slot is emptied and the set's count and occupancy follow.
TEST(Writeback, TakeOrder)
{
    for (int oldest = 0; oldest <= 1; oldest++) {
        ktu::KernelCtx k(ktu::RfSetup{{16, SMTLM_ALLOC_FIFO, oldest}, {4, 1}, 8});
        smtlm_wb wb;
        smtlm_wb_init(&wb, oldest);
        const smtlm_write_port port = smtlm_rf_write_port(k.rf.get());
        const smtlm_warp_port warps{};
        smtlm_wb_bind(&wb, &k.rs[SMTLM_EX_WB], k.pool.get(), &port, &warps);
        const smtlm_iref a = k.make(SMTLM_OP_SP, 0, 0, {}, {1}); // uid 1 (oldest)
        const smtlm_iref b = k.make(SMTLM_OP_SP, 0, 0, {}, {2}); // uid 2
        k.put(SMTLM_EX_WB, 5, a);
        k.put(SMTLM_EX_WB, 2, b);
        std::vector<smtlm_iref> got;
        while (k.rs[SMTLM_EX_WB].count)
            got.push_back(smtlm_wb_take(&wb));
        EXPECT_EQ(got, oldest ? std::vector<smtlm_iref>({a, b}) : std::vector<smtlm_iref>({b, a}));
        EXPECT_EQ(k.rs[SMTLM_EX_WB].occ, 0u);
        EXPECT_EQ(k.rs[SMTLM_EX_WB].slot[5], SMTLM_NO_INST);
        EXPECT_EQ(k.rs[SMTLM_EX_WB].slot[2], SMTLM_NO_INST);
    }
}

// Oldest-first takes EX_WB's oldest by the pool entries' uids, not the set's uid copy (execute's
// direct hand-off leaves that unwritten): with the copy zeroed the order is still by age.
TEST(Writeback, OldestFirstReadsThePoolUid)
{
    ktu::KernelCtx k(ktu::RfSetup{{16, SMTLM_ALLOC_FIFO, 1}, {4, 1}, 8});
    smtlm_wb wb;
    smtlm_wb_init(&wb, 1);
    const smtlm_write_port port = smtlm_rf_write_port(k.rf.get());
    const smtlm_warp_port warps{};
    smtlm_wb_bind(&wb, &k.rs[SMTLM_EX_WB], k.pool.get(), &port, &warps);
    const smtlm_iref a = k.make(SMTLM_OP_SP, 0, 0, {}, {1}); // oldest
    const smtlm_iref b = k.make(SMTLM_OP_SP, 0, 0, {}, {2});
    const smtlm_iref c = k.make(SMTLM_OP_SP, 0, 0, {}, {3});
    k.put(SMTLM_EX_WB, 6, a);
    k.put(SMTLM_EX_WB, 1, c);
    k.put(SMTLM_EX_WB, 3, b);
    for (unsigned s = 0; s < SMTLM_MAX_REGSET_WIDTH; s++)
        k.rs[SMTLM_EX_WB].uid[s] = 0;
    std::vector<smtlm_iref> got;
    while (k.rs[SMTLM_EX_WB].count)
        got.push_back(smtlm_wb_take(&wb));
    EXPECT_EQ(got, std::vector<smtlm_iref>({a, b, c}));
}
