/* Issue block, front-end half: CTA launch, fetch (with warp-exit detection), decode into the
 * 2-entry instruction buffer, barriers. GPGPU-Sim's order per cycle: inst_fetch_throughput rounds
 * of decode (the fetched warp's next two instructions) then fetch (the next warp with an empty
 * ibuffer, round robin from the last fetched); docs/ARCHITECTURE.md, "One SM cycle". */
#include <string.h>

#include "issue_internal.h"

static uint64_t all_warps(unsigned n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

int smtlm_issue_init(smtlm_issue *iss, const smtlm_issue_cfg *cfg)
{
    const char **e = &iss->cfg_error;
    *e = 0;
    if (cfg->max_warps == 0)
        return smtlm_cfg_reject(e, SMTLM_EINVAL, "issue: max_warps (-gpgpu_shader_core_pipeline threads / 32) must be at least 1");
    if (cfg->n_sched == 0)
        return smtlm_cfg_reject(e, SMTLM_EINVAL, "issue: n_sched (-gpgpu_num_sched_per_core) must be at least 1");
    if (cfg->fetch_throughput == 0)
        return smtlm_cfg_reject(e, SMTLM_EINVAL, "issue: fetch_throughput (-gpgpu_inst_fetch_throughput) must be at least 1");
    if (cfg->max_issue_per_warp == 0 || cfg->max_issue_per_warp > 2)
        return smtlm_cfg_reject(e, SMTLM_EINVAL, "issue: max_issue_per_warp (-gpgpu_max_insn_issue_per_warp) must be 1 or 2");
    if (cfg->max_warps > SMTLM_MAX_WARPS)
        return smtlm_cfg_reject(e, SMTLM_ERANGE, "issue: max_warps exceeds SMTLM_MAX_WARPS (64 warps, 2048 threads)");
    if (cfg->n_sched > SMTLM_MAX_SCHED)
        return smtlm_cfg_reject(e, SMTLM_ERANGE, "issue: n_sched (-gpgpu_num_sched_per_core) exceeds SMTLM_MAX_SCHED");
    if (cfg->policy > SMTLM_SCHED_TWO_LEVEL)
        return smtlm_cfg_reject(e, SMTLM_EINVAL, "issue: policy (-gpgpu_scheduler) is unknown");
    iss->cfg = *cfg;
    int rc = smtlm_sb_init(&iss->sb, cfg->max_warps);
    if (rc)
        return rc;
    smtlm_issue_reset(iss);
    return SMTLM_OK;
}

void smtlm_issue_reset(smtlm_issue *iss)
{
    const unsigned n = iss->cfg.max_warps;
    for (unsigned w = 0; w < SMTLM_MAX_WARPS; w++) {
        smtlm_warp *wp = &iss->warp[w];
        memset(wp, 0, sizeof *wp);
        wp->ib[0] = wp->ib[1] = SMTLM_NO_INST;
        wp->done_exit = 1;
        wp->n_completed = SMTLM_WARP_SIZE;
    }
    memset(iss->cta, 0, sizeof iss->cta);
    for (unsigned s = 0; s < iss->cfg.n_sched; s++) {
        smtlm_sched *sc = &iss->sched[s];
        sc->n_sup = 0;
        sc->sup_mask = 0;
        for (unsigned w = s; w < n; w += iss->cfg.n_sched) { /* warp w -> scheduler w mod n_sched */
            sc->sup[sc->n_sup++] = (uint8_t)w;
            sc->sup_mask |= 1ull << w;
        }
        sc->last = -1;
        sc->lrr_start = 0;
        sc->turn = 0;
        sc->active_set = 0;
        sc->n_age = 0;
        iss->issued_last[s] = 0;
        iss->sched_live[s] = 0; /* every warp starts exited */
    }
    smtlm_sb_reset(&iss->sb);
    smtlm_issue_route_init(iss);
    iss->warps_all = all_warps(n);
    iss->ib_empty = all_warps(n);
    iss->fdone = all_warps(n);
    iss->exited = all_warps(n);
    iss->may_wait = ~0ull;
    iss->sb_blocked = 0;
    iss->last_fetched = 0; /* GPGPU-Sim: so the first scan starts at warp 1 */
    iss->fetch_valid = 0;
    iss->fetch_warp = 0;
    iss->issue_prio = 0;
    iss->next_uid = 0;
    iss->dyn_counter = 0;
    iss->n_active_ctas = 0;
    iss->not_completed = 0;
    iss->issued_this_cycle = 0;
    memset(iss->distro, 0, sizeof iss->distro);
    memset(iss->dual_issue, 0, sizeof iss->dual_issue);
    memset(iss->warp_stall, 0, sizeof iss->warp_stall);
    iss->decoded = 0;
    iss->pool_stalls = 0;
    iss->error = SMTLM_OK;
    iss->error_line = 0;
}

int smtlm_issue_free_cta_slot(const smtlm_issue *iss, unsigned max_cta)
{
    for (unsigned s = 0; s < max_cta && s < SMTLM_MAX_CTAS; s++)
        if (!iss->cta[s].active)
            return (int)s;
    return -1;
}

/* gto/oldest age order: a launched warp is the youngest (dyn_id grows with every launch). */
static void age_remove(smtlm_sched *sc, unsigned w)
{
    unsigned j = 0;
    for (unsigned i = 0; i < sc->n_age; i++)
        if (sc->age[i] != w)
            sc->age[j++] = sc->age[i];
    sc->n_age = (uint8_t)j;
}

static void age_append(smtlm_sched *sc, unsigned w)
{
    age_remove(sc, w);
    sc->age[sc->n_age++] = (uint8_t)w;
}

int smtlm_issue_launch_cta(smtlm_issue *iss, unsigned threads, uint32_t cta_id)
{
    const unsigned wpc = (threads + SMTLM_WARP_SIZE - 1) / SMTLM_WARP_SIZE;
    int slot = smtlm_issue_free_cta_slot(iss, SMTLM_MAX_CTAS);
    if (threads == 0 || slot < 0)
        return SMTLM_EINVAL;
    if ((unsigned)(slot + 1) * wpc > iss->cfg.max_warps)
        return SMTLM_EFULL;
    smtlm_cta_slot *c = &iss->cta[slot];
    c->active = 1;
    c->threads_left = threads;
    c->warps = 0;
    c->at_barrier = 0;
    c->id = cta_id;
    for (unsigned i = 0; i < wpc; i++) {
        unsigned w = (unsigned)slot * wpc + i;
        unsigned lanes = threads - i * SMTLM_WARP_SIZE;
        if (lanes > SMTLM_WARP_SIZE)
            lanes = SMTLM_WARP_SIZE;
        smtlm_warp *wp = &iss->warp[w];
        memset(wp, 0, sizeof *wp);
        wp->ib[0] = wp->ib[1] = SMTLM_NO_INST;
        wp->cta = (uint8_t)slot;
        wp->n_threads = (uint8_t)lanes;
        wp->n_completed = (uint8_t)(SMTLM_WARP_SIZE - lanes); /* lanes outside the CTA */
        wp->active_lanes = lanes == 32 ? 0xFFFFFFFFu : (1u << lanes) - 1;
        wp->dyn_id = iss->dyn_counter++;
        c->warps |= 1ull << w;
        iss->fdone &= ~(1ull << w);
        iss->exited &= ~(1ull << w);
        iss->sched_live[w % iss->cfg.n_sched] |= 1ull << w;
        age_append(&iss->sched[w % iss->cfg.n_sched], w);
        iss->ib_empty |= 1ull << w;
        iss->may_wait |= 1ull << w; /* cleared by the first look (a superset is always safe) */
        warp_ib_changed(iss, w);
    }
    c->warp_active = c->warps;
    iss->n_active_ctas++;
    iss->not_completed += threads;
    return slot;
}

void smtlm_issue_set_fdone(smtlm_issue *iss, unsigned w)
{
    iss->warp[w].n_completed = SMTLM_WARP_SIZE;
    iss->warp[w].active_lanes = 0;
    iss->fdone |= 1ull << w;
    iss->may_wait |= 1ull << w;
}

void smtlm_issue_ibuffer_flush(smtlm_issue *iss, smtlm_inst_pool *pool, unsigned w)
{
    smtlm_warp *wp = &iss->warp[w];
    for (unsigned i = 0; i < 2; i++) {
        if (wp->ib_valid[i]) {
            smtlm_pool_free(pool, wp->ib[i]);
            wp->ib[i] = SMTLM_NO_INST;
            wp->ib_valid[i] = 0;
            wp->in_pipeline--;
        }
    }
    iss->ib_empty |= 1ull << w;
    warp_ib_changed(iss, w);
}

void smtlm_issue_barrier_exit(smtlm_issue *iss, unsigned w)
{
    smtlm_cta_slot *c = &iss->cta[iss->warp[w].cta];
    c->warp_active &= ~(1ull << w);
    if (c->at_barrier && (c->at_barrier & c->warps) == c->warp_active)
        c->at_barrier = 0; /* the exiting warp was the last one missing */
}

#if defined(__GNUC__)
#define COLD static __attribute__((noinline))
#else
#define COLD static
#endif

/* One instruction of warp w into the pool through src (next_into when it can, else next() and a
 * descriptor): 1 with *r, 0 at the stream's end, < 0 an error (iss->error set). Kept out of
 * decode's frame: the descriptor is large and the SM's own source takes the path below. */
COLD int take_via_src(smtlm_issue *iss, const smtlm_issue_ports *env, unsigned w, smtlm_iref *r)
{
    const smtlm_inst_source *src = &env->src;
    smtlm_inst_pool *pool = env->pool;
    smtlm_inst_desc d;
    /* in place when the source can (decode's pool test leaves both heads free) */
    const int in_place = src->next_into && smtlm_pool_can_fill(pool);
    int got = in_place ? src->next_into(src->ctx, env->sm_id, w, smtlm_pool_next_entry(pool), smtlm_pool_next_addr(pool))
                       : src->next(src->ctx, env->sm_id, w, &d);
    if (got < 0) {
        iss->error = SMTLM_ESOURCE;
        return SMTLM_ESOURCE;
    }
    if (got == 0)
        return 0;
    *r = in_place ? smtlm_pool_commit(pool, (uint16_t)w) : smtlm_pool_alloc(pool, &d, (uint16_t)w);
    if (*r == SMTLM_NO_INST) {
        iss->error = SMTLM_EFULL;
        iss->error_line = d.line;
        return SMTLM_EFULL;
    }
    return 1;
}

/* The same through the owner's source itself (raw_next_into) and its checks, a call only when
 * the shape memo does not pass the instruction. The pool has room (decode's test). */
static inline int take_raw(smtlm_issue *iss, const smtlm_issue_ports *env, unsigned w, smtlm_iref *r)
{
    smtlm_inst_pool *pool = env->pool;
    smtlm_inst *in = smtlm_pool_next_entry(pool);
    int got = env->raw_next_into(env->raw_ctx, env->sm_id, w, in, smtlm_pool_next_addr(pool));
    if (got > 0 && !(env->raw_marked ? smtlm_sm_memo_pass_marked(env->memo, in) : smtlm_sm_memo_pass(env->memo, in)))
        got = env->check_miss(env->owner, in);
    if (got < 0) {
        iss->error = SMTLM_ESOURCE;
        return SMTLM_ESOURCE;
    }
    if (got > 0) {
        if (!env->raw_summary)
            smtlm_pool_reg_summary(in);
        *r = smtlm_pool_commit_summarized(pool, (uint16_t)w);
    }
    return got;
}

/* Decode: the next two instructions of the fetched warp into ibuffer slots 0 and 1. */
static int decode(smtlm_issue *iss, const smtlm_issue_ports *env)
{
    if (!iss->fetch_valid)
        return SMTLM_OK;
    /* The pool is a simulator resource, not a hardware one: when it cannot take two more
     * instructions, decode waits (the fetch buffer stays valid) rather than failing. */
    if (env->pool->used + 2 > SMTLM_POOL_SIZE || env->pool->mem_used + 2 > SMTLM_MEM_POOL_SIZE) {
        iss->pool_stalls++;
        return SMTLM_OK;
    }
    iss->fetch_valid = 0;
    const unsigned w = iss->fetch_warp;
    smtlm_warp *wp = &iss->warp[w];
    wp->next = 0;
    warp_ib_changed(iss, w);
    /* what the source has at hand and the memo passes, in one call straight into the (empty)
     * ibuffer; the rest one by one */
    const unsigned n_ready = env->raw_win ? smtlm_pool_take_window(env->pool, env->memo, env->raw_win[w], (uint16_t)w, wp->ib, 2)
                             : env->raw_take ? env->raw_take(env->raw_ctx, env->sm_id, w, env->pool, env->memo, wp->ib, 2)
                                             : 0;
    if (n_ready) {
        wp->ib_valid[0] = 1;
        if (n_ready == 2)
            wp->ib_valid[1] = 1;
        wp->in_pipeline += (uint16_t)n_ready;
        iss->decoded += n_ready;
        iss->ib_empty &= ~(1ull << w);
        warp_ib_filled(iss, env->pool, w, wp->ib[0]);
    }
    for (unsigned slot = n_ready; slot < 2; slot++) {
        smtlm_iref r = SMTLM_NO_INST;
        const int got = env->raw_next_into ? take_raw(iss, env, w, &r) : take_via_src(iss, env, w, &r);
        if (got < 0)
            return got;
        if (got == 0) {
            wp->trace_done = 1;
            if (slot == 0 && !warp_functional_done(wp)) {
                /* Stream ended without retiring every lane: treat as an implicit EXIT
                 * (Accel-Sim would dereference a null instruction here). */
                smtlm_issue_set_fdone(iss, w);
                smtlm_issue_barrier_exit(iss, w);
            }
            break;
        }
        wp->ib[slot] = r;
        wp->ib_valid[slot] = 1;
        wp->in_pipeline++;
        iss->decoded++;
        iss->ib_empty &= ~(1ull << w);
        if (slot == 0)
            warp_ib_filled(iss, env->pool, w, r);
        /* (after slot 0, an exhausted stream is found by the next call: next() keeps returning 0
         * at the end, so asking has_more first would only cost a call) */
    }
    /* trace_done after a full decode is asked of has_more only when an EXIT needs it
     * (stream_done in issue_sched.c): the stream cannot move before then. */
    return SMTLM_OK;
}

/* Warp exit: retires the warp's threads; frees the CTA slot when its last thread leaves. */
static void exit_warp(smtlm_issue *iss, const smtlm_issue_ports *env, unsigned w)
{
    smtlm_warp *wp = &iss->warp[w];
    smtlm_cta_slot *c = &iss->cta[wp->cta];
    wp->done_exit = 1;
    iss->exited |= 1ull << w;
    iss->sched_live[w % iss->cfg.n_sched] &= ~(1ull << w);
    age_remove(&iss->sched[w % iss->cfg.n_sched], w);
    c->threads_left -= wp->n_threads;
    iss->not_completed -= wp->n_threads;
    if (c->threads_left == 0) {
        c->active = 0;
        iss->n_active_ctas--;
        if (env->cta_done)
            env->cta_done(env->owner, wp->cta);
    }
}

static int exit_ready(const smtlm_issue *iss, unsigned w)
{
    const smtlm_warp *wp = &iss->warp[w];
    return wp->stores_out == 0 && wp->in_pipeline == 0 && !smtlm_sb_pending_writes(&iss->sb, w);
}

/* Bits 0..p. */
static inline uint64_t upto(unsigned p) { return ~0ull >> (63 - p); }

/* Exit checks of the exitable warps in `e`, lowest first. */
static void exit_scan(smtlm_issue *iss, const smtlm_issue_ports *env, uint64_t e)
{
    for (; e; e &= e - 1) {
        const unsigned w = smtlm_ctz64(e);
        if (exit_ready(iss, w))
            exit_warp(iss, env, w);
    }
}

/* Fetch: one warp per call, round robin from last_fetched + 1; warps passed on the way are
 * checked for exit. The scan runs start..n-1 then 0..start-1, so it is two masks, the warps
 * from start on (`from`) and the ones before, each taken lowest first: a scan costs O(1) words
 * instead of O(warps), with no rotation. Returns 0 when there was nothing to fetch or exit (no
 * state changed), else 1. */
static int fetch(smtlm_issue *iss, const smtlm_issue_ports *env)
{
    if (iss->fetch_valid)
        return 1;
    const uint64_t all = iss->warps_all;
    const uint64_t fetchable = iss->ib_empty & ~iss->fdone & all;
    const uint64_t exitable = iss->fdone & ~iss->exited & all;
    if (!(fetchable | exitable)) /* the usual full buffers: the scan would find nothing */
        return 0;
    const unsigned start = iss->last_fetched + 1 < iss->cfg.max_warps ? iss->last_fetched + 1 : 0;
    const uint64_t from = ~0ull << start;
    const uint64_t hi = fetchable & from, lo = fetchable & ~from;
    if (exitable) { /* the positions scanned: up to the warp fetched, or all of them */
        if (hi) {
            exit_scan(iss, env, exitable & from & upto(smtlm_ctz64(hi)));
        } else {
            exit_scan(iss, env, exitable & from);
            exit_scan(iss, env, exitable & ~from & (lo ? upto(smtlm_ctz64(lo)) : ~0ull));
        }
    }
    if (hi | lo) {
        const unsigned w = smtlm_ctz64(hi ? hi : lo);
        iss->fetch_valid = 1;
        iss->fetch_warp = w;
        iss->last_fetched = w;
    }
    return 1;
}

/* The rounds of decode then fetch, out of line: most cycles have nothing to do (below). */
COLD int fetch_decode_rounds(smtlm_issue *iss, const smtlm_issue_ports *env)
{
    for (unsigned i = 0; i < iss->cfg.fetch_throughput; i++) {
        if (iss->fetch_valid) { /* decode has nothing to do without a fetched warp */
            int rc = decode(iss, env);
            if (rc)
                return rc;
        }
        if (!fetch(iss, env))
            break; /* nothing to fetch or exit: the later rounds would find the same */
    }
    return SMTLM_OK;
}

int smtlm_issue_fetch_decode(smtlm_issue *iss, uint64_t now)
{
    iss->ports.now = now;
    /* the usual cycle: nothing fetched to decode, full buffers, no warp to exit (fetch's test) */
    if (!iss->fetch_valid && !(((iss->ib_empty & ~iss->fdone) | (iss->fdone & ~iss->exited)) & iss->warps_all))
        return SMTLM_OK;
    return fetch_decode_rounds(iss, &iss->ports);
}
