/* The Muon SM (-smtlm_mode muon): the SM's front end, execute units and LDST around the Muon
 * scoreboard, reservation station and operand collector. One cycle, in this order:
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
 * Decrements (writebacks, reads) come before the admission that may see them, as in the RTL.
 * Timing this gives (docs/MUON.md): a row requested in t dispatches at readResp t + 1 and its
 * unit takes it at t + 2; without forwarding, a dependent of a writeback in w requests in
 * w + 1 and reaches its unit in w + 3. */
#include "smtlm/sm.h"

#include <string.h>

#include "issue_internal.h"
#include "smtlm/ports_direct.h"

/* ---- configuration ------------------------------------------------------------------- */

int smtlm_sm_muon_init(smtlm_sm *sm)
{
    smtlm_sm_muon_cfg *c = &sm->cfg.muon;
    smtlm_sm_muon *m = &sm->muon;
    c->sb.n_warps = c->rs.n_warps = c->coll.n_warps = sm->cfg.max_warps;
    int rc;
    if (sm->cfg.max_warps > 64)
        return smtlm_cfg_reject(&sm->cfg_error, SMTLM_ERANGE, "muon mode: at most 64 warp slots (-gpgpu_shader_core_pipeline)");
    if ((rc = smtlm_muon_sb_init(&m->sb, &c->sb))) {
        sm->cfg_error = m->sb.cfg_error;
        return rc;
    }
    if ((rc = smtlm_muon_rs_init(&m->rs, &c->rs))) {
        sm->cfg_error = m->rs.cfg_error;
        return rc;
    }
    if ((rc = smtlm_muon_coll_init(&m->coll, &c->coll))) {
        sm->cfg_error = m->coll.cfg_error;
        return rc;
    }
    return SMTLM_OK;
}

void smtlm_sm_muon_reset(smtlm_sm *sm)
{
    smtlm_sm_muon *m = &sm->muon;
    smtlm_muon_sb_reset(&m->sb);
    smtlm_muon_rs_reset(&m->rs);
    smtlm_muon_coll_reset(&m->coll);
    for (unsigned t = 0; t < SMTLM_MUON_MAX_TAGS; t++) {
        m->tag[t].used = 0;
        m->tag[t].ref = SMTLM_NO_INST;
        m->tag[t].entry = -1;
    }
    memset(m->tag_free, 0xFF, sizeof m->tag_free);
    memset(m->ref_tag, 0xFF, sizeof m->ref_tag);
    memset(m->writer, 0xFF, sizeof m->writer);
    m->n_held = m->n_release = m->n_wake = 0;
    memset(&m->st, 0, sizeof m->st);
}

/* ---- tags ---------------------------------------------------------------------------- */

static int tag_alloc(smtlm_sm_muon *m)
{
    for (unsigned i = 0; i < SMTLM_MUON_MAX_TAGS / 64; i++)
        if (m->tag_free[i]) {
            const unsigned t = i * 64 + smtlm_ctz64(m->tag_free[i]);
            m->tag_free[i] &= m->tag_free[i] - 1;
            return (int)t;
        }
    return -1;
}

/* Frees the tag once its instruction has left the pipeline and the scoreboard holds nothing
 * for it (reads done, pendingWrite cleared). */
static void tag_maybe_free(smtlm_sm_muon *m, unsigned t)
{
    smtlm_sm_muon_tag *g = &m->tag[t];
    if (!g->used || g->ref != SMTLM_NO_INST || g->wb_waiting || smtlm_muon_sb_live(&m->sb, (smtlm_iref)t))
        return;
    g->used = 0;
    m->tag_free[t >> 6] |= 1ull << (t & 63);
}

/* ---- writeback ----------------------------------------------------------------------- */

/* The register release of tag t in cycle `now`: 1 when done, 0 when the writeback gate (or
 * the collector's per-cycle writeback limit) holds it. */
