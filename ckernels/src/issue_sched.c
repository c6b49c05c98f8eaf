/* Issue block, scheduler half: warp ordering policies, the per-scheduler issue loop
 * (GPGPU-Sim scheduler_unit::cycle), unit routing, issue_warp and the stall statistics. */
#include "issue_internal.h"

#include <string.h>

#include "smtlm/ports_direct.h"

int smtlm_warp_waiting(smtlm_issue *iss, unsigned w)
{
    smtlm_warp *wp = &iss->warp[w];
    if (!(wp->membar | wp->n_atomic) && wp->n_completed != SMTLM_WARP_SIZE &&
        !(iss->cta[wp->cta].at_barrier >> w & 1))
        return 0; /* the common case, in one test */
    if (warp_functional_done(wp))
        return 1;
    if (iss->cta[wp->cta].at_barrier >> w & 1)
        return 1;
    if (wp->membar) { /* released by the first look that finds no pending write */
        if (smtlm_sb_pending_writes(&iss->sb, w))
            return 1;
        wp->membar = 0;
    }
    return wp->n_atomic > 0;
}

/* Sort key for gto/oldest: done or waiting warps last, then by dynamic warp id. */
static uint64_t age_key(smtlm_issue *iss, unsigned w)
{
    if (iss->warp[w].done_exit || smtlm_warp_waiting(iss, w))
        return UINT64_MAX;
    return iss->warp[w].dyn_id;
}

/* Orderings fill `list` with positions in the supervised list (not warp ids). */
static unsigned order_by_age(smtlm_issue *iss, const smtlm_sched *sc, uint8_t *list, int greedy)
{
    uint64_t key[SMTLM_MAX_WARPS];
    unsigned n = 0;
    int g = -1;
    if (greedy) { /* the last warp that issued goes first (initially the first supervised) */
        g = sc->last < 0 ? 0 : sc->last;
        list[n++] = (uint8_t)g;
    }
    const unsigned base = n;
    for (unsigned i = 0; i < sc->n_sup; i++) {
        unsigned w = sc->sup[i];
        if ((int)i == g || iss->warp[w].done_exit)
            continue;
        uint64_t k = age_key(iss, w);
        unsigned j = n++;
        while (j > base && key[j - 1] > k) {
            key[j] = key[j - 1];
            list[j] = list[j - 1];
            j--;
        }
        key[j] = k;
        list[j] = (uint8_t)i;
    }
    return n;
}

/* lrr: every live supervised warp, starting just after the last one that issued. */
static unsigned order_lrr(const smtlm_sched *sc, uint8_t *list)
{
    const unsigned start = sc->last < 0 ? 0 : (unsigned)sc->last + 1;
    uint64_t hi = start < 64 ? sc->live >> start << start : 0; /* positions start.. first */
    uint64_t lo = sc->live & ~hi;
    unsigned n = 0;
    while (hi) {
        list[n++] = (uint8_t)smtlm_ctz64(hi);
        hi &= hi - 1;
    }
    while (lo) {
        list[n++] = (uint8_t)smtlm_ctz64(lo);
        lo &= lo - 1;
    }
    return n;
}

/* rrr: only the current-turn warp; the turn moves on after an issue or when it cannot go. */
static unsigned order_rrr(smtlm_issue *iss, unsigned s, uint8_t *list)
{
    smtlm_sched *sc = &iss->sched[s];
    unsigned turn = sc->sup[sc->turn];
    if (iss->issued_last[s] || iss->warp[turn].done_exit || smtlm_warp_waiting(iss, turn)) {
        unsigned start = sc->last < 0 ? 0 : (unsigned)sc->last + 1;
        for (unsigned i = 0; i < sc->n_sup; i++) {
            unsigned k = (start + i) % sc->n_sup, w = sc->sup[k];
            if (!iss->warp[w].done_exit && !smtlm_warp_waiting(iss, w)) {
                sc->turn = (uint8_t)k;
                list[0] = (uint8_t)k;
                return 1;
            }
        }
        return 0; /* no warp can take the turn: none is examined this cycle */
    }
    list[0] = sc->turn;
    return 1;
}

