/* Trace -> engine binding: one reusable TB object per (SM, CTA slot). */
#include "smtlm/trace_source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_prefetch.h"

typedef struct warp_bind {
    smtlm_trace_tb *tb;  /* NULL = unbound */
    unsigned w;          /* warp index inside the TB */
    unsigned pos, count;
} warp_bind;

struct smtlm_trace_source {
    smtlm_trace *t;
    char *path;
    unsigned n_sm, max_warps;
    smtlm_trace_tb **tbs;   /* n_sm * SMTLM_MAX_CTAS */
    warp_bind *warps;       /* n_sm * max_warps */
    trace_prefetch *reader; /* NULL: blocks are parsed on the engine's thread */
    char err[1024];
    int failed;
};

int smtlm_trace_source_open(smtlm_trace_source **out, const char *path, const smtlm_trace_latency *lat,
                            unsigned n_sm, unsigned max_warps, char *err, size_t errlen)
{
    *out = NULL;
    smtlm_trace_source *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    s->n_sm = n_sm;
    s->max_warps = max_warps;
    s->path = strdup(path);
    s->tbs = calloc((size_t)n_sm * SMTLM_MAX_CTAS, sizeof *s->tbs);
    s->warps = calloc((size_t)n_sm * max_warps, sizeof *s->warps);
    if (!s->path || !s->tbs || !s->warps) {
        smtlm_trace_source_close(s);
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    if (smtlm_trace_open(path, lat, &s->t, err, errlen) < 0) {
        smtlm_trace_source_close(s);
        return -1;
    }
    *out = s;
    return 0;
}

void smtlm_trace_source_close(smtlm_trace_source *s)
{
    if (!s)
        return;
    trace_prefetch_stop(s->reader); /* first: it may still be reading the trace */
    if (s->tbs)
        for (size_t i = 0; i < (size_t)s->n_sm * SMTLM_MAX_CTAS; i++)
            smtlm_trace_tb_free(s->tbs[i]);
    free(s->tbs);
    free(s->warps);
    if (s->t)
        smtlm_trace_close(s->t);
    free(s->path);
    free(s);
}

int smtlm_trace_source_start_reader(smtlm_trace_source *s, char *err, size_t errlen)
{
    int rc = s->reader ? 0 : trace_prefetch_start(&s->reader, s->t, s->n_sm * SMTLM_MAX_CTAS);
    if (rc < 0)
        snprintf(err, errlen, "%s: cannot start the reader thread (%s)", s->path,
                 rc == SMTLM_TRACE_ERR_NOMEM ? "out of memory" : "thread creation failed");
    return rc < 0 ? -1 : 0;
}

const smtlm_trace_header *smtlm_trace_source_header(const smtlm_trace_source *s) { return smtlm_trace_info(s->t); }
const char *smtlm_trace_source_error(const smtlm_trace_source *s) { return s->failed ? s->err : NULL; }
const char *smtlm_trace_source_path(const smtlm_trace_source *s) { return s->path; }

smtlm_kernel_desc smtlm_trace_source_kernel(const smtlm_trace_source *s)
{
    const smtlm_trace_header *h = smtlm_trace_info(s->t);
    smtlm_kernel_desc k;
    k.n_ctas = (uint32_t)h->n_tbs;
    k.threads_per_cta = h->block[0] * h->block[1] * h->block[2];
    k.shmem_per_cta = h->shmem;
    k.regs_per_thread = h->nregs;
    return k;
}

/* Records the first error as "<trace path>: <what>". */
static int fail(smtlm_trace_source *s, const char *what)
{
    if (!s->failed) {
        s->failed = 1;
        snprintf(s->err, sizeof s->err, "%s: %s", s->path, what);
    }
    return -1;
}

static int cta_start(void *ctx, unsigned sm, unsigned slot, unsigned first_warp, unsigned n_warps, uint32_t cta_id)
{
    smtlm_trace_source *s = ctx;
    smtlm_trace_tb **tb = &s->tbs[(size_t)sm * SMTLM_MAX_CTAS + slot];
    char what[256];
    int rc;
    if (s->reader) {
        rc = trace_prefetch_next(s->reader, tb, s->err, sizeof s->err);
    } else {
        if (!*tb && !(*tb = smtlm_trace_tb_new()))
            return fail(s, "out of memory reading a thread block");
        rc = smtlm_trace_next_tb(s->t, *tb, s->err, sizeof s->err);
    }
    if (rc < 0) {
        s->failed = 1;
        return -1;
    }
    if (rc == 0) {
        snprintf(what, sizeof what, "the trace holds %u thread blocks but the grid launches more", cta_id);
        return fail(s, what);
    }
    if (smtlm_trace_tb_n_warps(*tb) != n_warps) {
        snprintf(what, sizeof what, "thread block %u has %u warps, the block dimension needs %u", cta_id,
                 smtlm_trace_tb_n_warps(*tb), n_warps);
        return fail(s, what);
    }
    for (unsigned i = 0; i < n_warps; i++) {
        warp_bind *b = &s->warps[(size_t)sm * s->max_warps + first_warp + i];
        b->tb = *tb;
        b->w = i;
        b->pos = 0;
        b->count = smtlm_trace_tb_warp_count(*tb, i);
    }
    return 0;
}

static int next(void *ctx, unsigned sm, unsigned warp, smtlm_inst_desc *d)
{
    smtlm_trace_source *s = ctx;
    warp_bind *b = &s->warps[(size_t)sm * s->max_warps + warp];
    if (!b->tb || b->pos >= b->count)
        return 0;
    if (smtlm_trace_tb_inst(b->tb, b->w, b->pos, d) != 0)
        return fail(s, "an instruction could not be expanded");
    b->pos++;
    return 1;
}

static int has_more(void *ctx, unsigned sm, unsigned warp)
{
    const smtlm_trace_source *s = ctx;
    const warp_bind *b = &s->warps[(size_t)sm * s->max_warps + warp];
    return b->tb && b->pos < b->count;
}

int smtlm_trace_source_peek_pc(const smtlm_trace_source *s, unsigned sm, unsigned warp, uint32_t *pc)
{
    const warp_bind *b = &s->warps[(size_t)sm * s->max_warps + warp];
    smtlm_inst_desc d;
    if (!b->tb || b->pos >= b->count || smtlm_trace_tb_inst(b->tb, b->w, b->pos, &d) != 0)
        return 0;
    *pc = d.pc;
    return 1;
}

smtlm_inst_source smtlm_trace_source_iface(smtlm_trace_source *s)
{
    smtlm_inst_source src = {s, next, has_more};
    return src;
}

smtlm_cta_binder smtlm_trace_source_binder(smtlm_trace_source *s)
{
    smtlm_cta_binder b = {s, cta_start, NULL}; /* a slot's TB object is reused by its next CTA */
    return b;
}