static int release_regs(smtlm_sm *sm, unsigned t, uint64_t now)
{
    smtlm_sm_muon *m = &sm->muon;
    const smtlm_muon_sb_ticket *k = &m->sb.ticket[t];
    const unsigned writes = k->writes;
    if (m->n_wake + (unsigned)smtlm_popcount32(writes) > SMTLM_MUON_COLL_MAX_WB)
        return 0;
    if (!smtlm_muon_sb_writeback(&m->sb, (smtlm_iref)t))
        return 0;
    const unsigned w = k->warp;
    for (unsigned i = 0; i < k->n_dst; i++) {
        if (!(writes >> i & 1))
            continue;
        const int reg = k->dst[i];
        m->writer[w][reg] = SMTLM_MUON_NO_TAG;
        smtlm_sb_release_reg(&sm->iss.sb, w, (unsigned)reg);
        smtlm_muon_coll_writeback(&m->coll, now, w, reg);
        if (sm->cfg.muon.rs.forwarding) {
            smtlm_muon_rs_fwd fwd[SMTLM_MUON_RS_MAX];
            const unsigned n = smtlm_muon_rs_wakeup(&m->rs, w, reg, fwd);
            for (unsigned j = 0; j < n; j++)
                smtlm_muon_sb_read_done(&m->sb, fwd[j].tag, fwd[j].slots);
        }
        m->wake[m->n_wake].warp = (uint16_t)w; /* counts the cycle's writebacks in both modes */
        m->wake[m->n_wake].reg = (int16_t)reg;
        m->n_wake++;
    }
    return 1;
}

static void complete(smtlm_sm *sm, smtlm_iref r, uint64_t now)
{
    smtlm_inst *in = smtlm_pool_get(&sm->pool, r);
    in->ev[SMTLM_EV_WRITEBACK] = now;
    smtlm_sm_count_completion(&sm->stats, in);
    sm->last_progress = now;
    if (sm->on_retire)
        sm->on_retire(sm->retire_ctx, sm->id, in);
    smtlm_issue_retired(&sm->iss, in->warp);
    const unsigned t = sm->muon.ref_tag[r];
    sm->muon.ref_tag[r] = SMTLM_MUON_NO_TAG;
    smtlm_pool_free(&sm->pool, r);
    if (t != SMTLM_MUON_NO_TAG) {
        sm->muon.tag[t].ref = SMTLM_NO_INST;
        tag_maybe_free(&sm->muon, t);
    }
}

/* how: HELD_ALU (the result waits in the held list with its pool entry) or HELD_LDST (a
 * load's release; the LDST completes the instruction itself) */
enum { HELD_ALU = 1, HELD_LDST = 2 };
static void hold(smtlm_sm_muon *m, unsigned t, int how)
{
    m->tag[t].wb_waiting = (uint8_t)how;
    m->held[m->n_held++] = (uint16_t)t;
}

/* Writebacks the gate held, oldest first; an ALU result completes with its release. */
static void retry_held(smtlm_sm *sm, uint64_t now)
{
    smtlm_sm_muon *m = &sm->muon;
    unsigned keep = 0;
    for (unsigned i = 0; i < m->n_held; i++) {
        const unsigned t = m->held[i];
        if (!release_regs(sm, t, now)) {
            m->held[keep++] = (uint16_t)t;
            m->st.wb_gate_waits++;
            continue;
        }
        smtlm_sm_muon_tag *g = &m->tag[t];
        const int how = g->wb_waiting;
        g->wb_waiting = 0;
        if (how == HELD_ALU)
            complete(sm, g->ref, now);
        else
            tag_maybe_free(m, t);
    }
    m->n_held = keep;
}

