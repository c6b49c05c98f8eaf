/* The silicon core's issue, register reads, pipes, shared memory and completions (silicon.h;
 * the measurements behind each rule: docs/SILICON.md). */
#include "smtlm/silicon.h"

#include <string.h>

#include "smtlm/issue_events.h"
#include "smtlm/ldst.h"
#include "smtlm/port_calls.h"

#include "issue_internal.h"

#define RZ 256 /* the simulator's number for RZ (the trace's R255) */

void smtlm_silicon_cfg_h100(smtlm_silicon_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->enabled = 1;
    static const unsigned interval[SMTLM_PIPE_COUNT] = {
        [SMTLM_PIPE_FMA] = 2, [SMTLM_PIPE_FMA_HEAVY] = 2, [SMTLM_PIPE_ALU] = 2, [SMTLM_PIPE_FP16] = 2, [SMTLM_PIPE_MMA16] = 2,
        [SMTLM_PIPE_FP64] = 2, [SMTLM_PIPE_MUFU] = 8, [SMTLM_PIPE_LSU] = 1, [SMTLM_PIPE_TENSOR] = 1,
        [SMTLM_PIPE_OTHER] = 1, [SMTLM_PIPE_NONE] = 1};
    static const unsigned latency[SMTLM_PIPE_COUNT] = {
        [SMTLM_PIPE_FMA] = 4, [SMTLM_PIPE_FMA_HEAVY] = 4, [SMTLM_PIPE_ALU] = 4, [SMTLM_PIPE_FP16] = 6, [SMTLM_PIPE_MMA16] = 8,
        [SMTLM_PIPE_FP64] = 8, [SMTLM_PIPE_MUFU] = 17};
    memcpy(c->interval, interval, sizeof interval);
    memcpy(c->latency, latency, sizeof latency);
    c->rf_banks = 2;
    c->rf_window = 3;
    c->bar_delay = 2;
    c->no_yield_gap = 2;
    c->lds_latency = 23;
    c->lds_warp_gap = 2;
    c->shmem_banks = 32;
}

/* One figure against its range: 0, or the error with *bad naming it. */
static int in_range(unsigned v, unsigned lo, unsigned hi, const char *option, int index, smtlm_silicon_bad *bad)
{
    if (v >= lo && v <= hi)
        return 0;
    bad->option = option;
    bad->index = index;
    bad->value = v;
    bad->lo = lo;
    bad->hi = hi;
    return -1;
}

int smtlm_silicon_cfg_check_at(const smtlm_silicon_cfg *c, const char **why, smtlm_silicon_bad *bad)
{
    smtlm_silicon_bad own;
    if (!bad)
        bad = &own;
    for (unsigned p = SMTLM_PIPE_FMA; p < SMTLM_PIPE_COUNT; p++) {
        const int i = (int)(p - SMTLM_PIPE_FMA); /* the element of the option's list */
        if (in_range(c->interval[p], 1, 1024, "smtlm_silicon_pipe_interval", i, bad))
            return smtlm_cfg_reject(why, c->interval[p] ? SMTLM_ERANGE : SMTLM_EINVAL,
                                    "silicon core: every pipe interval (-smtlm_silicon_pipe_interval) must be 1..1024");
        if (in_range(c->latency[p], 0, SMTLM_MAX_LATENCY - 1, "smtlm_silicon_pipe_latency", i, bad))
            return smtlm_cfg_reject(why, SMTLM_ERANGE, "silicon core: a latency (-smtlm_silicon_pipe_latency) exceeds 511");
    }
    if (in_range(c->rf_banks, 1, SMTLM_SIL_MAX_BANKS, "smtlm_silicon_rf_banks", -1, bad) ||
        in_range(c->rf_window, 1, 16, "smtlm_silicon_rf_window", -1, bad) ||
        in_range(c->bar_delay, 0, 15, "smtlm_silicon_barrier_delay", -1, bad) ||
        in_range(c->no_yield_gap, 1, 15, "smtlm_silicon_no_yield_gap", -1, bad) ||
        in_range(c->lds_latency, 1, SMTLM_MAX_LATENCY - 1, "smtlm_silicon_lds_latency", -1, bad) ||
        in_range(c->lds_warp_gap, 1, 16, "smtlm_silicon_lds_warp_gap", -1, bad) ||
        in_range(c->shmem_banks, 1, 64, "smtlm_silicon_shmem_banks", -1, bad))
        return smtlm_cfg_reject(why, SMTLM_ERANGE, "silicon core: a figure is out of its range (smtlm_silicon_bad names it)");
    return SMTLM_OK;
}