/* two_level_active:N: an active set of N warps served in LRR order; a warp that waits or whose
 * next instruction reads a long-operation register is demoted, and pending warps (in supervised
 * order) refill the set. */
static unsigned order_two_level(smtlm_issue *iss, smtlm_sched *sc, const smtlm_inst_pool *pool, uint8_t *list)
{
    for (unsigned i = 0; i < sc->n_sup; i++) {
        unsigned w = sc->sup[i];
        if (!(sc->active_set >> w & 1))
            continue;
        smtlm_warp *wp = &iss->warp[w];
        int demote = wp->done_exit || smtlm_warp_waiting(iss, w);
        if (!demote && wp->ib_valid[wp->next])
            demote = smtlm_sb_reads_longop(&iss->sb, w, &pool->inst[wp->ib[wp->next]]);
        if (demote)
            sc->active_set &= ~(1ull << w);
    }
    unsigned n_active = smtlm_popcount32((uint32_t)sc->active_set) + smtlm_popcount32((uint32_t)(sc->active_set >> 32));
    for (unsigned i = 0; i < sc->n_sup && n_active < iss->cfg.two_level_active; i++) {
        unsigned w = sc->sup[i];
        if (!(sc->active_set >> w & 1) && !iss->warp[w].done_exit && !smtlm_warp_waiting(iss, w)) {
            sc->active_set |= 1ull << w;
            n_active++;
        }
    }
    unsigned n = 0, start = sc->last < 0 ? 0 : (unsigned)sc->last + 1;
    for (unsigned i = 0; i < sc->n_sup; i++) {
        unsigned k = (start + i) % sc->n_sup;
        if (sc->active_set >> sc->sup[k] & 1)
            list[n++] = (uint8_t)k;
    }
    return n;
}

/* Unit routing of scheduler_unit::cycle (no INT->SP fallback). Returns the ID_OC set id and
 * the unit type, or -1 when the target slot is busy or the dual-issue rule forbids it. */
static int route(const smtlm_issue *iss, const smtlm_issue_ports *env, unsigned s,
                 const smtlm_inst *in, unsigned prev, unsigned *unit)
{
    const smtlm_issue_cfg *c = &iss->cfg;
    const int diff = c->dual_issue_diff_units;
#define HAS_FREE(id) smtlm_stage_has_free(&env->out, (id), c->sub_core, s)
#define AVAIL(n, id) ((n) > 0 && HAS_FREE(id))
#define BLOCKED(u) (diff && prev == (u))
    switch (in->op) {
    case SMTLM_OP_LOAD: case SMTLM_OP_STORE: case SMTLM_OP_MEMBAR:
        if (HAS_FREE(SMTLM_ID_OC_MEM) && !BLOCKED(SMTLM_UNIT_MEM)) {
            *unit = SMTLM_UNIT_MEM;
            return SMTLM_ID_OC_MEM;
        }
        return -1;
    case SMTLM_OP_TENSOR_CORE:
        if (!BLOCKED(SMTLM_UNIT_TENSOR) && AVAIL(c->n_tensor, SMTLM_ID_OC_TENSOR_CORE)) {
            *unit = SMTLM_UNIT_TENSOR;
            return SMTLM_ID_OC_TENSOR_CORE;
        }
        return -1;
    case SMTLM_OP_SPEC: {
        unsigned k = (unsigned)in->spec - 1;
        if (!BLOCKED(SMTLM_UNIT_SPECIALIZED) && AVAIL(c->n_spec_units[k], SMTLM_ID_OC_SPEC(k))) {
            *unit = SMTLM_UNIT_SPECIALIZED;
            return SMTLM_ID_OC_SPEC(k);
        }
        return -1;
    }
    case SMTLM_OP_DP:
        if (c->n_dp > 0 && !BLOCKED(SMTLM_UNIT_DP)) {
            if (AVAIL(c->n_dp, SMTLM_ID_OC_DP)) {
                *unit = SMTLM_UNIT_DP;
                return SMTLM_ID_OC_DP;
            }
            return -1;
        }
        if (c->n_dp == 0 && !BLOCKED(SMTLM_UNIT_SFU) && AVAIL(c->n_sfu, SMTLM_ID_OC_SFU)) {
            *unit = SMTLM_UNIT_SFU;
            return SMTLM_ID_OC_SFU;
        }
        return -1;
    case SMTLM_OP_SFU:
        if (!BLOCKED(SMTLM_UNIT_SFU) && AVAIL(c->n_sfu, SMTLM_ID_OC_SFU)) {
            *unit = SMTLM_UNIT_SFU;
            return SMTLM_ID_OC_SFU;
        }
        return -1;
    default: /* SP, INT, ALU, branch, BAR, EXIT */
        if (c->n_int > 0 && in->op != SMTLM_OP_SP && !BLOCKED(SMTLM_UNIT_INT) && AVAIL(c->n_int, SMTLM_ID_OC_INT)) {
            *unit = SMTLM_UNIT_INT;
            return SMTLM_ID_OC_INT;
        }
        if ((c->n_int == 0 || in->op == SMTLM_OP_SP) && !BLOCKED(SMTLM_UNIT_SP) && AVAIL(c->n_sp, SMTLM_ID_OC_SP)) {
            *unit = SMTLM_UNIT_SP;
            return SMTLM_ID_OC_SP;
        }
        return -1;
    }
#undef AVAIL
#undef BLOCKED
#undef HAS_FREE
}