/* EX_WB drain: every ALU result writes back unless the gate holds its release. */
static void writeback(smtlm_sm *sm, uint64_t now)
{
    smtlm_sm_muon *m = &sm->muon;
    smtlm_regset *exwb = &sm->rs[SMTLM_EX_WB];
    while (exwb->count) {
        const int slot = smtlm_regset_oldest(exwb);
        const smtlm_iref r = smtlm_regset_take(exwb, (unsigned)slot);
        const unsigned t = m->ref_tag[r];
        if (t != SMTLM_MUON_NO_TAG && m->sb.ticket[t].writes && !release_regs(sm, t, now)) {
            hold(m, t, HELD_ALU); /* completes when the release passes (retry_held) */
            continue;
        }
        complete(sm, r, now);
    }
}

/* ---- the LDST's warp events ---------------------------------------------------------- */

static void ev_release(void *ctx, unsigned warp, unsigned reg)
{
    smtlm_sm *sm = ctx;
    smtlm_sm_muon *m = &sm->muon;
    if (warp >= SMTLM_MAX_WARPS || reg > SMTLM_MAX_REG)
        return;
    const unsigned t = m->writer[warp][reg];
    if (t == SMTLM_MUON_NO_TAG || m->tag[t].wb_waiting)
        return;
    if (!release_regs(sm, t, sm->now))
        hold(m, t, HELD_LDST);
}
static void ev_completed(void *ctx, const smtlm_inst *in)
{
    smtlm_sm *sm = ctx;
    smtlm_sm_count_completion(&sm->stats, in);
    sm->last_progress = sm->now;
    if (sm->on_retire)
        sm->on_retire(sm->retire_ctx, sm->id, in);
    const smtlm_iref r = (smtlm_iref)(in - sm->pool.inst);
    const unsigned t = sm->muon.ref_tag[r];
    sm->muon.ref_tag[r] = SMTLM_MUON_NO_TAG; /* the LDST frees the pool entry */
    if (t != SMTLM_MUON_NO_TAG) {
        sm->muon.tag[t].ref = SMTLM_NO_INST;
        tag_maybe_free(&sm->muon, t);
    }
}
static void ev_retired(void *ctx, unsigned warp) { smtlm_issue_retired(&((smtlm_sm *)ctx)->iss, warp); }
static void ev_store_sent(void *ctx, unsigned warp) { ((smtlm_sm *)ctx)->iss.warp[warp].stores_out++; }
static void ev_store_acked(void *ctx, unsigned warp)
{
    smtlm_sm *sm = ctx;
    if (sm->iss.warp[warp].stores_out)
        sm->iss.warp[warp].stores_out--;
    sm->last_progress = sm->now;
}
static void ev_atomic_done(void *ctx, unsigned warp, unsigned lanes)
{
    smtlm_warp *w = &((smtlm_sm *)ctx)->iss.warp[warp];
    w->n_atomic = w->n_atomic > lanes ? w->n_atomic - lanes : 0;
}

/* Muon's PRF writes use their own port and never conflict (docs/MUON.md). */
static smtlm_rf_write_result prf_try_write(void *ctx, unsigned w, unsigned s, unsigned r)
{
    (void)ctx, (void)w, (void)s, (void)r;
    return SMTLM_RF_WRITTEN;
}
static int prf_can_write(void *ctx, unsigned w, unsigned s, unsigned r)
{
    (void)ctx, (void)w, (void)s, (void)r;
    return 1;
}
static void prf_write(void *ctx, unsigned w, unsigned s, unsigned r) { (void)ctx, (void)w, (void)s, (void)r; }

void smtlm_sm_muon_bind(smtlm_sm *sm)
{
    const smtlm_warp_ops warps = {sm, ev_release, ev_completed, ev_retired, ev_store_sent, ev_store_acked, ev_atomic_done, 0};
    const smtlm_rf_write_ops prf = {sm, prf_try_write, prf_can_write, prf_write};
    smtlm_ldst_bind(&sm->ldst, &sm->rs[SMTLM_OC_EX_MEM], &sm->pool, &prf, &warps);
}

