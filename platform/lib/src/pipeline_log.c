/* -smtlm_pipeline_log: follows the shown SMs' instructions from decode to retirement.
 *
 * After every cycle (the sample hook) it reads, per SM: each warp's instruction buffer (an
 * entry that appears was decoded in that cycle; one that leaves with a uid was issued), the
 * scheduler's per-warp stall counters (which reason the warp's head instruction waited for)
 * and each collector unit's operands still to read (an operand that stops being awaited was
 * read in that cycle). At retirement (the retire hook) this and the event cycles become one
 * Kanata record. Register dependencies (W) link an instruction to the last instruction of its
 * warp that wrote one of its sources before it issued.
 *
 * The Kanata writer needs to know when no instruction can start before a cycle any more: the
 * oldest decode among the instructions still followed, kept per SM in a queue in decode order
 * (each entry names a pool entry and the generation of what it followed there). */
#include "smtlm/pipeline_log.h"

#include <stdlib.h>
#include <string.h>

#include "pipeline_log_internal.h"
#include "smtlm/kanata_log.h"
#include "smtlm/view_names.h"

typedef struct pl_reg {
    uint32_t uid;   /* low bits of the uid of the last writer issued */
    int handle;     /* its Kanata handle once it retired (0: none) */
} pl_reg;

typedef struct pl_queued {
    uint64_t gen;
    uint16_t idx;
} pl_queued;

typedef struct pl_sm {
    pl_side side[SMTLM_POOL_SIZE];
    uint16_t ib[SMTLM_MAX_WARPS][2];                  /* the buffers at the last sample */
    uint16_t head[SMTLM_MAX_WARPS];                   /* each warp's next instruction then */
    uint64_t stall[SMTLM_MAX_WARPS][SMTLM_WS_COUNT];  /* the stall counters then */
    uint64_t active;                                  /* active cycles then */
    pl_reg *regs;                                     /* [warp][register] */
    pl_queued *q;                                     /* followed instructions, decode order */
    size_t q_head, q_len, q_cap;
    uint64_t next_gen;
} pl_sm;

struct smtlm_pipeline_log {
    smtlm_kanata *k;
    smtlm_view_filter flt;
    unsigned n_sm, max_warps, kernel;
    uint64_t start;   /* the first cycle sampled: one before the window, so its first
                       * instructions are seen in their buffers */
    pl_sm **sm;
    int oom;
};

smtlm_pipeline_log *smtlm_pipeline_log_new(FILE *f, const smtlm_gpu *gpu, const smtlm_view_filter *flt)
{
    smtlm_pipeline_log *p = calloc(1, sizeof *p);
    if (p) {
        p->sm = calloc(gpu->n_sm, sizeof *p->sm);
        p->k = smtlm_kanata_new(f);
    }
    if (!p || !p->sm || !p->k) {
        if (p) {
            smtlm_kanata_close(p->k);
            free(p->sm);
        }
        free(p);
        return NULL;
    }
    p->flt = *flt;
    p->n_sm = gpu->n_sm;
    p->max_warps = gpu->cfg.sm.issue.max_warps;
    p->kernel = 1;
    p->start = flt->first ? flt->first - 1 : 0;
    return p;
}

/* ---- per-SM state ---- */

static pl_reg *reg(smtlm_pipeline_log *p, pl_sm *t, unsigned warp, int r)
{
    if (!t->regs && !(t->regs = calloc((size_t)p->max_warps * (SMTLM_MAX_REG + 1), sizeof *t->regs))) {
        p->oom = 1;
        return NULL;
    }
    return r >= 0 && r <= SMTLM_MAX_REG && warp < p->max_warps ? &t->regs[warp * (SMTLM_MAX_REG + 1) + (unsigned)r] : NULL;
}

static void drop(smtlm_pipeline_log *p, pl_side *s)
{
    for (unsigned i = 0; i < SMTLM_MAX_SRC; i++)
        if (s->dep[i])
            smtlm_kanata_release(p->k, s->dep[i]);
    memset(s, 0, sizeof *s);
}

static void free_sm(smtlm_pipeline_log *p, pl_sm *t)
{
    if (!t)
        return;
    for (unsigned i = 0; i < SMTLM_POOL_SIZE; i++)
        if (t->side[i].gen)
            drop(p, &t->side[i]);
    if (t->regs)
        for (size_t i = 0; i < (size_t)p->max_warps * (SMTLM_MAX_REG + 1); i++)
            if (t->regs[i].handle)
                smtlm_kanata_release(p->k, t->regs[i].handle);
    free(t->regs);
    free(t->q);
    free(t);
}

/* Starts following the instruction in pool entry idx, decoded at `seen`. */
static void follow(smtlm_pipeline_log *p, pl_sm *t, unsigned idx, uint64_t seen, int clipped)
{
    if (t->q_len == t->q_cap) {
        size_t cap = t->q_cap ? t->q_cap * 2 : 1024;
        pl_queued *q = malloc(cap * sizeof *q);
        if (!q) {
            p->oom = 1;
            return;
        }
        for (size_t i = 0; i < t->q_len; i++)
            q[i] = t->q[(t->q_head + i) % t->q_cap];
        free(t->q);
        t->q = q;
        t->q_cap = cap;
        t->q_head = 0;
    }
    pl_side *s = &t->side[idx];
    if (s->gen)
        drop(p, s);
    s->gen = ++t->next_gen;
    s->seen = seen;
    s->clipped = (uint8_t)clipped;
    t->q[(t->q_head + t->q_len++) % t->q_cap] = (pl_queued){s->gen, (uint16_t)idx};
}

