/* The Muon issue block: tags, the writeback gate, readResp/readData, dispatch, readReq and
 * admission around the Muon scoreboard and reservation station (muon_issue.h). Decrements
 * (writebacks, reads) come before the admission that may see them, as in the RTL. */
#include "smtlm/muon_issue.h"

#include <string.h>

#include "issue_internal.h"
#include "smtlm/port_calls.h"

/* ---- configuration ------------------------------------------------------------------- */

int smtlm_muon_issue_init(smtlm_muon_issue *mi, const smtlm_sm_muon_cfg *cfg, unsigned n_warps, unsigned n_sched,
                          int sub_core)
{
    mi->cfg_error = NULL;
    if (n_warps > 64) {
        mi->cfg_error = "muon mode: at most 64 warp slots (-gpgpu_shader_core_pipeline)";
        return SMTLM_ERANGE;
    }
    smtlm_muon_sb_cfg sb = cfg->sb;
    smtlm_muon_rs_cfg rs = cfg->rs;
    sb.n_warps = rs.n_warps = n_warps;
    int rc;
    if ((rc = smtlm_muon_sb_init(&mi->sb, &sb))) {
        mi->cfg_error = mi->sb.cfg_error;
        return rc;
    }
    if ((rc = smtlm_muon_rs_init(&mi->rs, &rs))) {
        mi->cfg_error = mi->rs.cfg_error;
        return rc;
    }
    mi->n_warps = n_warps;
    mi->n_sched = n_sched;
    mi->sub_core = sub_core;
    mi->forwarding = cfg->rs.forwarding;
    mi->past_waw = cfg->sb.past_waw;
    mi->fu_banks = cfg->coll.kind == SMTLM_MUON_COLL_INST_BANKED ? cfg->coll.collector_banks : 0;
    memset(&mi->p, 0, sizeof mi->p);
    smtlm_muon_issue_reset(mi);
    return SMTLM_OK;
}

void smtlm_muon_issue_bind(smtlm_muon_issue *mi, const smtlm_muon_issue_ports *p) { mi->p = *p; }

void smtlm_muon_issue_reset(smtlm_muon_issue *mi)
{
    smtlm_muon_sb_reset(&mi->sb);
    smtlm_muon_rs_reset(&mi->rs);
    for (unsigned t = 0; t < SMTLM_MUON_MAX_TAGS; t++) {
        mi->tag[t].used = 0;
        mi->tag[t].ref = SMTLM_NO_INST;
        mi->tag[t].entry = -1;
    }
    memset(mi->tag_free, 0xFF, sizeof mi->tag_free);
    memset(mi->ref_tag, 0xFF, sizeof mi->ref_tag);
    memset(mi->writer, 0xFF, sizeof mi->writer);
    mi->n_held = mi->n_release = mi->n_wake = 0;
    mi->now = 0;
    memset(&mi->st, 0, sizeof mi->st);
}

/* ---- the collector kernel as a port (C engine) ---------------------------------------- */

static int coll_writeback(void *c, uint64_t now, unsigned warp, int reg) { return smtlm_muon_coll_writeback(c, now, warp, reg); }
static int coll_can_accept(void *c, unsigned fu) { return smtlm_muon_coll_can_accept(c, fu); }
static int coll_request(void *c, uint64_t now, const smtlm_muon_coll_req *q) { return smtlm_muon_coll_request(c, now, q); }
static int coll_release(void *c, uint64_t now, unsigned e) { return smtlm_muon_coll_release(c, now, e); }

smtlm_muon_coll_ops smtlm_muon_coll_direct_ops(smtlm_muon_coll *c)
{
    const smtlm_muon_coll_ops o = {c, coll_writeback, coll_can_accept, coll_request, coll_release};
    return o;
}

/* ---- tags ---------------------------------------------------------------------------- */

static int tag_alloc(smtlm_muon_issue *mi)
{
    for (unsigned i = 0; i < SMTLM_MUON_MAX_TAGS / 64; i++)
        if (mi->tag_free[i]) {
            const unsigned t = i * 64 + smtlm_ctz64(mi->tag_free[i]);
            mi->tag_free[i] &= mi->tag_free[i] - 1;
            return (int)t;
        }
    return -1;
}

/* Frees the tag once its instruction has left the pipeline and the scoreboard holds nothing
 * for it (reads done, pendingWrite cleared). */