/* ---- dispatch, collection, admission ------------------------------------------------- */

/* The OC_EX set an instruction's unit reads, or -1 when the SM has no such unit. */
static int exec_set(const smtlm_issue *iss, const smtlm_inst *in)
{
    const unsigned op = in->op < SMTLM_OP_COUNT ? in->op : SMTLM_OP_COUNT;
    if (op == SMTLM_OP_SPEC) {
        const unsigned k = (unsigned)in->spec - 1;
        return k < SMTLM_MAX_SPEC_UNITS && iss->cfg.n_spec_units[k] ? (int)SMTLM_OC_EX_SPEC(k) : -1;
    }
    const unsigned set = iss->route_set[op];
    if (set == 0xFF)
        return -1;
    return set < SMTLM_OC_EX_SP ? (int)set + (SMTLM_OC_EX_SP - SMTLM_ID_OC_SP) : (int)set + 1; /* tensor: 11 -> 12 */
}

static void dispatch(smtlm_sm *sm, uint64_t now)
{
    smtlm_sm_muon *m = &sm->muon;
    const uint64_t elig = smtlm_muon_rs_eligible(&m->rs);
    if (!elig)
        return;
    uint64_t allowed = 0;
    for (uint64_t e = elig; e; e &= e - 1) {
        const unsigned row = smtlm_ctz64(e);
        const smtlm_inst *in = smtlm_pool_get(&sm->pool, m->tag[m->rs.row[row].tag].ref);
        const int set = exec_set(&sm->iss, in);
        if (set >= 0 && smtlm_regset_has_free(&sm->rs[set], sm->cfg.sub_core, in->sched))
            allowed |= 1ull << row;
    }
    smtlm_muon_rs_pick p;
    if (!smtlm_muon_rs_dispatch(&m->rs, allowed, &p))
        return;
    smtlm_sm_muon_tag *g = &m->tag[p.tag];
    smtlm_inst *in = smtlm_pool_get(&sm->pool, g->ref);
    smtlm_regset_move_in(&sm->rs[exec_set(&sm->iss, in)], sm->cfg.sub_core, in->sched, g->ref, in->uid);
    in->ev[SMTLM_EV_OC_EX] = now;
    g->dispatched = 1;
    if (g->entry >= 0) { /* readData next cycle frees the collector entry */
        m->release[m->n_release++] = g->entry;
        g->entry = -1;
    }
}

static int collect(smtlm_sm *sm, uint64_t now)
{
    smtlm_sm_muon *m = &sm->muon;
    smtlm_muon_rs_pick p;
    if (!smtlm_muon_coll_can_accept(&m->coll, 0) || !smtlm_muon_rs_collect_pick(&m->rs, &p))
        return SMTLM_OK;
    const smtlm_muon_rs_row *row = &m->rs.row[p.row];
    smtlm_muon_coll_req q;
    memset(&q, 0, sizeof q);
    q.tag = p.tag;
    q.warp = p.warp;
    q.slots = p.slots;
    for (unsigned i = 0; i < row->n_src; i++)
        q.reg[i] = row->src[i];
    const int e = smtlm_muon_coll_request(&m->coll, now, &q);
    if (e < 0)
        return e;
    m->tag[p.tag].entry = (int8_t)e;
    smtlm_pool_get(&sm->pool, m->tag[p.tag].ref)->ev[SMTLM_EV_CU_ALLOC] = now;
    return SMTLM_OK;
}