/* The oldest decode among the instructions followed on this SM (UINT64_MAX: none). */
static uint64_t oldest(pl_sm *t)
{
    while (t->q_len) {
        const pl_queued *e = &t->q[t->q_head];
        if (t->side[e->idx].gen == e->gen)
            return t->side[e->idx].seen;
        t->q_head = (t->q_head + 1) % t->q_cap;
        t->q_len--;
    }
    return UINT64_MAX;
}

/* ---- what one sample learns ---- */

void pl_add_run(pl_side *s, uint64_t from, uint64_t n, unsigned why)
{
    s->waited[why] += (uint32_t)n;
    if (s->n_runs && (s->run[s->n_runs - 1].why == why || s->run[s->n_runs - 1].why == SMTLM_VIEW_MIXED ||
                      why == SMTLM_VIEW_OTHER))
        return;
    if (s->n_runs == PL_RUNS) /* the last run takes the rest */
        s->run[PL_RUNS - 1].why = SMTLM_VIEW_MIXED;
    else
        s->run[s->n_runs++] = (pl_run){from, (uint8_t)why};
}

/* The instruction in idx left its buffer with a uid: it issued in the sampled cycle. */
static void issued(smtlm_pipeline_log *p, pl_sm *t, unsigned idx, const smtlm_inst *in)
{
    pl_side *s = &t->side[idx];
    s->issued = 1;
    s->uid = in->uid;
    s->logged = (uint8_t)smtlm_view_shows_cycle(&p->flt, in->ev[SMTLM_EV_ISSUE]);
    const unsigned distinct = pl_distinct_sources(in);
    for (unsigned i = 0; s->logged && i < in->n_src && i < SMTLM_MAX_SRC; i++) {
        const pl_reg *r = distinct >> i & 1 ? reg(p, t, in->warp, in->src[i]) : NULL;
        if (r && r->handle) {
            smtlm_kanata_retain(p->k, r->handle);
            s->dep[i] = r->handle;
        }
    }
    for (unsigned i = 0; i < in->n_dst && i < SMTLM_MAX_DST; i++) {
        pl_reg *r = reg(p, t, in->warp, in->dst[i]);
        if (!r)
            continue;
        if (r->handle)
            smtlm_kanata_release(p->k, r->handle);
        r->uid = (uint32_t)in->uid;
        r->handle = 0;
    }
    if (!s->logged)
        drop(p, s);
}

static void sample_sm(smtlm_pipeline_log *p, pl_sm *t, const smtlm_sm_view *v, uint64_t first, uint64_t n, int prime)
{
    const smtlm_issue *iss = v->iss;
    const unsigned nw = p->max_warps;
    if (!prime && v->stats.active_cycles == t->active)
        return; /* the SM did not run: nothing changed */
    t->active = v->stats.active_cycles;
    uint16_t now_ib[SMTLM_MAX_WARPS][2];
    for (unsigned w = 0; w < nw; w++)
        for (unsigned k = 0; k < 2; k++)
            now_ib[w][k] = iss->warp[w].ib_valid[k] && smtlm_view_shows_warp(&p->flt, w) ? iss->warp[w].ib[k] : SMTLM_NO_INST;
    /* why each warp's head instruction (at the last sample) waited in these cycles */
    for (unsigned w = 0; w < nw; w++) {
        if (!smtlm_view_shows_warp(&p->flt, w))
            continue;
        unsigned why = SMTLM_VIEW_OTHER;
        for (unsigned c = SMTLM_WS_COUNT; c-- > 0;)
            if (iss->warp_stall[w][c] != t->stall[w][c])
                why = c;
        memcpy(t->stall[w], iss->warp_stall[w], sizeof t->stall[w]);
        const unsigned h = t->head[w];
        if (!prime && h != SMTLM_NO_INST && t->side[h].gen && !t->side[h].issued && why != SMTLM_WS_ISSUED)
            pl_add_run(&t->side[h], first, n, why);
    }
    /* entries that left a buffer (first, for every warp: a pool entry may move to another) */
    for (unsigned w = 0; w < nw && !prime; w++)
        for (unsigned k = 0; k < 2; k++) {
            const unsigned idx = t->ib[w][k];
            if (idx == SMTLM_NO_INST || idx == now_ib[w][0] || idx == now_ib[w][1] || !t->side[idx].gen)
                continue;
            const smtlm_inst *in = &v->pool->inst[idx];
            if (in->uid && in->warp == w)
                issued(p, t, idx, in);
            else
                drop(p, &t->side[idx]); /* flushed without issuing */
        }
    /* entries that appeared: decoded in this cycle (or before, when sampling begins late) */
    for (unsigned w = 0; w < nw; w++) {
        for (unsigned k = 0; k < 2; k++) {
            const unsigned idx = now_ib[w][k];
            if (idx != SMTLM_NO_INST && idx != t->ib[w][0] && idx != t->ib[w][1] && first <= p->flt.last)
                follow(p, t, idx, first, prime && p->flt.first > 0);
            t->ib[w][k] = (uint16_t)idx;
        }
        const unsigned next = iss->warp[w].next;
        t->head[w] = now_ib[w][next];
    }
    /* operands read: a followed instruction's slot that no longer waits */
    for (unsigned j = 0; j < v->oc->n_cus; j++) {
        const smtlm_cu *cu = &v->oc->cu[j];
        if (cu->inst == SMTLM_NO_INST)
            continue;
        pl_side *s = &t->side[cu->inst];
        const smtlm_inst *in = &v->pool->inst[cu->inst];
        if (!s->gen || !s->issued || s->uid != in->uid)
            continue;
        const unsigned got = pl_distinct_sources(in) & ~smtlm_opcoll_not_ready(v->oc, j) & ~(unsigned)s->known;
        for (unsigned i = 0; i < SMTLM_MAX_SRC; i++)
            if (got >> i & 1)
                s->opnd[i] = first;
        s->known |= (uint8_t)got;
    }
}

