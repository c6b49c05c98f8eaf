/* The C engine's window function for smtlm_gpu_run (smtlm_window_fn): once no CTA is left to
 * issue the SMs stop interacting (each has its own memory; a CTA's completion only counts), so
 * the run loop hands the cycles up to smtlm_gpu_sms_alone_until (the next watchdog check or
 * -gpgpu_max_cycle) to a window: each live SM is stepped alone for them, its state staying in the
 * host's cache, on one host thread or several, its retirements and CTA completions recorded with
 * their cycle. Afterwards the window is cut where the cycle-by-cycle loop would have stopped (the
 * last CTA's completion, or the first error in (cycle, SM) order), the recorded events are
 * replayed in (cycle, SM) order with the GPU's clock at their cycle, the idle skips the
 * cycle-by-cycle loop would have made are counted, and the usual stop checks run. */
#include "smtlm/gpu_parallel.h"

#include <stdlib.h>
#include <string.h>

#include "par_pool.h"

typedef struct par_ev {
    uint64_t cycle;
    int cta;          /* 0: a retirement (in), 1: a CTA completion (slot, cta_id) */
    unsigned slot;
    uint32_t cta_id;
    smtlm_inst in;
} par_ev;

/* The SM was quiescent with no request waiting at every boundary from..to (the start of those
 * cycles) and its memory's next answer is at `event`: what the serial idle skip looks at. */
typedef struct par_idle {
    uint64_t from, to, event;
} par_idle;

enum { STOP_END, STOP_NO_CTA, STOP_DROPPED, STOP_ERROR };

typedef struct par_sm {
    smtlm_gpu *gpu;
    unsigned i;
    uint64_t now;     /* the cycle being run: stamps the events */
    uint64_t reached; /* first cycle not run (the error's cycle for STOP_ERROR) */
    int stop, err, oom;
    par_ev *ev;
    size_t n_ev, cap_ev, pos;
    par_idle *idle;
    size_t n_idle, cap_idle, ipos;
} par_sm;

struct smtlm_gpu_par {
    smtlm_gpu *gpu;
    par_pool *pool;
    par_sm *sm; /* n_sm */
    uint16_t job[SMTLM_MAX_SMS];
    unsigned n_job;
    uint64_t w0, w_end;
    uint64_t window_cycles; /* cycles run in windows so far */
};

/* Grows a buffer by doubling: amortised, so not an allocation per cycle. */
static int grow(void **buf, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap * 2 : 256;
    while (n < need)
        n *= 2;
    void *b = realloc(*buf, n * elem);
    if (!b)
        return -1;
    *buf = b;
    *cap = n;
    return 0;
}

static par_ev *push_ev(par_sm *p)
{
    if (grow((void **)&p->ev, &p->cap_ev, p->n_ev + 1, sizeof *p->ev)) {
        p->oom = 1;
        return NULL;
    }
    par_ev *e = &p->ev[p->n_ev++];
    e->cycle = p->now;
    return e;
}

static void rec_retire(void *ctx, unsigned sm, const smtlm_inst *in)
{
    (void)sm;
    par_ev *e = push_ev(ctx);
    if (e) {
        e->cta = 0;
        e->in = *in;
    }
}

static void rec_cta(void *ctx, unsigned sm, unsigned slot, uint32_t cta_id)
{
    (void)sm;
    par_ev *e = push_ev(ctx);
    if (e) {
        e->cta = 1;
        e->slot = slot;
        e->cta_id = cta_id;
    }
}

static void note_idle(par_sm *p, uint64_t t, uint64_t event)
{
    if (p->n_idle && p->idle[p->n_idle - 1].to + 1 == t && p->idle[p->n_idle - 1].event == event) {
        p->idle[p->n_idle - 1].to = t;
        return;
    }
    if (grow((void **)&p->idle, &p->cap_idle, p->n_idle + 1, sizeof *p->idle)) {
        p->oom = 1;
        return;
    }
    p->idle[p->n_idle++] = (par_idle){t, t, event};
}

static void stop_error(par_sm *p, int rc, uint64_t t)
{
    p->stop = STOP_ERROR;
    p->err = rc;
    p->reached = t;
}

/* Cycles from..to-1 of SM p->i exactly as smtlm_gpu_step runs them for one SM. With
 * stop_no_cta it stops after a cycle that leaves it without a CTA: from then on it only
 * drains memory traffic, which cannot change when the kernel ends. */