static int deliver(smtlm_sm *sm, uint64_t now)
{
    smtlm_sm_muon *m = &sm->muon;
    smtlm_muon_coll_resp resp[SMTLM_MUON_COLL_MAX_ENTRIES];
    const int n = smtlm_muon_coll_deliver(&m->coll, now, resp);
    if (n < 0)
        return n;
    for (int i = 0; i < n; i++) {
        smtlm_sm_muon_tag *g = &m->tag[resp[i].tag];
        smtlm_muon_rs_collected(&m->rs, g->row, resp[i].slots);
        smtlm_muon_sb_read_done(&m->sb, resp[i].tag, resp[i].slots);
        smtlm_pool_get(&sm->pool, g->ref)->ev[SMTLM_EV_OPERANDS] = now;
    }
    for (unsigned i = 0; i < m->n_release; i++) {
        const int rc = smtlm_muon_coll_release(&m->coll, now, (unsigned)m->release[i]);
        if (rc)
            return rc;
    }
    m->n_release = 0;
    return SMTLM_OK;
}

static int special(const smtlm_inst *in)
{
    return in->atomic || in->op == SMTLM_OP_EXIT || in->op == SMTLM_OP_BARRIER || in->op == SMTLM_OP_MEMBAR;
}

/* Pops the head of a warp's instruction buffer (or, past-WAW, the entry behind it) into the RS
 * (issue_warp without the ID_OC hand-off and the GPGPU-Sim scoreboard). */
static int admit(smtlm_sm *sm, uint64_t now)
{
    smtlm_sm_muon *m = &sm->muon;
    smtlm_issue *iss = &sm->iss;
    uint64_t cand = 0;
    uint8_t picked[SMTLM_MAX_WARPS];
    for (unsigned w = 0; w < sm->cfg.max_warps; w++) {
        const smtlm_warp *wp = &iss->warp[w];
        if (wp->done_exit || (iss->ib_empty >> w & 1) || !wp->ib_valid[wp->next] || smtlm_warp_waiting(iss, w))
            continue;
        /* the buffer in program order: the head, then (past-WAW) the entry behind it */
        const smtlm_inst *window[2];
        unsigned n = 0;
        window[n++] = smtlm_pool_get(&sm->pool, wp->ib[wp->next]);
        if (exec_set(iss, window[0]) < 0)
            continue;
        /* EXIT, BAR, MEMBAR and atomics act on the warp at admission: never past the head */
        const unsigned behind = wp->next ^ 1u;
        if (sm->cfg.muon.sb.past_waw && wp->ib_valid[behind]) {
            const smtlm_inst *b = smtlm_pool_get(&sm->pool, wp->ib[behind]);
            if (exec_set(iss, b) >= 0 && !special(b))
                window[n++] = b;
        }
        unsigned pick = 0;
        int verdict = SMTLM_MUON_ADMIT;
        const int rc = smtlm_muon_sb_select(&m->sb, window, n, &pick, &verdict);
        if (rc < 0)
            return rc;
        if (rc == 1) {
            cand |= 1ull << w;
            picked[w] = (uint8_t)pick;
        }
        if (verdict > 0 && verdict < SMTLM_MUON_VERDICTS)
            m->st.admit_stall[verdict]++;
    }
    if (!cand)
        return SMTLM_OK;
    const int w = smtlm_muon_rs_admit_pick(&m->rs, cand);
    if (w < 0)
        return SMTLM_OK;
    const int t = tag_alloc(m);
    if (t < 0) {
        m->st.tag_stalls++;
        return SMTLM_OK;
    }
    smtlm_warp *wp = &iss->warp[w];
    const unsigned slot = picked[w] ? wp->next ^ 1u : wp->next;
    const smtlm_iref r = wp->ib[slot];
    smtlm_inst *in = smtlm_pool_get(&sm->pool, r);
    smtlm_muon_sb_operands ops;
    int rc = smtlm_muon_sb_admit(&m->sb, (smtlm_iref)t, in, &ops);
    if (rc == SMTLM_MUON_ADMIT)
        rc = smtlm_muon_rs_admit(&m->rs, (smtlm_iref)t, in, ops.busy, ops.none);
    if (rc < 0) {
        m->tag_free[t >> 6] |= 1ull << (t & 63);
        return rc == SMTLM_EFULL ? SMTLM_OK : rc;
    }
    smtlm_sm_muon_tag *g = &m->tag[t];
    g->used = 1;
    g->ref = r;
    g->row = (uint8_t)rc;
    g->entry = -1;
    g->dispatched = 0;
    g->wb_waiting = 0;
    g->warp = (uint16_t)w;
    g->pc = in->pc;
    m->ref_tag[r] = (uint16_t)t;
    /* The SM's own scoreboard mirrors pendingWrite: the front end's exit test and MEMBAR wait
     * for a warp's pending writes there (a global load leaves the pipeline before it writes). */
    const smtlm_muon_sb_ticket *k = &m->sb.ticket[t];
    smtlm_inst mirror;
    memset(&mirror, 0, sizeof mirror);
    for (unsigned i = 0; i < k->n_dst; i++)
        if (k->writes >> i & 1) {
            m->writer[w][k->dst[i]] = (uint16_t)t;
            mirror.dst[mirror.n_dst++] = k->dst[i];
        }
    const int longop = in->op == SMTLM_OP_LOAD && (in->mem_space == SMTLM_MEM_GLOBAL || in->mem_space == SMTLM_MEM_LOCAL ||
                                                   in->mem_space == SMTLM_MEM_TEX);
    smtlm_sb_reserve(&iss->sb, (unsigned)w, &mirror, longop);
    /* the instruction buffer steps as at a GPGPU-Sim issue; an entry admitted past the head
     * leaves the head in place */
    wp->ib[slot] = SMTLM_NO_INST;
    wp->ib_valid[slot] = 0;
    if (!picked[w])
        wp->next = (uint8_t)(slot ^ 1);
    warp_ib_changed(iss, (unsigned)w);
    if (!wp->ib_valid[slot ^ 1])
        iss->ib_empty |= 1ull << w;
    in->uid = ++iss->next_uid;
    in->sched = (uint8_t)((unsigned)w % sm->cfg.n_sched);
    in->unit = iss->route_unit[in->op < SMTLM_OP_COUNT ? in->op : SMTLM_OP_COUNT];
    in->ev[SMTLM_EV_ISSUE] = now;
    iss->issued++;
    iss->issued_this_cycle++;
    if (special(in)) {
        iss->ports.now = now;
        smtlm_issue_special(iss, &iss->ports, (unsigned)w, in);
    }
    return SMTLM_OK;
}

