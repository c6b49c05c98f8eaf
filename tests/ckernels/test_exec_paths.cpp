// The execute block's inline paths against the general ones, every cycle on random traffic:
// - issue places an instruction with II > 0 into its free start stage inline; a reference built
//   from the unit's general calls (smtlm_fu_visit every cycle, smtlm_fu_issue_at) must agree;
// - results go into EX_WB inline when the port is bound to it directly; the same exec bound to
//   EX_WB through the port's ops (a put function) must agree, refusals included.
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

int build(smtlm_exec *ex, unsigned buses, int sub_core)
{
    int rc = smtlm_exec_init(ex, buses, sub_core);
    if (!rc)
        rc = smtlm_exec_add_units(ex, SMTLM_FU_SP, 0, 4, 14, SMTLM_OC_EX_SP);
    if (!rc)
        rc = smtlm_exec_add_units(ex, SMTLM_FU_INT, 0, 4, 14, SMTLM_OC_EX_INT);
    if (!rc)
        rc = smtlm_exec_add_units(ex, SMTLM_FU_SFU, 0, 4, 14, SMTLM_OC_EX_SFU);
    return rc;
}

// Random new instructions into the OC_EX sets, the same in every context (pools allocate alike).
void feed(Rng &rnd, std::vector<ktu::KernelCtx *> ks, int sub_core)
{
    for (unsigned k = 0; k < 3; k++) {
        if (rnd(3) == 0)
            continue;
        const unsigned slot = rnd(4);
        smtlm_regset *rs = &ks[0]->rs[kSets[k]];
        if (sub_core ? !smtlm_regset_slot_free(rs, slot) : rs->count == rs->width)
            continue;
        const unsigned lat = 1 + rnd(12), ii = 1 + rnd(lat);
        for (ktu::KernelCtx *c : ks) {
            if (c->pool->free_head == SMTLM_NO_INST)
                return;
            const smtlm_iref r = c->make(kOps[k], 0, 0, {1}, {2}, lat, ii);
            const int s = smtlm_regset_move_in(&c->rs[kSets[k]], sub_core, slot, r, c->get(r)->uid);
            ASSERT_GE(s, 0);
        }
    }
}

// Writeback's part: EX_WB emptied in slot order, entries freed; returns what it held.
std::vector<smtlm_iref> drain(ktu::KernelCtx &k)
{
    std::vector<smtlm_iref> out;
    smtlm_regset *wb = &k.rs[SMTLM_EX_WB];
    while (wb->count) {
        const smtlm_iref r = smtlm_regset_take(wb, smtlm_ctz64(wb->occ));
        out.push_back(r);
        smtlm_pool_free(k.pool.get(), r);
    }
    return out;
}

// The reference execute(): every unit visited every cycle through smtlm_fu_visit, issue through
// smtlm_fu_issue_at, as the block did before its inline paths (no EX_WB refusals here).
struct RefExec {
    std::unique_ptr<smtlm_exec> ex{new smtlm_exec}; // its units and buses, driven below
    ktu::KernelCtx *k = nullptr;
    int sub_core = 0;
    void cycle(uint64_t now)
    {
        smtlm_resbus_shift(&ex->rb);
        const uint64_t c = ++ex->t;
        for (unsigned i = 0; i < ex->n_fu; i++) {
            const smtlm_iref done = smtlm_fu_visit(&ex->fu[i], nullptr, 0, c);
            if (done != SMTLM_NO_INST) {
                ASSERT_GE(smtlm_regset_move_in(&k->rs[SMTLM_EX_WB], 0, 0, done, k->get(done)->uid), 0);
            }
        }
        for (unsigned i = 0; i < ex->n_fu; i++) {
            smtlm_fu *fu = &ex->fu[i];
            smtlm_regset *src = &k->rs[fu->issue_set];
            if (!src->count)
                continue;
            const int slot = sub_core ? (int)fu->issue_slot : smtlm_regset_oldest(src);
            if (src->slot[slot] == SMTLM_NO_INST)
                continue;
            smtlm_inst *in = k->get(src->slot[slot]);
            if (!smtlm_fu_can_issue_at(fu, c, in->latency) || !smtlm_fu_accepts(fu, in->op, in->spec))
                continue;
            if (smtlm_resbus_reserve(&ex->rb, in->latency) < 0)
                continue;
            const smtlm_iref r = smtlm_regset_take(src, (unsigned)slot);
            in->ev[SMTLM_EV_FU_ISSUE] = now;
            smtlm_fu_issue_at(fu, nullptr, 0, r, in->latency, in->ii, c);
        }
    }
};

void expect_units_equal(const smtlm_exec *a, const smtlm_exec *b, uint64_t c)
{
    ASSERT_EQ(a->n_fu, b->n_fu);
    for (unsigned i = 0; i < a->n_fu; i++) {
        ASSERT_EQ(a->fu[i].issued, b->fu[i].issued) << "unit " << i << " cycle " << c;
        ASSERT_EQ(a->fu[i].active, b->fu[i].active) << "unit " << i << " cycle " << c;
        ASSERT_EQ(a->fu[i].dispatch, b->fu[i].dispatch) << "unit " << i << " cycle " << c;
        ASSERT_EQ(smtlm_fu_busy_cycles(&a->fu[i], a->t), smtlm_fu_busy_cycles(&b->fu[i], b->t)) << i << " " << c;
    }
    ASSERT_EQ(a->rb.stalls, b->rb.stalls) << c;
    ASSERT_EQ(a->exwb_overflow, b->exwb_overflow) << c;
}

