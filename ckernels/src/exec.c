/* execute(): result-bus shift, then every pipelined unit cycles and tries to issue. */
#include "smtlm/exec.h"

#include <string.h>

#include "smtlm/port_calls.h"

int smtlm_exec_init(smtlm_exec *ex, unsigned n_result_buses, int sub_core)
{
    ex->n_fu = 0;
    ex->sub_core = sub_core;
    ex->exwb_overflow = 0;
    ex->cfg_error = 0;
    ex->n_groups = 0;
    ex->live = 0;
    ex->wide = 0;
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

/* Each group's set reports its puts into `live` (bit k for group k < 64); all groups start
 * live (a superset is always safe). Again on reset: re-initialising a set drops its watch. */
static void watch_sets(smtlm_exec *ex)
{
    for (unsigned k = 0; k < ex->n_groups; k++) {
        ex->group_set[k]->watch = 0;
        ex->group_set[k]->watch_bits = 0;
    }
    for (unsigned k = 0; k < ex->n_groups && k < 64; k++) {
        ex->group_set[k]->watch = &ex->live;
        ex->group_set[k]->watch_bits |= 1ull << k;
    }
    ex->live = ex->n_groups >= 64 ? ~0ull : (1ull << ex->n_groups) - 1;
    ex->wide = ex->n_groups > 64;
}

void smtlm_exec_reset(smtlm_exec *ex)
{
    for (unsigned i = 0; i < ex->n_fu; i++)
        smtlm_fu_reset(&ex->fu[i]);
    smtlm_resbus_reset(&ex->rb);
    ex->exwb_overflow = 0;
    ex->t = 0;
    memset(&ex->cal, 0, sizeof ex->cal);
    watch_sets(ex);
}

void smtlm_exec_bind(smtlm_exec *ex, smtlm_regset *sets, const smtlm_stage_port *out, smtlm_inst_pool *pool)
{
    for (unsigned i = 0; i < SMTLM_NUM_REGSETS; i++)
        ex->in[i] = 0;
    ex->n_groups = 0;
    for (unsigned i = 0; i < ex->n_fu; i++) {
        const smtlm_fu *fu = &ex->fu[i];
        struct smtlm_exec_group *g = ex->n_groups ? &ex->group[ex->n_groups - 1] : 0;
        if (!g || ex->group_set[ex->n_groups - 1] != &sets[fu->issue_set] ||
            fu->issue_slot != g->slot0 + (i - g->first) || i % 64 == 0) {
            ex->group_set[ex->n_groups] = &sets[fu->issue_set];
            g = &ex->group[ex->n_groups++];
            g->first = (uint8_t)i;
            g->slot0 = fu->issue_slot;
            g->mask = 0;
        }
        g->mask |= 1ull << (i - g->first);
        ex->in[fu->issue_set] = &sets[fu->issue_set];
    }
    ex->out = *out;
    ex->pool = pool;
    watch_sets(ex);
}

/* Unit i's issue attempt in cycle c, after its visit (GPGPU-Sim: issue() from its OC_EX slot),
 * from OC_EX set src (non-empty). */
static SMTLM_ALWAYS_INLINE void unit_issue(smtlm_exec *ex, unsigned i, smtlm_regset *src, uint64_t c,
                                           uint64_t now, int sub_core)
{
    smtlm_fu *fu = &ex->fu[i];
    if (fu->dispatch != SMTLM_NO_INST || c < fu->ready) /* a full dispatch register takes nothing */
        return;
    const unsigned slot = sub_core ? fu->issue_slot : (unsigned)smtlm_regset_oldest(src);
    const smtlm_iref r = src->slot[slot];
    smtlm_inst *in = &ex->pool->inst[r];
    const unsigned latency = in->latency;
    uint32_t *cell = &fu->cell[(c + latency) & SMTLM_RING_MASK]; /* occupied[latency] */
    const uint32_t at = *cell;
    if ((at & SMTLM_FU_OCC) || !smtlm_fu_accepts(fu, in->op, in->spec))
        return;
    if (smtlm_resbus_reserve(&ex->rb, latency) < 0)
        return; /* no result bus: the instruction waits in OC_EX */
    smtlm_regset_take_occupied(src, slot);
    in->ev[SMTLM_EV_FU_ISSUE] = now;
    const unsigned ii = in->ii;
    if (ii && at == SMTLM_FU_EMPTY) {
        /* smtlm_fu_issue_at when II > 0 and the start stage (cell c + latency) is free: the
         * instruction is placed at once, no dispatch-register wait to schedule. */
        if (!fu->active) /* the dispatch register is empty: busy means stages in use */
            fu->busy_from = c + 1;
        *cell = SMTLM_FU_OCC | r;
        fu->active++;
        fu->issued++;
        fu->ready = c + ii;
        smtlm_fu_cal_add(&ex->cal, i, c + latency + 1);
        return;
    }
    smtlm_fu_issue_at(fu, &ex->cal, i, r, latency, ii, c);
}

/* Group k's issue attempts, its set non-empty: sub-core, unit first + k only if slot k is
 * occupied, else every reader; never a unit whose dispatch register is closed (it would
 * refuse). Returns 1 when it reached a unit past `last` (the pass ends there). */
static SMTLM_ALWAYS_INLINE int issue_group(smtlm_exec *ex, unsigned k, smtlm_regset *src, uint64_t c,
                                           uint64_t now, unsigned last, int sub_core)
{
    const uint64_t every = sub_core ? 0 : ~0ull; /* not sub-core: every reader tries */
    const struct smtlm_exec_group *g = &ex->group[k];
    uint64_t bits = ((uint64_t)src->occ >> g->slot0 | every) & g->mask;
    /* Sub-core: each bit's slot stays occupied until its own unit takes it, so the set cannot
     * run empty before the last bit. */
    for (; bits && (sub_core || src->count); bits &= bits - 1) {
        const unsigned i = g->first + smtlm_ctz64(bits);
        if (i > last)
            return 1;
        unit_issue(ex, i, src, c, now, sub_core);
    }
    return 0;
}

/* Issue attempts of the units reading OC_EX work, in unit order, group by group: only groups
 * whose set may hold work (`live`; a group whose set is found empty leaves it until a put).
 * Units up to `last` only (after an EX_WB overflow). sub_core is ex->sub_core, a constant in
 * each caller's copy. */
static SMTLM_ALWAYS_INLINE void issue_units(smtlm_exec *ex, uint64_t c, uint64_t now,
                                                               unsigned last, int sub_core)
{
    uint64_t live = ex->live;
    for (uint64_t todo = live; todo; todo &= todo - 1) {
        const unsigned k = smtlm_ctz64(todo);
        smtlm_regset *src = ex->group_set[k];
        if (src->count) {
            if (issue_group(ex, k, src, c, now, last, sub_core)) {
                ex->live = live;
                return;
            }
            if (src->count)
                continue;
        }
        live &= ~(1ull << k); /* its set is empty: back on its next put */
    }
    ex->live = live;
    for (unsigned k = 64, n = ex->n_groups; k < n; k++) {
        smtlm_regset *src = ex->group_set[k];
        if (src->count && issue_group(ex, k, src, c, now, last, sub_core))
            return;
    }
}

static SMTLM_ALWAYS_INLINE void issue_all(smtlm_exec *ex, uint64_t c, uint64_t now,
                                                             unsigned last)
{
    if (ex->sub_core)
        issue_units(ex, c, now, last, 1);
    else
        issue_units(ex, c, now, last, 0);
}

/* EX_WB refused unit i's result: the cycle stops there, as if the later units had not cycled
 * (they do not issue and their busy count does not include this cycle). */
static __attribute__((noinline)) int exwb_overflow(smtlm_exec *ex, unsigned i, uint64_t c, uint64_t now)
{
    ex->exwb_overflow++;
    if (i > 0)
        issue_all(ex, c, now, i - 1);
    for (unsigned j = i + 1; j < ex->n_fu; j++)
        if (smtlm_fu_busy(&ex->fu[j]))
            ex->fu[j].busy_from++;
    return SMTLM_EFULL;
}

/* The visit pass: each due unit's result into EX_WB, in unit order, stopping at the first
 * refusal (EX_WB full: back-pressure, the unit keeps its result). direct (a constant): the port
 * is bound to EX_WB itself, so a result goes into its first free slot inline (no uid copy:
 * EX_WB's oldest is read from the pool, smtlm_wb_oldest_slot) with the set's mask and count
 * kept in registers for the pass; else each result is put through the port. */
static SMTLM_ALWAYS_INLINE int visit(smtlm_exec *ex, uint64_t *due, uint64_t c, uint64_t now, int direct)
{
    smtlm_regset *exwb = direct ? &ex->out.sets[SMTLM_EX_WB] : NULL;
    uint32_t occ = direct ? exwb->occ : 0;
    unsigned count = direct ? exwb->count : 0;
    const unsigned width = direct ? exwb->width : 0;
    for (unsigned w = 0; w < SMTLM_FU_WORDS; w++) {
        const uint64_t visit = due[w];
        due[w] = 0;
        for (uint64_t m = visit; m; m &= m - 1) {
            const unsigned i = w * 64 + smtlm_ctz64(m);
            const smtlm_iref done = smtlm_fu_visit(&ex->fu[i], &ex->cal, i, c);
            if (done == SMTLM_NO_INST)
                continue;
            const int refused = direct ? count == width
                                       : smtlm_stage_put(&ex->out, SMTLM_EX_WB, 0, 0, done, ex->pool->inst[done].uid) < 0;
            if (refused) {
                if (direct) {
                    exwb->occ = occ;
                    exwb->count = (uint8_t)count;
                }
                due[w] = m & (m - 1); /* not visited: still due */
                return exwb_overflow(ex, i, c, now);
            }
            if (direct) {
                const unsigned s = smtlm_ctz64(~(uint64_t)occ);
                exwb->slot[s] = done;
                occ |= 1u << s;
                count++;
            }
        }
    }
    if (direct) {
        exwb->occ = occ;
        exwb->count = (uint8_t)count;
    }
    return SMTLM_OK;
}

/* The pass through the port, out of line: it stays out of the per-cycle code of the direct one. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int visit_through_port(smtlm_exec *ex, uint64_t *due, uint64_t c, uint64_t now)
{
    return visit(ex, due, c, now, 0);
}

/* Units in m_fu order, each one's cycle then its issue attempt. A visit touches only its unit,
 * the calendar and EX_WB, an issue attempt only its unit, the calendar, OC_EX and the result
 * buses, so all visits can go first and all issue attempts after them (in unit order: result
 * bus reservations go to the lower-numbered unit first). */
int smtlm_exec_cycle(smtlm_exec *ex, uint64_t now)
{
    smtlm_resbus_shift(&ex->rb);
    const uint64_t c = ++ex->t;
    uint64_t *due = ex->cal.at[c & SMTLM_RING_MASK];
    uint64_t any = 0;
    for (unsigned w = 0; w < SMTLM_FU_WORDS; w++)
        any |= due[w];
    if (any) {
        const int rc = ex->out.sets ? visit(ex, due, c, now, 1) : visit_through_port(ex, due, c, now);
        if (rc)
            return rc;
    }
    issue_all(ex, c, now, ~0u);
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
