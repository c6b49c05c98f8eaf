// Execute's issue pass looks only at groups whose OC_EX set may hold work (`live`, set by the
// sets' puts through their watch): against the same block made to look at every group every
// cycle, on random traffic, with groups sharing a set, more than 64 groups, and sets
// re-initialised (the watch dropped) followed by the block's reset (installed again).
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "kernel_test_util.hpp"

extern "C" {
#include "smtlm/exec.h"
#include "smtlm/port_calls.h"
}

namespace {

using Rng = ktu::Lcg;
const auto &kSets = ktu::kAluSets;
const auto &kOps = ktu::kAluOps;
const smtlm_fu_kind kKinds[3] = {SMTLM_FU_SP, SMTLM_FU_INT, SMTLM_FU_SFU};

// shape 0: 4 units per set; 1: SP, INT, SP again (two groups read one set), SFU; 2: 90 units of
// one each, the sets in turn (90 groups: the ones from 64 on are not watched).
int build(smtlm_exec *ex, int sub_core, unsigned shape)
{
    int rc = smtlm_exec_init(ex, 3, sub_core);
    if (shape == 0)
        for (unsigned k = 0; k < 3 && !rc; k++)
            rc = smtlm_exec_add_units(ex, kKinds[k], 0, 4, 14, kSets[k]);
    if (shape == 1) {
        const unsigned order[4] = {0, 1, 0, 2};
        for (unsigned j = 0; j < 4 && !rc; j++)
            rc = smtlm_exec_add_units(ex, kKinds[order[j]], 0, 2, 14, kSets[order[j]]);
    }
    if (shape == 2)
        for (unsigned j = 0; j < 90 && !rc; j++)
            rc = smtlm_exec_add_units(ex, kKinds[j % 3], 0, 1, 14, kSets[j % 3]);
    return rc;
}

void feed(Rng &rnd, ktu::KernelCtx &a, ktu::KernelCtx &b, int sub_core)
{
    for (unsigned k = 0; k < 3; k++) {
        if (rnd(3) == 0)
            continue;
        const unsigned slot = rnd(4);
        smtlm_regset *rs = &a.rs[kSets[k]];
        if (sub_core ? !smtlm_regset_slot_free(rs, slot) : rs->count == rs->width)
            continue;
        const unsigned lat = 1 + rnd(12), ii = 1 + rnd(lat);
        for (ktu::KernelCtx *c : {&a, &b}) {
            if (c->pool->free_head == SMTLM_NO_INST)
                return;
            const smtlm_iref r = c->make(kOps[k], 0, 0, {1}, {2}, lat, ii);
            ASSERT_GE(smtlm_regset_move_in(&c->rs[kSets[k]], sub_core, slot, r, c->get(r)->uid), 0);
        }
    }
}

std::vector<smtlm_iref> drain(ktu::KernelCtx &k, smtlm_regset *rs)
{
    std::vector<smtlm_iref> out;
    while (rs->count) {
        const smtlm_iref r = smtlm_regset_take(rs, smtlm_ctz64(rs->occ));
        out.push_back(r);
        smtlm_pool_free(k.pool.get(), r);
    }
    return out;
}

// Empties every set and re-initialises it (dropping its watch), in both contexts alike.
void reinit_sets(ktu::KernelCtx &k)
{
    for (unsigned set : {(unsigned)SMTLM_OC_EX_SP, (unsigned)SMTLM_OC_EX_INT, (unsigned)SMTLM_OC_EX_SFU,
                         (unsigned)SMTLM_EX_WB}) {
        drain(k, &k.rs[set]);
        smtlm_regset_init(&k.rs[set], set == SMTLM_EX_WB ? 8 : 4);
    }
}

// The shortcut's invariant: a group (k < 64) whose set holds an instruction is live.
void expect_live_covers(const smtlm_exec *ex, uint64_t c)
{
    for (unsigned k = 0; k < ex->n_groups && k < 64; k++)
        if (ex->group_set[k]->count) {
            ASSERT_TRUE(ex->live >> k & 1) << "group " << k << " cycle " << c;
        }
}

const ktu::RfSetup kRf{{16, SMTLM_ALLOC_FIFO, 0}, {4, 1}, 8};

// Builds execute of the given shape, bound to k's sets and pool, and resets it.
void start(ktu::KernelCtx &k, smtlm_exec *ex, int sub_core, unsigned shape)
{
    ASSERT_EQ(build(ex, sub_core, shape), SMTLM_OK);
    smtlm_stage_port out;
    smtlm_regset_stage_port(k.rs, &out);
    smtlm_exec_bind(ex, k.rs, &out, k.pool.get());
    smtlm_exec_reset(ex);
}

} // namespace

