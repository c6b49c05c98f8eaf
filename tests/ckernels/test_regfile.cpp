// Register-file read queues and port arbiter (GPGPU-Sim arbiter_t; the statistics are defined in
// docs/OPTIONS.md "Statistics"), called directly.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "kernel_test_util.hpp"

namespace {

struct Rf {
    std::unique_ptr<smtlm_rf> rf{new smtlm_rf};
    explicit Rf(ktu::RfSetup c = {{16, SMTLM_ALLOC_FIFO, 0}, {4, 1}, 8}) { rc = ktu::rf_init(rf.get(), c); }
    int rc;
    void req(unsigned bank, unsigned cu, unsigned op, unsigned reg = 1)
    {
        ASSERT_EQ(smtlm_rf_request(rf.get(), bank, smtlm_read_req{(uint8_t)cu, (uint8_t)op, (uint16_t)reg}), SMTLM_OK);
    }
    std::vector<smtlm_read_grant> arb()
    {
        smtlm_read_grant g[SMTLM_MAX_BANKS];
        unsigned n = smtlm_rf_arbitrate(rf.get(), g);
        return std::vector<smtlm_read_grant>(g, g + n);
    }
};

bool has(const std::vector<smtlm_read_grant> &g, unsigned bank, unsigned cu, unsigned op)
{
    for (const smtlm_read_grant &x : g)
        if (x.bank == bank && x.cu == cu && x.operand == op)
            return true;
    return false;
}

TEST(RegFileInit, RejectsBadConfigurations)
{
    std::unique_ptr<smtlm_rf> rf(new smtlm_rf);
    ktu::RfSetup c = {{16, SMTLM_ALLOC_FIFO, 0}, {4, 1}, 8};
    EXPECT_EQ(ktu::rf_init(rf.get(), c), SMTLM_OK);
    c.cfg.n_banks = 0;
    EXPECT_EQ(ktu::rf_init(rf.get(), c), SMTLM_EINVAL);
    c.cfg.n_banks = SMTLM_MAX_BANKS + 1;
    EXPECT_EQ(ktu::rf_init(rf.get(), c), SMTLM_ERANGE);
    c.cfg.n_banks = 18; // sub-core: 18 banks cannot be split over 4 schedulers (GPGPU-Sim asserts)
    EXPECT_EQ(ktu::rf_init(rf.get(), c), SMTLM_EINVAL);
    c.shape.sub_core = 0; // ... but are fine without the sub-core model
    EXPECT_EQ(ktu::rf_init(rf.get(), c), SMTLM_OK);
    c = {{16, SMTLM_ALLOC_FIFO, 0}, {0, 1}, 8};
    EXPECT_EQ(ktu::rf_init(rf.get(), c), SMTLM_EINVAL);
    c = {{16, SMTLM_ALLOC_FIFO, 0}, {4, 1}, 0};
    EXPECT_EQ(ktu::rf_init(rf.get(), c), SMTLM_EINVAL);
    c = {{16, SMTLM_ALLOC_FIFO, 0}, {4, 1}, SMTLM_MAX_CUS + 1};
    EXPECT_EQ(ktu::rf_init(rf.get(), c), SMTLM_ERANGE);
    c = {{16, (smtlm_alloc_policy)2, 0}, {4, 1}, 8};
    EXPECT_EQ(ktu::rf_init(rf.get(), c), SMTLM_EINVAL);
}

TEST(RegFileFifo, OnlyQueueHeadsAreGrantedOnePerBank)
{
    Rf r;
    ASSERT_EQ(r.rc, SMTLM_OK);
    r.req(3, 0, 0);
    r.req(3, 1, 0);
    r.req(3, 2, 1);
    r.req(5, 1, 1);
    EXPECT_EQ(smtlm_rf_queued(r.rf.get(), 3), 3u);
    auto g = r.arb();
    ASSERT_EQ(g.size(), 2u); // bank 3 head (CU 0) and bank 5 head; CU 1's bank-3 read is not the head
    EXPECT_TRUE(has(g, 3, 0, 0));
    EXPECT_TRUE(has(g, 5, 1, 1));
    EXPECT_EQ(smtlm_rf_queued(r.rf.get(), 3), 2u);
    EXPECT_EQ(smtlm_rf_queued(r.rf.get(), 5), 0u);
    g = r.arb(); // FIFO order inside the bank: CU 1, then CU 2
    ASSERT_EQ(g.size(), 1u);
    EXPECT_TRUE(has(g, 3, 1, 0));
    g = r.arb();
    ASSERT_EQ(g.size(), 1u);
    EXPECT_TRUE(has(g, 3, 2, 1));
    EXPECT_EQ(r.arb().size(), 0u);
    EXPECT_EQ(r.rf->nonempty, 0u);
    EXPECT_EQ(r.rf->reads[3], 3u);
    EXPECT_EQ(r.rf->reads[5], 1u);
}

TEST(RegFileFifo, ACollectorUnitGetsSeveralBanksInOneStep)
{
    Rf r;
    r.req(0, 4, 0);
    r.req(1, 4, 1);
    r.req(2, 4, 2);
    r.req(3, 4, 3);
    auto g = r.arb(); // _outmatch check commented out in GPGPU-Sim: CU 4 wins all four banks
    ASSERT_EQ(g.size(), 4u);
    for (unsigned b = 0; b < 4; b++)
        EXPECT_TRUE(has(g, b, 4, b));
}

TEST(RegFileFifo, WriteAllocatedBankRefusesReadsUntilEndOfStep)
{
    Rf r;
    r.req(3, 0, 0);
    r.req(4, 0, 1);
    EXPECT_EQ(smtlm_rf_write(r.rf.get(), 3), 1); // bank was free
    EXPECT_EQ(smtlm_rf_write(r.rf.get(), 3), 0); // a second write in the same step is refused
    EXPECT_EQ(r.rf->writes[3], 2u);              // both attempts are counted as writes
    auto g = r.arb();
    ASSERT_EQ(g.size(), 1u); // bank 3 is write-allocated ("write gets priority")
    EXPECT_TRUE(has(g, 4, 0, 1));
    EXPECT_EQ(r.arb().size(), 0u); // still the same step: still refused
    smtlm_rf_end_step(r.rf.get()); // process_banks(): allocations last one step only
    g = r.arb();
    ASSERT_EQ(g.size(), 1u);
    EXPECT_TRUE(has(g, 3, 0, 0));
    EXPECT_EQ(smtlm_rf_write(r.rf.get(), 3), 1); // free again for writes too
}

// rf_bank_wait_steps[b] counts arbitration steps in which bank b left at least one read
// waiting (queue non-empty after its grant, or blocked by a write); steps_with_wait counts steps
// in which some read waited.
TEST(RegFileFifo, WaitStepStatistics)
{
    Rf r;
    r.req(3, 0, 0);
    r.req(3, 1, 0);
    r.req(3, 2, 0);
    r.req(7, 0, 1);
    r.arb(); // bank 3: 2 left; bank 7 drained
    EXPECT_EQ(r.rf->wait_steps[3], 1u);
    EXPECT_EQ(r.rf->wait_steps[7], 0u);
    EXPECT_EQ(r.rf->steps_with_wait, 1u);
    smtlm_rf_write(r.rf.get(), 3);
    r.arb(); // blocked by the write: both reads still wait
    EXPECT_EQ(r.rf->wait_steps[3], 2u);
    EXPECT_EQ(r.rf->steps_with_wait, 2u);
    EXPECT_EQ(smtlm_rf_queued(r.rf.get(), 3), 2u);
    smtlm_rf_end_step(r.rf.get());
    r.arb(); // one granted, one left
    EXPECT_EQ(r.rf->wait_steps[3], 3u);
    r.arb(); // the last one granted: nothing waits
    EXPECT_EQ(r.rf->wait_steps[3], 3u);
    EXPECT_EQ(r.rf->steps_with_wait, 3u);
    r.arb(); // an empty step counts nothing
    EXPECT_EQ(r.rf->steps_with_wait, 3u);
    EXPECT_EQ(r.rf->reads[3], 3u);
    EXPECT_EQ(r.rf->reads[7], 1u);
}

// The depth histogram takes a waiting bank's bin from a table (smtlm_rf.depth_bin): every depth
// a queue can have is its own bin up to 15, the last bin beyond; and a bank left with d reads
// after a step counts in exactly that bin, whatever d up to a full queue.
TEST(RegFileFifo, DepthHistogramBinsEveryQueueDepth)
{
    Rf r;
    for (unsigned d = 0; d <= SMTLM_RF_QUEUE_CAP; d++)
        ASSERT_EQ(r.rf->depth_bin[d], d < SMTLM_RF_DEPTH_BINS ? d : SMTLM_RF_DEPTH_BINS - 1) << d;
    for (unsigned d = 1; d < SMTLM_RF_QUEUE_CAP; d++) {
        smtlm_rf_reset(r.rf.get());
        for (unsigned i = 0; i <= d; i++) // d + 1 reads: one granted, d left
            r.req(2, i % 8, 0);
        r.arb();
        for (unsigned k = 0; k < SMTLM_RF_DEPTH_BINS; k++)
            ASSERT_EQ(r.rf->queue_depth_hist[k], k == (d < SMTLM_RF_DEPTH_BINS ? d : SMTLM_RF_DEPTH_BINS - 1) ? 1u : 0u)
                << "depth " << d << " bin " << k;
    }
}

TEST(RegFileFifo, QueueFullReturnsEFull)
{
    Rf r;
    for (unsigned i = 0; i < SMTLM_RF_QUEUE_CAP; i++)
        ASSERT_EQ(smtlm_rf_request(r.rf.get(), 2, smtlm_read_req{0, 0, 1}), SMTLM_OK);
    EXPECT_EQ(smtlm_rf_request(r.rf.get(), 2, smtlm_read_req{0, 0, 1}), SMTLM_EFULL);
    EXPECT_EQ(smtlm_rf_queued(r.rf.get(), 2), (unsigned)SMTLM_RF_QUEUE_CAP);
    EXPECT_EQ(smtlm_rf_request(r.rf.get(), 16, smtlm_read_req{0, 0, 1}), SMTLM_EINVAL); // no such bank
    r.arb();
    EXPECT_EQ(smtlm_rf_request(r.rf.get(), 2, smtlm_read_req{0, 0, 1}), SMTLM_OK); // room again
}

TEST(RegFileFifo, ResetClearsQueuesAndStatistics)
{
    Rf r;
    r.req(1, 0, 0);
    r.req(1, 1, 0);
    smtlm_rf_write(r.rf.get(), 2);
    r.arb();
    smtlm_rf_reset(r.rf.get());
    EXPECT_EQ(smtlm_rf_queued(r.rf.get(), 1), 0u);
    EXPECT_EQ(r.rf->nonempty, 0u);
    EXPECT_EQ(r.rf->write_alloc, 0u);
    EXPECT_EQ(r.rf->reads[1], 0u);
    EXPECT_EQ(r.rf->writes[2], 0u);
    EXPECT_EQ(r.rf->steps_with_wait, 0u);
}

// Wavefront: booksim's diagonal allocator over all queued reads, one grant per bank AND per CU.
// Diagonal p pairs bank b with CU (priority + p + b) mod n_cus; priority advances each step.
ktu::RfSetup wave_cfg() { return ktu::RfSetup{{4, SMTLM_ALLOC_WAVEFRONT, 0}, {1, 0}, 4}; }

TEST(RegFileWavefront, AtMostOneGrantPerCollectorUnit)
{
    Rf r(wave_cfg());
    ASSERT_EQ(r.rc, SMTLM_OK);
    r.req(0, 0, 0);
    r.req(1, 0, 1);
    auto g = r.arb(); // fifo would grant both to CU 0
    ASSERT_EQ(g.size(), 1u);
    EXPECT_TRUE(has(g, 0, 0, 0)); // diagonal 0 pairs bank 0 with CU 0
    g = r.arb();
    ASSERT_EQ(g.size(), 1u);
    EXPECT_TRUE(has(g, 1, 0, 1));
    EXPECT_EQ(r.rf->wait_steps[1], 1u);
}

TEST(RegFileWavefront, NonHeadReadCanBeGranted)
{
    Rf r(wave_cfg());
    r.req(0, 0, 0);
    r.req(1, 0, 1); // head of bank 1 belongs to CU 0 ...
    r.req(1, 1, 0); // ... CU 1 queued behind it
    auto g = r.arb();
    // priority 0, diagonal 0: (bank 0, CU 0) and (bank 1, CU 1) both match.
    ASSERT_EQ(g.size(), 2u);
    EXPECT_TRUE(has(g, 0, 0, 0));
    EXPECT_TRUE(has(g, 1, 1, 0)); // granted out of FIFO order
    ASSERT_EQ(smtlm_rf_queued(r.rf.get(), 1), 1u);
    g = r.arb();
    ASSERT_EQ(g.size(), 1u);
    EXPECT_TRUE(has(g, 1, 0, 1));
}

TEST(RegFileWavefront, RotatingPriorityChangesTheWinner)
{
    Rf r(wave_cfg());
    r.req(0, 0, 0);
    r.req(0, 0, 1);
    r.req(0, 1, 0);
    // step 1, priority 0: bank 0 meets CU 0 first.
    auto g = r.arb();
    ASSERT_EQ(g.size(), 1u);
    EXPECT_TRUE(has(g, 0, 0, 0));
    EXPECT_EQ(r.rf->priority, 1u);
    // step 2, priority 1: bank 0 meets CU 1 first, although CU 0's read is the queue head.
    g = r.arb();
    ASSERT_EQ(g.size(), 1u);
    EXPECT_TRUE(has(g, 0, 1, 0));
    g = r.arb();
    ASSERT_EQ(g.size(), 1u);
    EXPECT_TRUE(has(g, 0, 0, 1));
}

TEST(RegFileWavefront, FifoWouldGrantTheSameRequestsInQueueOrder)
{
    Rf r(ktu::RfSetup{{4, SMTLM_ALLOC_FIFO, 0}, {1, 0}, 4});
    r.req(0, 0, 0);
    r.req(0, 0, 1);
    r.req(0, 1, 0);
    EXPECT_TRUE(has(r.arb(), 0, 0, 0));
    EXPECT_TRUE(has(r.arb(), 0, 0, 1)); // fifo: the head, never CU 1 first
    EXPECT_TRUE(has(r.arb(), 0, 1, 0));
}

TEST(RegFileWavefront, WriteAllocatedBankIsExcluded)
{
    Rf r(wave_cfg());
    r.req(2, 3, 0);
    smtlm_rf_write(r.rf.get(), 2);
    EXPECT_EQ(r.arb().size(), 0u);
    smtlm_rf_end_step(r.rf.get());
    auto g = r.arb();
    ASSERT_EQ(g.size(), 1u);
    EXPECT_TRUE(has(g, 2, 3, 0));
}

// smtlm_rf_request_reads: the reads of one instruction's operand slots in `ops`, queued in slot
// order into each register's bank (smtlm_rf_bank) with the CU, slot and register.
TEST(RegFileRequestReads, QueuesTheSelectedOperandsInOrder)
{
    Rf r; // 16 banks, 4 schedulers, sub-core: 4 banks each
    const int16_t src[4] = {5, 9, 5, 2};
    unsigned queued = 99;
    // Slots 0, 1 and 3 (slot 2 repeats R5); warp 3, scheduler 2 -> banks 8 + (reg + 3) % 4.
    ASSERT_EQ(smtlm_rf_request_reads(r.rf.get(), 6, 3, 2, src, 0xB, &queued), SMTLM_OK);
    EXPECT_EQ(queued, 0xBu);
    EXPECT_EQ(smtlm_rf_queued(r.rf.get(), 8), 2u);  // R5: (5+3)%4 = 0; R9: (9+3)%4 = 0
    EXPECT_EQ(smtlm_rf_queued(r.rf.get(), 9), 1u);  // R2: (2+3)%4 = 1
    EXPECT_EQ(r.rf->nonempty, (1ull << 8) | (1ull << 9));
    const smtlm_read_req a = *smtlm_rf_entry(r.rf.get(), 8, 0), b = *smtlm_rf_entry(r.rf.get(), 8, 1);
    EXPECT_EQ(a.cu, 6);
    EXPECT_EQ(a.operand, 0);
    EXPECT_EQ(a.reg, 5);
    EXPECT_EQ(b.operand, 1);
    EXPECT_EQ(b.reg, 9);
    EXPECT_EQ(smtlm_rf_entry(r.rf.get(), 9, 0)->operand, 3);
    ASSERT_EQ(smtlm_rf_request_reads(r.rf.get(), 6, 3, 2, src, 0, &queued), SMTLM_OK); // nothing to read
    EXPECT_EQ(queued, 0u);
}

// Errors stop at the failing read: the ones before it stay queued and are reported in *queued.
TEST(RegFileRequestReads, StopsAtAFullQueueOrAnUnknownScheduler)
{
    Rf r;
    for (unsigned i = 0; i < SMTLM_RF_QUEUE_CAP; i++) // fill bank 1 (scheduler 0, (reg + 0) % 4 = 1)
        r.req(1, 0, 0, 1);
    const int16_t src[3] = {2, 5, 3}; // banks 2, 1 (full), 3
    unsigned queued = 99;
    EXPECT_EQ(smtlm_rf_request_reads(r.rf.get(), 4, 0, 0, src, 0x7, &queued), SMTLM_EFULL);
    EXPECT_EQ(queued, 0x1u);
    EXPECT_EQ(smtlm_rf_queued(r.rf.get(), 2), 1u);
    EXPECT_EQ(smtlm_rf_queued(r.rf.get(), 3), 0u);
    // Sub-core: a scheduler past n_sched has no banks (smtlm_rf_request's SMTLM_EINVAL).
    EXPECT_EQ(smtlm_rf_request_reads(r.rf.get(), 4, 0, 4, src, 0x7, &queued), SMTLM_EINVAL);
    EXPECT_EQ(queued, 0u);
    EXPECT_EQ(r.rf->nonempty, (1ull << 1) | (1ull << 2));
}

// A bank's queue runs from reads[b] (its grants, the head) to q_tail[b] (its requests): after any
// mix of requests and grants, queued = requests - grants and reads[b] counts exactly the grants,
// also when the running counts wrap around the ring several times.
TEST(RegFileQueue, HeadIsTheGrantCountAndTailTheRequestCount)
{
    Rf r;
    uint64_t requested = 0, granted = 0;
    for (unsigned round = 0; round < 3 * SMTLM_RF_QUEUE_CAP; round++) {
        const unsigned n = round % 3; // 0, 1 or 2 requests, one grant per step
        for (unsigned i = 0; i < n; i++)
            r.req(5, (round + i) % 8, i, 1);
        requested += n;
        const std::vector<smtlm_read_grant> g = r.arb();
        granted += g.size();
        if (!g.empty()) { // FIFO order: the oldest request of bank 5
            EXPECT_EQ(g[0].bank, 5);
        }
        ASSERT_EQ(r.rf->reads[5], granted);
        ASSERT_EQ(r.rf->q_tail[5], requested);
        ASSERT_EQ(smtlm_rf_queued(r.rf.get(), 5), requested - granted);
        ASSERT_EQ((r.rf->nonempty >> 5 & 1) != 0, requested != granted);
    }
    EXPECT_GT(granted, (uint64_t)SMTLM_RF_QUEUE_CAP); // the ring index wrapped
}

// The fifo step in pieces (granting mask, fifo_grant per bank, fifo_done), as the C engine's
// collector runs it, equals smtlm_rf_arbitrate: same grants in bank order, same queues, same
// statistics, with write-allocated banks refusing.
TEST(RegFileFifoPieces, EqualArbitrate)
{
    Rf a, b;
    uint32_t x = 12345;
    for (unsigned step = 0; step < 400; step++) {
        for (unsigned k = 0; k < 3; k++) {
            x = x * 1103515245u + 12345u;
            const unsigned bank = (x >> 8) % 16, cu = (x >> 16) % 8, op = (x >> 20) % 4;
            a.req(bank, cu, op, bank);
            b.req(bank, cu, op, bank);
        }
        x = x * 1103515245u + 12345u;
        const unsigned wb = (x >> 12) % 16;
        smtlm_rf_write(a.rf.get(), wb);
        smtlm_rf_write(b.rf.get(), wb);
        const std::vector<smtlm_read_grant> ga = a.arb();
        std::vector<smtlm_read_grant> gb;
        uint64_t granting = smtlm_rf_fifo_granting(b.rf.get()), emptied = 0;
        while (granting) {
            const unsigned bk = (unsigned)__builtin_ctzll(granting);
            granting &= granting - 1;
            const smtlm_read_req q = smtlm_rf_fifo_grant(b.rf.get(), bk, &emptied);
            gb.push_back(smtlm_read_grant{q.cu, q.operand, (uint8_t)bk});
        }
        smtlm_rf_fifo_done(b.rf.get(), emptied);
        smtlm_rf_end_step(a.rf.get());
        smtlm_rf_end_step(b.rf.get());
        ASSERT_EQ(ga.size(), gb.size()) << step;
        for (size_t i = 0; i < ga.size(); i++) {
            EXPECT_EQ(ga[i].bank, gb[i].bank);
            EXPECT_EQ(ga[i].cu, gb[i].cu);
            EXPECT_EQ(ga[i].operand, gb[i].operand);
        }
        ASSERT_EQ(a.rf->nonempty, b.rf->nonempty) << step;
        for (unsigned bk = 0; bk < 16; bk++) {
            EXPECT_EQ(a.rf->reads[bk], b.rf->reads[bk]);
            EXPECT_EQ(a.rf->wait_steps[bk], b.rf->wait_steps[bk]);
        }
        EXPECT_EQ(a.rf->steps_with_wait, b.rf->steps_with_wait);
        for (unsigned d = 0; d < SMTLM_RF_DEPTH_BINS; d++)
            EXPECT_EQ(a.rf->queue_depth_hist[d], b.rf->queue_depth_hist[d]);
    }
    EXPECT_GT(a.rf->steps_with_wait, 0u); // queues did build up
}

// smtlm_rf_queue_reads (no overflow check) relies on every collector unit having at most 4 reads
// waiting and init keeping n_cus x 4 within a queue: the most that can wait in one bank, every
// CU with 4 reads in it, fills it exactly, and queues like smtlm_rf_request_reads.
TEST(RegFileQueueReads, TheMostThatCanWaitFitsAndQueuesLikeRequestReads)
{
    const ktu::RfSetup c = {{16, SMTLM_ALLOC_FIFO, 0}, {4, 1}, SMTLM_RF_QUEUE_CAP / 4};
    Rf a(c), b(c);
    ASSERT_EQ(a.rc, SMTLM_OK);
    ktu::RfSetup big = c;
    big.n_cus = SMTLM_RF_QUEUE_CAP / 4 + 1;
    std::unique_ptr<smtlm_rf> rf(new smtlm_rf);
    EXPECT_EQ(ktu::rf_init(rf.get(), big), SMTLM_ERANGE); // one more CU could overflow a queue
    const int16_t src[4] = {4, 8, 12, 16}; // warp 0, scheduler 1: all bank 4 + 0
    for (unsigned cu = 0; cu < c.n_cus; cu++) {
        smtlm_rf_queue_reads(a.rf.get(), cu, 0, 1, src, 0xF);
        unsigned queued = 0;
        ASSERT_EQ(smtlm_rf_request_reads(b.rf.get(), cu, 0, 1, src, 0xF, &queued), SMTLM_OK);
    }
    EXPECT_EQ(smtlm_rf_queued(a.rf.get(), 4), (unsigned)SMTLM_RF_QUEUE_CAP);
    EXPECT_EQ(a.rf->nonempty, b.rf->nonempty);
    for (unsigned i = 0; i < SMTLM_RF_QUEUE_CAP; i++) {
        const smtlm_read_req *x = smtlm_rf_entry(a.rf.get(), 4, i), *y = smtlm_rf_entry(b.rf.get(), 4, i);
        ASSERT_EQ(x->cu, y->cu);
        ASSERT_EQ(x->operand, y->operand);
        ASSERT_EQ(x->reg, y->reg);
    }
}

} // namespace

