// Load/store unit: shared-memory bank-conflict degree, sector coalescer, the unit called directly
// (memory port, responses, writeback arbiter and its bank stall), and global loads/stores
// through the SM with a fixed-latency memory (GPGPU-Sim ldst_unit; docs/ARCHITECTURE.md).
#include <gtest/gtest.h>

#include "kernel_test_util.hpp"

namespace {

std::vector<uint64_t> lanes(uint64_t base, uint64_t stride)
{
    std::vector<uint64_t> a(32);
    for (unsigned k = 0; k < 32; k++)
        a[k] = base + k * stride;
    return a;
}

// ---- shared-memory conflict degree -------------------------------------------------------

TEST(ShmemConflictDegree, StridesOnThirtyTwoBanks)
{
    EXPECT_EQ(smtlm_shmem_conflict_degree(lanes(0, 4).data(), ~0u, 32, 1), 1u);   // stride 1 word
    EXPECT_EQ(smtlm_shmem_conflict_degree(lanes(0, 8).data(), ~0u, 32, 1), 2u);   // stride 2 words
    EXPECT_EQ(smtlm_shmem_conflict_degree(lanes(0, 16).data(), ~0u, 32, 1), 4u);  // stride 4 words
    EXPECT_EQ(smtlm_shmem_conflict_degree(lanes(0, 128).data(), ~0u, 32, 1), 32u); // stride 32 words
    EXPECT_EQ(smtlm_shmem_conflict_degree(lanes(0, 12).data(), ~0u, 32, 1), 1u);  // odd stride 3
    EXPECT_EQ(smtlm_shmem_conflict_degree(lanes(0x400, 4).data(), ~0u, 32, 1), 1u); // offset base
    EXPECT_EQ(smtlm_shmem_conflict_degree(lanes(0, 64).data(), ~0u, 16, 1), 32u);  // 16 banks, stride 16
}

TEST(ShmemConflictDegree, BroadcastOfOneWordIsOneAccess)
{
    EXPECT_EQ(smtlm_shmem_conflict_degree(lanes(0x40, 0).data(), ~0u, 32, 1), 1u);
    std::vector<uint64_t> a = lanes(0, 1); // bytes 0..31: words 0..7, 4 lanes per word
    EXPECT_EQ(smtlm_shmem_conflict_degree(a.data(), ~0u, 32, 1), 1u);
    for (unsigned k = 16; k < 32; k++)
        a[k] = 128; // word 32: bank 0 again, a different word than lanes 0-3
    EXPECT_EQ(smtlm_shmem_conflict_degree(a.data(), ~0u, 32, 1), 2u);
}

TEST(ShmemConflictDegree, InactiveLanesAreIgnored)
{
    const std::vector<uint64_t> a = lanes(0, 128); // all in bank 0
    EXPECT_EQ(smtlm_shmem_conflict_degree(a.data(), 0x3u, 32, 1), 2u);
    EXPECT_EQ(smtlm_shmem_conflict_degree(a.data(), 0x80000001u, 32, 1), 2u);
    EXPECT_EQ(smtlm_shmem_conflict_degree(a.data(), 0x1u, 32, 1), 1u);
    EXPECT_EQ(smtlm_shmem_conflict_degree(a.data(), 0xFFFFu, 32, 1), 16u);
    EXPECT_EQ(smtlm_shmem_conflict_degree(a.data(), 0u, 32, 1), 0u);
}

TEST(ShmemConflictDegree, WarpPartsSumTheHalves)
{
    // gpgpu_shmem_warp_parts = 2: each 16-lane half is counted separately, then summed.
    EXPECT_EQ(smtlm_shmem_conflict_degree(lanes(0, 4).data(), ~0u, 32, 2), 2u);    // 1 + 1
    EXPECT_EQ(smtlm_shmem_conflict_degree(lanes(0, 128).data(), ~0u, 32, 2), 32u); // 16 + 16
    EXPECT_EQ(smtlm_shmem_conflict_degree(lanes(0, 8).data(), ~0u, 32, 2), 2u);    // 1 + 1: no conflict per half
    EXPECT_EQ(smtlm_shmem_conflict_degree(lanes(0, 128).data(), 0xFFFFu, 32, 2), 16u); // upper half idle
}

// ---- sector coalescer ----------------------------------------------------------------------

TEST(Coalesce, ConsecutiveFourByteLanesTouchFourSectors)
{
    smtlm_mem_req out[64];
    const std::vector<uint64_t> a = lanes(0x1000, 4);
    ASSERT_EQ(smtlm_coalesce_sectors(a.data(), ~0u, 4, out), 4u);
    for (unsigned i = 0; i < 4; i++) {
        EXPECT_EQ(out[i].addr, 0x1000u + 32 * i);
        EXPECT_EQ(out[i].lanes, 0xFFu << (8 * i));
        EXPECT_EQ(out[i].size, 32u);
    }
}

TEST(Coalesce, SixteenByteLanesTouchSixteenSectors)
{
    smtlm_mem_req out[64];
    const std::vector<uint64_t> a = lanes(0x2000, 16);
    ASSERT_EQ(smtlm_coalesce_sectors(a.data(), ~0u, 16, out), 16u);
    for (unsigned i = 0; i < 16; i++) {
        EXPECT_EQ(out[i].addr, 0x2000u + 32 * i);
        EXPECT_EQ(out[i].lanes, 0x3u << (2 * i));
    }
}

TEST(Coalesce, LaneStraddlingASectorBoundaryHitsTwoSectors)
{
    smtlm_mem_req out[64];
    std::vector<uint64_t> a(32, 0);
    a[0] = 0x101C; // 8 bytes: 0x101C..0x1023
    ASSERT_EQ(smtlm_coalesce_sectors(a.data(), 0x1u, 8, out), 2u);
    EXPECT_EQ(out[0].addr, 0x1000u);
    EXPECT_EQ(out[1].addr, 0x1020u);
    EXPECT_EQ(out[0].lanes, 1u);
    EXPECT_EQ(out[1].lanes, 1u);
    a[0] = 0x1018; // 8 bytes: 0x1018..0x101F, inside one sector
    EXPECT_EQ(smtlm_coalesce_sectors(a.data(), 0x1u, 8, out), 1u);
}

TEST(Coalesce, InactiveLanesIgnoredAndOutputInAddressOrder)
{
    smtlm_mem_req out[64];
    std::vector<uint64_t> a = lanes(0x1000, 32); // one sector per lane
    EXPECT_EQ(smtlm_coalesce_sectors(a.data(), 0x5u, 4, out), 2u);
    EXPECT_EQ(out[0].lanes, 0x1u);
    EXPECT_EQ(out[1].lanes, 0x4u);
    EXPECT_EQ(out[1].addr, 0x1040u);
    EXPECT_EQ(smtlm_coalesce_sectors(a.data(), 0u, 4, out), 0u);
    const std::vector<uint64_t> down = lanes(0x1FE0, (uint64_t)-32); // descending addresses
    ASSERT_EQ(smtlm_coalesce_sectors(down.data(), 0x7u, 4, out), 3u);
    EXPECT_EQ(out[0].addr, 0x1FA0u);
    EXPECT_EQ(out[0].lanes, 0x4u);
    EXPECT_EQ(out[2].addr, 0x1FE0u);
    EXPECT_EQ(out[2].lanes, 0x1u);
    const std::vector<uint64_t> same = lanes(0x3004, 0);
    ASSERT_EQ(smtlm_coalesce_sectors(same.data(), ~0u, 4, out), 1u);
    EXPECT_EQ(out[0].addr, 0x3000u);
    EXPECT_EQ(out[0].lanes, ~0u);
}

// ---- the unit, called directly -----------------------------------------------------------

struct Ldst {
    ktu::KernelCtx k{ktu::RfSetup{{16, SMTLM_ALLOC_FIFO, 0}, {4, 1}, 8}};
    ktu::WarpEvents ev;
    std::unique_ptr<smtlm_ldst> u{new smtlm_ldst};
    int rc;
    const unsigned &completed = ev.completed, &dec = ev.retired, &sent = ev.sent, &acked = ev.acked;
    uint64_t now = 0;
    explicit Ldst(unsigned smem_latency = 20)
    {
        smtlm_ldst_cfg c = {smem_latency, 32, 1, 1};
        rc = smtlm_ldst_init(u.get(), &c);
        const smtlm_write_port port = smtlm_rf_write_port(k.rf.get());
        const smtlm_warp_port warps = ev.ops();
        smtlm_ldst_bind(u.get(), &k.rs[SMTLM_OC_EX_MEM], k.pool.get(), &port, &warps);
    }
    // A memory instruction of warp 0 / scheduler 0; dst = simulator register or -1.
    smtlm_iref make(smtlm_op op, smtlm_mem_space space, int dst, std::vector<uint64_t> addr, uint32_t mask = ~0u)
    {
        smtlm_inst_desc d;
        std::memset(&d, 0, sizeof d);
        d.mask = mask;
        d.op = (uint8_t)op;
        if (dst >= 0) {
            d.n_dst = 1;
            d.dst[0] = (int16_t)dst;
        }
        d.latency = d.ii = 1;
        d.mem_space = (uint8_t)space;
        d.mem_width = 4;
        for (unsigned i = 0; i < 32; i++)
            d.addr[i] = addr[i];
        smtlm_iref r = smtlm_pool_alloc(k.pool.get(), &d, 0);
        k.get(r)->uid = k.next_uid++;
        smtlm_sb_reserve(ev.sb.get(), 0, k.get(r), space == SMTLM_MEM_GLOBAL);
        return r;
    }
    void issue(smtlm_iref r) { smtlm_ldst_issue(u.get(), r); }
    // One core cycle; like the SM, bank allocations end with the cycle's first read step.
    void cycle()
    {
        now++;
        smtlm_ldst_cycle(u.get(), now);
        smtlm_rf_end_step(k.rf.get());
    }
};

TEST(LdstUnit, InitRejectsBadConfigurations)
{
    std::unique_ptr<smtlm_ldst> u(new smtlm_ldst);
    smtlm_ldst_cfg c = {20, 32, 1, 1};
    EXPECT_EQ(smtlm_ldst_init(u.get(), &c), SMTLM_OK);
    c.smem_latency = 1; // GPGPU-Sim asserts smem_latency > 1
    EXPECT_EQ(smtlm_ldst_init(u.get(), &c), SMTLM_EINVAL);
    c = {SMTLM_MAX_LATENCY, 32, 1, 1};
    EXPECT_EQ(smtlm_ldst_init(u.get(), &c), SMTLM_ERANGE);
    c = {20, 0, 1, 1};
    EXPECT_EQ(smtlm_ldst_init(u.get(), &c), SMTLM_EINVAL);
    c = {20, 32, 3, 1}; // 32 lanes do not split into 3 parts
    EXPECT_EQ(smtlm_ldst_init(u.get(), &c), SMTLM_EINVAL);
    c = {20, 32, 1, 0};
    EXPECT_EQ(smtlm_ldst_init(u.get(), &c), SMTLM_EINVAL);
}

// Shared load issued in cycle 0 with conflict degree d: dispatch register d cycles (replays),
// then the top of the smem_latency-deep pipeline, one stage per cycle down to stage 0 (cycle
// d + smem_latency - 1), taken by the writeback arbiter the next cycle and written the cycle
// after: scoreboard released in cycle smem_latency + d + 1.
TEST(LdstUnit, SharedLoadLatencyAndReplays)
{
    const unsigned strides[] = {4, 16};
    const unsigned degree[] = {1, 4};
    for (int i = 0; i < 2; i++) {
        Ldst l(20);
        smtlm_iref r = l.make(SMTLM_OP_LOAD, SMTLM_MEM_SHARED, 11, lanes(0, strides[i]));
        l.issue(r);
        EXPECT_EQ(l.u->disp_cycles, degree[i]);
        const uint64_t want = 20 + degree[i] + 1;
        while (l.now < want - 1) {
            l.cycle();
            ASSERT_TRUE(smtlm_sb_test(l.ev.sb.get(), 0, 11)) << "cycle " << l.now;
        }
        EXPECT_EQ(l.completed, 0u);
        l.cycle();
        EXPECT_FALSE(smtlm_sb_test(l.ev.sb.get(), 0, 11));
        EXPECT_EQ(l.completed, 1u);
        EXPECT_EQ(l.dec, 1u);
        EXPECT_EQ(l.u->shmem_bank_conflicts, degree[i] - 1);
        EXPECT_EQ(l.k.rf->writes[3], 1u); // register 11 of warp 0, sub-core 0 -> bank 3
        EXPECT_FALSE(smtlm_ldst_busy(l.u.get()));
    }
}

TEST(LdstUnit, WritebackStallsWhenItsBankAlreadyTookAWriteThisCycle)
{
    Ldst l(20);
    smtlm_iref r = l.make(SMTLM_OP_LOAD, SMTLM_MEM_SHARED, 11, lanes(0, 4));
    l.issue(r);
    while (l.now < 21)
        l.cycle(); // next_wb holds the load after cycle 21
    ASSERT_EQ(l.u->next_wb, r);
    // Cycle 22: an ALU writeback (earlier in the cycle) already claimed bank 3.
    EXPECT_EQ(smtlm_rf_write(l.k.rf.get(), 3), 1);
    l.cycle();
    EXPECT_EQ(l.u->wb_bank_stalls, 1u);
    EXPECT_TRUE(smtlm_sb_test(l.ev.sb.get(), 0, 11));
    EXPECT_EQ(l.completed, 0u);
    l.cycle(); // cycle 23: retried and written
    EXPECT_FALSE(smtlm_sb_test(l.ev.sb.get(), 0, 11));
    EXPECT_EQ(l.completed, 1u);
    EXPECT_EQ(l.u->wb_bank_stalls, 1u);
}

// A global load of 32 consecutive words: 4 sector requests, one per cycle on the memory port;
// the scoreboard is released only when the last response has been written back (one write per
// cycle: accepted, moved to the writeback register, written).
TEST(LdstUnit, GlobalLoadOneRequestPerCycleReleasedAfterLastResponse)
{
    Ldst l;
    smtlm_iref r = l.make(SMTLM_OP_LOAD, SMTLM_MEM_GLOBAL, 11, lanes(0x1000, 4));
    l.issue(r);
    EXPECT_EQ(l.k.get(r)->pending, 4u);
    for (unsigned c = 1; c <= 4; c++) {
        l.cycle();
        EXPECT_EQ(smtlm_ldst_pending_requests(l.u.get()), c);
        EXPECT_EQ(smtlm_ldst_peek_request(l.u.get())->addr, 0x1000u);
    }
    EXPECT_EQ(l.u->dispatch, (smtlm_iref)SMTLM_NO_INST); // left after its last request
    EXPECT_EQ(l.dec, 1u);
    EXPECT_EQ(l.u->mem_requests, 4u);
    smtlm_mem_req q[4];
    for (unsigned i = 0; i < 4; i++) {
        ASSERT_TRUE(smtlm_ldst_pop_request(l.u.get(), &q[i]));
        EXPECT_EQ(q[i].addr, 0x1000u + 32 * i);
        EXPECT_EQ(q[i].sent_cycle, i + 1);
        EXPECT_EQ(q[i].inst, r);
        EXPECT_EQ(q[i].is_write, 0);
        EXPECT_EQ(q[i].space, SMTLM_MEM_GLOBAL);
    }
    EXPECT_FALSE(smtlm_ldst_pop_request(l.u.get(), &q[0]));
    for (unsigned i = 0; i < 4; i++)
        ASSERT_EQ(smtlm_ldst_respond(l.u.get(), &q[i]), SMTLM_OK);
    // cycle 5 accepts response 0; cycle 6 moves it to the writeback register; cycle 7 writes it;
    // responses 1-3 follow one per cycle: the last is written in cycle 10.
    while (l.now < 9) {
        l.cycle();
        ASSERT_TRUE(smtlm_sb_test(l.ev.sb.get(), 0, 11)) << "cycle " << l.now;
        ASSERT_EQ(l.completed, 0u);
    }
    EXPECT_EQ(l.k.get(r)->pending, 1u);
    EXPECT_EQ(l.k.rf->writes[3], 3u); // every returning access writes its bank
    l.cycle();
    EXPECT_FALSE(smtlm_sb_test(l.ev.sb.get(), 0, 11));
    EXPECT_EQ(l.completed, 1u);
    EXPECT_EQ(l.u->mem_responses, 4u);
    EXPECT_EQ(l.k.rf->writes[3], 4u);
    EXPECT_FALSE(smtlm_ldst_busy(l.u.get()));
}

TEST(LdstUnit, ResponseFifoHasEightEntries)
{
    Ldst l;
    smtlm_mem_req q;
    std::memset(&q, 0, sizeof q);
    q.is_write = 1;
    for (unsigned i = 0; i < SMTLM_LDST_RESP_CAP; i++) {
        ASSERT_TRUE(smtlm_ldst_can_respond(l.u.get()));
        ASSERT_EQ(smtlm_ldst_respond(l.u.get(), &q), SMTLM_OK);
    }
    EXPECT_FALSE(smtlm_ldst_can_respond(l.u.get()));
    EXPECT_EQ(smtlm_ldst_respond(l.u.get(), &q), SMTLM_EFULL);
    l.cycle(); // one response per cycle
    EXPECT_EQ(l.acked, 1u);
    EXPECT_TRUE(smtlm_ldst_can_respond(l.u.get()));
}

TEST(LdstUnit, StoreSendsEverySectorCompletesThenCountsAcks)
{
    Ldst l;
    smtlm_iref r = l.make(SMTLM_OP_STORE, SMTLM_MEM_GLOBAL, -1, lanes(0x2000, 8)); // 256 bytes
    l.issue(r);
    for (unsigned c = 1; c <= 7; c++) {
        l.cycle();
        EXPECT_EQ(l.sent, c);
        EXPECT_EQ(l.completed, 0u);
    }
    l.cycle(); // 8th sector sent: the store leaves the unit and completes
    EXPECT_EQ(l.sent, 8u);
    EXPECT_EQ(l.completed, 1u);
    EXPECT_EQ(l.dec, 1u);
    smtlm_mem_req q;
    unsigned n = 0;
    while (smtlm_ldst_pop_request(l.u.get(), &q)) {
        EXPECT_EQ(q.is_write, 1);
        EXPECT_EQ(q.lanes, 0xFu << (4 * n));
        smtlm_ldst_respond(l.u.get(), &q);
        n++;
    }
    EXPECT_EQ(n, 8u);
    for (unsigned c = 1; c <= 8; c++) {
        l.cycle();
        EXPECT_EQ(l.acked, c);
    }
}

TEST(LdstUnit, LoadWithNoActiveLaneCompletesWithoutRequests)
{
    Ldst l;
    smtlm_iref r = l.make(SMTLM_OP_LOAD, SMTLM_MEM_GLOBAL, 11, lanes(0x1000, 4), 0u);
    l.issue(r);
    l.cycle();
    EXPECT_EQ(l.u->mem_requests, 0u);
    EXPECT_FALSE(smtlm_sb_test(l.ev.sb.get(), 0, 11));
    EXPECT_EQ(l.completed, 1u);
}

// ---- through the SM ------------------------------------------------------------------------

// QV100 SM, memory latency 10. LDG issued at 1: CU 2, OC_EX_MEM 3, LDST at 4; requests leave in
// cycles 5, 6, 7, 8; the memory takes request k at the start of cycle 6+k and answers at 16+k;
// the LDST accepts it in 16+k, moves it to writeback in 17+k and writes it in 18+k. The last
// (k = 3) is written in cycle 21, which releases R10 in execute(), before issue(): the dependent
// FFMA issues in cycle 21.
TEST(LdstSm, GlobalLoadReleasesScoreboardAtLastResponse)
{
    ktu::Rig rig(ktu::qv100(), 10, 64);
    ASSERT_EQ(rig.init_rc, SMTLM_OK);
    smtlm_inst_desc ld = ktu::global(SMTLM_OP_LOAD, 10, {2}, 0x1000, 4);
    ASSERT_EQ(rig.load({ktu::prog({ld, ktu::ffma(11, {10, 3, 4})})}), 0);
    bool reserved_at_20 = false;
    rig.after_cycle = [&](ktu::Rig &r) {
        if (r.now() == 20)
            reserved_at_20 = smtlm_sb_test(&r.sm()->iss.sb, 0, 11);
    };
    rig.run();
    ASSERT_EQ(rig.last_rc, SMTLM_OK);
    const ktu::Ev l = rig.at(0, 0), f = rig.at(0, 1);
    EXPECT_EQ(l.issue(), 1u);
    EXPECT_EQ(l.oc_ex(), 3u);
    EXPECT_EQ(l.fu(), 4u);
    EXPECT_EQ(l.wb(), 21u);
    EXPECT_TRUE(reserved_at_20);
    EXPECT_EQ(f.issue(), 21u);
    const smtlm_mem_model *m = rig.mem();
    ASSERT_EQ(m->accepted, 4u);
    for (unsigned i = 0; i < 4; i++) {
        EXPECT_EQ(m->q[i].sent_cycle, 5u + i); // one request per cycle on the port
        EXPECT_EQ(m->q[i].addr, 0x1000u + 32 * i);
        EXPECT_EQ(m->q[i].lanes, 0xFFu << (8 * i));
        EXPECT_EQ(m->q[i].warp, 0u);
    }
    EXPECT_EQ(m->latency_sum, 4u * 11); // sent at 5+k, delivered at 16+k
    EXPECT_EQ(rig.sm()->ldst.mem_responses, 4u);
    EXPECT_EQ(rig.sm()->iss.warp_stall[0][SMTLM_WS_SCOREBOARD], 19u); // cycles 2..20
}

// The LDST unit is not partitioned: it takes the oldest OC_EX_MEM entry of any sub-core. Warps
// 1-3 issue an LDS at 1 (uids in scheduler order 1, 2, 3 since Issue_Prio = 1), warp 0 at 2;
// all reach OC_EX_MEM at 3 (warp 0 at 4). A conflict-free access holds the dispatch register one
// cycle, so the unit takes one per cycle, oldest first: warps 1, 2, 3, 0 at 4, 5, 6, 7, and
// each is written back smem_latency + 2 = 22 cycles after it entered.
TEST(LdstSm, SharedUnitServesOldestOcExMemEntryFirst)
{
    ktu::Rig rig(ktu::qv100());
    rig.load_all(ktu::prog({micro::shared(SMTLM_OP_LOAD, 20, {3}, 0, 4)}), 4);
    rig.run();
    ASSERT_EQ(rig.last_rc, SMTLM_OK);
    const unsigned order[] = {1, 2, 3, 0};
    for (unsigned k = 0; k < 4; k++) {
        const ktu::Ev e = rig.at(order[k], 0);
        EXPECT_EQ(e.fu(), 4u + k) << "warp " << order[k];
        EXPECT_EQ(e.wb(), 4u + k + 22) << "warp " << order[k];
        EXPECT_EQ(e.unit, SMTLM_UNIT_MEM);
    }
    EXPECT_LT(rig.at(1, 0).uid, rig.at(2, 0).uid);
    EXPECT_LT(rig.at(3, 0).uid, rig.at(0, 0).uid);
    EXPECT_EQ(rig.sm()->ldst.shmem_accesses, 4u);
    EXPECT_EQ(rig.sm()->ldst.shmem_bank_conflicts, 0u);
}

// LDST writeback honours the bank port (unlike ALU writeback): LDS R10 issued at 1 reaches the
// LDST at 4 and would be written at 4 + 22 = 26 into register 11 (bank 3). IADD3 R14 (L 19,
// II 1) issued at 2: FU 5, EX_WB 25, written at the start of cycle 26 into register 15, also
// bank 3 -> the LDST write, later in the same cycle (execute), retries and lands in 27.
// Control: IADD3 R15 (register 16, bank 0).
TEST(LdstSm, LdstWritebackStallsBehindAnAluWriteToItsBank)
{
    for (int clash = 1; clash >= 0; clash--) {
        ktu::Rig rig(ktu::qv100());
        rig.load({ktu::prog({micro::shared(SMTLM_OP_LOAD, 10, {3}, 0, 4),
                             ktu::alu(SMTLM_OP_INTP, clash ? 14 : 15, {3}, 19, 1)})});
        rig.run();
        ASSERT_EQ(rig.last_rc, SMTLM_OK);
        EXPECT_EQ(rig.at(0, 0).fu(), 4u);
        EXPECT_EQ(rig.at(0, 1).wb(), 26u);
        EXPECT_EQ(rig.at(0, 0).wb(), clash ? 27u : 26u) << "clash " << clash;
        EXPECT_EQ(rig.sm()->ldst.wb_bank_stalls, clash ? 1u : 0u);
        EXPECT_EQ(rig.sm()->rf.writes[3], clash ? 2u : 1u);
        EXPECT_EQ(rig.sm()->rf.dropped_writes, 0u);
    }
}

// A store's 4 sectors leave in cycles 5..8 (stores_out 1..4); the acknowledgements arrive in
// cycles 16..19 and decrement it; the warp (EXIT written back at 7) exits only in cycle 19.
TEST(LdstSm, StoreAcksDecrementStoresOutstandingAndGateWarpExit)
{
    ktu::Rig rig(ktu::qv100(), 10, 64);
    smtlm_inst_desc st = ktu::global(SMTLM_OP_STORE, -1, {2, 3}, 0x1000, 4);
    ASSERT_EQ(rig.load({ktu::prog({st})}), 0);
    std::vector<unsigned> out;
    rig.after_cycle = [&](ktu::Rig &r) { out.push_back(r.sm()->iss.warp[0].stores_out); };
    EXPECT_EQ(rig.run(), 20u);
    const std::vector<unsigned> want = {0, 0, 0, 0, 0, 1, 2, 3, 4, 4, 4, 4, 4, 4, 4, 4, 3, 2, 1, 0};
    EXPECT_EQ(out, want);
    EXPECT_EQ(rig.at(0, 1).wb(), 7u); // EXIT
}

} // namespace

// Byte enables of a sector: the bytes the active lanes touch (what a TLM access sets for a
// partial warp). Four 4-byte lanes at 0x100.. touch bytes 0-15 of sector 0x100; a lane at 0x11e
// straddles into sector 0x120 (bytes 30-31, then 0-1); inactive lanes set nothing.
TEST(Coalescer, ByteEnablesCoverExactlyTheActiveLanesBytes)
{
    uint64_t addr[32] = {};
    for (unsigned l = 0; l < 4; l++)
        addr[l] = 0x100 + 4 * l;
    addr[4] = 0x11e;
    addr[5] = 0x140; // inactive below
    smtlm_mem_req out[64];
    const unsigned n = smtlm_coalesce_sectors(addr, 0x1f, 4, out);
    ASSERT_EQ(n, 2u);
    EXPECT_EQ(out[0].addr, 0x100u);
    EXPECT_EQ(out[0].bytes, 0xffffu | (3u << 30));
    EXPECT_EQ(out[0].lanes, 0x1fu);
    EXPECT_EQ(out[1].addr, 0x120u);
    EXPECT_EQ(out[1].bytes, 0x3u);
    EXPECT_EQ(out[1].lanes, 0x10u);
}
