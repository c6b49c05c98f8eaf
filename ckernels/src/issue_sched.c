/* Issue block, scheduler half: warp ordering policies, the per-scheduler issue loop
 * (GPGPU-Sim scheduler_unit::cycle), unit routing, issue_warp and the stall statistics. */
#include "issue_internal.h"

#include <string.h>

#include "smtlm/port_calls.h"

/* May clear the warp's membar (released by the first look that finds no pending write) and
 * its may_wait bit (once none of the conditions holds). */
int smtlm_warp_waiting(smtlm_issue *iss, unsigned w)
{
    if (!(iss->may_wait >> w & 1))
        return 0; /* none of the conditions was set since a look found none */
    smtlm_warp *wp = &iss->warp[w];
    if (warp_functional_done(wp))
        return 1;
    if (iss->cta[wp->cta].at_barrier >> w & 1)
        return 1;
    if (wp->membar) {
        if (smtlm_sb_pending_writes(&iss->sb, w))
            return 1;
        wp->membar = 0;
    }
    if (wp->n_atomic > 0)
        return 1;
    iss->may_wait &= ~(1ull << w);
    return 0;
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

#define HOT static SMTLM_ALWAYS_INLINE
#if defined(__GNUC__)
#define COLD static __attribute__((noinline))
#define NOINLINE static __attribute__((noinline))
#else
#define COLD static
#define NOINLINE static
#endif

#define ROUTE_NONE 0xFFu

/* Unit routing of scheduler_unit::cycle (no INT->SP fallback) as a table over the op (the
 * configuration is fixed): every op has one target set and unit (smtlm_op_route); ROUTE_NONE
 * when the core has none of those units. Entry SMTLM_OP_COUNT is the default branch (any
 * other op). */
void smtlm_issue_route_init(smtlm_issue *iss)
{
    const smtlm_units_cfg *c = &iss->units;
    for (unsigned op = 0; op <= SMTLM_OP_COUNT; op++) {
        unsigned unit, set;
        const unsigned n = smtlm_op_route(op, c->n_sp, c->n_dp, c->n_int, c->n_sfu, smtlm_units_tensor(c), &unit, &set);
        iss->route_unit[op] = (uint8_t)unit;
        iss->route_set[op] = (uint8_t)(n > 0 ? set : ROUTE_NONE);
    }
}

/* Returns the ID_OC set id and the unit type, or -1 when the core has no such unit, the target
 * slot is busy or the dual-issue rule forbids it (prev = the unit of the first instruction). */
HOT int route(const smtlm_issue *iss, const smtlm_issue_ports *ports, unsigned s, const smtlm_inst *in,
              unsigned prev, unsigned *unit)
{
    const unsigned op = in->op < SMTLM_OP_COUNT ? in->op : SMTLM_OP_COUNT;
    unsigned set = iss->route_set[op];
    const unsigned u = iss->route_unit[op];
    if (op == SMTLM_OP_SPEC) {
        const unsigned k = (unsigned)in->spec - 1;
        set = k < SMTLM_MAX_SPEC_UNITS && iss->units.spec[k].num_units > 0 ? (unsigned)SMTLM_ID_OC_SPEC(k) : ROUTE_NONE;
    }
    if (set == ROUTE_NONE || (prev != SMTLM_UNIT_NONE && iss->cfg.dual_issue_diff_units && prev == u) ||
        !smtlm_stage_has_free(&ports->out, set, iss->shape.sub_core, s))
        return -1;
    *unit = u;
    return (int)set;
}

/* Remembers that warp w's next instruction collides, until that instruction or the warp's
 * scoreboard set changes (only this verdict is kept: the bulk stall counting reads it). */
HOT void cache_blocked(smtlm_issue *iss, unsigned w)
{
    const uint64_t b = 1ull << w;
    iss->sb_blocked |= b;
    iss->sb.dirty &= ~b;
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

/* Accel-Sim's trace_done: set when next() ran dry, else asked of has_more. A warp's stream
 * moves only when decode fills its empty ibuffer, so asking here, when an EXIT issues, gives
 * the answer the question would have had right after the warp's last decode. */
static int stream_done(const smtlm_issue_ports *ports, smtlm_warp *wp, unsigned w)
{
    if (!wp->trace_done && ports->src.has_more && !ports->src.has_more(ports->src.ctx, ports->sm_id, w))
        wp->trace_done = 1;
    return wp->trace_done;
}

/* The functional effects of the rare instructions (atomics, EXIT, BAR, MEMBAR), in
 * issue_warp's order; the warp may wait from now on. */
COLD void issue_special(smtlm_issue *iss, const smtlm_issue_ports *ports, unsigned w, const smtlm_inst *in)
{
    smtlm_warp *wp = &iss->warp[w];
    iss->may_wait |= 1ull << w;
    if (in->atomic)
        wp->n_atomic += smtlm_popcount32(in->mask);
    if (in->op == SMTLM_OP_EXIT) {
        uint32_t done = in->mask & wp->active_lanes;
        wp->active_lanes &= ~done;
        wp->n_completed = (uint8_t)(wp->n_completed + smtlm_popcount32(done));
        if (warp_functional_done(wp)) {
            iss->fdone |= 1ull << w;
            /* (a warp that issues was not done before: only an EXIT gets it here) */
            if (stream_done(ports, wp, w)) {
                smtlm_issue_ibuffer_flush(iss, ports->pool, w);
                smtlm_issue_barrier_exit(iss, w);
            }
        }
    }
    if (in->op == SMTLM_OP_BARRIER) { /* every BAR is a full-CTA sync on barrier 0 */
        smtlm_cta_slot *c = &iss->cta[wp->cta];
        c->at_barrier |= 1ull << w;
        if ((c->at_barrier & c->warps) == c->warp_active)
            c->at_barrier = 0;
    }
    if (in->op == SMTLM_OP_MEMBAR)
        wp->membar = 1;
}

/* For compositions that issue without the schedulers (muon mode). */
void smtlm_issue_special(smtlm_issue *iss, const smtlm_issue_ports *ports, unsigned w, const smtlm_inst *in)
{
    issue_special(iss, ports, w, in);
}

/* The ops with functional effects at issue (atomics are flagged apart); op < 32. */
#define SPECIAL_OPS (1u << SMTLM_OP_EXIT | 1u << SMTLM_OP_BARRIER | 1u << SMTLM_OP_MEMBAR)
_Static_assert(SMTLM_OP_COUNT <= 32, "SPECIAL_OPS is a 32-bit op mask");

/* GPGPU-Sim issue_warp: into the ID_OC slot, functional effects (EXIT lanes, barrier, membar,
 * atomics), scoreboard reservation, ibuffer slot freed and stepped (ibuffer_step). r, in: the
 * warp's next instruction, as the caller already read it. */
HOT void issue_warp(smtlm_issue *iss, const smtlm_issue_ports *ports, unsigned s, unsigned w, unsigned set,
                    unsigned unit, smtlm_iref r, smtlm_inst *in)
{
    smtlm_warp *wp = &iss->warp[w];
    const unsigned slot = wp->next;
    const uint64_t b = 1ull << w;
    uint64_t pre = 0; /* the next instruction's register summary, when exact (see below) */
    wp->ib[slot] = SMTLM_NO_INST;
    wp->ib_valid[slot] = 0;
    wp->next = (uint8_t)(slot ^ 1);
    iss->sb_blocked &= ~b; /* the next instruction changed */
    if (!wp->ib_valid[slot ^ 1]) {
        iss->ib_empty |= b;
    } else {
        /* The pair's second instruction: when it names a register this one reserves (a
         * dependent pair), the warp is known stuck from the next cycle on (counted in bulk)
         * instead of examined once only to collide. Decided on the two register summaries when
         * both name registers below 64 only (no bit is spurious); else left to examine. */
        const uint64_t m = smtlm_pool_get(ports->pool, wp->ib[slot ^ 1])->sb_regs;
        pre = m & 1 ? 0 : m;
    }
    in->uid = ++iss->next_uid;
    in->sched = (uint8_t)s;
    in->unit = (uint8_t)unit;
    in->ev[SMTLM_EV_ISSUE] = ports->now;
    smtlm_stage_put(&ports->out, set, iss->shape.sub_core, s, r, in->uid);
    iss->distro[s][SMTLM_DISTRO_W0 + smtlm_popcount32(in->mask)]++;
    iss->issued_this_cycle++;
    const unsigned op = in->op;
    if ((SPECIAL_OPS >> (op & 31) & 1) | in->atomic)
        issue_special(iss, ports, w, in);
    smtlm_sb_reserve_entry(&iss->sb, w, in, op == SMTLM_OP_LOAD && is_longop_load(in));
    if (!(in->sb_dsts & 1) && (pre & in->sb_dsts)) /* (bit 0 set: the summary is not exact) */
        cache_blocked(iss, w);
}

/* What a scheduler saw this cycle (shader_cycle_distro category). */
typedef struct sched_seen {
    int valid, ready, issued_any;
} sched_seen;

HOT int waiting(smtlm_issue *iss, unsigned w)
{
    return (iss->may_wait >> w & 1) && smtlm_warp_waiting(iss, w);
}

/* The second instruction of a dual issue (GPGPU-Sim's per-warp loop, second round): the same
 * checks as the first; its stall reason is never counted, as the warp has issued. */
COLD int issue_second(smtlm_issue *iss, const smtlm_issue_ports *ports, unsigned s, unsigned w, unsigned prev)
{
    smtlm_warp *wp = &iss->warp[w];
    if (waiting(iss, w) || (iss->ib_empty >> w & 1))
        return 0;
    const smtlm_iref r = wp->ib[wp->next];
    smtlm_inst *in = smtlm_pool_get(ports->pool, r);
    unsigned unit;
    int set;
    if (smtlm_sb_collides_entry(&iss->sb, w, in) || (set = route(iss, ports, s, in, prev, &unit)) < 0)
        return 0;
    issue_warp(iss, ports, s, w, (unsigned)set, unit, r, in);
    return 1;
}

/* One examined warp of scheduler_unit::cycle: up to max_insn_issue_per_warp instructions;
 * returns 1 if it issued, else counts the warp's stall reason (the first check that failed). */
HOT int examine(smtlm_issue *iss, const smtlm_issue_ports *ports, unsigned s, unsigned w, sched_seen *seen)
{
    uint64_t *stall = iss->warp_stall[w];
    if ((iss->may_wait | iss->ib_empty) >> w & 1) { /* one test for the usual warp */
        if (waiting(iss, w)) {
            stall[wait_reason(iss, w)]++;
            return 0;
        }
        if (iss->ib_empty >> w & 1) {
            stall[SMTLM_WS_IBUFFER_EMPTY]++;
            return 0;
        }
    }
    seen->valid = 1;
    const smtlm_warp *wp = &iss->warp[w];
    const smtlm_iref r = wp->ib[wp->next];
    smtlm_inst *in = smtlm_pool_get(ports->pool, r);
    /* The test is one AND (the entry's register summary): no cached verdict is read here. A
     * blocked verdict is still cached, for the bulk counting of stuck warps (sb_stuck). */
    if (smtlm_sb_collides_entry(&iss->sb, w, in)) {
        cache_blocked(iss, w);
        stall[SMTLM_WS_SCOREBOARD]++;
        return 0;
    }
    seen->ready = 1;
    unsigned unit;
    const int set = route(iss, ports, s, in, SMTLM_UNIT_NONE, &unit);
    if (set < 0) {
        stall[SMTLM_WS_UNIT_BUSY]++;
        return 0;
    }
    issue_warp(iss, ports, s, w, (unsigned)set, unit, r, in);
    seen->issued_any = 1;
    stall[SMTLM_WS_ISSUED]++;
    if (iss->cfg.max_issue_per_warp > 1 && issue_second(iss, ports, s, w, unit))
        iss->dual_issue[s]++; /* (single issues are derived: smtlm_issue_single) */
    return 1;
}

/* The out-of-line copy for the rarer walks. */
COLD int examine_cold(smtlm_issue *iss, const smtlm_issue_ports *ports, unsigned s, unsigned w, sched_seen *seen)
{
    return examine(iss, ports, s, w, seen);
}

/* Warps whose examine cannot change anything this cycle: not waiting, an instruction in the
 * ibuffer, and a cached scoreboard verdict "blocked" that is still valid. examine would only
 * count their scoreboard stall, so the walks count it in bulk. Only the examined warp's state
 * changes during a walk that has not issued, so the mask stays exact for the whole walk. */
HOT uint64_t sb_stuck(const smtlm_issue *iss)
{
    return iss->sb_blocked & ~iss->sb.dirty & ~iss->may_wait & ~iss->ib_empty;
}

HOT void count_sb_stalls(smtlm_issue *iss, uint64_t m, sched_seen *seen)
{
    if (!m)
        return;
    seen->valid = 1;
    for (; m; m &= m - 1)
        iss->warp_stall[smtlm_ctz64(m)][SMTLM_WS_SCOREBOARD]++;
}

/* The warp that issued: its supervised position (gto, oldest, rrr, two_level). */
HOT void set_last(smtlm_issue *iss, smtlm_sched *sc, unsigned w)
{
    sc->last = (int16_t)(w / iss->shape.n_sched);
}

/* Rotation right by k < 64 (the idiom compiles to one ror, k = 0 included). */
static inline uint64_t rotr64(uint64_t m, unsigned k) { return m >> k | m << (-k & 63); }

/* lrr: the live supervised warps in warp-id order, starting at lrr_start (just after the last
 * that issued): the mask rotated right by that start puts the walk order in bit order (warp
 * ids run below 64, so the wrap-around is the same as walking ids >= start, then the rest).
 * cand: the live supervised warps; stuck: those of them in sb_stuck. Only the examined warps
 * are visited; the stuck ones the walk passed (all of them when none issues) have their
 * scoreboard stall counted in bulk at the end: the counters are sums, so the order of the
 * increments does not matter, and the stuck mask stays exact for the whole walk. */
HOT void walk_lrr(smtlm_issue *iss, const smtlm_issue_ports *ports, unsigned s, uint64_t cand, uint64_t stuck,
                  sched_seen *seen)
{
    smtlm_sched *sc = &iss->sched[s];
    const unsigned k = sc->lrr_start;
    for (uint64_t slow = rotr64(cand & ~stuck, k); slow; slow &= slow - 1) {
        const unsigned w = (smtlm_ctz64(slow) + k) & 63;
        if (examine(iss, ports, s, w, seen)) {
            sc->lrr_start = (uint8_t)((w + 1) & 63); /* (lrr reads no `last`) */
            if (stuck) { /* the walk passed ids k..w-1, wrapping past 63 when w < k */
                const uint64_t from_k = ~0ull << k, below_w = (1ull << w) - 1;
                count_sb_stalls(iss, stuck & (w >= k ? from_k & below_w : from_k | below_w), seen);
            }
            return;
        }
    }
    count_sb_stalls(iss, stuck, seen);
}

/* gto/oldest: (gto) the last warp that issued, then the warps that do not wait by age, then
 * the waiting ones in warp-id order. Every waiting test of the ordering runs before the walk,
 * as in GPGPU-Sim's sort by age (a test may release a membar). */
HOT void walk_age(smtlm_issue *iss, const smtlm_issue_ports *ports, unsigned s, int greedy, uint64_t stuck_all,
              sched_seen *seen)
{
    smtlm_sched *sc = &iss->sched[s];
    const uint64_t cand = sc->sup_mask & ~iss->exited;
    uint64_t first = 0;
    if (greedy)
        first = 1ull << sc->sup[sc->last < 0 ? 0 : sc->last];
    uint64_t waiting = 0;
    for (uint64_t m = cand & iss->may_wait & ~first; m; m &= m - 1) {
        const unsigned w = smtlm_ctz64(m);
        if (smtlm_warp_waiting(iss, w))
            waiting |= 1ull << w;
    }
    if (cand & first) {
        const unsigned w = smtlm_ctz64(first);
        if (examine(iss, ports, s, w, seen)) {
            set_last(iss, sc, w);
            return;
        }
    }
    const uint64_t skip = first | waiting, stuck = cand & stuck_all & ~skip;
    for (unsigned i = 0; i < sc->n_age; i++) {
        const unsigned w = sc->age[i];
        if (skip >> w & 1)
            continue;
        if (stuck >> w & 1) {
            seen->valid = 1;
            iss->warp_stall[w][SMTLM_WS_SCOREBOARD]++;
        } else if (examine_cold(iss, ports, s, w, seen)) {
            set_last(iss, sc, w);
            return;
        }
    }
    for (; waiting; waiting &= waiting - 1) {
        const unsigned w = smtlm_ctz64(waiting);
        if (examine_cold(iss, ports, s, w, seen)) {
            set_last(iss, sc, w);
            return;
        }
    }
}

/* rrr and two_level: an explicit order of supervised positions. */
COLD void walk_list(smtlm_issue *iss, const smtlm_issue_ports *ports, unsigned s, sched_seen *seen)
{
    smtlm_sched *sc = &iss->sched[s];
    uint8_t list[SMTLM_MAX_WARPS];
    const unsigned n = iss->cfg.policy == SMTLM_SCHED_RRR ? order_rrr(iss, s, list)
                                                          : order_two_level(iss, sc, ports->pool, list);
    for (unsigned i = 0; i < n; i++) {
        const unsigned w = sc->sup[list[i]];
        if (!iss->warp[w].done_exit && examine_cold(iss, ports, s, w, seen)) {
            set_last(iss, sc, w);
            return;
        }
    }
}

/* The scheduler's cycle category (lrr's end of a walk: it keeps no issued_last). */
HOT void sched_done_lrr(smtlm_issue *iss, unsigned s, const sched_seen *seen)
{
    if (!seen->valid)
        iss->distro[s][SMTLM_DISTRO_IDLE]++;
    else if (!seen->ready)
        iss->distro[s][SMTLM_DISTRO_SCOREBOARD]++;
    else if (!seen->issued_any)
        iss->distro[s][SMTLM_DISTRO_STALL]++;
}

/* The other policies' end of a walk: also issued_last, which rrr's ordering reads. */
HOT void sched_done(smtlm_issue *iss, unsigned s, const sched_seen *seen)
{
    iss->issued_last[s] = (uint8_t)seen->issued_any;
    sched_done_lrr(iss, s, seen);
}

void smtlm_issue_bind(smtlm_issue *iss, const smtlm_issue_ports *ports) { iss->ports = *ports; }

/* lrr, every scheduler in turn. When all of a scheduler's live warps are stuck (or it has none),
 * the walk would only count each one's scoreboard stall: counted directly. */
HOT void cycle_lrr(smtlm_issue *iss, const smtlm_issue_ports *ports, unsigned s, unsigned n, uint64_t stuck_all)
{
    for (unsigned k = 0; k < n; k++) {
        sched_seen seen = {0, 0, 0};
        const uint64_t cand = iss->sched_live[s], stuck = cand & stuck_all;
        if (stuck == cand)
            count_sb_stalls(iss, cand, &seen);
        else
            walk_lrr(iss, ports, s, cand, stuck, &seen);
        sched_done_lrr(iss, s, &seen);
        if (++s == n)
            s = 0;
    }
}

/* An lrr cycle in which every live warp is stuck: each scheduler's walk would only count its
 * warps' scoreboard stalls (IDLE for a scheduler without a live warp), in any order as the
 * counters are sums. Out of line, so the usual cycle keeps its code. */
COLD int cycle_all_stuck(smtlm_issue *iss, uint64_t live_warps)
{
    for (uint64_t m = live_warps; m; m &= m - 1)
        iss->warp_stall[smtlm_ctz64(m)][SMTLM_WS_SCOREBOARD]++;
    const unsigned n = iss->shape.n_sched;
    uint64_t *d = iss->distro[0];
    for (unsigned s = 0; s < n; s++, d += SMTLM_DISTRO_SIZE)
        d[iss->sched_live[s] ? SMTLM_DISTRO_SCOREBOARD : SMTLM_DISTRO_IDLE]++;
    iss->issue_prio = iss->issue_prio + 1 == n ? 0 : iss->issue_prio + 1;
    return iss->error;
}

/* The walks of a cycle in which some warp may issue (out of line: see smtlm_issue_cycle). */
NOINLINE int issue_walks(smtlm_issue *iss, uint64_t stuck_all)
{
    const smtlm_issue_ports *ports = &iss->ports;
    const unsigned n = iss->shape.n_sched;
    const smtlm_sched_policy policy = iss->cfg.policy;
    unsigned s = iss->issue_prio;
    if (policy == SMTLM_SCHED_LRR) {
        cycle_lrr(iss, ports, s, n, stuck_all);
    } else {
        for (unsigned k = 0; k < n; k++) {
            sched_seen seen = {0, 0, 0};
            if (policy == SMTLM_SCHED_GTO)
                walk_age(iss, ports, s, 1, stuck_all, &seen);
            else if (policy == SMTLM_SCHED_OLDEST)
                walk_age(iss, ports, s, 0, stuck_all, &seen);
            else
                walk_list(iss, ports, s, &seen);
            sched_done(iss, s, &seen);
            if (++s == n)
                s = 0;
        }
    }
    iss->issue_prio = iss->issue_prio + 1 == n ? 0 : iss->issue_prio + 1;
    return iss->error;
}

/* Both paths are tail calls from a frame-free entry, so a cycle that only counts saves no
 * registers. */
int smtlm_issue_cycle(smtlm_issue *iss, uint64_t now)
{
    iss->ports.now = now;
    iss->issued_this_cycle = 0;
    /* A walk changes only its own scheduler's warps (and barrier state, which sb_stuck does not
     * read), so one sb_stuck at the start serves every scheduler of the cycle. */
    const uint64_t stuck_all = sb_stuck(iss);
    const uint64_t live_warps = iss->warps_all & ~iss->exited;
    if (iss->cfg.policy == SMTLM_SCHED_LRR && (stuck_all & live_warps) == live_warps)
        return cycle_all_stuck(iss, live_warps);
    return issue_walks(iss, stuck_all);
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
    return !smtlm_sb_collides_entry(&iss->sb, w, &iss->ports.pool->inst[wp->ib[wp->next]]);
}

int smtlm_issue_idle_scan(const smtlm_issue *iss)
{
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
    for (unsigned s = 0; s < iss->shape.n_sched; s++)
        for (unsigned c = 0; c < SMTLM_DISTRO_SIZE; c++)
            iss->distro[s][c] += (iss->distro[s][c] - distro[s][c]) * more;
    for (unsigned w = 0; w < iss->cfg.max_warps; w++)
        for (unsigned r = 0; r < SMTLM_WS_COUNT; r++)
            iss->warp_stall[w][r] += (iss->warp_stall[w][r] - stall[w][r]) * more;
    iss->issue_prio = (unsigned)((iss->issue_prio + more) % iss->shape.n_sched);
}
