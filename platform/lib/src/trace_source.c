/* Trace -> engine binding: one reusable TB object and one instruction feed per (SM, CTA slot).
 *
 * Threads: cta_start (reads the next TB, binds it) runs in the engine's serial part; fetches
 * (next, has_more) may run for different SMs on different threads at once, so they touch only
 * the (SM, warp) binding and the feed of that SM's CTA slot: a streamed TB's cursors, file
 * positions, decoders, buffers and error message belong to that feed alone. An error met
 * while fetching stays in its feed; smtlm_trace_source_error, called after the run, picks the
 * first one in (SM, slot) order. cta_done only releases its own slot's cursors. */
#include "smtlm/trace_source.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "smtlm/sass_code.h"

#include "trace_internal.h"
#include "trace_prefetch.h"

/* pc .. sb_dsts: one block, as the entry holds it (offsets from pc on both sides). */
#define TRACE_FILL_SAME_(f) (offsetof(trace_rec, f) - offsetof(trace_rec, pc) == offsetof(smtlm_inst, f) - offsetof(smtlm_inst, pc))
_Static_assert(TRACE_FILL_SAME_(mask) && TRACE_FILL_SAME_(op) && TRACE_FILL_SAME_(spec) && TRACE_FILL_SAME_(n_dst) &&
                   TRACE_FILL_SAME_(n_src) && TRACE_FILL_SAME_(dst) && TRACE_FILL_SAME_(src) && TRACE_FILL_SAME_(latency) &&
                   TRACE_FILL_SAME_(ii) && TRACE_FILL_SAME_(mem_space) && TRACE_FILL_SAME_(mem_width) &&
                   TRACE_FILL_SAME_(atomic) && TRACE_FILL_SAME_(line) && TRACE_FILL_SAME_(sb_regs) &&
                   TRACE_FILL_SAME_(sb_dsts) && sizeof(((trace_rec *)0)->dst) == sizeof(((smtlm_inst *)0)->dst) &&
                   offsetof(trace_rec, fields_ok) - offsetof(trace_rec, pc) == offsetof(smtlm_inst, left_ldst) - offsetof(smtlm_inst, pc) &&
                   offsetof(trace_rec, addr) == offsetof(trace_rec, sb_dsts) + sizeof(uint64_t),
               "pc .. sb_dsts: one block");
_Static_assert(offsetof(trace_rec, pad_) + sizeof(((trace_rec *)0)->pad_) == sizeof(trace_rec) &&
                   offsetof(trace_rec, rd_ops) == offsetof(trace_rec, addr) + sizeof(uint32_t),
               "no hidden padding");
_Static_assert(sizeof(trace_ref) == 16, "TRACE_STREAM_AUTO_KERNEL_BYTES (trace_internal.h) counts 16-byte refs");

typedef struct warp_bind {
    smtlm_trace_feed *feed; /* NULL = unbound */
    trace_feed_warp *fw;    /* the feed's window of this warp (next_into's fast path) */
    unsigned w;             /* warp index inside the TB */
} warp_bind;