static void tag_maybe_free(smtlm_muon_issue *mi, unsigned t)
{
    smtlm_muon_tag *g = &mi->tag[t];
    if (!g->used || g->ref != SMTLM_NO_INST || g->wb_waiting || smtlm_muon_sb_live(&mi->sb, (smtlm_iref)t))
        return;
    g->used = 0;
    mi->tag_free[t >> 6] |= 1ull << (t & 63);
}

/* The instruction of pool entry r no longer holds its tag. */
static void tag_drop_ref(smtlm_muon_issue *mi, smtlm_iref r)
{
    const unsigned t = mi->ref_tag[r];
    mi->ref_tag[r] = SMTLM_MUON_NO_TAG;
    if (t != SMTLM_MUON_NO_TAG) {
        mi->tag[t].ref = SMTLM_NO_INST;
        tag_maybe_free(mi, t);
    }
}

/* ---- writeback ----------------------------------------------------------------------- */

/* The register release of tag t: 1 when done, 0 when the writeback gate (or the collector's
 * per-cycle writeback limit) holds it. */
static int release_regs(smtlm_muon_issue *mi, unsigned t)
{
    const smtlm_muon_sb_ticket *k = &mi->sb.ticket[t];
    const unsigned writes = k->writes;
    if (mi->n_wake + (unsigned)smtlm_popcount32(writes) > SMTLM_MUON_COLL_MAX_WB)
        return 0;
    if (!smtlm_muon_sb_writeback(&mi->sb, (smtlm_iref)t))
        return 0;
    const unsigned w = k->warp;
    for (unsigned i = 0; i < k->n_dst; i++) {
        if (!(writes >> i & 1))
            continue;
        const int reg = k->dst[i];
        mi->writer[w][reg] = SMTLM_MUON_NO_TAG;
        smtlm_sb_release_reg(&mi->p.iss->sb, w, (unsigned)reg);
        mi->p.coll.writeback(mi->p.coll.ctx, mi->now, w, reg);
        if (mi->forwarding) {
            smtlm_muon_rs_fwd fwd[SMTLM_MUON_RS_MAX];
            const unsigned n = smtlm_muon_rs_wakeup(&mi->rs, w, reg, fwd);
            for (unsigned j = 0; j < n; j++)
                smtlm_muon_sb_read_done(&mi->sb, fwd[j].tag, fwd[j].slots);
        }
        mi->wake[mi->n_wake].warp = (uint16_t)w; /* counts the cycle's writebacks in both modes */
        mi->wake[mi->n_wake].reg = (int16_t)reg;
        mi->n_wake++;
    }
    return 1;
}

/* An ALU instruction leaves the pipeline: completion, then its pool entry and tag. */
static void complete(smtlm_muon_issue *mi, smtlm_iref r)
{
    smtlm_inst *in = smtlm_pool_get(mi->p.pool, r);
    in->ev[SMTLM_EV_WRITEBACK] = mi->now;
    mi->p.completed(mi->p.ctx, in);
    smtlm_issue_retired(mi->p.iss, in->warp);
    smtlm_pool_free(mi->p.pool, r);
    tag_drop_ref(mi, r);
}

/* how: HELD_ALU (the result waits in the held list with its pool entry) or HELD_LDST (a
 * load's release; the LDST completes the instruction itself) */
enum { HELD_ALU = 1, HELD_LDST = 2 };
static void hold(smtlm_muon_issue *mi, unsigned t, int how)
{
    mi->tag[t].wb_waiting = (uint8_t)how;
    mi->held[mi->n_held++] = (uint16_t)t;
}

/* Writebacks the gate held, oldest first; an ALU result completes with its release. */
void smtlm_muon_issue_begin(smtlm_muon_issue *mi, uint64_t now)
{
    mi->now = now;
    mi->n_wake = 0;
    unsigned keep = 0;
    for (unsigned i = 0; i < mi->n_held; i++) {
        const unsigned t = mi->held[i];
        if (!release_regs(mi, t)) {
            mi->held[keep++] = (uint16_t)t;
            mi->st.wb_gate_waits++;
            continue;
        }
        smtlm_muon_tag *g = &mi->tag[t];
        const int how = g->wb_waiting;
        g->wb_waiting = 0;
        if (how == HELD_ALU)
            complete(mi, g->ref);
        else
            tag_maybe_free(mi, t);
    }
    mi->n_held = keep;
}