/* RAW/WAW collision of the warp's next instruction, cached until the warp's scoreboard or its
 * next instruction changes (it is re-examined every cycle while it waits). */
static int blocked_on_scoreboard(smtlm_issue *iss, unsigned w, smtlm_iref r, const smtlm_inst *in)
{
    smtlm_warp *wp = &iss->warp[w];
    if (wp->sb_inst != r || wp->sb_gen != iss->sb.gen[w]) {
        wp->sb_inst = r;
        wp->sb_gen = iss->sb.gen[w];
        wp->sb_blocked = (uint8_t)smtlm_sb_collision(&iss->sb, w, in);
    }
    return wp->sb_blocked;
}

/* Which of smtlm_warp_waiting's conditions holds (it was just evaluated as true). */
static int wait_reason(const smtlm_issue *iss, unsigned w)
{
    const smtlm_warp *wp = &iss->warp[w];
    if (warp_functional_done(wp))
        return SMTLM_WS_DRAINING;
    if (iss->cta[wp->cta].at_barrier >> w & 1)
        return SMTLM_WS_BARRIER;
    return wp->membar ? SMTLM_WS_MEMBAR : SMTLM_WS_ATOMIC;
}

static int is_longop_load(const smtlm_inst *in)
{
    return in->op == SMTLM_OP_LOAD &&
           (in->mem_space == SMTLM_MEM_GLOBAL || in->mem_space == SMTLM_MEM_LOCAL || in->mem_space == SMTLM_MEM_TEX);
}

/* GPGPU-Sim issue_warp: into the ID_OC slot, functional effects (EXIT lanes, barrier, membar,
 * atomics), scoreboard reservation, ibuffer slot freed. */
