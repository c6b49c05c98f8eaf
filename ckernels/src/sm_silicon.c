/* The silicon SM of the C engine (-smtlm_core silicon): the SM's front end and LDST around the
 * silicon core, bound directly. One cycle, in this order:
 *
 *   1. completions due now: write barriers released (without control bits: the registers),
 *      instructions counted and retired; read barriers whose reads are done released
 *   2. the LDST (memory beyond shared memory): its completions release their write barriers
 *   3. issue: one instruction per sub-core (silicon.h)
 *   4. fetch and decode (the SM's front end)
 *
 * A result released in step 1 of cycle t lets its consumer issue in step 3 of the same cycle,
 * so a latency of L cycles is L cycles from issue to dependent issue, as the kit measures it. */
#include "smtlm/sm.h"

#include "smtlm/issue_events.h"

int smtlm_sm_silicon_init(smtlm_sm *sm)
{
    int rc = smtlm_silicon_init(&sm->silicon, &sm->cfg.silicon, sm->cfg.shape.n_sched);
    if (rc)
        sm->cfg_error = sm->silicon.cfg_error;
    return rc;
}

void smtlm_sm_silicon_reset(smtlm_sm *sm) { smtlm_silicon_reset(&sm->silicon); }

void smtlm_sm_silicon_bind(smtlm_sm *sm)
{
    smtlm_sil_ports p = {&sm->iss, &sm->pool, &sm->src, {0}};
    smtlm_regset_stage_port(sm->rs, &p.ldst);
    smtlm_silicon_bind(&sm->silicon, &p);
    const smtlm_warp_port warps = smtlm_silicon_warp_port(&sm->silicon);
    const smtlm_write_port rf = smtlm_rf_free_write_port(); /* writes take no read slot (docs/SILICON.md) */
    smtlm_ldst_bind(&sm->ldst, &sm->rs[SMTLM_OC_EX_MEM], &sm->pool, &rf, &warps);
}

int smtlm_sm_silicon_cycle(smtlm_sm *sm, uint64_t now)
{
    if (!smtlm_sm_cycle_begin(sm, now))
        return smtlm_sm_idle_result(sm);
    sm->iss.issued_this_cycle = 0;
    sm->iss.ports.now = now;
    smtlm_silicon_complete(&sm->silicon, now);
    int rc = smtlm_ldst_step(&sm->ldst, now);
    if (!rc)
        rc = smtlm_silicon_issue(&sm->silicon, now);
    if (!rc)
        rc = smtlm_issue_fetch_decode(&sm->iss, now);
    return smtlm_sm_cycle_end(sm, now, rc);
}
