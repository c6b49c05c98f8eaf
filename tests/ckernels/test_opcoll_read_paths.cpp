// The read path's shortcuts against their general forms:
//  - a CU names its OC_EX set by pointer in the C engine's row (cu.out_rs); dispatch's room test
//    and put use it. An SM whose collector reaches the OC_EX sets only through the stage ops
//    (out_row and out_direct cleared: room_slot's general test, out.put) must match one using
//    the pointer after every cycle, and every busy CU's pointer must be its set in the row;
//  - the collector's statistics `allocations` and `dispatches` are derived (sum of cu_allocations;
//    allocations - busy): they must count what happened;
//  - the C engine's collector queues an instruction's distinct reads straight into its register
//    file, up to three sources unrolled (queue_distinct_direct): an SM whose collector queues them
//    through the read ports instead (rf_direct cleared: distinct_sources, then one request per
//    read) must leave the same queues, operand bits and statistics after every cycle, over 0..4
//    sources with many repeated registers;
//  - the read slots worked out at decode (smtlm_read_ops, the entry's rd_ops) must be the
//    distinct sources' first slots for one to three sources, and 0 (the general path) otherwise;
//  - the unchecked read queueing looks banks up by mask in a table sized to a power of two and
//    takes the scheduler's first bank from a table: for every valid register, warp and scheduler
//    it must pick smtlm_rf_cfg_bank's bank.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>

#include "kernel_test_util.hpp"
#include "sm_compare.hpp"
#include "smtlm/regfile.h"