/* An EX_WB instruction writes back unless the gate holds its release. */
void smtlm_muon_issue_result(smtlm_muon_issue *mi, smtlm_iref r)
{
    const unsigned t = mi->ref_tag[r];
    if (t != SMTLM_MUON_NO_TAG && mi->sb.ticket[t].writes && !release_regs(mi, t)) {
        hold(mi, t, HELD_ALU); /* completes when the release passes (begin) */
        return;
    }
    complete(mi, r);
}

/* ---- the LDST's warp events ---------------------------------------------------------- */

void smtlm_muon_issue_ldst_release(smtlm_muon_issue *mi, unsigned warp, unsigned reg)
{
    if (warp >= SMTLM_MAX_WARPS || reg > SMTLM_MAX_REG)
        return;
    const unsigned t = mi->writer[warp][reg];
    if (t == SMTLM_MUON_NO_TAG || mi->tag[t].wb_waiting)
        return;
    if (!release_regs(mi, t))
        hold(mi, t, HELD_LDST);
}

/* The LDST completes a memory instruction and frees its pool entry itself. */
void smtlm_muon_issue_ldst_completed(smtlm_muon_issue *mi, const smtlm_inst *in)
{
    mi->p.completed(mi->p.ctx, in);
    tag_drop_ref(mi, (smtlm_iref)(in - mi->p.pool->inst));
}

/* ---- readResp, readData, dispatch, readReq ------------------------------------------- */

void smtlm_muon_issue_collected(smtlm_muon_issue *mi, const smtlm_muon_coll_resp *resp, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        smtlm_muon_tag *g = &mi->tag[resp[i].tag];
        smtlm_muon_rs_collected(&mi->rs, g->row, resp[i].slots);
        smtlm_muon_sb_read_done(&mi->sb, resp[i].tag, resp[i].slots);
        smtlm_pool_get(mi->p.pool, g->ref)->ev[SMTLM_EV_OPERANDS] = mi->now;
    }
}

int smtlm_muon_issue_read_data(smtlm_muon_issue *mi)
{
    for (unsigned i = 0; i < mi->n_release; i++) {
        const int rc = mi->p.coll.release(mi->p.coll.ctx, mi->now, (unsigned)mi->release[i]);
        if (rc)
            return rc;
    }
    mi->n_release = 0;
    return SMTLM_OK;
}

/* The OC_EX set an instruction's unit reads, or -1 when the SM has no such unit. */
static int exec_set(const smtlm_issue *iss, const smtlm_inst *in)
{
    const unsigned op = in->op < SMTLM_OP_COUNT ? in->op : SMTLM_OP_COUNT;
    if (op == SMTLM_OP_SPEC) {
        const unsigned k = (unsigned)in->spec - 1;
        return k < SMTLM_MAX_SPEC_UNITS && iss->units.spec[k].num_units ? (int)SMTLM_OC_EX_SPEC(k) : -1;
    }
    const unsigned set = iss->route_set[op];
    if (set == 0xFF)
        return -1;
    return set < SMTLM_OC_EX_SP ? (int)set + (SMTLM_OC_EX_SP - SMTLM_ID_OC_SP) : (int)set + 1; /* tensor: 11 -> 12 */
}

void smtlm_muon_issue_dispatch(smtlm_muon_issue *mi)
{
    const uint64_t elig = smtlm_muon_rs_eligible(&mi->rs);
    if (!elig)
        return;
    uint64_t allowed = 0;
    for (uint64_t e = elig; e; e &= e - 1) {
        const unsigned row = smtlm_ctz64(e);
        const smtlm_inst *in = smtlm_pool_get(mi->p.pool, mi->tag[mi->rs.row[row].tag].ref);
        const int set = exec_set(mi->p.iss, in);
        if (set >= 0 && smtlm_stage_has_free(&mi->p.exec, (unsigned)set, mi->sub_core, in->sched))
            allowed |= 1ull << row;
    }
    smtlm_muon_rs_pick p;
    if (!smtlm_muon_rs_dispatch(&mi->rs, allowed, &p))
        return;
    smtlm_muon_tag *g = &mi->tag[p.tag];
    smtlm_inst *in = smtlm_pool_get(mi->p.pool, g->ref);
    in->ev[SMTLM_EV_OC_EX] = mi->now;
    smtlm_stage_put(&mi->p.exec, (unsigned)exec_set(mi->p.iss, in), mi->sub_core, in->sched, g->ref, in->uid);
    g->dispatched = 1;
    if (g->entry >= 0) { /* readData next cycle frees the collector entry */
        mi->release[mi->n_release++] = g->entry;
        g->entry = -1;
    }
}

