/* execute(): result-bus shift, then every pipelined unit cycles and tries to issue. */
#include "smtlm/exec.h"

#include <string.h>

#include "smtlm/ports_direct.h"

int smtlm_exec_init(smtlm_exec *ex, unsigned n_result_buses, int sub_core)
{
    ex->n_fu = 0;
    ex->sub_core = sub_core;
    ex->exwb_overflow = 0;
    ex->cfg_error = 0;
    int rc = smtlm_resbus_init(&ex->rb, n_result_buses);
    if (rc)
        return smtlm_cfg_reject(&ex->cfg_error, rc, "execute: result buses (EX_WB width of -gpgpu_pipeline_widths) "
                                "must be in 1..SMTLM_MAX_RESULT_BUSES");
    return SMTLM_OK;
}

int smtlm_exec_add_units(smtlm_exec *ex, smtlm_fu_kind kind, unsigned spec, unsigned count,
                         unsigned depth, unsigned issue_set)
{
    if (ex->n_fu + count > SMTLM_MAX_FUS)
        return smtlm_cfg_reject(&ex->cfg_error, SMTLM_ERANGE, "execute: units (-gpgpu_num_*_units, -specialized_unit_*) "
                                "exceed SMTLM_MAX_FUS in all");
    for (unsigned k = 0; k < count; k++) {
        int rc = smtlm_fu_init(&ex->fu[ex->n_fu], kind, spec, depth, issue_set, k);
        if (rc)
            return smtlm_cfg_reject(&ex->cfg_error, rc, "execute: a unit's pipeline depth (-ptx_opcode_latency_*, "
                                    "-specialized_unit_* max latency) must be in 1..SMTLM_MAX_LATENCY-1");
        ex->n_fu++;
    }
    return SMTLM_OK;
}

void smtlm_exec_reset(smtlm_exec *ex)
{
    for (unsigned i = 0; i < ex->n_fu; i++)
        smtlm_fu_reset(&ex->fu[i]);
    smtlm_resbus_reset(&ex->rb);
    ex->exwb_overflow = 0;
    ex->t = 0;
    memset(&ex->cal, 0, sizeof ex->cal);
}

void smtlm_exec_bind(smtlm_exec *ex, smtlm_regset *sets, const smtlm_stage_ops *out, smtlm_inst_pool *pool)
{
    for (unsigned i = 0; i < SMTLM_NUM_REGSETS; i++)
        ex->in[i] = 0;
    memset(ex->readers, 0, sizeof ex->readers);
    ex->n_in_sets = 0;
    for (unsigned i = 0; i < ex->n_fu; i++) {
        const unsigned set = ex->fu[i].issue_set;
        unsigned k = 0;
        while (k < ex->n_in_sets && ex->in_sets[k] != set)
            k++;
        if (k == ex->n_in_sets) {
            ex->in_sets[ex->n_in_sets++] = (uint8_t)set;
            ex->in_list[k] = &sets[set];
        }
        ex->in[set] = &sets[set];
        ex->readers[k][i / 64] |= 1ull << (i % 64);
    }
    ex->out = *out;
    ex->pool = pool;
}

/* Unit i's issue attempt in cycle c, after its visit (GPGPU-Sim: issue() from its OC_EX slot). */
static void unit_issue(smtlm_exec *ex, unsigned i, uint64_t c, uint64_t now)
{
    smtlm_fu *fu = &ex->fu[i];
    smtlm_regset *src = ex->in[fu->issue_set];
    if (src->count == 0 || fu->dispatch != SMTLM_NO_INST || c < fu->ready) /* a full dispatch register takes nothing */
        return;
    int slot = ex->sub_core ? (smtlm_regset_slot_free(src, fu->issue_slot) ? -1 : fu->issue_slot)
                            : smtlm_regset_oldest(src);
    if (slot < 0)
        return;
    smtlm_iref r = src->slot[slot];
    smtlm_inst *in = &ex->pool->inst[r];
    if (smtlm_fu_occupied_at(fu, c, in->latency) || !smtlm_fu_accepts(fu, in->op, in->spec))
        return;
    if (smtlm_resbus_reserve(&ex->rb, in->latency) < 0)
        return; /* no result bus: the instruction waits in OC_EX */
    smtlm_regset_take(src, (unsigned)slot);
    smtlm_fu_issue_at(fu, &ex->cal, i, r, in->latency, in->ii, c);
    in->ev[SMTLM_EV_FU_ISSUE] = now;
}

/* EX_WB refused unit i's result: the cycle stops there, as if the later units had not cycled
 * (their busy count does not include this cycle). */
static int exwb_overflow(smtlm_exec *ex, unsigned i)
{
    ex->exwb_overflow++;
    for (unsigned j = i + 1; j < ex->n_fu; j++)
        if (smtlm_fu_busy(&ex->fu[j]))
            ex->fu[j].busy_from++;
    return SMTLM_EFULL;
}

int smtlm_exec_cycle(smtlm_exec *ex, uint64_t now)
{
    smtlm_resbus_shift(&ex->rb);
    const uint64_t c = ++ex->t;
    uint64_t *due = ex->cal.at[c & SMTLM_RING_MASK];
    uint64_t visit[SMTLM_FU_WORDS], work[SMTLM_FU_WORDS];
    for (unsigned w = 0; w < SMTLM_FU_WORDS; w++) {
        visit[w] = work[w] = due[w];
        due[w] = 0;
    }
    for (unsigned k = 0, n = ex->n_in_sets; k < n; k++)
        if (ex->in_list[k]->count)
            for (unsigned w = 0; w < SMTLM_FU_WORDS; w++)
                work[w] |= ex->readers[k][w];
    /* Units in m_fu order: result-bus reservations go to the lower-numbered unit first. */
    for (unsigned w = 0; w < SMTLM_FU_WORDS; w++) {
        for (uint64_t m = work[w]; m; m &= m - 1) {
            const unsigned b = smtlm_ctz64(m), i = w * 64 + b;
            if (visit[w] >> b & 1) {
                const smtlm_iref done = smtlm_fu_visit(&ex->fu[i], &ex->cal, i, c);
                if (done != SMTLM_NO_INST &&
                    smtlm_stage_put(&ex->out, SMTLM_EX_WB, 0, 0, done, ex->pool->inst[done].uid) < 0)
                    return exwb_overflow(ex, i);
            }
            unit_issue(ex, i, c, now);
        }
    }
    return SMTLM_OK;
}

int smtlm_exec_busy(const smtlm_exec *ex)
{
    for (unsigned i = 0; i < ex->n_fu; i++)
        if (ex->fu[i].active || ex->fu[i].dispatch != SMTLM_NO_INST)
            return 1;
    return 0;
}

int smtlm_exec_idle(const smtlm_exec *ex)
{
    if (smtlm_exec_busy(ex))
        return 0;
    for (unsigned i = 0; i < ex->n_fu; i++)
        if (ex->in[ex->fu[i].issue_set]->count)
            return 0;
    return 1;
}

void smtlm_exec_skip(smtlm_exec *ex, uint64_t k)
{
    ex->t += k;
    for (uint64_t i = 0; i < k && i < SMTLM_MAX_LATENCY; i++)
        smtlm_resbus_shift(&ex->rb);
    ex->rb.t += (uint32_t)(k > SMTLM_MAX_LATENCY ? k - SMTLM_MAX_LATENCY : 0);
}
