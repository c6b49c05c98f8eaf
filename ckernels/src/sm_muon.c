/* The Muon SM of the C engine (-smtlm_mode muon): the SM's front end, execute units and LDST
 * around the Muon issue block and operand collector, bound directly. One cycle, in this order:
 *
 *   1. writeback: gated writebacks held from earlier cycles, then EX_WB; each release that
 *      passes the scoreboard's writeback gate clears pendingWrite, is posted to the collector
 *      and wakes the RS (at once with forwarding, else at step 7)
 *   2. execute: pipelined units and the LDST (a load's release goes through step 1's path)
 *   3. collector deliver (readResp): rows collected, reads reported to the scoreboard
 *   4. readData of the rows dispatched last cycle (collector entries freed)
 *   5. dispatch: one complete RS row whose unit's OC_EX slot is free, by the RS policy
 *   6. collection: one RS row's operands requested (readReq); collector arbitration
 *   7. wake-ups without forwarding (the woken operand is requested from the next cycle)
 *   8. admission: one warp's instruction-buffer head (past-WAW: or the entry behind it) into
 *      the RS through the scoreboard
 *   9. fetch and decode (the SM's front end)
 *
 * The SystemC model's MuonSm runs this cycle over its C SM; its modules' sockets set the ports
 * (the results, the readResp, the collector calls, the LDST's writes and events).
 * Timing this gives (docs/MUON.md): a row requested in t dispatches at readResp t + 1 and its
 * unit takes it at t + 2; without forwarding, a dependent of a writeback in w requests in
 * w + 1 and reaches its unit in w + 3. */
#include "smtlm/sm.h"

#include "smtlm/port_calls.h"
#include "smtlm/writeback.h"

void smtlm_sm_muon_coll_cfg(const smtlm_sm_cfg *c, smtlm_muon_coll_cfg *out)
{
    *out = c->muon.coll;
    out->n_warps = c->issue.max_warps;
}

int smtlm_sm_muon_init(smtlm_sm *sm)
{
    smtlm_sm_muon *m = &sm->muon;
    int rc = smtlm_muon_issue_init(&m->iss, &sm->cfg.muon, sm->cfg.issue.max_warps, sm->cfg.shape.n_sched, sm->cfg.shape.sub_core);
    if (rc) {
        sm->cfg_error = m->iss.cfg_error;
        return rc;
    }
    smtlm_muon_coll_cfg cc;
    smtlm_sm_muon_coll_cfg(&sm->cfg, &cc);
    if ((rc = smtlm_muon_coll_init(&m->coll, &cc))) {
        sm->cfg_error = m->coll.cfg_error;
        return rc;
    }
    return SMTLM_OK;
}

void smtlm_sm_muon_reset(smtlm_sm *sm)
{
    smtlm_muon_issue_reset(&sm->muon.iss);
    smtlm_muon_coll_reset(&sm->muon.coll);
}

/* ---- the LDST's warp events: releases and completions through the Muon issue block (the
 * writeback gate, tags), the rest the issue block's own (issue_events.h) ---- */

static void ev_release(void *ctx, unsigned warp, unsigned reg)
{
    smtlm_muon_issue_ldst_release(&((smtlm_sm *)ctx)->muon.iss, warp, reg);
}
static void ev_completed(void *ctx, const smtlm_inst *in) { smtlm_muon_issue_ldst_completed(&((smtlm_sm *)ctx)->muon.iss, in); }
static void ev_retired(void *ctx, unsigned warp) { smtlm_issue_retired(&((smtlm_sm *)ctx)->iss, warp); }
static void ev_store_sent(void *ctx, unsigned warp) { smtlm_issue_store_sent(&((smtlm_sm *)ctx)->iss, warp); }
static void ev_store_acked(void *ctx, unsigned warp) { smtlm_issue_store_acked(&((smtlm_sm *)ctx)->iss, warp); }
static void ev_atomic_done(void *ctx, unsigned warp, unsigned lanes)
{
    smtlm_issue_atomic_done(&((smtlm_sm *)ctx)->iss, warp, lanes);
}
/* The Muon issue block's completions count as the SM's own (the completion counters). */
static void issue_completed(void *ctx, const smtlm_inst *in) { smtlm_issue_completed(&((smtlm_sm *)ctx)->iss, in); }
void smtlm_sm_muon_bind(smtlm_sm *sm)
{
    const smtlm_warp_port warps = {0, sm, ev_release, ev_completed, ev_retired, ev_store_sent, ev_store_acked, ev_atomic_done, 0};
    const smtlm_write_port prf = smtlm_rf_free_write_port(); /* Muon's PRF writes never conflict (docs/MUON.md) */
    smtlm_ldst_bind(&sm->ldst, &sm->rs[SMTLM_OC_EX_MEM], &sm->pool, &prf, &warps);
    smtlm_muon_issue_ports p = {&sm->iss, &sm->pool, {0}, smtlm_muon_coll_direct_ops(&sm->muon.coll), sm,
                               issue_completed};
    smtlm_regset_stage_port(sm->rs, &p.exec);
    smtlm_muon_issue_bind(&sm->muon.iss, &p);
    const smtlm_muon_issue_in to_issue = {&sm->muon.iss, 0, 0, 0};
    sm->muon.results = sm->muon.read_resp = to_issue;
}

/* ---- the cycle ----------------------------------------------------------------------- */

int smtlm_sm_muon_cycle(smtlm_sm *sm, uint64_t now)
{
    if (!smtlm_sm_cycle_begin(sm, now))
        return smtlm_sm_idle_result(sm);
    smtlm_muon_issue *mi = &sm->muon.iss;
    sm->iss.issued_this_cycle = 0;
    smtlm_muon_issue_begin(mi, now);
    smtlm_regset *exwb = &sm->rs[SMTLM_EX_WB];
    while (exwb->count)
        smtlm_muon_in_result(&sm->muon.results, smtlm_regset_take(exwb, smtlm_wb_oldest_slot(exwb, &sm->pool)));
    int rc = smtlm_exec_cycle(&sm->ex, now);
    if (!rc)
        rc = smtlm_ldst_cycle(&sm->ldst, now);
    if (!rc) {
        const int n = smtlm_muon_coll_deliver(&sm->muon.coll, now, sm->muon.resp);
        if (n > 0)
            smtlm_muon_in_collected(&sm->muon.read_resp, now, sm->muon.resp, (unsigned)n);
        rc = n < 0 ? n : smtlm_muon_issue_read_data(mi);
    }
    if (!rc) {
        smtlm_muon_issue_dispatch(mi);
        rc = smtlm_muon_issue_collect(mi);
    }
    if (!rc)
        rc = smtlm_muon_coll_arbitrate(&sm->muon.coll, now);
    if (!rc) {
        smtlm_muon_issue_wake(mi);
        rc = smtlm_muon_issue_admit(mi);
    }
    if (!rc)
        rc = smtlm_issue_fetch_decode(&sm->iss, now);
    smtlm_muon_rs_sample(&mi->rs);
    return smtlm_sm_cycle_end(sm, now, rc);
}