/* inst_banked: the collector bank of an instruction's unit type, counted SP, INT, SFU, MEM, DP,
 * tensor, specialized (the two main ALUs first, so that 2 banks already separate them), mod the
 * banks. Indexed by smtlm_inst.unit (none, SP, SFU, MEM, DP, INT, tensor, specialized). */
static unsigned fu_bank(const smtlm_muon_issue *mi, const smtlm_inst *in)
{
    static const uint8_t rank[8] = {0, 0, 2, 3, 4, 1, 5, 6};
    return rank[in->unit & 7] % mi->fu_banks;
}

/* The RS rows whose FU bank has a free collector entry (inst_banked). */
static uint64_t rows_with_room(smtlm_muon_issue *mi)
{
    unsigned room = 0;
    for (unsigned b = 0; b < mi->fu_banks; b++)
        if (mi->p.coll.can_accept(mi->p.coll.ctx, b))
            room |= 1u << b;
    uint64_t rows = 0;
    for (uint64_t v = room ? mi->rs.valid : 0; v; v &= v - 1) {
        const unsigned r = smtlm_ctz64(v);
        if (room >> fu_bank(mi, smtlm_pool_get(mi->p.pool, mi->tag[mi->rs.row[r].tag].ref)) & 1)
            rows |= 1ull << r;
    }
    return rows;
}

int smtlm_muon_issue_collect(smtlm_muon_issue *mi)
{
    smtlm_muon_rs_pick p;
    if (mi->fu_banks) {
        const uint64_t rows = rows_with_room(mi);
        if (!rows || !smtlm_muon_rs_collect_pick_among(&mi->rs, rows, &p))
            return SMTLM_OK;
    } else if (!mi->p.coll.can_accept(mi->p.coll.ctx, 0) || !smtlm_muon_rs_collect_pick(&mi->rs, &p))
        return SMTLM_OK;
    const smtlm_muon_rs_row *row = &mi->rs.row[p.row];
    const smtlm_inst *in = smtlm_pool_get(mi->p.pool, mi->tag[p.tag].ref);
    smtlm_muon_coll_req q;
    memset(&q, 0, sizeof q);
    q.tag = p.tag;
    q.warp = p.warp;
    q.fu = (uint8_t)(mi->fu_banks ? fu_bank(mi, in) : 0);
    q.slots = p.slots;
    for (unsigned i = 0; i < row->n_src; i++)
        q.reg[i] = row->src[i];
    const int e = mi->p.coll.request(mi->p.coll.ctx, mi->now, &q);
    if (e < 0)
        return e;
    mi->tag[p.tag].entry = (int8_t)e;
    smtlm_pool_get(mi->p.pool, mi->tag[p.tag].ref)->ev[SMTLM_EV_CU_ALLOC] = mi->now;
    return SMTLM_OK;
}

void smtlm_muon_issue_wake(smtlm_muon_issue *mi)
{
    if (mi->forwarding)
        return;
    for (unsigned i = 0; i < mi->n_wake; i++)
        smtlm_muon_rs_wakeup(&mi->rs, mi->wake[i].warp, mi->wake[i].reg, 0);
}

/* ---- admission ----------------------------------------------------------------------- */

static int special(const smtlm_inst *in)
{
    return in->atomic || in->op == SMTLM_OP_EXIT || in->op == SMTLM_OP_BARRIER || in->op == SMTLM_OP_MEMBAR;
}

/* The admission candidates: warps whose head (or, past-WAW, the entry behind it) the
 * scoreboard admits; picked[w] = 1 when it is the entry behind the head. */
static int candidates(smtlm_muon_issue *mi, uint64_t *cand, uint8_t *picked)
{
    smtlm_issue *iss = mi->p.iss; /* smtlm_warp_waiting may update the warp's barrier state */
    *cand = 0;
    for (unsigned w = 0; w < mi->n_warps; w++) {
        const smtlm_warp *wp = &iss->warp[w];
        if (wp->done_exit || (iss->ib_empty >> w & 1) || !wp->ib_valid[wp->next] || smtlm_warp_waiting(iss, w))
            continue;
        /* the buffer in program order: the head, then (past-WAW) the entry behind it */
        const smtlm_inst *window[2];
        unsigned n = 0;
        window[n++] = smtlm_pool_get(mi->p.pool, wp->ib[wp->next]);
        if (exec_set(iss, window[0]) < 0)
            continue;
        /* EXIT, BAR, MEMBAR and atomics act on the warp at admission: never past the head */
        const unsigned behind = wp->next ^ 1u;
        if (mi->past_waw && wp->ib_valid[behind]) {
            const smtlm_inst *b = smtlm_pool_get(mi->p.pool, wp->ib[behind]);
            if (exec_set(iss, b) >= 0 && !special(b))
                window[n++] = b;
        }
        unsigned pick = 0;
        int verdict = SMTLM_MUON_ADMIT;
        const int rc = smtlm_muon_sb_select(&mi->sb, window, n, &pick, &verdict);
        if (rc < 0)
            return rc;
        if (rc == 1) {
            *cand |= 1ull << w;
            picked[w] = (uint8_t)pick;
        }
        if (verdict > 0 && verdict < SMTLM_MUON_VERDICTS)
            mi->st.admit_stall[verdict]++;
    }
    return SMTLM_OK;
}