void expect_sets_equal(ktu::KernelCtx &a, ktu::KernelCtx &b, uint64_t c)
{
    for (unsigned set : {(unsigned)SMTLM_OC_EX_SP, (unsigned)SMTLM_OC_EX_INT, (unsigned)SMTLM_OC_EX_SFU,
                         (unsigned)SMTLM_EX_WB}) {
        ASSERT_EQ(a.rs[set].count, b.rs[set].count) << set << " " << c;
        ASSERT_EQ(a.rs[set].occ, b.rs[set].occ) << set << " " << c;
        for (unsigned s = 0; s < a.rs[set].width; s++) {
            ASSERT_EQ(a.rs[set].slot[s], b.rs[set].slot[s]) << set << " " << c;
            // EX_WB: the direct hand-off keeps no uid copy (writeback reads the pool's).
            if (a.rs[set].slot[s] != SMTLM_NO_INST && set != SMTLM_EX_WB) {
                ASSERT_EQ(a.rs[set].uid[s], b.rs[set].uid[s]) << set << " " << c;
            }
        }
    }
}

const ktu::RfSetup kRf{{16, SMTLM_ALLOC_FIFO, 0}, {4, 1}, 8};

} // namespace

// Inline issue and inline EX_WB hand-off vs. the unit's general calls visited every cycle.
TEST(ExecPaths, InlineIssueMatchesGeneralUnitCalls)
{
    unsigned issued = 0;
    for (uint32_t seed = 1; seed <= 12; seed++) {
        const int sub_core = (int)(seed & 1);
        ktu::KernelCtx ka(kRf), kb(kRf);
        std::unique_ptr<smtlm_exec> ex(new smtlm_exec);
        ASSERT_EQ(build(ex.get(), 3, sub_core), SMTLM_OK);
        smtlm_stage_port stage;
        smtlm_regset_stage_port(ka.rs, &stage);
        smtlm_exec_bind(ex.get(), ka.rs, &stage, ka.pool.get());
        smtlm_exec_reset(ex.get());
        RefExec ref;
        ref.k = &kb;
        ref.sub_core = sub_core;
        ASSERT_EQ(build(ref.ex.get(), 3, sub_core), SMTLM_OK);
        smtlm_exec_reset(ref.ex.get());
        Rng rnd{seed};
        for (uint64_t c = 1; c <= 4000; c++) {
            if (c % 700 < 600)
                feed(rnd, {&ka, &kb}, sub_core);
            ASSERT_EQ(smtlm_exec_cycle(ex.get(), c), SMTLM_OK);
            ref.cycle(c);
            expect_sets_equal(ka, kb, c);
            expect_units_equal(ex.get(), ref.ex.get(), c);
            ASSERT_EQ(drain(ka), drain(kb));
        }
        for (unsigned i = 0; i < ex->n_fu; i++)
            issued += (unsigned)ex->fu[i].issued;
    }
    EXPECT_GT(issued, 20000u);
}

// EX_WB bound directly (results inline) vs. through another put function (the general
// hand-off), with EX_WB often left full so that results are refused.
TEST(ExecPaths, InlineHandOffMatchesGeneralPut)
{
    unsigned refused = 0;
    for (uint32_t seed = 1; seed <= 12; seed++) {
        const int sub_core = (int)(seed & 1);
        ktu::KernelCtx ka(kRf), kb(kRf);
        smtlm_regset_init(&ka.rs[SMTLM_EX_WB], 2);
        smtlm_regset_init(&kb.rs[SMTLM_EX_WB], 2);
        std::unique_ptr<smtlm_exec> a(new smtlm_exec), b(new smtlm_exec);
        ASSERT_EQ(build(a.get(), 4, sub_core), SMTLM_OK);
        ASSERT_EQ(build(b.get(), 4, sub_core), SMTLM_OK);
        smtlm_stage_port direct, general;
        smtlm_regset_stage_port(ka.rs, &direct);
        smtlm_regset_stage_port(kb.rs, &general);
        general.sets = nullptr; // the same sets through the ops
        general.ctx = kb.rs;
        general.put = [](void *sets, unsigned set, int sc, unsigned s, smtlm_iref r, uint64_t uid) {
            return smtlm_regset_move_in(&static_cast<smtlm_regset *>(sets)[set], sc, s, r, uid);
        };
        smtlm_exec_bind(a.get(), ka.rs, &direct, ka.pool.get());
        smtlm_exec_bind(b.get(), kb.rs, &general, kb.pool.get());
        smtlm_exec_reset(a.get());
        smtlm_exec_reset(b.get());
        Rng rnd{seed * 7919u};
        for (uint64_t c = 1; c <= 4000; c++) {
            if (c % 700 < 600)
                feed(rnd, {&ka, &kb}, sub_core);
            const int ra = smtlm_exec_cycle(a.get(), c), rb = smtlm_exec_cycle(b.get(), c);
            ASSERT_EQ(ra, rb) << c;
            refused += ra == SMTLM_EFULL;
            expect_sets_equal(ka, kb, c);
            expect_units_equal(a.get(), b.get(), c);
            if (rnd(3)) { // else EX_WB stays as it is: the next results may be refused
                ASSERT_EQ(drain(ka), drain(kb));
            }
        }
    }
    EXPECT_GT(refused, 100u);
}