static void count_landed(void *ctx, unsigned, unsigned) { ++*(unsigned *)ctx; }

// Writeback's table-only write (smtlm_rf_try_write_valid) against smtlm_rf_try_write on random
// writes of every valid register, warp and scheduler, flat and sub-core, faithful and fix mode:
// the same verdict and the same register-file state after each write.
TEST(RegFileWritePort, TableWriteMatchesTryWrite)
{
    const ktu::RfSetup cfgs[] = {{{16, SMTLM_ALLOC_FIFO, 0}, {4, 1}, 8}, {{16, SMTLM_ALLOC_FIFO, 1}, {4, 1}, 8},
                                 {{8, SMTLM_ALLOC_FIFO, 0}, {2, 0}, 8},  {{6, SMTLM_ALLOC_FIFO, 1}, {3, 1}, 6},
                                 {{32, SMTLM_ALLOC_FIFO, 1}, {4, 0}, 16}, {{5, SMTLM_ALLOC_FIFO, 0}, {1, 0}, 4}};
    std::mt19937 g(5);
    for (const ktu::RfSetup &c : cfgs) {
        Rf a(c), b(c);
        ASSERT_EQ(a.rc, SMTLM_OK);
        ASSERT_EQ(b.rc, SMTLM_OK);
        unsigned landed[2] = {0, 0}; // buffered writes that landed, per register file
        const smtlm_release_port ops_a = {nullptr, &landed[0], count_landed}, ops_b = {nullptr, &landed[1], count_landed};
        smtlm_rf_bind(a.rf.get(), &ops_a);
        smtlm_rf_bind(b.rf.get(), &ops_b);
        unsigned conflicts = 0;
        for (int round = 0; round < 50000; round++) {
            const unsigned warp = g() % SMTLM_MAX_WARPS, sched = g() % c.shape.n_sched, reg = g() % (SMTLM_MAX_REG + 1);
            const smtlm_rf_write_result ra = smtlm_rf_try_write(a.rf.get(), warp, sched, reg);
            ASSERT_EQ(smtlm_rf_try_write_valid(b.rf.get(), warp, sched, reg), ra) << "round " << round;
            conflicts += ra != SMTLM_RF_WRITTEN;
            ASSERT_EQ(a.rf->write_alloc, b.rf->write_alloc) << "round " << round;
            ASSERT_EQ(a.rf->blocked, b.rf->blocked) << "round " << round;
            ASSERT_EQ(a.rf->dropped_writes, b.rf->dropped_writes) << "round " << round;
            ASSERT_EQ(a.rf->buffered_writes, b.rf->buffered_writes) << "round " << round;
            ASSERT_EQ(std::memcmp(a.rf->writes, b.rf->writes, sizeof a.rf->writes), 0) << "round " << round;
            if (g() % 3 == 0) { // next step: allocations cleared, buffered writes land
                smtlm_rf_end_step(a.rf.get());
                smtlm_rf_end_step(b.rf.get());
                smtlm_rf_drain_writes(a.rf.get());
                smtlm_rf_drain_writes(b.rf.get());
                ASSERT_EQ(landed[0], landed[1]) << "round " << round;
            }
        }
        EXPECT_GT(conflicts, 1000u);
    }
}