TEST(ExecLive, LiveGroupsMatchEveryGroupEveryCycle)
{
    unsigned issued = 0;
    for (uint32_t seed = 1; seed <= 18; seed++) {
        const int sub_core = (int)(seed & 1);
        const unsigned shape = seed % 3;
        ktu::KernelCtx ka(kRf), kb(kRf);
        std::unique_ptr<smtlm_exec> a(new smtlm_exec), b(new smtlm_exec);
        ASSERT_NO_FATAL_FAILURE(start(ka, a.get(), sub_core, shape));
        ASSERT_NO_FATAL_FAILURE(start(kb, b.get(), sub_core, shape));
        Rng rnd{seed * 2654435761u};
        for (uint64_t c = 1; c <= 5000; c++) {
            if (c % 1500 == 0) { // sets re-initialised, then the block's reset installs the watch again
                reinit_sets(ka);
                reinit_sets(kb);
                smtlm_exec_reset(a.get());
                smtlm_exec_reset(b.get());
            }
            if (c % 500 < 380) // with idle stretches: groups leave `live` and come back on a put
                feed(rnd, ka, kb, sub_core);
            expect_live_covers(a.get(), c);
            b->live = b->n_groups >= 64 ? ~0ull : (1ull << b->n_groups) - 1; // every group looked at
            ASSERT_EQ(smtlm_exec_cycle(a.get(), c), smtlm_exec_cycle(b.get(), c)) << c;
            for (unsigned set : kSets) {
                ASSERT_EQ(ka.rs[set].count, kb.rs[set].count) << set << " " << c;
                ASSERT_EQ(ka.rs[set].occ, kb.rs[set].occ) << set << " " << c;
            }
            for (unsigned i = 0; i < a->n_fu; i++) {
                ASSERT_EQ(a->fu[i].issued, b->fu[i].issued) << "unit " << i << " cycle " << c;
                ASSERT_EQ(a->fu[i].active, b->fu[i].active) << "unit " << i << " cycle " << c;
            }
            ASSERT_EQ(a->rb.stalls, b->rb.stalls) << c;
            ASSERT_EQ(drain(ka, &ka.rs[SMTLM_EX_WB]), drain(kb, &kb.rs[SMTLM_EX_WB])) << c;
        }
        for (unsigned i = 0; i < a->n_fu; i++)
            issued += (unsigned)a->fu[i].issued;
    }
    EXPECT_GT(issued, 8000u);
}

// smtlm_exec_idle_cycle (the SM's shortcut: no visit due, no live group) followed by
// smtlm_exec_cycle when it declines, against smtlm_exec_cycle every cycle with every group
// looked at, on traffic with idle stretches; also with more than 64 groups (never idle).
TEST(ExecLive, IdleCycleMatchesFullCycle)
{
    unsigned idle = 0;
    for (uint32_t seed = 1; seed <= 12; seed++) {
        const int sub_core = (int)(seed & 1);
        const unsigned shape = seed % 3;
        ktu::KernelCtx ka(kRf), kb(kRf);
        std::unique_ptr<smtlm_exec> a(new smtlm_exec), b(new smtlm_exec);
        ASSERT_NO_FATAL_FAILURE(start(ka, a.get(), sub_core, shape));
        ASSERT_NO_FATAL_FAILURE(start(kb, b.get(), sub_core, shape));
        Rng rnd{seed * 40503u + 7u};
        for (uint64_t c = 1; c <= 6000; c++) {
            if (c % 700 < 200) // long idle stretches: units drain, then nothing is due
                feed(rnd, ka, kb, sub_core);
            b->live = b->n_groups >= 64 ? ~0ull : (1ull << b->n_groups) - 1;
            const int took = smtlm_exec_idle_cycle(a.get());
            idle += (unsigned)took;
            ASSERT_EQ(took ? SMTLM_OK : smtlm_exec_cycle(a.get(), c), smtlm_exec_cycle(b.get(), c)) << c;
            ASSERT_EQ(a->t, b->t) << c;
            ASSERT_EQ(a->rb.t, b->rb.t) << c;
            for (unsigned i = 0; i < SMTLM_MAX_LATENCY; i++)
                ASSERT_EQ(a->rb.taken[i], b->rb.taken[i]) << c;
            for (unsigned set : kSets)
                ASSERT_EQ(ka.rs[set].occ, kb.rs[set].occ) << set << " " << c;
            for (unsigned i = 0; i < a->n_fu; i++) {
                ASSERT_EQ(a->fu[i].issued, b->fu[i].issued) << "unit " << i << " cycle " << c;
                ASSERT_EQ(a->fu[i].active, b->fu[i].active) << "unit " << i << " cycle " << c;
                ASSERT_EQ(smtlm_fu_busy_cycles(&a->fu[i], a->t), smtlm_fu_busy_cycles(&b->fu[i], b->t)) << i << " " << c;
            }
            ASSERT_EQ(drain(ka, &ka.rs[SMTLM_EX_WB]), drain(kb, &kb.rs[SMTLM_EX_WB])) << c;
        }
    }
    EXPECT_GT(idle, 10000u);
}