/* The SM's own scoreboard mirrors pendingWrite of tag t: the front end's exit test and MEMBAR
 * wait for a warp's pending writes there (a global load leaves the pipeline before it writes). */
static void mirror_writes(smtlm_muon_issue *mi, unsigned t, unsigned w, const smtlm_inst *in)
{
    const smtlm_muon_sb_ticket *k = &mi->sb.ticket[t];
    smtlm_inst mirror;
    memset(&mirror, 0, sizeof mirror);
    for (unsigned i = 0; i < k->n_dst; i++)
        if (k->writes >> i & 1) {
            mi->writer[w][k->dst[i]] = (uint16_t)t;
            mirror.dst[mirror.n_dst++] = k->dst[i];
        }
    const int longop = in->op == SMTLM_OP_LOAD && (in->mem_space == SMTLM_MEM_GLOBAL || in->mem_space == SMTLM_MEM_LOCAL ||
                                                   in->mem_space == SMTLM_MEM_TEX);
    smtlm_sb_reserve(&mi->p.iss->sb, w, &mirror, longop);
}

/* Pops the head of a warp's instruction buffer (or, past-WAW, the entry behind it) into the RS
 * (GPGPU-Sim's issue_warp without the ID_OC hand-off and its scoreboard). */
int smtlm_muon_issue_admit(smtlm_muon_issue *mi)
{
    smtlm_issue *iss = mi->p.iss;
    uint64_t cand;
    uint8_t picked[SMTLM_MAX_WARPS];
    int rc = candidates(mi, &cand, picked);
    if (rc < 0 || !cand)
        return rc;
    const int w = smtlm_muon_rs_admit_pick(&mi->rs, cand);
    if (w < 0)
        return SMTLM_OK;
    const int t = tag_alloc(mi);
    if (t < 0) {
        mi->st.tag_stalls++;
        return SMTLM_OK;
    }
    smtlm_warp *wp = &iss->warp[w];
    const unsigned slot = picked[w] ? wp->next ^ 1u : wp->next;
    const smtlm_iref r = wp->ib[slot];
    smtlm_inst *in = smtlm_pool_get(mi->p.pool, r);
    smtlm_muon_sb_operands ops;
    rc = smtlm_muon_sb_admit(&mi->sb, (smtlm_iref)t, in, &ops);
    if (rc == SMTLM_MUON_ADMIT)
        rc = smtlm_muon_rs_admit(&mi->rs, (smtlm_iref)t, in, ops.busy, ops.none);
    if (rc < 0) {
        mi->tag_free[t >> 6] |= 1ull << (t & 63);
        return rc == SMTLM_EFULL ? SMTLM_OK : rc;
    }
    smtlm_muon_tag *g = &mi->tag[t];
    g->used = 1;
    g->ref = r;
    g->row = (uint8_t)rc;
    g->entry = -1;
    g->dispatched = 0;
    g->wb_waiting = 0;
    g->warp = (uint16_t)w;
    g->pc = in->pc;
    mi->ref_tag[r] = (uint16_t)t;
    mirror_writes(mi, (unsigned)t, (unsigned)w, in);
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
    in->sched = (uint8_t)((unsigned)w % mi->n_sched);
    in->unit = iss->route_unit[in->op < SMTLM_OP_COUNT ? in->op : SMTLM_OP_COUNT];
    in->ev[SMTLM_EV_ISSUE] = mi->now;
    iss->issued_this_cycle++;
    if (special(in)) {
        iss->ports.now = mi->now;
        smtlm_issue_special(iss, &iss->ports, (unsigned)w, in);
    }
    return SMTLM_OK;
}