namespace {

TEST(ReadOps, FirstSlotOfEachDistinctRegister)
{
    std::mt19937 rng(12);
    for (int i = 0; i < 100000; i++) {
        int16_t src[SMTLM_MAX_SRC];
        for (auto &r : src)
            r = (int16_t)(rng() % 2 ? rng() % 4 : rng()); // mostly repeats
        const unsigned n = rng() % (SMTLM_MAX_SRC + 1);
        unsigned want = 0;
        for (unsigned op = 0; op < n; op++) {
            bool dup = false;
            for (unsigned q = 0; q < op; q++)
                dup = dup || src[q] == src[op];
            want |= (unsigned)!dup << op;
        }
        if (n == 0 || n > 3)
            want = 0;
        ASSERT_EQ(smtlm_read_ops(src, n), want) << "n_src " << n;
    }
}

using ktu::ffma;
using ktu::iadd;
using ktu::mufu;

// Random traffic: every unit the SM has, repeated and distinct sources, loads.
std::vector<std::vector<smtlm_inst_desc>> random_programs(unsigned warps, unsigned seed)
{
    std::mt19937 rng(seed);
    std::vector<std::vector<smtlm_inst_desc>> p;
    for (unsigned w = 0; w < warps; w++) {
        std::vector<smtlm_inst_desc> q;
        for (unsigned k = 0; k < 40; k++) {
            const int a = (int)(rng() % 24), b = (int)(rng() % 24), c = (int)(rng() % 4 == 0 ? a : rng() % 24);
            switch (rng() % 5) {
            case 0: q.push_back(iadd(30 + (int)(rng() % 8), {a, b, c})); break;
            case 1: q.push_back(mufu(40 + (int)(rng() % 4), {a})); break;
            case 2: q.push_back(ktu::global(SMTLM_OP_LOAD, 44 + (int)(rng() % 4), {a}, 0x1000 + 0x80 * w, 4)); break;
            default: q.push_back(ffma(20 + (int)(rng() % 8), {a, b, c})); break;
            }
        }
        p.push_back(ktu::prog(q));
    }
    return p;
}

void expect_same(const smtlm_sm &a, const smtlm_sm &b, const std::string &at)
{
    ktu::expect_same_sets_and_cus(a, b, at);
    for (unsigned j = 0; j < a.oc.n_cus; j++) {
        EXPECT_EQ(a.oc.cu_allocations[j], b.oc.cu_allocations[j]) << at << " cu " << j;
        EXPECT_EQ(a.oc.cu_held[j], b.oc.cu_held[j]) << at << " cu " << j;
    }
}

// Every busy CU of the C engine's collector names its OC_EX set in the SM's row.
void expect_cu_sets(const smtlm_sm &sm, const std::string &at)
{
    for (unsigned j = 0; j < sm.oc.n_cus; j++) {
        const smtlm_cu &cu = sm.oc.cu[j];
        if (cu.inst != (smtlm_iref)SMTLM_NO_INST) {
            EXPECT_EQ(cu.out_rs, &sm.rs[cu.out]) << at << " cu " << j;
        }
    }
}

using Shape = ktu::CfgVariant;

const Shape shapes[] = {
    {"qv100", [](smtlm_sm_cfg &) {}},
    {"one_step_per_cycle", [](smtlm_sm_cfg &c) { c.reg_file_port_throughput = 1; }},
    {"flat", [](smtlm_sm_cfg &c) { c.shape.sub_core = 0; }},
    {"few_dispatch_units", [](smtlm_sm_cfg &c) { c.oc.num_out_ports[SMTLM_CUS_GEN] = 2; }},
};

// Loads the same programs into `fast` and `slow` and steps them in lock step while `fast` is
// active (at most 40,000 cycles), comparing their sets and collectors and calling check(at)
// after every cycle; false once a failure was recorded. Then `slow` must be done too.
template <class Check>
bool run_lockstep(ktu::Rig &fast, ktu::Rig &slow, const std::vector<std::vector<smtlm_inst_desc>> &progs,
                  const std::string &name, Check check)
{
    EXPECT_GE(fast.load(progs), 0) << name;
    EXPECT_GE(slow.load(progs), 0) << name;
    while (!::testing::Test::HasFailure() && fast.active() && fast.now() < 40000) {
        EXPECT_EQ(fast.step(), SMTLM_OK) << name;
        EXPECT_EQ(slow.step(), SMTLM_OK) << name;
        const std::string at = name + " cycle " + std::to_string(fast.now());
        expect_same(*fast.sm(), *slow.sm(), at);
        check(at);
    }
    EXPECT_FALSE(slow.active()) << name;
    return !::testing::Test::HasFailure();
}

class OpCollReadPaths : public ::testing::TestWithParam<size_t> {};

TEST_P(OpCollReadPaths, NamedSetMatchesTheStageOpsRoomTest)
{
    const Shape &sh = shapes[GetParam()];
    smtlm_sm_cfg cfg = ktu::qv100();
    sh.apply(cfg);
    for (unsigned seed = 1; seed <= 3; seed++) {
        ktu::Rig fast(cfg, 30, 64), slow(cfg, 30, 64);
        ASSERT_EQ(fast.init_rc, SMTLM_OK) << sh.name;
        ASSERT_EQ(slow.init_rc, SMTLM_OK) << sh.name;
        ASSERT_EQ(fast.sm()->oc.out_row, fast.sm()->oc.out_direct) << sh.name; // the pointer path applies
        slow.sm()->oc.out_row = NULL;    // room through smtlm_stage_has_free ...
        slow.sm()->oc.out_direct = NULL; // ... and the hand-off through the stage ops' put
        const unsigned warps = 16;
        const std::string name = std::string(sh.name) + " seed " + std::to_string(seed);
        uint64_t allocated = 0, dispatched = 0;
        const bool ran = run_lockstep(fast, slow, random_programs(warps, seed), name, [&](const std::string &at) {
            expect_cu_sets(*fast.sm(), at);
            // derived statistics: every CU taken since the last cycle counted once
            const smtlm_opcoll &oc = fast.sm()->oc;
            const unsigned busy = (unsigned)__builtin_popcountll(oc.set_cus[0] & ~oc.free_cus);
            EXPECT_EQ(oc.busy, busy) << at;
            EXPECT_EQ(smtlm_opcoll_allocations(&oc) - smtlm_opcoll_dispatches(&oc), oc.busy) << at;
            EXPECT_GE(smtlm_opcoll_allocations(&oc), allocated) << at;
            EXPECT_GE(smtlm_opcoll_dispatches(&oc), dispatched) << at;
            allocated = smtlm_opcoll_allocations(&oc);
            dispatched = smtlm_opcoll_dispatches(&oc);
        });
        if (!ran)
            return;
        EXPECT_EQ(fast.events.size(), warps * 41u) << sh.name; // all of the traffic ran (and each EXIT)
        // every retired instruction went through one CU, once
        EXPECT_EQ(smtlm_opcoll_allocations(&fast.sm()->oc), fast.events.size()) << sh.name;
        EXPECT_EQ(smtlm_opcoll_dispatches(&fast.sm()->oc), fast.events.size()) << sh.name;
        ktu::expect_same_retired(fast.events, slow.events, sh.name);
    }
}

// Random traffic of 0..4 sources drawn from few registers (so that sources repeat often).
std::vector<std::vector<smtlm_inst_desc>> repeating_sources(unsigned warps, unsigned seed)
{
    std::mt19937 rng(seed);
    std::vector<std::vector<smtlm_inst_desc>> p;
    for (unsigned w = 0; w < warps; w++) {
        std::vector<smtlm_inst_desc> q;
        for (unsigned k = 0; k < 40; k++) {
            std::vector<int> src;
            for (unsigned i = 0, n = rng() % 5; i < n; i++)
                src.push_back((int)(rng() % 4));
            const int dst = 8 + (int)(rng() % 8);
            q.push_back(rng() % 3 ? ffma(dst, src) : iadd(dst, src));
        }
        p.push_back(ktu::prog(q));
    }
    return p;
}

// The register files' queues, heads and statistics, and the CUs' operand bits, are the same.
void expect_same_reads(const smtlm_sm &a, const smtlm_sm &b, const std::string &at)
{
    const smtlm_rf &x = a.rf, &y = b.rf;
    EXPECT_EQ(x.nonempty, y.nonempty) << at;
    EXPECT_EQ(x.steps_with_wait, y.steps_with_wait) << at;
    for (unsigned bk = 0; bk < x.cfg.n_banks; bk++) {
        ASSERT_EQ(x.q_tail[bk], y.q_tail[bk]) << at << " bank " << bk;
        ASSERT_EQ(x.reads[bk], y.reads[bk]) << at << " bank " << bk;
        EXPECT_EQ(x.wait_steps[bk], y.wait_steps[bk]) << at << " bank " << bk;
        for (unsigned i = 0; i < smtlm_rf_queued(&x, bk); i++) {
            const smtlm_read_req *e = smtlm_rf_entry(&x, bk, i), *f = smtlm_rf_entry(&y, bk, i);
            EXPECT_EQ(e->cu, f->cu) << at << " bank " << bk << " entry " << i;
            EXPECT_EQ(e->operand, f->operand) << at << " bank " << bk << " entry " << i;
            EXPECT_EQ(e->reg, f->reg) << at << " bank " << bk << " entry " << i;
        }
    }
    for (unsigned d = 0; d < SMTLM_RF_DEPTH_BINS; d++)
        EXPECT_EQ(x.queue_depth_hist[d], y.queue_depth_hist[d]) << at << " depth " << d;
    for (unsigned j = 0; j < a.oc.n_cus; j++)
        EXPECT_EQ(smtlm_opcoll_not_ready(&a.oc, j), smtlm_opcoll_not_ready(&b.oc, j)) << at << " cu " << j;
}

TEST_P(OpCollReadPaths, UnrolledQueueingMatchesThePortedRequests)
{
    const Shape &sh = shapes[GetParam()];
    smtlm_sm_cfg cfg = ktu::qv100();
    sh.apply(cfg);
    for (unsigned seed = 1; seed <= 3; seed++) {
        ktu::Rig fast(cfg, 30, 64), slow(cfg, 30, 64);
        ASSERT_EQ(fast.init_rc, SMTLM_OK) << sh.name;
        ASSERT_EQ(slow.init_rc, SMTLM_OK) << sh.name;
        ASSERT_EQ(fast.sm()->oc.rf_direct, &fast.sm()->rf) << sh.name; // the unrolled path applies
        ASSERT_EQ(slow.sm()->oc.rf.request_reads, nullptr) << sh.name;  // one request per read
        slow.sm()->oc.rf_direct = NULL;
        const unsigned warps = 16;
        const std::string name = std::string(sh.name) + " seed " + std::to_string(seed);
        if (!run_lockstep(fast, slow, repeating_sources(warps, seed), name,
                          [&](const std::string &at) { expect_same_reads(*fast.sm(), *slow.sm(), at); }))
            return;
        EXPECT_EQ(fast.events.size(), warps * 41u) << sh.name;
        EXPECT_GT(fast.sm()->rf.steps_with_wait, 0u) << sh.name; // reads did queue up
        ktu::expect_same_retired(fast.events, slow.events, sh.name);
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, OpCollReadPaths, ::testing::Range<size_t>(0, sizeof shapes / sizeof shapes[0]));

TEST(OpCollReadPaths, QueuedReadsLandInTheBankOfTheBankMap)
{
    struct Cfg {
        unsigned banks, sched;
        int sub_core;
    } cfgs[] = {{16, 4, 1}, {16, 4, 0}, {8, 4, 1}, {12, 4, 1}, {6, 2, 1}, {7, 1, 0}, {64, 8, 1}, {3, 1, 0}};
    for (const Cfg &c : cfgs) {
        ktu::RfSetup rc = {{c.banks, SMTLM_ALLOC_FIFO, 0}, {c.sched, c.sub_core}, 8};
        auto rf = std::make_unique<smtlm_rf>();
        ASSERT_EQ(ktu::rf_init(rf.get(), rc), SMTLM_OK);
        for (unsigned sched = 0; sched < c.sched; sched++)
            for (unsigned warp = 0; warp < SMTLM_MAX_WARPS; warp++)
                for (int reg = 0; reg <= SMTLM_MAX_REG; reg++) {
                    const int16_t src[SMTLM_MAX_SRC] = {(int16_t)reg, 0, 0, 0};
                    rf->nonempty = 0;
                    smtlm_rf_queue_reads(rf.get(), 0, warp, sched, src, 1u);
                    const unsigned want = smtlm_rf_cfg_bank(&rc.cfg, &rc.shape, (unsigned)reg, warp, sched);
                    ASSERT_EQ(rf->nonempty, 1ull << want)
                        << c.banks << " banks, sub_core " << c.sub_core << ", sched " << sched << " warp " << warp << " reg " << reg;
                    ASSERT_EQ(smtlm_rf_bank(rf.get(), (unsigned)reg, warp, sched), want);
                    rf->q_tail[want]--; // unqueue it: the queues never fill
                }
    }
}

} // namespace