int smtlm_silicon_cfg_check(const smtlm_silicon_cfg *c, const char **why) { return smtlm_silicon_cfg_check_at(c, why, NULL); }

int smtlm_silicon_init(smtlm_silicon *s, const smtlm_silicon_cfg *cfg, unsigned n_sub)
{
    s->cfg_error = 0;
    int rc = smtlm_silicon_cfg_check(cfg, &s->cfg_error);
    if (rc)
        return rc;
    s->cfg = *cfg;
    s->n_sub = n_sub;
    memset(&s->p, 0, sizeof s->p);
    smtlm_silicon_reset(s);
    return SMTLM_OK;
}

void smtlm_silicon_bind(smtlm_silicon *s, const smtlm_sil_ports *p) { s->p = *p; }

static void warp_reset(smtlm_sil_warp *w)
{
    memset(w, 0, sizeof *w);
    w->head = SMTLM_NO_INST;
}

void smtlm_silicon_reset(smtlm_silicon *s)
{
    for (unsigned i = 0; i < SMTLM_MAX_SCHED; i++) {
        smtlm_sil_sub *u = &s->sub[i];
        memset(u, 0, sizeof *u);
        for (unsigned k = 0; k < SMTLM_SIL_SLOTS; k++)
            u->reuse_reg[k] = -1;
        u->last = -1;
    }
    for (unsigned w = 0; w < SMTLM_MAX_WARPS; w++)
        warp_reset(&s->warp[w]);
    for (unsigned i = 0; i < SMTLM_SIL_WHEEL; i++)
        s->wheel[i] = SMTLM_NO_INST;
    memset(s->port, 0, sizeof s->port);
    s->port_clean = 0;
    s->n_rq = 0;
    memset(&s->st, 0, sizeof s->st);
}

void smtlm_silicon_launch(smtlm_silicon *s, uint64_t warps)
{
    for (uint64_t m = warps; m; m &= m - 1)
        warp_reset(&s->warp[smtlm_ctz64(m)]);
    for (unsigned i = 0; i < s->n_rq;) {
        if (warps >> s->rq[i].warp & 1)
            s->rq[i] = s->rq[--s->n_rq];
        else
            i++;
    }
}

/* ---- barriers --------------------------------------------------------------------------- */

static void bar_set(smtlm_sil_warp *w, unsigned b, uint64_t t)
{
    if (w->bar_cnt[b]++ == 0)
        w->bar_since[b] = t;
}

static void bar_release(smtlm_sil_warp *w, unsigned b)
{
    if (w->bar_cnt[b])
        w->bar_cnt[b]--;
}

/* 1 when a barrier in `wait` holds the warp at t: set, and set at least bar_delay cycles ago. */
static int bar_holds(const smtlm_silicon *s, const smtlm_sil_warp *w, unsigned wait, uint64_t t)
{
    for (unsigned b = 0; b < SMTLM_SIL_BARS; b++)
        if ((wait >> b & 1) && w->bar_cnt[b] && t >= w->bar_since[b] + s->cfg.bar_delay)
            return 1;
    return 0;
}

/* ---- completions ------------------------------------------------------------------------ */

static void wheel_add(smtlm_silicon *s, smtlm_iref r, uint64_t at)
{
    const unsigned slot = (unsigned)(at & (SMTLM_SIL_WHEEL - 1));
    s->wnext[r] = s->wheel[slot];
    s->wheel[slot] = r;
}

/* The instruction finished at now (its result released: the event log's writeback): its write
 * barrier (with control bits) or its registers (without) are released, it is counted and
 * leaves the pipeline. */
static void finish(smtlm_silicon *s, smtlm_iref r, uint64_t now)
{
    smtlm_issue *iss = s->p.iss;
    smtlm_inst *in = smtlm_pool_get(s->p.pool, r);
    const unsigned w = in->warp;
    in->ev[SMTLM_EV_WRITEBACK] = now;
    if (s->wbar[r] < SMTLM_SIL_BARS)
        bar_release(&s->warp[w], s->wbar[r]);
    else
        smtlm_sb_release(&iss->sb, w, in);
    if (in->atomic) /* a shared-memory atomic: its lanes are done */
        smtlm_issue_atomic_done(iss, w, smtlm_popcount32(in->mask));
    smtlm_issue_completed(iss, in);
    smtlm_issue_retired(iss, w);
    smtlm_pool_free(s->p.pool, r);
}