static void step_sm(par_sm *p, uint64_t from, uint64_t to, int stop_no_cta)
{
    smtlm_gpu *g = p->gpu;
    const smtlm_sm_ops *o = g->ops;
    void *c = g->sm_ctx;
    const unsigned i = p->i;
    smtlm_mem_model *m = &g->mem[i];
    for (uint64_t t = from; t < to; t++) {
        const int waiting = o->pending_requests(c, i) != 0;
        if (!waiting && o->quiescent(c, i))
            note_idle(p, t, smtlm_mem_next_ready(m));
        p->now = t;
        if (waiting || smtlm_mem_busy(m)) {
            o->mem_cycle(c, i, m, t);
            if (m->error) {
                stop_error(p, m->error, t);
                return;
            }
        }
        if (o->active(c, i)) {
            int rc = o->cycle(c, i, t);
            if (rc) {
                stop_error(p, rc, t);
                return;
            }
        }
        if (p->oom) {
            stop_error(p, SMTLM_EFULL, t);
            return;
        }
        if (!o->active(c, i) && !smtlm_mem_busy(m) && !o->pending_requests(c, i)) {
            p->stop = STOP_DROPPED;
            p->reached = t + 1;
            return;
        }
        if (stop_no_cta && o->resident_ctas(c, i) == 0) {
            p->stop = STOP_NO_CTA;
            p->reached = t + 1;
            return;
        }
    }
    p->stop = STOP_END;
    p->reached = to;
}

static void run_job(void *arg, unsigned j)
{
    smtlm_gpu_par *P = arg;
    step_sm(&P->sm[P->job[j]], P->w0, P->w_end, 1);
}

/* on: the window's recorders take the SMs' hooks (a retirement is recorded only when the GPU
 * has a retire hook); off: the GPU's own hooks are put back. */
static void swap_hooks(smtlm_gpu_par *P, int on)
{
    smtlm_gpu *g = P->gpu;
    for (unsigned j = 0; j < P->n_job; j++) {
        par_sm *p = &P->sm[P->job[j]];
        if (on)
            g->ops->set_hooks(g->sm_ctx, p->i, g->retire_hook ? rec_retire : NULL, p, rec_cta, p);
        else
            g->ops->set_hooks(g->sm_ctx, p->i, g->retire_hook, g->retire_ctx, smtlm_gpu_on_cta_done, g);
    }
}

/* Replays the events of cycles up to `last` (SMs after `last_sm` stop one cycle earlier). */
static void replay(smtlm_gpu_par *P, uint64_t last, unsigned last_sm)
{
    smtlm_gpu *g = P->gpu;
    for (uint64_t t = P->w0; t <= last; t++)
        for (unsigned j = 0; j < P->n_job; j++) {
            par_sm *p = &P->sm[P->job[j]];
            if (t == last && p->i > last_sm)
                break;
            for (; p->pos < p->n_ev && p->ev[p->pos].cycle == t; p->pos++) {
                const par_ev *e = &p->ev[p->pos];
                g->sim_cycle = t - g->tot_cycle; /* the clock as the SM's cycle t left it */
                if (e->cta)
                    smtlm_gpu_on_cta_done(g, p->i, e->slot, e->cta_id);
                else
                    g->retire_hook(g->retire_ctx, p->i, &e->in);
            }
        }
}

static int live_at(const par_sm *p, uint64_t t) { return !(p->stop == STOP_DROPPED && p->reached <= t); }

/* The cycles smtlm_gpu_skip_idle would have jumped over at the boundaries w0+1..end-1. A skip
 * stops the cycle before the next stop check (`alone`, smtlm_gpu_sms_alone_until without a
 * batch's end); one the batch's end cuts stops there and leaves the rest to the next batch
 * (skip_event), as the serial skip does. */
static uint64_t skipped(smtlm_gpu_par *P, uint64_t end, uint64_t alone)
{
    smtlm_gpu *g = P->gpu;
    uint64_t n = 0;
    for (uint64_t t = P->w0 + 1; t < end;) {
        uint64_t event = UINT64_MAX;
        int any = 0, all_idle = 1;
        for (unsigned j = 0; j < P->n_job && all_idle; j++) {
            par_sm *p = &P->sm[P->job[j]];
            if (!live_at(p, t))
                continue;
            any = 1;
            while (p->ipos < p->n_idle && p->idle[p->ipos].to < t)
                p->ipos++;
            if (p->ipos == p->n_idle || p->idle[p->ipos].from > t)
                all_idle = 0;
            else if (p->idle[p->ipos].event < event)
                event = p->idle[p->ipos].event;
        }
        uint64_t k = 0;
        if (any && all_idle && event != UINT64_MAX && event > t + 1) {
            k = event - t;
            if (t + k >= alone)
                k = alone > t + 1 ? alone - t - 1 : 0;
            if (t + k > g->horizon) {
                k = g->horizon - t;
                g->skip_event = event;
            }
        }
        n += k;
        t += k + 1;
    }
    return n;
}

