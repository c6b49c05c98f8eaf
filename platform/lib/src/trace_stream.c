/* Instruction feed of one thread block (smtlm_trace_feed): records straight from a TB that holds
 * them, or, for a streamed TB, one cursor per warp. A cursor starts at its warp's section (the
 * offset and line the reader noted after `insts =`), parses TRACE_CURSOR_RECS lines at a time
 * into its own small buffer and refills it when the engine has taken them all, so memory per
 * warp is fixed whatever the length of the trace.
 *
 * Threads: the engine fetches the warps of different SMs on different threads, so everything a
 * fetch touches is the feed's own (its cursors, their file positions, decoders, buffers and
 * error message); what it shares is read-only: the reader's parsing context and input (a file
 * is read with pread, which does not use the descriptor's offset). The reader already parsed
 * every line of the TB before it was bound, so a cursor meets no error unless the file changed
 * or cannot be read again. Refills do I/O and allocate on the fetch path: they are amortised
 * over TRACE_CURSOR_RECS instructions and sit in the platform's instruction source, outside the
 * per-cycle kernels. */
#include <stdlib.h>
#include <string.h>

#include "trace_internal.h"

typedef struct cursor {
    trace_lines lines;  /* over the warp's section */
    int open;
    smtlm_trace_tb buf; /* one warp's records and their addresses, refilled */
    uint32_t next;      /* next record in buf */
    uint32_t left;      /* instruction lines of the section not parsed yet */
    unsigned warp;
    trace_memo memo;    /* its parser's own */
} cursor;

typedef trace_feed_warp feed_warp;

struct smtlm_trace_feed {
    const smtlm_trace *t;
    const smtlm_trace_tb *tb; /* NULL: unbound */
    feed_warp *warps;
    cursor *cursors;          /* one per warp of a streamed TB */
    unsigned cap, n_cursors;  /* warps and cursors allocated */
    int failed;
    char err[512];
};

smtlm_trace_feed *smtlm_trace_feed_new(void)
{
    return calloc(1, sizeof(smtlm_trace_feed));
}

static void close_windows(smtlm_trace_feed *f);

static void cursor_close(cursor *c)
{
    if (c->open)
        trace_lines_close(&c->lines);
    c->open = 0;
}

void smtlm_trace_feed_unbind(smtlm_trace_feed *f)
{
    if (f == NULL)
        return;
    for (unsigned w = 0; w < f->n_cursors; w++)
        cursor_close(&f->cursors[w]);
    if (f->tb != NULL)
        close_windows(f); /* a window read directly (trace_feed_warp_of) hands out no more */
    f->tb = NULL;
    f->t = NULL;
}

void smtlm_trace_feed_free(smtlm_trace_feed *f)
{
    if (f == NULL)
        return;
    smtlm_trace_feed_unbind(f);
    for (unsigned w = 0; w < f->n_cursors; w++)
        trace_tb_release(&f->cursors[w].buf);
    free(f->cursors);
    free(f->warps);
    free(f);
}

/* Room for n warps, and for n cursors when `cursors` (a streamed TB): a feed that only ever
 * binds whole TBs holds no cursor. */
static int grow(smtlm_trace_feed *f, unsigned n, int cursors)
{
    if (n > f->cap) {
        feed_warp *w = realloc(f->warps, n * sizeof *w);
        if (w == NULL)
            return -1;
        f->warps = w;
        f->cap = n;
    }
    if (cursors && n > f->n_cursors) {
        cursor *c = realloc(f->cursors, n * sizeof *c);
        if (c == NULL)
            return -1;
        memset(c + f->n_cursors, 0, (n - f->n_cursors) * sizeof *c);
        f->cursors = c;
        f->n_cursors = n;
    }
    return 0;
}

