/* Issue block, front-end half: CTA launch, fetch (with warp-exit detection), decode into the
 * 2-entry instruction buffer, barriers. GPGPU-Sim's order per cycle: inst_fetch_throughput rounds
 * of decode (the fetched warp's next two instructions) then fetch (the next warp with an empty
 * ibuffer, round robin from the last fetched); docs/ARCHITECTURE.md, "One SM cycle". */
#include <string.h>

#include "issue_internal.h"

static uint64_t all_warps(unsigned n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

int smtlm_issue_init(smtlm_issue *iss, const smtlm_issue_cfg *cfg, const smtlm_sm_shape *shape,
                     const smtlm_units_cfg *units)
{
    const char **e = &iss->cfg_error;
    *e = 0;
    if (cfg->max_warps == 0)
        return smtlm_cfg_reject(e, SMTLM_EINVAL, "issue: max_warps (-gpgpu_shader_core_pipeline threads / 32) must be at least 1");
    if (shape->n_sched == 0)
        return smtlm_cfg_reject(e, SMTLM_EINVAL, "issue: n_sched (-gpgpu_num_sched_per_core) must be at least 1");
    if (cfg->fetch_throughput == 0)
        return smtlm_cfg_reject(e, SMTLM_EINVAL, "issue: fetch_throughput (-gpgpu_inst_fetch_throughput) must be at least 1");
    if (cfg->max_issue_per_warp == 0 || cfg->max_issue_per_warp > 2)
        return smtlm_cfg_reject(e, SMTLM_EINVAL, "issue: max_issue_per_warp (-gpgpu_max_insn_issue_per_warp) must be 1 or 2");
    if (cfg->max_warps > SMTLM_MAX_WARPS)
        return smtlm_cfg_reject(e, SMTLM_ERANGE, "issue: max_warps exceeds SMTLM_MAX_WARPS (64 warps, 2048 threads)");
    if (shape->n_sched > SMTLM_MAX_SCHED)
        return smtlm_cfg_reject(e, SMTLM_ERANGE, "issue: n_sched (-gpgpu_num_sched_per_core) exceeds SMTLM_MAX_SCHED");
    if (cfg->policy > SMTLM_SCHED_TWO_LEVEL)
        return smtlm_cfg_reject(e, SMTLM_EINVAL, "issue: policy (-gpgpu_scheduler) is unknown");
    iss->cfg = *cfg;
    iss->shape = *shape;
    iss->units = *units;
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
    for (unsigned s = 0; s < iss->shape.n_sched; s++) {
        smtlm_sched *sc = &iss->sched[s];
        sc->n_sup = 0;
        sc->sup_mask = 0;
        for (unsigned w = s; w < n; w += iss->shape.n_sched) { /* warp w -> scheduler w mod n_sched */
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
        iss->sched_live[w % iss->shape.n_sched] |= 1ull << w;
        age_append(&iss->sched[w % iss->shape.n_sched], w);
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

/* A source that only hands descriptors (next), read in place: its descriptor copied into the
 * entry. ctx is the source itself. A call of its own: the descriptor is large and stays out of
 * decode's frame. */
static int next_via_desc(void *ctx, unsigned sm, unsigned warp, smtlm_inst *in, uint64_t *addr)
{
    const smtlm_inst_source *src = ctx;
    smtlm_inst_desc d;
    const int got = src->next(src->ctx, sm, warp, &d);
    if (got > 0)
        smtlm_pool_fill_from_desc(in, addr, &d);
    return got;
}

static int no_stream(void *ctx, unsigned sm, unsigned warp, smtlm_inst *in, uint64_t *addr)
{
    (void)ctx, (void)sm, (void)warp, (void)in, (void)addr;
    return 0;
}

void smtlm_issue_ports_source(smtlm_issue_ports *p, const smtlm_inst_source *src)
{
    p->src = *src;
    p->next_into = src->next_into ? src->next_into : src->next ? next_via_desc : no_stream;
    p->next_ctx = src->next_into ? src->ctx : (void *)src;
    /* what the source declares holds only for its own next_into (the adapter sets neither) */
    p->sets_summary = src->next_into && src->sets_summary;
    p->marks_fields_ok = src->next_into && src->marks_fields_ok;
    /* take_ready relies on the mark: only the memo's key is tested */
    p->take_ready = p->marks_fields_ok ? src->take_ready : 0;
    p->windows = p->take_ready && src->windows ? src->windows(src->ctx, p->sm_id) : 0;
}

/* The intake rule, the one body every instruction enters the pool through: up to max of warp
 * w's next instructions, refs into out[0..n). Each is checked (the owner's shape memo passes it,
 * on the source's mark when it marks, else the owner's full check decides, and its refusal
 * records the input error with the instruction's line) and committed with its register summary
 * (the source's own when it sets it). What the source holds at hand as records goes first, in one
 * step (its windows inline, else one take_ready call): those are marked and summarized, and the
 * first one the memo does not pass is left for the general step, so refusals are the same. The
 * pool has room for max (decode's test). Returns how many it took: fewer than max when the
 * stream ended or on an error, which sets iss->error to SMTLM_ESOURCE (those taken before it stay
 * taken, as one by one). The count alone is returned: the usual full take tests nothing else. */
static SMTLM_ALWAYS_INLINE unsigned intake(smtlm_issue *iss, const smtlm_issue_ports *ports, unsigned w, smtlm_iref *out,
                                           unsigned max)
{
    smtlm_inst_pool *pool = ports->pool;
    unsigned n = ports->windows      ? smtlm_pool_take_window(pool, ports->memo, ports->windows[w], (uint16_t)w, out, max)
                 : ports->take_ready ? ports->take_ready(ports->next_ctx, ports->sm_id, w, pool, ports->memo, out, max)
                                   : 0;
    for (; n < max; n++) {
        smtlm_inst *in = smtlm_pool_next_entry(pool);
        int got = ports->next_into(ports->next_ctx, ports->sm_id, w, in, smtlm_pool_next_addr(pool));
        if (got > 0 && !(ports->marks_fields_ok ? smtlm_sm_memo_pass_marked(ports->memo, in) : smtlm_sm_memo_pass(ports->memo, in)))
            got = ports->check_miss(ports->owner, in);
        if (got <= 0) { /* a refused (never committed) or missing instruction leaves the pool as it was */
            if (got < 0)
                iss->error = SMTLM_ESOURCE;
            break;
        }
        if (!ports->sets_summary)
            smtlm_pool_reg_summary(in);
        out[n] = smtlm_pool_commit_summarized(pool, (uint16_t)w);
    }
    return n;
}

/* Decode: the next two instructions of the fetched warp into ibuffer slots 0 and 1. */
static int decode(smtlm_issue *iss, const smtlm_issue_ports *ports)
{
    if (!iss->fetch_valid)
        return SMTLM_OK;
    /* The pool is a simulator resource, not a hardware one: when it cannot take two more
     * instructions, decode waits (the fetch buffer stays valid) rather than failing. */
    if (ports->pool->used + 2 > SMTLM_POOL_SIZE || ports->pool->mem_used + 2 > SMTLM_MEM_POOL_SIZE) {
        iss->pool_stalls++;
        return SMTLM_OK;
    }
    iss->fetch_valid = 0;
    const unsigned w = iss->fetch_warp;
    smtlm_warp *wp = &iss->warp[w];
    wp->next = 0;
    warp_ib_changed(iss, w);
    const unsigned n = intake(iss, ports, w, wp->ib, 2); /* into the (empty) ibuffer */
    if (n) {
        wp->ib_valid[0] = 1;
        if (n == 2)
            wp->ib_valid[1] = 1;
        wp->in_pipeline += (uint16_t)n;
        iss->decoded += n;
        iss->ib_empty &= ~(1ull << w);
        warp_ib_filled(iss, ports->pool, w, wp->ib[0]);
    }
    /* After a full decode the stream's end is found by the next decode (next() keeps returning 0
     * there, so asking has_more first would only cost a call), or by has_more when an EXIT needs
     * it (stream_done in issue_sched.c): the stream cannot move before then. */
    if (n == 2)
        return SMTLM_OK;
    if (iss->error) /* the intake stopped at an error (the SM stops at its first) */
        return iss->error;
    wp->trace_done = 1; /* the stream ended */
    if (n == 0 && !warp_functional_done(wp)) {
        /* Stream ended without retiring every lane: treat as an implicit EXIT
         * (Accel-Sim would dereference a null instruction here). */
        smtlm_issue_set_fdone(iss, w);
        smtlm_issue_barrier_exit(iss, w);
    }
    return SMTLM_OK;
}

/* Warp exit: retires the warp's threads; frees the CTA slot when its last thread leaves. */
static void exit_warp(smtlm_issue *iss, const smtlm_issue_ports *ports, unsigned w)
{
    smtlm_warp *wp = &iss->warp[w];
    smtlm_cta_slot *c = &iss->cta[wp->cta];
    wp->done_exit = 1;
    iss->exited |= 1ull << w;
    iss->sched_live[w % iss->shape.n_sched] &= ~(1ull << w);
    age_remove(&iss->sched[w % iss->shape.n_sched], w);
    c->threads_left -= wp->n_threads;
    iss->not_completed -= wp->n_threads;
    if (c->threads_left == 0) {
        c->active = 0;
        iss->n_active_ctas--;
        if (ports->cta_done)
            ports->cta_done(ports->owner, wp->cta);
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
static void exit_scan(smtlm_issue *iss, const smtlm_issue_ports *ports, uint64_t e)
{
    for (; e; e &= e - 1) {
        const unsigned w = smtlm_ctz64(e);
        if (exit_ready(iss, w))
            exit_warp(iss, ports, w);
    }
}

/* Fetch: one warp per call, round robin from last_fetched + 1; warps passed on the way are
 * checked for exit. The scan runs start..n-1 then 0..start-1, so it is two masks, the warps
 * from start on (`from`) and the ones before, each taken lowest first: a scan costs O(1) words
 * instead of O(warps), with no rotation. Returns 0 when there was nothing to fetch or exit (no
 * state changed), else 1. */
static int fetch(smtlm_issue *iss, const smtlm_issue_ports *ports)
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
            exit_scan(iss, ports, exitable & from & upto(smtlm_ctz64(hi)));
        } else {
            exit_scan(iss, ports, exitable & from);
            exit_scan(iss, ports, exitable & ~from & (lo ? upto(smtlm_ctz64(lo)) : ~0ull));
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
COLD int fetch_decode_rounds(smtlm_issue *iss, const smtlm_issue_ports *ports)
{
    for (unsigned i = 0; i < iss->cfg.fetch_throughput; i++) {
        if (iss->fetch_valid) { /* decode has nothing to do without a fetched warp */
            int rc = decode(iss, ports);
            if (rc)
                return rc;
        }
        if (!fetch(iss, ports))
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