void smtlm_gpu_par_window(void *ctx, smtlm_gpu *g, uint64_t w_end)
{
    smtlm_gpu_par *P = ctx;
    const uint64_t alone = smtlm_gpu_sms_alone_until(g, UINT64_MAX);
    P->w0 = g->tot_cycle + g->sim_cycle;
    P->w_end = w_end;
    P->n_job = g->n_live;
    for (unsigned j = 0; j < g->n_live; j++) {
        par_sm *p = &P->sm[g->live[j]];
        P->job[j] = g->live[j];
        p->n_ev = p->pos = p->n_idle = p->ipos = 0;
        p->oom = p->err = 0;
    }
    swap_hooks(P, 1);
    par_pool_run(P->pool, P->n_job, run_job, P);
    /* The kernel ends after the cycle of its last CTA's completion, if that is in the window. */
    const uint64_t need = g->ctas_to_run - g->ctas_done;
    uint64_t got = 0, last_done = 0;
    for (unsigned j = 0; j < P->n_job; j++) {
        const par_sm *p = &P->sm[P->job[j]];
        for (size_t e = 0; e < p->n_ev; e++)
            if (p->ev[e].cta) {
                got++;
                if (p->ev[e].cycle > last_done)
                    last_done = p->ev[e].cycle;
            }
    }
    const uint64_t end = got >= need ? last_done + 1 : P->w_end;
    for (unsigned j = 0; j < P->n_job; j++) { /* SMs left draining memory catch up */
        par_sm *p = &P->sm[P->job[j]];
        if (p->stop == STOP_NO_CTA && p->reached < end)
            step_sm(p, p->reached, end, 0);
    }
    const par_sm *first = NULL; /* the first error in (cycle, SM) order */
    for (unsigned j = 0; j < P->n_job; j++) {
        const par_sm *p = &P->sm[P->job[j]];
        if (p->stop == STOP_ERROR && p->reached < end && (!first || p->reached < first->reached))
            first = p;
    }
    if (first) {
        replay(P, first->reached, first->i);
        swap_hooks(P, 0);
        g->sim_cycle = first->reached - g->tot_cycle;
        smtlm_gpu_fail(g, first->err, first->i);
        return;
    }
    replay(P, end - 1, g->n_sm);
    swap_hooks(P, 0);
    if (!g->cfg.no_skip)
        g->skipped_cycles += skipped(P, end, alone);
    unsigned kept = 0;
    for (unsigned j = 0; j < P->n_job; j++) {
        const par_sm *p = &P->sm[P->job[j]];
        if (p->stop == STOP_DROPPED)
            g->is_live[p->i] = 0;
        else
            g->live[kept++] = (uint16_t)p->i;
    }
    g->n_live = kept;
    g->sim_cycle = end - g->tot_cycle;
    P->window_cycles += end - P->w0;
    smtlm_gpu_stop_checks(g, end - 1);
}

smtlm_gpu_par *smtlm_gpu_par_new(smtlm_gpu *gpu, unsigned n_threads)
{
    smtlm_gpu_par *P = calloc(1, sizeof *P);
    if (!P)
        return NULL;
    P->gpu = gpu;
    P->sm = calloc(gpu->n_sm ? gpu->n_sm : 1, sizeof *P->sm);
    P->pool = par_pool_new(n_threads);
    if (!P->sm || !P->pool) {
        smtlm_gpu_par_free(P);
        return NULL;
    }
    for (unsigned i = 0; i < gpu->n_sm; i++) {
        P->sm[i].gpu = gpu;
        P->sm[i].i = i;
    }
    return P;
}

smtlm_run_status smtlm_gpu_par_run(smtlm_gpu_par *P)
{
    smtlm_gpu_set_window(P->gpu, smtlm_gpu_par_window, P);
    const smtlm_run_status st = smtlm_gpu_run(P->gpu);
    smtlm_gpu_set_window(P->gpu, NULL, NULL);
    return st;
}

uint64_t smtlm_gpu_par_window_cycles(const smtlm_gpu_par *P) { return P->window_cycles; }

void smtlm_gpu_par_free(smtlm_gpu_par *P)
{
    if (!P)
        return;
    par_pool_free(P->pool);
    if (P->sm)
        for (unsigned i = 0; i < P->gpu->n_sm; i++) {
            free(P->sm[i].ev);
            free(P->sm[i].idle);
        }
    free(P->sm);
    free(P);
}