int smtlm_trace_feed_bind(smtlm_trace_feed *f, const smtlm_trace *t, const smtlm_trace_tb *tb, char *err,
                          size_t errlen)
{
    if (f == NULL || tb == NULL || (tb->streamed && (t == NULL || tb->from != t)))
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_ARG, "smtlm_trace_feed_bind", 0,
                          "NULL argument or a streamed TB of another reader");
    smtlm_trace_feed_unbind(f);
    f->failed = 0;
    f->err[0] = '\0';
    if (grow(f, tb->n_warps, tb->streamed) < 0)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_NOMEM, t != NULL ? trace_reader_ctx(t)->file : "<trace>", 0,
                          "out of memory binding a thread block");
    for (unsigned w = 0; w < tb->n_warps; w++) {
        feed_warp *fw = &f->warps[w];
        fw->pos = 0;
        fw->count = tb->warps[w].n;
        fw->cur = tb->streamed ? NULL : tb->warps[w].refs; /* a streamed TB: opened on demand */
        fw->lim = fw->cur != NULL ? fw->cur + fw->count : NULL; /* (a warp without records has none) */
        fw->shapes = tb->shapes;
        fw->pool = tb->pool;
    }
    f->t = t;
    f->tb = tb;
    if (!tb->streamed)
        return 0;
    for (unsigned w = 0; w < tb->n_warps; w++) {
        cursor *c = &f->cursors[w];
        const trace_warp *tw = &tb->warps[w];
        c->warp = w;
        c->left = tw->n;
        trace_memo_reset(&c->memo);
        c->next = 0;
        if (c->buf.warps != NULL)
            c->buf.warps[0].n = 0;
        if (tw->n == 0)
            continue;
        int rc = trace_lines_open_at(&c->lines, trace_reader_input(t), tw->off, tw->insts_line, TRACE_CURSOR_CHUNK,
                                     err, errlen);
        if (rc < 0) {
            smtlm_trace_feed_unbind(f);
            return rc;
        }
        c->open = 1;
    }
    return 0;
}

static int changed(smtlm_trace_feed *f, const cursor *c, const char *what)
{
    f->failed = 1;
    return trace_fail(f->err, sizeof f->err, SMTLM_TRACE_ERR_IO, trace_reader_ctx(f->t)->file,
                      c->lines.lineno, "%s for warp %u: the trace changed after it was checked", what, c->warp);
}

/* Parses the cursor's next records into its buffer. 0, or < 0 with the feed's message. */
static int refill(smtlm_trace_feed *f, cursor *c)
{
    const trace_ctx *ctx = trace_reader_ctx(f->t);
    trace_lines *l = &c->lines;
    int rc;
    if (trace_tb_reset(&c->buf, 1) < 0)
        goto nomem;
    c->buf.one_shape_each = 1;
    c->next = 0;
    while (c->buf.warps[0].n < TRACE_CURSOR_RECS && c->left > 0) {
        const char *p;
        trace_tok a, b = {"", 0};
        trace_rec r;
        uint64_t addrs[SMTLM_WARP_SIZE];
        if ((rc = trace_lines_take(l, f->err, sizeof f->err)) <= 0) {
            f->failed = 1;
            return rc < 0 ? rc : changed(f, c, "end of the trace before the last instruction");
        }
        /* the lines the reader accepted in a warp's section: instructions, blank lines, labels, cluster lines */
        p = l->line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!trace_starts_inst(p)) {
            if ((rc = trace_lines_check_nul(l, f->err, sizeof f->err)) < 0) {
                f->failed = 1;
                return rc;
            }
            if (!trace_next_tok(&p, &a))
                continue;
            trace_next_tok(&p, &b);
            if ((trace_tok_is(a, "thread") && trace_tok_is(b, "block")) || trace_tok_is(a, "cluster"))
                continue;
            return changed(f, c, "a line that is not an instruction");
        }
        if ((rc = trace_inst_parse(ctx, &c->memo, l->line, l->line_len, l->lineno, &r, addrs, f->err, sizeof f->err)) < 0 ||
            (rc = trace_inst_store(ctx, &c->buf, 0, &r, addrs, l->lineno, f->err, sizeof f->err)) < 0) {
            f->failed = 1;
            return rc;
        }
        c->left--;
    }
    return 0;
nomem:
    f->failed = 1;
    return trace_fail(f->err, sizeof f->err, SMTLM_TRACE_ERR_NOMEM, ctx->file, l->lineno, "out of memory");
}

