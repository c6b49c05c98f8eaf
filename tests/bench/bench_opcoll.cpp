// Operand collector: one read-operand step of a QV100-like SM (8 collector units, 4 sub-cores,
// 16 banks) in the SM's order: dispatch ready CUs to OC_EX, arbitrate the banks, deliver the
// grants, allocate CUs to waiting ID_OC instructions. Every iteration refills ID_OC_SP (one
// FFMA per sub-core) and drains OC_EX_SP, so the collector is always busy.
// Args: sources per instruction, and 1 = all sources in one bank (bank conflicts).
#include <benchmark/benchmark.h>

#include <cstring>
#include <memory>

extern "C" {
#include "smtlm/sm.h"
}

namespace {

struct Harness {
    std::unique_ptr<smtlm_sm> sm{new smtlm_sm};
    uint64_t uid = 0, now = 0;
    unsigned k = 0;
    int init()
    {
        smtlm_sm_cfg cfg;
        smtlm_sm_cfg_qv100(&cfg);
        return smtlm_sm_init(sm.get(), &cfg, 0);
    }
    void refill(unsigned n_src, bool conflict)
    {
        smtlm_regset *in = &sm->rs[SMTLM_ID_OC_SP];
        for (unsigned s = 0; s < in->width; s++) {
            if (!smtlm_regset_slot_free(in, s))
                continue;
            smtlm_inst_desc d;
            std::memset(&d, 0, sizeof d);
            d.mask = 0xFFFFFFFFu;
            d.op = SMTLM_OP_SP;
            d.latency = d.ii = 2;
            d.n_dst = 1;
            d.dst[0] = 40;
            d.n_src = (uint8_t)n_src;
            const unsigned base = 1 + (k % 8);
            for (unsigned j = 0; j < n_src; j++)
                d.src[j] = (int16_t)(base + j * (conflict ? 4 : 1));
            const uint16_t warp = (uint16_t)(s + 4 * (k % 16));
            smtlm_iref r = smtlm_pool_alloc(&sm->pool, &d, warp);
            if (r == SMTLM_NO_INST)
                return;
            smtlm_inst *p = smtlm_pool_get(&sm->pool, r);
            p->sched = (uint8_t)s;
            p->uid = ++uid;
            smtlm_regset_move_in(in, 1, s, r, p->uid);
            k++;
        }
    }
    void drain()
    {
        smtlm_regset *out = &sm->rs[SMTLM_OC_EX_SP];
        for (unsigned s = 0; s < out->width; s++)
            if (!smtlm_regset_slot_free(out, s))
                smtlm_pool_free(&sm->pool, smtlm_regset_take(out, s));
    }
    int step()
    {
        ++now;
        smtlm_read_grant g[SMTLM_MAX_BANKS];
        smtlm_opcoll_dispatch(&sm->oc, now);
        if (sm->rf.nonempty) {
            unsigned n = smtlm_rf_arbitrate(&sm->rf, g);
            smtlm_opcoll_collect(&sm->oc, now, g, n);
        }
        int rc = smtlm_opcoll_allocate(&sm->oc, now);
        smtlm_rf_end_step(&sm->rf);
        return rc;
    }
};

void BM_OpcollStep(benchmark::State &state)
{
    const unsigned n_src = (unsigned)state.range(0);
    const bool conflict = state.range(1) != 0;
    Harness h;
    if (h.init() != SMTLM_OK) {
        state.SkipWithError("smtlm_sm_init failed");
        return;
    }
    for (auto _ : state) {
        h.refill(n_src, conflict);
        if (h.step() != SMTLM_OK) {
            state.SkipWithError("allocate failed");
            break;
        }
        h.drain();
    }
    const double it = (double)state.iterations();
    state.counters["alloc/step"] = benchmark::Counter((double)smtlm_opcoll_allocations(&h.sm->oc) / it);
    state.counters["dispatch/step"] = benchmark::Counter((double)smtlm_opcoll_dispatches(&h.sm->oc) / it);
    state.SetItemsProcessed((int64_t)state.iterations());
}

} // namespace

BENCHMARK(BM_OpcollStep)->Args({1, 0})->Args({3, 0})->Args({3, 1});