void smtlm_silicon_complete(smtlm_silicon *s, uint64_t now)
{
    const unsigned slot = (unsigned)(now & (SMTLM_SIL_WHEEL - 1));
    smtlm_iref r = s->wheel[slot];
    s->wheel[slot] = SMTLM_NO_INST;
    while (r != SMTLM_NO_INST) {
        const smtlm_iref next = s->wnext[r];
        finish(s, r, now);
        r = next;
    }
    for (unsigned i = 0; i < s->n_rq;) {
        if (s->rq[i].at <= now) {
            bar_release(&s->warp[s->rq[i].warp], s->rq[i].bar);
            s->rq[i] = s->rq[--s->n_rq];
        } else {
            i++;
        }
    }
}

/* ---- the LDST's warp events ---------------------------------------------------------------- */

static void ev_release(void *ctx, unsigned warp, unsigned reg) { smtlm_issue_release(((smtlm_silicon *)ctx)->p.iss, warp, reg); }
static void ev_completed(void *ctx, const smtlm_inst *in)
{
    smtlm_silicon *s = ctx;
    const smtlm_iref r = (smtlm_iref)(in - s->p.pool->inst);
    if (s->wbar[r] < SMTLM_SIL_BARS)
        bar_release(&s->warp[in->warp], s->wbar[r]);
    smtlm_issue_completed(s->p.iss, in);
}
static void ev_retired(void *ctx, unsigned warp) { smtlm_issue_retired(((smtlm_silicon *)ctx)->p.iss, warp); }
static void ev_store_sent(void *ctx, unsigned warp) { smtlm_issue_store_sent(((smtlm_silicon *)ctx)->p.iss, warp); }
static void ev_store_acked(void *ctx, unsigned warp) { smtlm_issue_store_acked(((smtlm_silicon *)ctx)->p.iss, warp); }
static void ev_atomic_done(void *ctx, unsigned warp, unsigned lanes)
{
    smtlm_issue_atomic_done(((smtlm_silicon *)ctx)->p.iss, warp, lanes);
}

smtlm_warp_port smtlm_silicon_warp_port(smtlm_silicon *s)
{
    const smtlm_warp_port p = {0, s, ev_release, ev_completed, ev_retired, ev_store_sent, ev_store_acked, ev_atomic_done, 0};
    return p;
}

/* ---- register reads --------------------------------------------------------------------- */

/* The instruction's reads as the sub-core's reuse caches stand. */
static void reads_of(const smtlm_sil_sub *u, unsigned w, const smtlm_inst *in, const smtlm_ctrl *c, unsigned pipe,
                     smtlm_sil_reads *rd)
{
    /* the matrix pipe takes its operands past the caches: what they held serves it, but its
     * own reuse flags keep nothing (docs/SILICON.md, "Reuse caches") */
    const int keeps = pipe != SMTLM_PIPE_MMA16;
    rd->n = rd->hits = 0;
    for (unsigned k = 0; k < SMTLM_SIL_SLOTS; k++)
        rd->keep[k] = -1;
    /* an instruction whose yield bit is 0 reads every operand from the banks: its slots' reuse
     * caches serve it nothing (docs/SILICON.md, "Reuse caches") */
    const int served = !c || (c->flags & SMTLM_CTRL_YIELD);
    for (unsigned i = 0; i < in->n_src && i < SMTLM_MAX_SRC; i++) {
        const int r = in->src[i];
        if (r == RZ || r <= 0)
            continue;
        /* Without control bits, source i sits in slot i and every operand is kept: an ideal
         * compiler marks an operand that the warp's next instruction reads again in the same
         * slot, and keeping the others changes nothing (only that one can hit). */
        const unsigned slot = c ? smtlm_ctrl_slot(c, i) : (i < SMTLM_SIL_SLOTS ? i : SMTLM_SIL_SLOTS);
        if (keeps && slot < SMTLM_SIL_SLOTS && (!c || (c->reuse >> i & 1)))
            rd->keep[slot] = (int16_t)r;
        if (slot < SMTLM_SIL_SLOTS && served && u->reuse_reg[slot] == r && u->reuse_warp[slot] == w) {
            rd->hits++;
            continue;
        }
        const unsigned regs = c && (c->wide >> i & 1) ? 2u : 1u;
        for (unsigned k = 0; k < regs; k++) {
            const int16_t phys = (int16_t)(r - 1 + (int)k);
            unsigned j = 0;
            while (j < rd->n && rd->reg[j] != phys)
                j++;
            if (j == rd->n)
                rd->reg[rd->n++] = phys;
        }
    }
}