struct smtlm_trace_source {
    smtlm_trace *t;
    char *path;
    unsigned n_sm, max_warps;
    smtlm_trace_tb **tbs;     /* n_sm * SMTLM_MAX_CTAS */
    smtlm_trace_feed **feeds; /* n_sm * SMTLM_MAX_CTAS: what the slot's warps fetch from */
    warp_bind *warps;         /* n_sm * max_warps */
    trace_feed_warp **wins;   /* n_sm * max_warps: each binding's fw, as the issue stage reads it */
    trace_prefetch *reader;   /* NULL: blocks are parsed on the engine's thread */
    smtlm_trace_tb *after;    /* what follows the grid's last block: nothing, or the error it holds */
    char err[1024];           /* the first error met in the serial part (binding) */
    int failed;
    unsigned long long n_absent; /* blocks bound that the trace did not hold (run empty) */
    smtlm_sass_listing own;   /* the listing beside the trace, when it was read */
    smtlm_code code;          /* the kernel's control bits (smtlm_trace_source_use_listing) */
    const char *listing_from; /* smtlm_trace_source_listing: NULL before a listing is attached */
    const char *listing_path;
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
    s->feeds = calloc((size_t)n_sm * SMTLM_MAX_CTAS, sizeof *s->feeds);
    s->warps = calloc((size_t)n_sm * max_warps, sizeof *s->warps);
    s->wins = calloc((size_t)n_sm * max_warps, sizeof *s->wins);
    if (!s->path || !s->tbs || !s->feeds || !s->warps || !s->wins) {
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
    for (size_t i = 0; i < (size_t)s->n_sm * SMTLM_MAX_CTAS; i++) {
        if (s->feeds)
            smtlm_trace_feed_free(s->feeds[i]);
        if (s->tbs)
            smtlm_trace_tb_free(s->tbs[i]);
    }
    smtlm_trace_tb_free(s->after);
    free(s->feeds);
    free(s->tbs);
    free(s->warps);
    free(s->wins);
    if (s->t)
        smtlm_trace_close(s->t);
    smtlm_sass_code_free(&s->code);
    smtlm_sass_listing_free(&s->own);
    free(s->path);
    free(s);
}

char *smtlm_trace_source_listing_path(const char *trace)
{
    const size_t n = strlen(trace);
    size_t stem = n;
    if (n > 10 && !strcmp(trace + n - 10, ".traceg.xz"))
        stem = n - 10;
    else if (n > 7 && (!strcmp(trace + n - 7, ".traceg") || !strcmp(trace + n - 7, ".tracez")))
        stem = n - 7;
    char *p = malloc(stem + 6);
    if (p) {
        memcpy(p, trace, stem);
        memcpy(p + stem, ".sass", 6);
    }
    return p;
}

/* Reads the listing beside the trace into s->own: 1, 0 when nothing by its name is there, -1
 * with a message. Only ENOENT on the name itself means "no listing": anything else there (a
 * directory, a symbolic link that loops or leads nowhere, a file that cannot be opened) is
 * something the user put there and an error naming it. */
static int read_beside(smtlm_trace_source *s, const char *beside, char *err, size_t errlen)
{
    struct stat st;
    if (lstat(beside, &st) != 0) {
        if (errno == ENOENT)
            return 0;
        snprintf(err, errlen, "%s: cannot open: %s (the listing beside %s)", beside, strerror(errno), s->path);
        return -1;
    }
    if (S_ISLNK(st.st_mode) && stat(beside, &st) != 0 && errno == ENOENT) {
        snprintf(err, errlen, "%s: a symbolic link to nothing (the listing beside %s): remove it, or point it at the "
                 "listing", beside, s->path);
        return -1;
    }
    return smtlm_sass_listing_read(beside, &s->own, err, errlen) < 0 ? -1 : 1;
}

int smtlm_trace_source_use_listing(smtlm_trace_source *s, const smtlm_sass_listing *program, char *err, size_t errlen)
{
    const smtlm_sass_listing *l = program;
    s->listing_from = "none";
    s->listing_path = "";
    if (!l) {
        char *beside = smtlm_trace_source_listing_path(s->path);
        if (!beside) {
            snprintf(err, errlen, "%s: out of memory", s->path);
            return -1;
        }
        const int rc = read_beside(s, beside, err, errlen);
        free(beside);
        if (rc <= 0)
            return rc; /* no listing beside it (0), or a bad one */
        l = &s->own;
    }
    const smtlm_trace_header *h = smtlm_trace_info(s->t);
    const smtlm_sass_func *fn = smtlm_sass_func_find(l, h->kernel_name, h->binary_version);
    if (!fn) {
        const smtlm_sass_func *other = smtlm_sass_func_find(l, h->kernel_name, 0);
        if (other)
            snprintf(err, errlen, "%s: kernel %s is binary version %u, and the listing %s has its function only for "
                     "other architectures (sm_%u at line %u)", s->path, h->kernel_name, h->binary_version, l->path,
                     other->arch, other->line);
        else
            snprintf(err, errlen, "%s: kernel %s (its '-kernel name' line) has no function in the listing %s", s->path,
                     h->kernel_name, l->path);
        return -1;
    }
    if (smtlm_sass_code_build(l, fn, &s->code, err, errlen) < 0)
        return -1;
    smtlm_trace_check_listing(s->t, l, fn);
    s->listing_from = l == program ? "smtlm_sass" : "beside";
    s->listing_path = l->path;
    return 1;
}

const char *smtlm_trace_source_listing(const smtlm_trace_source *s, const char **path)
{
    if (path)
        *path = s->listing_path ? s->listing_path : "";
    return s->listing_from ? s->listing_from : "none";
}

void smtlm_trace_source_set_stream_limit(smtlm_trace_source *s, size_t bytes)
{
    smtlm_trace_set_stream_limit(s->t, bytes);
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

/* The binding's error, else the first fetch error in (SM, slot) order: deterministic whichever
 * thread met its error first. */
const char *smtlm_trace_source_error(const smtlm_trace_source *s)
{
    if (s->failed)
        return s->err;
    for (size_t i = 0; i < (size_t)s->n_sm * SMTLM_MAX_CTAS; i++) {
        const char *e = smtlm_trace_feed_error(s->feeds[i]);
        if (e)
            return e;
    }
    return NULL;
}
const char *smtlm_trace_source_path(const smtlm_trace_source *s) { return s->path; }
unsigned long long smtlm_trace_source_absent(const smtlm_trace_source *s) { return s->n_absent; }

smtlm_kernel_desc smtlm_trace_source_kernel(const smtlm_trace_source *s)
{
    const smtlm_trace_header *h = smtlm_trace_info(s->t);
    smtlm_kernel_desc k;
    /* worked out in 64 bits; the header's limits keep both within 32 */
    k.n_ctas = (uint32_t)h->n_tbs;
    k.threads_per_cta = (uint32_t)((uint64_t)h->block[0] * h->block[1] * h->block[2]);
    k.shmem_per_cta = h->shmem;
    k.regs_per_thread = h->nregs;
    return k;
}

/* Records the first error as "<trace path>: <what>", or "<trace path>:<line>: <what>". */
static int fail(smtlm_trace_source *s, unsigned long line, const char *what)
{
    if (!s->failed) {
        s->failed = 1;
        if (line)
            snprintf(s->err, sizeof s->err, "%s:%lu: %s", s->path, line, what);
        else
            snprintf(s->err, sizeof s->err, "%s: %s", s->path, what);
    }
    return -1;
}

/* The trace's next block into *tb (the reader thread's, or read here): 1, 0 at the end, or < 0
 * with the message in s->err. */
static int next_block(smtlm_trace_source *s, smtlm_trace_tb **tb)
{
    if (s->reader)
        return trace_prefetch_next(s->reader, tb, s->err, sizeof s->err);
    if (!*tb && !(*tb = smtlm_trace_tb_new()))
        return fail(s, 0, "out of memory reading a thread block");
    return smtlm_trace_next_tb(s->t, *tb, s->err, sizeof s->err);
}

/* After the grid's last block the trace must end: whatever follows is an error at its line (a
 * block named twice, one outside the grid, or a line that is no block). */
static int expect_end(smtlm_trace_source *s)
{
    const int rc = next_block(s, &s->after);
    if (rc > 0) /* cannot be: the reader refuses a block that names one of the grid's again */
        return fail(s, 0, "the trace holds more thread blocks than the grid launches");
    if (rc < 0)
        s->failed = 1;
    return rc;
}

static int cta_start(void *ctx, unsigned sm, unsigned slot, unsigned first_warp, unsigned n_warps, uint32_t cta_id)
{
    smtlm_trace_source *s = ctx;
    const size_t k = (size_t)sm * SMTLM_MAX_CTAS + slot;
    smtlm_trace_tb **tb = &s->tbs[k];
    smtlm_trace_feed **feed = &s->feeds[k];
    char what[256];
    int rc;
    if (*feed)
        smtlm_trace_feed_unbind(*feed); /* before its TB object goes back to the reader */
    else if (!(*feed = smtlm_trace_feed_new()))
        return fail(s, 0, "out of memory binding a thread block");
    rc = next_block(s, tb);
    if (rc < 0) {
        s->failed = 1;
        return -1;
    }
    if (rc == 0) {
        const smtlm_trace_header *h = smtlm_trace_info(s->t);
        snprintf(what, sizeof what, "the file ends after %u thread block%s, the grid (%u,%u,%u) launches %llu", cta_id,
                 cta_id == 1 ? "" : "s", h->grid[0], h->grid[1], h->grid[2], h->n_tbs);
        return fail(s, trace_reader_line(s->t), what);
    }
    if (smtlm_trace_tb_n_warps(*tb) != n_warps) {
        snprintf(what, sizeof what, "thread block %u has %u warps, the block dimension needs %u", cta_id,
                 smtlm_trace_tb_n_warps(*tb), n_warps);
        return fail(s, 0, what);
    }
    s->n_absent += smtlm_trace_tb_absent(*tb);
    if (smtlm_trace_feed_bind(*feed, s->t, *tb, s->err, sizeof s->err) < 0) {
        s->failed = 1;
        return -1;
    }
    if ((uint64_t)cta_id + 1 == smtlm_trace_info(s->t)->n_tbs && expect_end(s) < 0)
        return -1;
    for (unsigned i = 0; i < n_warps; i++) {
        warp_bind *b = &s->warps[(size_t)sm * s->max_warps + first_warp + i];
        b->feed = *feed;
        b->fw = trace_feed_warp_of(*feed, i);
        b->w = i;
        s->wins[(size_t)sm * s->max_warps + first_warp + i] = b->fw;
    }
    return 0;
}

/* The CTA's warps have all exited: its cursors' decoders and positions are released now rather
 * than when the slot takes its next CTA. */
static void cta_done(void *ctx, unsigned sm, unsigned slot, uint32_t cta_id)
{
    smtlm_trace_source *s = ctx;
    (void)cta_id;
    smtlm_trace_feed_unbind(s->feeds[(size_t)sm * SMTLM_MAX_CTAS + slot]);
}

/* The fetch path: per-(SM, warp) state and that slot's feed only (see the top of this file). */
static int next(void *ctx, unsigned sm, unsigned warp, smtlm_inst_desc *d)
{
    smtlm_trace_source *s = ctx;
    const warp_bind *b = &s->warps[(size_t)sm * s->max_warps + warp];
    return b->feed ? smtlm_trace_feed_next(b->feed, b->w, d) : 0;
}

static int next_into(void *ctx, unsigned sm, unsigned warp, smtlm_inst *in, uint64_t *addr)
{
    smtlm_trace_source *s = ctx;
    const warp_bind *b = &s->warps[(size_t)sm * s->max_warps + warp];
    trace_feed_warp *fw = b->fw;
    if (fw != NULL && fw->cur != fw->lim) { /* the feed's own fast path, without the call */
        trace_rec_fill(fw, in, addr);
        fw->pos++;
        return 1;
    }
    return b->feed ? smtlm_trace_feed_next_into(b->feed, b->w, in, addr) : 0;
}

/* next_into and the SM's memo test and commit in one, for records at hand in the warp's window. */
static unsigned take_ready(void *ctx, unsigned sm, unsigned warp, smtlm_inst_pool *pool, const uint64_t *memo,
                           smtlm_iref *out, unsigned max)
{
    smtlm_trace_source *s = ctx;
    return smtlm_pool_take_window(pool, memo, s->warps[(size_t)sm * s->max_warps + warp].fw, (uint16_t)warp, out, max);
}

static smtlm_rec_window *const *windows(void *ctx, unsigned sm)
{
    smtlm_trace_source *s = ctx;
    return &s->wins[(size_t)sm * s->max_warps];
}

static int has_more(void *ctx, unsigned sm, unsigned warp)
{
    const smtlm_trace_source *s = ctx;
    const warp_bind *b = &s->warps[(size_t)sm * s->max_warps + warp];
    return b->feed && smtlm_trace_feed_has_more(b->feed, b->w);
}

int smtlm_trace_source_peek_pc(const smtlm_trace_source *s, unsigned sm, unsigned warp, uint32_t *pc)
{
    const warp_bind *b = &s->warps[(size_t)sm * s->max_warps + warp];
    return b->feed && smtlm_trace_feed_peek_pc(b->feed, b->w, pc);
}

smtlm_inst_source smtlm_trace_source_iface(smtlm_trace_source *s)
{
    smtlm_inst_source src = {s, next, has_more, next_into, 1, 1, take_ready, windows, s->code.at ? &s->code : NULL};
    return src;
}

smtlm_cta_binder smtlm_trace_source_binder(smtlm_trace_source *s)
{
    smtlm_cta_binder b = {s, cta_start, cta_done};
    return b;
}