static void issue_warp(smtlm_issue *iss, const smtlm_issue_ports *env, unsigned s, unsigned w,
                       unsigned set, unsigned unit)
{
    smtlm_warp *wp = &iss->warp[w];
    smtlm_iref r = wp->ib[wp->next];
    smtlm_inst *in = smtlm_pool_get(env->pool, r);
    wp->ib[wp->next] = SMTLM_NO_INST;
    wp->ib_valid[wp->next] = 0;
    wp->sb_inst = SMTLM_NO_INST; /* the pool entry may come back for a later instruction */
    if (warp_ib_empty(wp))
        iss->ib_empty |= 1ull << w;
    in->uid = ++iss->next_uid;
    in->sched = (uint8_t)s;
    in->unit = (uint8_t)unit;
    in->ev[SMTLM_EV_ISSUE] = env->now;
    smtlm_stage_put(&env->out, set, iss->cfg.sub_core, s, r, in->uid);
    iss->distro[s][SMTLM_DISTRO_W0 + smtlm_popcount32(in->mask)]++;
    iss->issued++;
    iss->issued_this_cycle++;
    if (in->atomic)
        wp->n_atomic += smtlm_popcount32(in->mask);
    if (in->op == SMTLM_OP_EXIT) {
        uint32_t done = in->mask & wp->active_lanes;
        wp->active_lanes &= ~done;
        wp->n_completed = (uint8_t)(wp->n_completed + smtlm_popcount32(done));
        if (warp_functional_done(wp))
            iss->fdone |= 1ull << w;
    }
    if (wp->trace_done && warp_functional_done(wp)) {
        smtlm_issue_ibuffer_flush(iss, env->pool, w);
        smtlm_issue_barrier_exit(iss, w);
    }
    if (in->op == SMTLM_OP_BARRIER) { /* every BAR is a full-CTA sync on barrier 0 */
        smtlm_cta_slot *c = &iss->cta[wp->cta];
        c->at_barrier |= 1ull << w;
        if ((c->at_barrier & c->warps) == c->warp_active)
            c->at_barrier = 0;
    }
    if (in->op == SMTLM_OP_MEMBAR)
        wp->membar = 1;
    smtlm_sb_reserve(&iss->sb, w, in, is_longop_load(in));
}

static void sched_cycle(smtlm_issue *iss, const smtlm_issue_ports *env, unsigned s)
{
    smtlm_sched *sc = &iss->sched[s];
    uint8_t list[SMTLM_MAX_WARPS];
    unsigned n;
    switch (iss->cfg.policy) {
    case SMTLM_SCHED_GTO: n = order_by_age(iss, sc, list, 1); break;
    case SMTLM_SCHED_OLDEST: n = order_by_age(iss, sc, list, 0); break;
    case SMTLM_SCHED_RRR: n = order_rrr(iss, s, list); break;
    case SMTLM_SCHED_TWO_LEVEL: n = order_two_level(iss, sc, env->pool, list); break;
    default: n = order_lrr(sc, list); break;
    }
    const unsigned max_issue = iss->cfg.max_issue_per_warp;
    int valid = 0, ready = 0, issued_any = 0;
    for (unsigned i = 0; i < n; i++) {
        const unsigned w = sc->sup[list[i]];
        smtlm_warp *wp = &iss->warp[w];
        if (wp->done_exit)
            continue;
        unsigned issued = 0, checked = 0, prev = SMTLM_UNIT_NONE;
        int reason = -1;
        while (checked < max_issue && checked <= issued && issued < max_issue) {
            if (warp_waiting_fast(iss, w)) {
                if (reason < 0)
                    reason = wait_reason(iss, w);
                break;
            }
            if (warp_ib_empty(wp)) {
                if (reason < 0)
                    reason = SMTLM_WS_IBUFFER_EMPTY;
                break;
            }
            const smtlm_iref r = wp->ib[wp->next];
            const smtlm_inst *in = smtlm_pool_get(env->pool, r);
            int inst_issued = 0;
            valid = 1;
            if (!blocked_on_scoreboard(iss, w, r, in)) {
                ready = 1;
                unsigned unit;
                int set = route(iss, env, s, in, prev, &unit);
                if (set >= 0) {
                    issue_warp(iss, env, s, w, (unsigned)set, unit);
                    issued++;
                    prev = unit;
                    issued_any = 1;
                    inst_issued = 1;
                } else if (reason < 0) {
                    reason = SMTLM_WS_UNIT_BUSY;
                }
            } else if (reason < 0) {
                reason = SMTLM_WS_SCOREBOARD;
            }
            if (inst_issued)
                wp->next ^= 1; /* ibuffer_step */
            checked++;
        }
        if (issued) {
            iss->warp_stall[w][SMTLM_WS_ISSUED]++;
            sc->last = (int16_t)list[i];
            if (issued == 1)
                iss->single_issue[s]++;
            else
                iss->dual_issue[s]++;
            break;
        }
        if (reason >= 0)
            iss->warp_stall[w][reason]++;
    }
    iss->issued_last[s] = (uint8_t)issued_any;
    if (!valid)
        iss->distro[s][SMTLM_DISTRO_IDLE]++;
    else if (!ready)
        iss->distro[s][SMTLM_DISTRO_SCOREBOARD]++;
    else if (!issued_any)
        iss->distro[s][SMTLM_DISTRO_STALL]++;
}