/* ---- the cycle ----------------------------------------------------------------------- */

int smtlm_sm_muon_cycle(smtlm_sm *sm, uint64_t now)
{
    smtlm_sm_muon *m = &sm->muon;
    sm->now = now;
    sm->stats.active_cycles++;
    sm->iss.issued_this_cycle = 0;
    m->n_wake = 0;
    retry_held(sm, now);
    writeback(sm, now);
    int rc = smtlm_exec_cycle(&sm->ex, now);
    if (!rc)
        rc = smtlm_ldst_cycle(&sm->ldst, now);
    if (!rc)
        rc = deliver(sm, now);
    if (!rc) {
        dispatch(sm, now);
        rc = collect(sm, now);
    }
    if (!rc)
        rc = smtlm_muon_coll_arbitrate(&m->coll, now);
    if (!rc && !sm->cfg.muon.rs.forwarding)
        for (unsigned i = 0; i < m->n_wake; i++)
            smtlm_muon_rs_wakeup(&m->rs, m->wake[i].warp, m->wake[i].reg, 0);
    if (!rc)
        rc = admit(sm, now);
    if (!rc)
        rc = smtlm_issue_fetch_decode(&sm->iss, now);
    if (sm->iss.issued_this_cycle)
        sm->last_progress = now;
    smtlm_muon_rs_sample(&m->rs);
    if (rc && !sm->error) {
        sm->error = rc;
        sm->error_line = sm->iss.error_line;
    }
    return sm->error;
}