/* Places the reads in the sub-core's banks from cycle t + 1 on: 1 (and the banks taken, the
 * last read at t + *last) when they fit the window, else 0 (nothing taken). */
static int place_reads(const smtlm_silicon *s, smtlm_sil_sub *u, uint64_t t, const smtlm_sil_reads *rd, unsigned *last)
{
    const unsigned nb = s->cfg.rf_banks;
    if (t > u->rf_at) {
        const uint64_t d = t - u->rf_at;
        for (unsigned b = 0; b < nb; b++)
            u->rf_busy[b] = d >= 32 ? 0 : u->rf_busy[b] >> d;
        u->rf_at = t;
    }
    uint32_t busy[SMTLM_SIL_MAX_BANKS];
    unsigned count[SMTLM_SIL_MAX_BANKS] = {0}, end = 0, most = 0;
    memcpy(busy, u->rf_busy, sizeof busy);
    for (unsigned i = 0; i < rd->n; i++) {
        const unsigned b = (unsigned)rd->reg[i] % nb;
        const uint32_t free_ = ~(busy[b] | 1u); /* bit 0 is the issue cycle itself */
        if (!free_)
            return 0;
        const unsigned j = (unsigned)smtlm_ctz64(free_);
        busy[b] |= 1u << j;
        end = j > end ? j : end;
        if (++count[b] > most)
            most = count[b];
    }
    if (end > (s->cfg.rf_window > most ? s->cfg.rf_window : most))
        return 0;
    memcpy(u->rf_busy, busy, sizeof busy);
    *last = end;
    return 1;
}

/* ---- shared memory ---------------------------------------------------------------------- */

static int port_busy(const smtlm_silicon *s, uint64_t c)
{
    const unsigned i = (unsigned)(c & (SMTLM_SIL_WHEEL - 1));
    return (int)(s->port[i >> 6] >> (i & 63) & 1);
}

static void port_take(smtlm_silicon *s, uint64_t c)
{
    const unsigned i = (unsigned)(c & (SMTLM_SIL_WHEEL - 1));
    s->port[i >> 6] |= 1ull << (i & 63);
}

/* Clears the port's bits of the cycles before now (they stand for cycles a wheel turn ahead). */
static void port_clean(smtlm_silicon *s, uint64_t now)
{
    if (now - s->port_clean >= SMTLM_SIL_WHEEL) {
        memset(s->port, 0, sizeof s->port);
    } else {
        for (uint64_t c = s->port_clean; c < now; c++) {
            const unsigned i = (unsigned)(c & (SMTLM_SIL_WHEEL - 1));
            s->port[i >> 6] &= ~(1ull << (i & 63));
        }
    }
    s->port_clean = now;
}

/* Reserves the access's wavefronts from cycle t on; returns the last one's cycle. */
static uint64_t shmem_access(smtlm_silicon *s, smtlm_sil_warp *wp, const smtlm_inst *in, uint64_t t)
{
    const uint64_t *addr = in->mem != SMTLM_NO_INST ? s->p.pool->mem[in->mem].addr : 0;
    unsigned k = addr ? smtlm_shmem_conflict_degree(addr, in->mask, s->cfg.shmem_banks, 1) : 1;
    if (k == 0)
        k = 1;
    uint64_t c = t, last = t;
    for (unsigned i = 0; i < k; i++) {
        while (port_busy(s, c))
            c++;
        port_take(s, c);
        last = c;
        c += s->cfg.lds_warp_gap;
    }
    s->st.wavefronts += k;
    wp->lds_next = last + s->cfg.lds_warp_gap;
    return last;
}

/* ---- issue ------------------------------------------------------------------------------ */