void smtlm_pipeline_log_sample(void *log, const smtlm_gpu *gpu, uint64_t first, uint64_t n)
{
    smtlm_pipeline_log *p = log;
    if (first + n <= p->start)
        return;
    uint64_t mark = first + n; /* nothing decoded later starts before the next cycle */
    for (unsigned i = 0; i < p->n_sm; i++) {
        if (!smtlm_view_shows_sm(&p->flt, i))
            continue;
        pl_sm *t = p->sm[i];
        const int prime = !t;
        if (first > p->flt.last && (prime || oldest(t) == UINT64_MAX))
            continue; /* past the window with nothing logged still in flight */
        if (prime && !(t = p->sm[i] = calloc(1, sizeof *t))) {
            p->oom = 1;
            continue;
        }
        if (prime)
            for (unsigned w = 0; w < SMTLM_MAX_WARPS; w++)
                t->ib[w][0] = t->ib[w][1] = t->head[w] = SMTLM_NO_INST;
        smtlm_sm_view v;
        smtlm_gpu_sm_view(gpu, i, &v);
        sample_sm(p, t, &v, first, n, prime);
        const uint64_t o = oldest(t);
        if (o < mark)
            mark = o;
    }
    smtlm_kanata_flush(p->k, mark);
}

void smtlm_pipeline_log_retired(smtlm_pipeline_log *p, const smtlm_gpu *gpu, unsigned sm, const smtlm_inst *in)
{
    pl_sm *t = sm < p->n_sm ? p->sm[sm] : NULL;
    if (!t)
        return;
    smtlm_sm_view v;
    smtlm_gpu_sm_view(gpu, sm, &v);
    const uintptr_t at = (uintptr_t)in, base = (uintptr_t)v.pool->inst;
    if (at < base || at >= base + sizeof v.pool->inst || (at - base) % sizeof *in)
        return; /* not the SM's own entry */
    pl_side *s = &t->side[(at - base) / sizeof *in];
    if (!s->gen || !s->issued || !s->logged || s->uid != in->uid)
        return;
    const int keep = in->n_dst > 0;
    const int h = pl_add_record(p->k, in, s, &v, sm, p->kernel, sm * p->max_warps + in->warp, keep);
    if (h < 0)
        p->oom = 1;
    for (unsigned i = 0; h > 0 && i < in->n_dst && i < SMTLM_MAX_DST; i++) {
        pl_reg *r = reg(p, t, in->warp, in->dst[i]);
        if (r && r->uid == (uint32_t)in->uid && !r->handle) {
            smtlm_kanata_retain(p->k, h);
            r->handle = h;
        }
    }
    if (h > 0)
        smtlm_kanata_release(p->k, h);
    drop(p, s);
}

void smtlm_pipeline_log_kernel_end(smtlm_pipeline_log *p, const smtlm_gpu *gpu)
{
    /* the kernel's last instruction retired in cycle end - 1 and leaves at end; the next
     * kernel's first one is decoded after it */
    const uint64_t end = gpu->tot_cycle + gpu->sim_cycle;
    for (unsigned i = 0; i < p->n_sm; i++) {
        free_sm(p, p->sm[i]);
        p->sm[i] = NULL;
    }
    smtlm_kanata_flush(p->k, end + 1);
    p->kernel++;
}

uint64_t smtlm_pipeline_log_count(const smtlm_pipeline_log *p) { return smtlm_kanata_count(p->k); }

int smtlm_pipeline_log_close(smtlm_pipeline_log *p)
{
    if (!p)
        return 0;
    for (unsigned i = 0; i < p->n_sm; i++)
        free_sm(p, p->sm[i]);
    const int rc = smtlm_kanata_close(p->k);
    const int oom = p->oom;
    free(p->sm);
    free(p);
    return rc || oom ? -1 : 0;
}