/* Closes every warp's window: after a failure no warp hands out another record. */
static void close_windows(smtlm_trace_feed *f)
{
    for (unsigned w = 0; w < f->tb->n_warps; w++)
        f->warps[w].lim = f->warps[w].cur;
}

/* Opens the window of a warp whose window is empty: the next records of its cursor (refilled
 * when all were taken). 1, or 0 at the end or on an error (then the feed has failed). */
static int open_window(smtlm_trace_feed *f, unsigned warp)
{
    feed_warp *fw = &f->warps[warp];
    if (fw->pos >= fw->count || f->failed || !f->tb->streamed)
        return 0;
    cursor *c = &f->cursors[warp];
    if ((c->buf.warps == NULL || c->next == c->buf.warps[0].n) && refill(f, c) < 0) {
        close_windows(f);
        return 0;
    }
    if (c->next == c->buf.warps[0].n) {
        changed(f, c, "no instruction");
        close_windows(f);
        return 0;
    }
    uint32_t n = c->buf.warps[0].n - c->next;
    if (n > fw->count - fw->pos)
        n = fw->count - fw->pos;
    fw->cur = &c->buf.warps[0].refs[c->next];
    fw->lim = fw->cur + n;
    fw->shapes = c->buf.shapes;
    fw->pool = c->buf.pool;
    c->next += n; /* handed to the window */
    return 1;
}

static int bound(const smtlm_trace_feed *f, unsigned warp)
{
    return f != NULL && f->tb != NULL && warp < f->tb->n_warps;
}

/* The warp's window with a record in it, or NULL (no such warp, the end, or an error). */
static feed_warp *window(smtlm_trace_feed *f, unsigned warp)
{
    if (!bound(f, warp))
        return NULL;
    feed_warp *fw = &f->warps[warp];
    return fw->cur != fw->lim || open_window(f, warp) ? fw : NULL;
}

int smtlm_trace_feed_next(smtlm_trace_feed *f, unsigned warp, smtlm_inst_desc *out)
{
    feed_warp *fw = window(f, warp);
    if (fw == NULL)
        return bound(f, warp) && f->failed ? -1 : 0;
    const trace_rec whole = trace_ref_record(fw->shapes, fw->cur++);
    trace_rec_expand(&whole, fw->pool, out);
    fw->pos++;
    return 1;
}

trace_feed_warp *trace_feed_warp_of(smtlm_trace_feed *f, unsigned warp)
{
    return bound(f, warp) ? &f->warps[warp] : NULL;
}

int smtlm_trace_feed_next_into(smtlm_trace_feed *f, unsigned warp, smtlm_inst *in, uint64_t *addr)
{
    feed_warp *fw = window(f, warp);
    if (fw == NULL)
        return bound(f, warp) && f->failed ? -1 : 0;
    trace_rec_fill(fw, in, addr);
    fw->pos++;
    return 1;
}

int smtlm_trace_feed_has_more(const smtlm_trace_feed *f, unsigned warp)
{
    return bound(f, warp) && f->warps[warp].pos < f->warps[warp].count;
}

int smtlm_trace_feed_peek_pc(smtlm_trace_feed *f, unsigned warp, uint32_t *pc)
{
    const feed_warp *fw = window(f, warp);
    if (fw == NULL)
        return 0;
    *pc = fw->shapes[fw->cur->shape].pc;
    return 1;
}

const char *smtlm_trace_feed_error(const smtlm_trace_feed *f)
{
    return f != NULL && f->failed ? f->err : NULL;
}

size_t smtlm_trace_feed_footprint(const smtlm_trace_feed *f)
{
    size_t bytes;
    if (f == NULL)
        return 0;
    bytes = sizeof *f + f->cap * sizeof(feed_warp) + f->n_cursors * sizeof(cursor);
    for (unsigned w = 0; w < f->n_cursors; w++) {
        const cursor *c = &f->cursors[w];
        if (c->open)
            bytes += trace_lines_footprint(&c->lines);
        bytes += c->buf.heap + c->buf.warps_cap * sizeof(trace_warp);
    }
    return bytes;
}