static int is_shared(const smtlm_inst *in) { return in->mem_space == SMTLM_MEM_SHARED; }

/* The pipe of an instruction without control bits: from its Accel-Sim category. */
static unsigned pipe_of_op(const smtlm_inst *in)
{
    switch (in->op) {
    case SMTLM_OP_SP: return SMTLM_PIPE_FMA;
    case SMTLM_OP_DP: return SMTLM_PIPE_FP64;
    case SMTLM_OP_SFU: return SMTLM_PIPE_MUFU;
    case SMTLM_OP_INTP:
    case SMTLM_OP_ALU: return SMTLM_PIPE_ALU;
    case SMTLM_OP_TENSOR_CORE: return SMTLM_PIPE_TENSOR;
    case SMTLM_OP_LOAD:
    case SMTLM_OP_STORE:
    case SMTLM_OP_MEMBAR: return SMTLM_PIPE_LSU;
    case SMTLM_OP_EXIT:
    case SMTLM_OP_BARRIER:
    case SMTLM_OP_BRANCH: return SMTLM_PIPE_NONE;
    default: return SMTLM_PIPE_OTHER;
    }
}

static unsigned latency_of(const smtlm_silicon *s, const smtlm_sil_warp *sw, const smtlm_inst *in)
{
    const unsigned l = s->cfg.latency[sw->pipe];
    return l ? l : (in->latency ? in->latency : 1u);
}

/* ---- result writes ---------------------------------------------------------------------- */

/* The pipes whose results the stall counts time (the others release barriers when done). */
static int fixed_latency(unsigned pipe)
{
    return pipe == SMTLM_PIPE_FMA || pipe == SMTLM_PIPE_FMA_HEAVY || pipe == SMTLM_PIPE_ALU ||
           pipe == SMTLM_PIPE_FP16 || pipe == SMTLM_PIPE_MMA16 || pipe == SMTLM_PIPE_FP64;
}

/* The banks the instruction's result takes (an FP64 result is a register pair). */
static uint8_t result_banks(const smtlm_silicon *s, unsigned pipe, const smtlm_inst *in)
{
    if (!fixed_latency(pipe))
        return 0;
    const unsigned regs = pipe == SMTLM_PIPE_FP64 ? 2u : 1u;
    uint8_t m = 0;
    for (unsigned i = 0; i < in->n_dst && i < SMTLM_MAX_DST; i++) {
        const int r = in->dst[i];
        if (r == RZ || r <= 0)
            continue;
        for (unsigned k = 0; k < regs; k++)
            m |= (uint8_t)(1u << ((unsigned)(r - 1) + k) % s->cfg.rf_banks);
    }
    return m;
}

/* The write calendar's entry of cycle c. */
static uint8_t *results_at(smtlm_sil_sub *u, uint64_t c) { return &u->wr_busy[c & (SMTLM_MAX_LATENCY - 1)]; }

/* Clears the write calendar's entries of the cycles before now (they stand for cycles a turn
 * ahead). */
static void results_clean(smtlm_sil_sub *u, uint64_t now)
{
    if (now - u->wr_clean >= SMTLM_MAX_LATENCY)
        memset(u->wr_busy, 0, sizeof u->wr_busy);
    else
        for (uint64_t c = u->wr_clean; c < now; c++)
            *results_at(u, c) = 0;
    u->wr_clean = now;
}

/* The sub-core's pipes as they share their hardware (NVIDIA's description of Hopper's): the
 * FMA pipe is two halves, FP32 on either (pipe_free[SMTLM_PIPE_FMA] stands for the lite half),
 * integer multiply-add on the heavy one only (pipe_free[SMTLM_PIPE_FMA_HEAVY]), FP16x2 on both
 * at once; matrix-pipe FP16, FP64 and tensor instructions share one pipe
 * (pipe_free[SMTLM_PIPE_FP64]). The first cycle the pipe takes an instruction: */
static uint64_t pipe_free_at(const smtlm_sil_sub *u, unsigned pipe)
{
    const uint64_t lite = u->pipe_free[SMTLM_PIPE_FMA], heavy = u->pipe_free[SMTLM_PIPE_FMA_HEAVY];
    switch (pipe) {
    case SMTLM_PIPE_FMA: return lite < heavy ? lite : heavy;
    case SMTLM_PIPE_FP16: return lite > heavy ? lite : heavy;
    case SMTLM_PIPE_MMA16:
    case SMTLM_PIPE_TENSOR: return u->pipe_free[SMTLM_PIPE_FP64];
    default: return u->pipe_free[pipe];
    }
}