void smtlm_issue_bind(smtlm_issue *iss, const smtlm_issue_ports *ports) { iss->ports = *ports; }

int smtlm_issue_cycle(smtlm_issue *iss, uint64_t now)
{
    iss->ports.now = now;
    const smtlm_issue_ports *env = &iss->ports;
    iss->issued_this_cycle = 0;
    for (unsigned k = 0; k < iss->cfg.n_sched; k++)
        sched_cycle(iss, env, (iss->issue_prio + k) % iss->cfg.n_sched);
    iss->issue_prio = (iss->issue_prio + 1) % iss->cfg.n_sched;
    return iss->error;
}

/* ---- idle cycles ------------------------------------------------------------------------- */

/* A warp the issue stage could issue from next cycle (it has an instruction, does not wait,
 * and passes the scoreboard), or whose MEMBAR would clear: its state can change. */
static int warp_can_move(const smtlm_issue *iss, unsigned w)
{
    const smtlm_warp *wp = &iss->warp[w];
    const int pending = smtlm_sb_pending_writes(&iss->sb, w);
    if (wp->n_completed == SMTLM_WARP_SIZE) /* functionally done: can it exit? */
        return wp->stores_out == 0 && wp->in_pipeline == 0 && !pending;
    if (wp->membar && !pending)
        return 1;
    if (wp->membar || wp->n_atomic || (iss->cta[wp->cta].at_barrier >> w & 1))
        return 0;
    if (!wp->ib_valid[wp->next])
        return !wp->ib_valid[wp->next ^ 1]; /* an empty ibuffer gets fetched */
    return !smtlm_sb_collision(&iss->sb, w, &iss->ports.pool->inst[wp->ib[wp->next]]);
}

int smtlm_issue_idle(const smtlm_issue *iss)
{
    if (iss->issued_this_cycle || iss->fetch_valid)
        return 0;
    if (iss->cfg.policy != SMTLM_SCHED_LRR && iss->cfg.policy != SMTLM_SCHED_GTO && iss->cfg.policy != SMTLM_SCHED_OLDEST)
        return 0;
    for (unsigned w = 0; w < iss->cfg.max_warps; w++)
        if (!iss->warp[w].done_exit && warp_can_move(iss, w))
            return 0;
    return 1;
}

void smtlm_issue_skip(smtlm_issue *iss, uint64_t now, uint64_t k)
{
    uint64_t distro[SMTLM_MAX_SCHED][SMTLM_DISTRO_SIZE], stall[SMTLM_MAX_WARPS][SMTLM_WS_COUNT];
    memcpy(distro, iss->distro, sizeof distro);
    memcpy(stall, iss->warp_stall, sizeof stall);
    smtlm_issue_cycle(iss, now); /* nothing can issue: this only counts */
    const uint64_t more = k - 1;
    for (unsigned s = 0; s < iss->cfg.n_sched; s++)
        for (unsigned c = 0; c < SMTLM_DISTRO_SIZE; c++)
            iss->distro[s][c] += (iss->distro[s][c] - distro[s][c]) * more;
    for (unsigned w = 0; w < iss->cfg.max_warps; w++)
        for (unsigned r = 0; r < SMTLM_WS_COUNT; r++)
            iss->warp_stall[w][r] += (iss->warp_stall[w][r] - stall[w][r]) * more;
    iss->issue_prio = (unsigned)((iss->issue_prio + more) % iss->cfg.n_sched);
}