/* The pipe takes an instruction at t (pipe_free_at(u, pipe) <= t) for `interval` cycles. */
static void pipe_take(smtlm_sil_sub *u, unsigned pipe, uint64_t t, unsigned interval)
{
    switch (pipe) {
    case SMTLM_PIPE_FMA: /* the lite half when it is free, else the heavy one */
        u->pipe_free[t >= u->pipe_free[SMTLM_PIPE_FMA] ? SMTLM_PIPE_FMA : SMTLM_PIPE_FMA_HEAVY] = t + interval;
        break;
    case SMTLM_PIPE_FP16: u->pipe_free[SMTLM_PIPE_FMA] = u->pipe_free[SMTLM_PIPE_FMA_HEAVY] = t + interval; break;
    case SMTLM_PIPE_MMA16:
    case SMTLM_PIPE_TENSOR: u->pipe_free[SMTLM_PIPE_FP64] = t + interval; break;
    default: u->pipe_free[pipe] = t + interval;
    }
}

/* 1 when warp w can issue its head instruction at t (its reads then in s->warp[w].rd). What
 * does not change while the instruction waits (its bits, its pipe, and its reads until the
 * sub-core's reuse caches change for it) is worked out once. */
static int ready(smtlm_silicon *s, smtlm_sil_sub *u, unsigned w, uint64_t t)
{
    smtlm_issue *iss = s->p.iss;
    const smtlm_warp *wp = &iss->warp[w];
    smtlm_sil_warp *sw = &s->warp[w];
    if (t < sw->next_at || wp->done_exit || !wp->ib_valid[wp->next] || ((iss->may_wait >> w & 1) && smtlm_warp_waiting(iss, w)))
        return 0;
    const smtlm_iref r = wp->ib[wp->next];
    const smtlm_inst *in = smtlm_pool_get(s->p.pool, r);
    if (sw->head != r) {
        sw->head = r;
        sw->ctrl = smtlm_code_at(s->p.src->code, in->pc);
        sw->pipe = (uint8_t)(sw->ctrl ? sw->ctrl->pipe : pipe_of_op(in));
        sw->latency = (uint16_t)latency_of(s, sw, in);
        sw->result_banks = result_banks(s, sw->pipe, in);
        sw->rd_known = 0;
    }
    if (!sw->passed) {
        const int held = sw->ctrl ? bar_holds(s, sw, sw->ctrl->wait, t) : smtlm_sb_collides(&iss->sb, w, in);
        if (held) {
            s->st.bar_stalls++;
            return 0;
        }
        sw->passed = 1; /* throttled from here on, not re-checked */
    }
    const unsigned pipe = sw->pipe;
    if (t < pipe_free_at(u, pipe) || (pipe == SMTLM_PIPE_LSU && (is_shared(in) ? t < sw->lds_next
                                                                         : !smtlm_stage_has_free(&s->p.ldst, SMTLM_OC_EX_MEM, 0, 0)))) {
        s->st.pipe_stalls++;
        return 0;
    }
    /* Another warp's issue only takes the caches from this one: its reads change only when
     * some were hits. */
    if (!sw->rd_known || (sw->reads_epoch != u->epoch && sw->rd.hits)) {
        reads_of(u, w, in, sw->ctrl, pipe, &sw->rd);
        sw->reads_epoch = u->epoch;
        sw->rd_known = 1;
    }
    return 1;
}

/* Issues warp w's head instruction at t (its reads placed: last read at t + last). */
static void issue(smtlm_silicon *s, unsigned sub, smtlm_sil_sub *u, unsigned w, uint64_t t, unsigned last)
{
    smtlm_issue *iss = s->p.iss;
    smtlm_warp *wp = &iss->warp[w];
    smtlm_sil_warp *sw = &s->warp[w];
    const smtlm_iref r = sw->head;
    smtlm_inst *in = smtlm_pool_get(s->p.pool, r);
    const smtlm_ctrl *c = sw->ctrl;
    const unsigned pipe = sw->pipe;
    /* the instruction buffer steps */
    const unsigned slot = wp->next;
    wp->ib[slot] = SMTLM_NO_INST;
    wp->ib_valid[slot] = 0;
    wp->next = (uint8_t)(slot ^ 1);
    warp_ib_changed(iss, w);
    if (!wp->ib_valid[slot ^ 1])
        iss->ib_empty |= 1ull << w;
    in->uid = ++iss->next_uid;
    in->sched = (uint8_t)sub;
    in->unit = iss->route_unit[in->op < SMTLM_OP_COUNT ? in->op : SMTLM_OP_COUNT];
    in->ev[SMTLM_EV_ISSUE] = t;
    iss->issued_this_cycle++;
    s->st.issued[pipe]++;
    s->st.reads += sw->rd.n;
    s->st.reuse_hits += sw->rd.hits;
    sw->passed = 0;
    sw->head = SMTLM_NO_INST;
    u->last = (int16_t)w;
    pipe_take(u, pipe, t, s->cfg.interval[pipe]);
    for (unsigned k = 0; k < SMTLM_SIL_SLOTS; k++) {
        u->reuse_reg[k] = sw->rd.keep[k];
        u->reuse_warp[k] = (uint16_t)w;
    }
    u->epoch++;
    /* when the warp may issue next */
    unsigned gap = 1;
    if (c) {
        gap = c->stall ? c->stall : 1u;
        if (!(c->flags & SMTLM_CTRL_YIELD) && gap < s->cfg.no_yield_gap)
            gap = s->cfg.no_yield_gap;
        if (c->wbar < SMTLM_SIL_BARS)
            bar_set(sw, c->wbar, t);
        if (c->rbar < SMTLM_SIL_BARS) {
            bar_set(sw, c->rbar, t);
            const smtlm_sil_read_event e = {t + (last ? last : 1u), (uint16_t)w, c->rbar};
            s->rq[s->n_rq++] = e;
        }
        s->wbar[r] = (uint8_t)c->wbar;
    } else {
        s->wbar[r] = 0xFF;
        smtlm_sb_reserve(&iss->sb, w, in, 0);
    }
    sw->next_at = t + gap;
    const unsigned op = in->op;
    if (op == SMTLM_OP_EXIT || op == SMTLM_OP_BARRIER || op == SMTLM_OP_MEMBAR || in->atomic) {
        iss->ports.now = t;
        smtlm_issue_special(iss, &iss->ports, w, in);
    }
    /* where it goes */
    if (pipe == SMTLM_PIPE_LSU && !is_shared(in)) { /* memory beyond shared memory: the LDST */
        in->unit = SMTLM_UNIT_MEM;
        smtlm_stage_put(&s->p.ldst, SMTLM_OC_EX_MEM, 0, 0, r, in->uid);
        return;
    }
    uint64_t done;
    if (pipe == SMTLM_PIPE_LSU) {
        done = shmem_access(s, sw, in, t) + s->cfg.lds_latency;
    } else if (pipe == SMTLM_PIPE_NONE) {
        done = t + 1;
    } else {
        done = t + sw->latency;
        *results_at(u, done) |= sw->result_banks;
    }
    wheel_add(s, r, done);
}

int smtlm_silicon_issue(smtlm_silicon *s, uint64_t now)
{
    port_clean(s, now);
    smtlm_issue *iss = s->p.iss;
    for (unsigned sub = 0; sub < s->n_sub; sub++) {
        smtlm_sil_sub *u = &s->sub[sub];
        results_clean(u, now);
        const smtlm_sched *sc = &iss->sched[sub];
        /* the last warp that issued, then the others oldest first: the first whose reads fit */
        for (int i = -1; i < (int)sc->n_age; i++) {
            const int w = i < 0 ? u->last : (int)sc->age[i];
            if (w < 0 || (i >= 0 && w == u->last))
                continue;
            unsigned last = 0;
            if (!ready(s, u, (unsigned)w, now))
                continue;
            const smtlm_sil_warp *sw = &s->warp[w];
            if (*results_at(u, now + sw->latency) & sw->result_banks) {
                s->st.write_stalls++;
                continue;
            }
            if (!place_reads(s, u, now, &s->warp[w].rd, &last)) {
                s->st.bank_stalls++;
                continue;
            }
            issue(s, sub, u, (unsigned)w, now, last);
            break;
        }
    }
    return SMTLM_OK;
}
