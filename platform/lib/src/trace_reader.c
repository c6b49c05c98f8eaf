/* Kernel trace reader: open (header + opcode map), then one thread block per call
 * (Accel-Sim trace_parser::get_next_threadblock_traces, with every assert turned into an error).
 * Every line of a TB is parsed here, so its first error is found before it runs; a TB whose
 * records would take more than its limit keeps only where its warps start (streamed: cursors
 * parse them again while it runs, trace_stream.c).
 *
 * A TB is whole, as the tracer writes it (post-traces-processing lists every warp of a block,
 * with `insts = 0` for one that ran nothing, and ends each block with #END_TB): it ends with
 * #END_TB, has one `thread block = x,y,z` line naming a block inside the grid that no earlier TB
 * named, and lists each of the warps its block dimension implies. So a file cut short, or one
 * whose blocks repeat or stray outside the grid, fails at its line instead of running as if
 * whole. Accel-Sim 2.0's `cluster id = x,y,z`, `cluster cta = x,y,z` and `cluster rank = r`
 * lines are kept with the block. A grid block the file does not hold (the tracer omits one that
 * traced nothing) comes after the file's last block as an empty one, as Accel-Sim runs it. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "trace_internal.h"

enum { ST_READY = 0, ST_DONE = 1, ST_FAILED = -1 };

struct smtlm_trace {
    char *name;
    trace_lines lines;
    trace_header_store hdr;
    const smtlm_opcode_map *map;
    trace_opindex ops; /* map's lookup table */
    trace_opinfo opinfo[TRACE_OPINFO_MAX]; /* per opcode of map, when it has at most that many */
    int has_opinfo;
    smtlm_trace_latency lat;
    trace_ctx ctx;     /* parsing context: read-only after open (cursors on other threads use it) */
    size_t stream_limit;  /* smtlm_trace_set_stream_limit; SMTLM_TRACE_STREAM_AUTO */
    size_t cursor_bytes;  /* memory of one cursor (a warp of a streamed TB) */
    trace_memo memo;      /* the reader's own (cursors have theirs) */
    int state;
    int err_code;
    char err_msg[512];
    unsigned long long n_read; /* TBs returned so far */
    trace_tbset labels;        /* blocks named by the TBs read so far */
    unsigned long long next_absent; /* after the file's end: the next id to look at for an absent block */
    int file_done;             /* the file's blocks are all read */
};

/* What an xz cursor's decoder takes: its dictionary is allocated whole but filled as it decodes,
 * and a cursor decoding block by block never fills more of it than the largest block. */
static size_t xz_cursor_bytes(const trace_lines *l)
{
    uint64_t bytes, largest = 0;
    lzma_index_iter it;
    if (!l->xz_live)
        return 0;
    bytes = lzma_memusage(&l->xz);
    if (l->in->xz_index != NULL) {
        lzma_index_iter_init(&it, l->in->xz_index);
        while (!lzma_index_iter_next(&it, LZMA_INDEX_ITER_NONEMPTY_BLOCK))
            if (it.block.uncompressed_size > largest)
                largest = it.block.uncompressed_size;
        if (largest + (1u << 20) < bytes)
            bytes = largest + (1u << 20); /* and the decoder's own state */
    }
    return (size_t)bytes;
}

static int open_common(smtlm_trace *t, const smtlm_trace_latency *lat, char *err,
                       size_t errlen)
{
    int rc = trace_header_read(&t->lines, &t->hdr, err, errlen);
    if (rc < 0)
        return rc;
    t->map = smtlm_opcode_map_for_binary(t->hdr.h.binary_version);
    trace_opindex_build(&t->ops, t->map);
    t->lat = lat != NULL ? *lat : smtlm_trace_latency_defaults();
    t->has_opinfo = t->map != NULL && t->map->n <= TRACE_OPINFO_MAX;
    for (size_t j = 0; t->has_opinfo && j < t->map->n; j++)
        trace_opinfo_of(&t->map->ops[j], &t->lat, &t->opinfo[j]);
    t->ctx.file = t->name;
    t->ctx.hdr = &t->hdr.h;
    t->ctx.map = t->map;
    t->ctx.ops = &t->ops;
    t->ctx.lat = &t->lat;
    t->ctx.info = t->has_opinfo ? t->opinfo : NULL;
    t->ctx.plain_fields = t->hdr.h.tracer_version >= 3 && !t->hdr.h.lineinfo;
    t->stream_limit = SMTLM_TRACE_STREAM_AUTO;
    trace_memo_reset(&t->memo);
    /* what a cursor holds: its chunk (two for xz), its refs with a shape each (a cursor's buffer
     * has no shape table) and their addresses, and for xz a decoder of its own (the dictionary is
     * most of it) */
    t->cursor_bytes = (t->lines.xz_live || t->lines.tz != NULL ? 2 : 1) * TRACE_CURSOR_CHUNK + sizeof(trace_memo) +
                      TRACE_CURSOR_RECS * (sizeof(trace_ref) + sizeof(trace_rec) + 4 * sizeof(uint64_t)) +
                      xz_cursor_bytes(&t->lines) +
                      (t->lines.tz != NULL ? trace_tz_cursor_bytes() : 0);
    return 0;
}

void smtlm_trace_set_stream_limit(smtlm_trace *t, size_t bytes)
{
    if (t != NULL)
        t->stream_limit = bytes;
}

void smtlm_trace_check_listing(smtlm_trace *t, const struct smtlm_sass_listing *l, const struct smtlm_sass_func *f)
{
    if (t != NULL) {
        t->ctx.listing = l;
        t->ctx.func = f;
    }
}

const trace_ctx *trace_reader_ctx(const smtlm_trace *t) { return &t->ctx; }
const trace_input *trace_reader_input(const smtlm_trace *t) { return t->lines.in; }
unsigned long trace_reader_line(const smtlm_trace *t) { return t->lines.lineno; }

/* The limit of a TB of n_warps: beyond it the TB is streamed. */
static size_t tb_limit(const smtlm_trace *t, unsigned n_warps)
{
    size_t cursors;
    if (!t->lines.in->seekable || t->stream_limit == SIZE_MAX)
        return SIZE_MAX; /* a pipe: cursors cannot start mid-way */
    if (t->stream_limit != SMTLM_TRACE_STREAM_AUTO)
        return t->stream_limit;
    /* streaming must not cost more than holding the records; a kernel of few blocks shares
     * TRACE_STREAM_AUTO_KERNEL_BYTES among them */
    cursors = (size_t)n_warps * t->cursor_bytes;
    const unsigned long long shares = t->hdr.h.n_tbs < TRACE_STREAM_AUTO_SHARES ? t->hdr.h.n_tbs : TRACE_STREAM_AUTO_SHARES;
    size_t floor = TRACE_STREAM_AUTO_KERNEL_BYTES / (shares > 0 ? shares : 1);
    if (t->lines.xz_live && t->lines.in->xz_index == NULL && floor < TRACE_STREAM_AUTO_BYTES_XZ_ONE_BLOCK)
        floor = TRACE_STREAM_AUTO_BYTES_XZ_ONE_BLOCK;
    return cursors > floor ? cursors : floor;
}

static smtlm_trace *new_reader(const char *name, const smtlm_trace_latency *lat, char *err,
                               size_t errlen, int *rc)
{
    smtlm_trace *t;
    size_t n;
    if (lat != NULL && (*rc = smtlm_trace_latency_check(lat, err, errlen)) < 0)
        return NULL;
    t = calloc(1, sizeof *t);
    n = strlen(name);
    if (t == NULL || (t->name = malloc(n + 1)) == NULL) {
        free(t);
        *rc = trace_fail(err, errlen, SMTLM_TRACE_ERR_NOMEM, name, 0, "out of memory");
        return NULL;
    }
    memcpy(t->name, name, n + 1);
    return t;
}

int smtlm_trace_open(const char *path, const smtlm_trace_latency *lat, smtlm_trace **out,
                     char *err, size_t errlen)
{
    smtlm_trace *t;
    int rc = 0;
    if (out == NULL || path == NULL)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_ARG, "smtlm_trace_open", 0,
                          "NULL argument");
    *out = NULL;
    t = new_reader(path, lat, err, errlen, &rc);
    if (t == NULL)
        return rc;
    rc = trace_lines_open_file(&t->lines, t->name, err, errlen);
    if (rc == 0)
        rc = open_common(t, lat, err, errlen);
    if (rc < 0) {
        smtlm_trace_close(t);
        return rc;
    }
    *out = t;
    return 0;
}

int smtlm_trace_open_mem(const void *data, size_t len, const char *name,
                         const smtlm_trace_latency *lat, smtlm_trace **out, char *err,
                         size_t errlen)
{
    smtlm_trace *t;
    int rc = 0;
    if (out == NULL || (data == NULL && len > 0))
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_ARG, "smtlm_trace_open_mem", 0,
                          "NULL argument");
    *out = NULL;
    t = new_reader(name != NULL ? name : "<memory>", lat, err, errlen, &rc);
    if (t == NULL)
        return rc;
    rc = trace_lines_open_mem(&t->lines, data, len, t->name, err, errlen);
    if (rc == 0)
        rc = open_common(t, lat, err, errlen);
    if (rc < 0) {
        smtlm_trace_close(t);
        return rc;
    }
    *out = t;
    return 0;
}

const smtlm_trace_header *smtlm_trace_info(const smtlm_trace *t)
{
    return t != NULL ? &t->hdr.h : NULL;
}

void smtlm_trace_close(smtlm_trace *t)
{
    if (t == NULL)
        return;
    trace_lines_close(&t->lines);
    trace_header_free(&t->hdr);
    trace_tbset_free(&t->labels);
    free(t->name);
    free(t);
}

/* ---- body ---- */

typedef struct tb_parse {
    smtlm_trace *t;
    smtlm_trace_tb *tb;
    uint64_t declared; /* sum of the `insts =` counts met */
    unsigned seen;     /* `warp =` lines met */
    int cur;   /* current warp, -1 before the first `warp =` */
    unsigned long begin_line; /* its #BEGIN_TB */
    int labelled;      /* `thread block =` met */
    char *err;
    size_t errlen;
} tb_parse;

static int fail(tb_parse *s, unsigned long line, const char *fmt, ...) TRACE_PRINTF(3, 4);
static int fail(tb_parse *s, unsigned long line, const char *fmt, ...)
{
    va_list ap;
    int rc;
    va_start(ap, fmt);
    rc = trace_vfail(s->err, s->errlen, SMTLM_TRACE_ERR_FORMAT, s->t->name, line, fmt, ap);
    va_end(ap);
    return rc;
}

/* A warp is complete when its `insts = n` matches the lines that followed it. */
static int close_warp(tb_parse *s)
{
    trace_warp *w;
    if (s->cur < 0)
        return 0;
    w = &s->tb->warps[s->cur];
    if (!w->has_insts)
        return fail(s, s->t->lines.lineno, "warp %u has no 'insts =' line", (unsigned)s->cur);
    if (w->n != w->declared)
        return fail(s, w->insts_line, "warp %u: insts = %u but %u instruction lines follow",
                    (unsigned)s->cur, w->declared, w->n);
    return 0;
}

/* "<word> = <n>": 0, -1 when malformed, -2 when n is above max (*num: its text). */
static int keyed_number(const char *line, uint64_t max, uint64_t *v, trace_tok *num)
{
    const char *p = line;
    trace_tok k, eq, extra;
    if (!trace_next_tok(&p, &k) || !trace_next_tok(&p, &eq) || !trace_tok_is(eq, "=") ||
        !trace_next_tok(&p, num) || trace_next_tok(&p, &extra))
        return -1;
    return trace_parse_dec(*num, max, v);
}

static int on_warp(tb_parse *s, const char *line)
{
    uint64_t w = 0;
    trace_tok num;
    int rc = close_warp(s);
    unsigned long ln = s->t->lines.lineno;
    if (rc < 0)
        return rc;
    if ((rc = keyed_number(line, UINT32_MAX, &w, &num)) == -1)
        return fail(s, ln, "malformed line: expected 'warp = <n>'");
    if (rc < 0 || w >= s->tb->n_warps)
        return fail(s, ln, "warp %.*s out of range: block dim (%u,%u,%u) has %u warps", TRACE_TOK_ARG(num),
                    s->t->hdr.h.block[0], s->t->hdr.h.block[1], s->t->hdr.h.block[2], s->tb->n_warps);
    if (s->tb->warps[w].seen)
        return fail(s, ln, "warp %u listed twice in one thread block", (unsigned)w);
    s->cur = (int)w;
    s->tb->warps[w].seen = 1;
    s->seen++;
    return 0;
}

static int on_insts(tb_parse *s, const char *line)
{
    uint64_t n;
    trace_tok num;
    unsigned long ln = s->t->lines.lineno;
    trace_warp *w;
    int rc;
    if (s->cur < 0)
        return fail(s, ln, "'insts =' before 'warp ='");
    w = &s->tb->warps[s->cur];
    if (w->has_insts)
        return fail(s, ln, "second 'insts =' for warp %u", (unsigned)s->cur);
    if ((rc = keyed_number(line, TRACE_MAX_WARP_INSTS, &n, &num)) == -1)
        return fail(s, ln, "malformed line: expected 'insts = <n>'");
    if (rc < 0)
        return fail(s, ln, "insts = %.*s is above %u, the most instructions a warp may have",
                    TRACE_TOK_ARG(num), TRACE_MAX_WARP_INSTS);
    w->declared = (uint32_t)n;
    w->has_insts = 1;
    w->insts_line = ln;
    w->off = trace_lines_resume(&s->t->lines);
    /* Warps of a TB are alike: if the TB looks like it will pass its limit (this count for every
     * warp still to come), it streams from here rather than when it gets there. Only a guess from
     * counts the data has not confirmed yet, so it allocates nothing; records stay the same. (Refs
     * only: the shapes are about the static instructions, which counts do not tell.) */
    s->declared += n;
    if (!s->tb->streamed && s->tb->limit != SIZE_MAX &&
        (double)(s->declared + n * (uint64_t)(s->tb->n_warps - s->seen)) * sizeof(trace_ref) > (double)s->tb->limit)
        trace_tb_drop_records(s->tb);
    return 0;
}

/* "x,y,z" after the line's '=', blanks allowed around the numbers: 0, or -1 when malformed. */
static int parse_xyz(const char *line, unsigned xyz[3])
{
    const char *p = strchr(line, '=');
    if (p == NULL)
        return -1;
    p++;
    for (unsigned k = 0; k < 3; k++) {
        trace_tok t;
        uint64_t v;
        while (*p == ' ' || *p == '\t')
            p++;
        t.s = p;
        while (*p >= '0' && *p <= '9')
            p++;
        t.n = (size_t)(p - t.s);
        if (trace_parse_dec(t, UINT32_MAX, &v) < 0)
            return -1;
        xyz[k] = (unsigned)v;
        while (*p == ' ' || *p == '\t')
            p++;
        if (k < 2 && *p++ != ',')
            return -1;
    }
    return *p == '\0' ? 0 : -1;
}

/* "thread block = x,y,z": a block inside the grid that no earlier TB named (a TB may repeat
 * its own label, as Accel-Sim reads every such line, but not name another block). */
static int on_label(tb_parse *s, const char *line)
{
    const unsigned *g = s->t->hdr.h.grid, *had = s->tb->label;
    const unsigned long ln = s->t->lines.lineno;
    unsigned xyz[3];
    int rc;
    if (parse_xyz(line, xyz) < 0)
        return fail(s, ln, "malformed line: expected 'thread block = x,y,z'");
    if (s->labelled) {
        if (xyz[0] != had[0] || xyz[1] != had[1] || xyz[2] != had[2])
            return fail(s, ln, "thread block %u,%u,%u named again as %u,%u,%u", had[0], had[1], had[2], xyz[0], xyz[1],
                        xyz[2]);
        return 0;
    }
    if (xyz[0] >= g[0] || xyz[1] >= g[1] || xyz[2] >= g[2])
        return fail(s, ln, "thread block %u,%u,%u lies outside the grid (%u,%u,%u)", xyz[0], xyz[1], xyz[2], g[0], g[1],
                    g[2]);
    rc = trace_tbset_add(&s->t->labels, xyz[0] + (uint64_t)g[0] * (xyz[1] + (uint64_t)g[1] * xyz[2]),
                         s->t->hdr.h.n_tbs);
    if (rc == 0)
        return fail(s, ln, "thread block %u,%u,%u appears a second time", xyz[0], xyz[1], xyz[2]);
    if (rc < 0)
        return trace_fail(s->err, s->errlen, rc, s->t->name, ln, "out of memory");
    memcpy(s->tb->label, xyz, sizeof xyz);
    s->labelled = 1;
    return 0;
}

/* Accel-Sim 2.0's "cluster id = x,y,z", "cluster cta = x,y,z", "cluster rank = r" (b: the second
 * word): kept with the block, the last one of each kind. */
static int on_cluster(tb_parse *s, const char *line, trace_tok b)
{
    const unsigned long ln = s->t->lines.lineno;
    smtlm_trace_tb *tb = s->tb;
    if (trace_tok_is(b, "rank")) {
        const char *p = line;
        trace_tok w1, w2, eq, num, extra;
        uint64_t v;
        if (!trace_next_tok(&p, &w1) || !trace_next_tok(&p, &w2) || !trace_next_tok(&p, &eq) || !trace_tok_is(eq, "=") ||
            !trace_next_tok(&p, &num) || trace_next_tok(&p, &extra) || trace_parse_dec(num, UINT32_MAX, &v) < 0)
            return fail(s, ln, "malformed line: expected 'cluster rank = <n>'");
        tb->cluster_rank = (unsigned)v;
    } else if (trace_tok_is(b, "id") || trace_tok_is(b, "cta")) {
        const int id = trace_tok_is(b, "id");
        if (parse_xyz(line, id ? tb->cluster_id : tb->cluster_cta) < 0)
            return fail(s, ln, "malformed line: expected 'cluster %s = x,y,z'", id ? "id" : "cta");
    } else {
        return fail(s, ln, "malformed line: expected 'cluster id = x,y,z', 'cluster cta = x,y,z' or 'cluster rank = <n>'");
    }
    tb->has_cluster = 1;
    return 0;
}

static int on_inst(tb_parse *s)
{
    const trace_lines *l = &s->t->lines;
    const unsigned long ln = l->lineno;
    trace_warp *w;
    trace_rec r;
    uint64_t addrs[SMTLM_WARP_SIZE];
    int rc;
    if (s->cur < 0 || !s->tb->warps[s->cur].has_insts || s->tb->warps[s->cur].n >= s->tb->warps[s->cur].declared) {
        if ((rc = trace_lines_check_nul(l, s->err, s->errlen)) < 0)
            return rc; /* a NUL byte is the line's first error */
        if (s->cur < 0 || !s->tb->warps[s->cur].has_insts)
            return fail(s, ln, "instruction line before 'warp =' / 'insts ='");
        return fail(s, ln, "warp %u: more instruction lines than insts = %u", (unsigned)s->cur,
                    s->tb->warps[s->cur].declared);
    }
    w = &s->tb->warps[s->cur];
    if ((rc = trace_inst_parse(&s->t->ctx, &s->t->memo, l->line, l->line_len, ln, &r, addrs, s->err, s->errlen)) < 0)
        return rc;
    if (!s->tb->streamed) {
        rc = trace_inst_store(&s->t->ctx, s->tb, (unsigned)s->cur, &r, addrs, ln, s->err, s->errlen);
        if (rc <= 0)
            return rc;
        trace_tb_drop_records(s->tb); /* TRACE_TB_FULL: from now on only checked and counted */
    }
    w->n++;
    return 0;
}

/* At #END_TB: the TB named its block and listed every warp of it. 1, or < 0. */
static int tb_whole(tb_parse *s)
{
    const unsigned *xyz = s->tb->label, *b = s->t->hdr.h.block;
    unsigned w = 0;
    if (!s->labelled)
        return fail(s, s->begin_line, "thread block without a 'thread block = x,y,z' line");
    if (s->seen == s->tb->n_warps)
        return 1;
    while (s->tb->warps[w].seen)
        w++;
    return fail(s, s->t->lines.lineno,
                "thread block %u,%u,%u ends without warp %u: block dim (%u,%u,%u) has %u warps, each listed "
                "('insts = 0' for one that ran nothing)",
                xyz[0], xyz[1], xyz[2], w, b[0], b[1], b[2], s->tb->n_warps);
}

/* Lines of one TB after #BEGIN_TB. 1 = TB whole at its #END_TB, < 0 = error. Lines are read
 * without the NUL check: an instruction line's parse makes it only when needed. */
static int read_body(tb_parse *s)
{
    trace_lines *l = &s->t->lines;
    int rc;
    while ((rc = trace_lines_take(l, s->err, s->errlen)) == 1) {
        const char *p = l->line;
        trace_tok a, b = {"", 0};
        while (*p == ' ' || *p == '\t')
            p++;
        if (trace_starts_inst(p)) {
            if ((rc = on_inst(s)) < 0)
                return rc;
            continue;
        }
        if (trace_lines_check_nul(l, s->err, s->errlen) < 0)
            return SMTLM_TRACE_ERR_FORMAT;
        if (!trace_next_tok(&p, &a))
            continue; /* blank */
        trace_next_tok(&p, &b);
        if (trace_tok_is(a, "#END_TB"))
            break;
        if (trace_tok_is(a, "#BEGIN_TB"))
            rc = fail(s, l->lineno, "#BEGIN_TB before the previous thread block's #END_TB");
        else if (trace_tok_is(a, "thread") && trace_tok_is(b, "block"))
            rc = on_label(s, l->line);
        else if (trace_tok_is(a, "cluster"))
            rc = on_cluster(s, l->line, b);
        else if (trace_tok_is(a, "warp"))
            rc = on_warp(s, l->line);
        else if (trace_tok_is(a, "insts"))
            rc = on_insts(s, l->line);
        else
            rc = on_inst(s);
        if (rc < 0)
            return rc;
    }
    if (rc < 0)
        return rc;
    const int cut = rc == 0; /* the file ended before #END_TB */
    if ((rc = close_warp(s)) < 0)
        return rc; /* a warp cut short: reported at its count, the earlier line */
    if (cut)
        return fail(s, l->lineno, "the file ends inside the thread block begun at line %lu (no #END_TB)",
                    s->begin_line);
    return tb_whole(s);
}

/* Skips blank lines up to #BEGIN_TB. 1 = found, 0 = end of file, < 0 = error. */
static int find_begin(tb_parse *s)
{
    trace_lines *l = &s->t->lines;
    int rc;
    if (s->t->hdr.begin_consumed) {
        s->t->hdr.begin_consumed = 0;
        return 1;
    }
    while ((rc = trace_lines_next(l, s->err, s->errlen)) == 1) {
        const char *p = l->line;
        trace_tok a;
        char show[48];
        if (!trace_next_tok(&p, &a))
            continue;
        if (trace_tok_is(a, "#BEGIN_TB"))
            return 1;
        return trace_fail(s->err, s->errlen, SMTLM_TRACE_ERR_FORMAT, s->t->name, l->lineno,
                          "expected #BEGIN_TB, found %s", trace_tok_show(a, show, sizeof show));
    }
    return rc;
}

/* After the file's end: the next grid block it did not hold, as an empty block (1), or 0. */
static int next_absent(smtlm_trace *t, smtlm_trace_tb *tb)
{
    const unsigned *g = t->hdr.h.grid;
    unsigned long long id = t->next_absent;
    while (id < t->hdr.h.n_tbs && trace_tbset_has(&t->labels, id))
        id++;
    if (id >= t->hdr.h.n_tbs)
        return 0;
    t->next_absent = id + 1;
    for (unsigned w = 0; w < tb->n_warps; w++) {
        tb->warps[w].seen = 1;
        tb->warps[w].has_insts = 1;
    }
    tb->label[0] = (unsigned)(id % g[0]);
    tb->label[1] = (unsigned)(id / g[0] % g[1]);
    tb->label[2] = (unsigned)(id / g[0] / g[1]);
    tb->absent = 1;
    tb->index = t->n_read++;
    return 1;
}

int smtlm_trace_next_tb(smtlm_trace *t, smtlm_trace_tb *tb, char *err, size_t errlen)
{
    tb_parse s;
    int rc;
    if (t == NULL || tb == NULL)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_ARG, "smtlm_trace_next_tb", 0,
                          "NULL argument");
    if (t->state == ST_FAILED) {
        trace_copy_msg(err, errlen, t->err_msg);
        return t->err_code;
    }
    if (t->state == ST_DONE)
        return 0;
    if (trace_tb_reset(tb, t->hdr.h.warps_per_tb) < 0) {
        rc = trace_fail(t->err_msg, sizeof t->err_msg, SMTLM_TRACE_ERR_NOMEM, t->name, 0,
                        "out of memory");
        goto failed;
    }
    tb->limit = tb_limit(t, t->hdr.h.warps_per_tb);
    tb->from = t;
    s.t = t;
    s.tb = tb;
    s.cur = -1;
    s.declared = 0;
    s.seen = 0;
    s.labelled = 0;
    s.err = t->err_msg;
    s.errlen = sizeof t->err_msg;
    rc = t->file_done ? 0 : find_begin(&s);
    if (rc == 0) {
        t->file_done = 1;
        if (next_absent(t, tb))
            return 1;
        t->state = ST_DONE;
        return 0;
    }
    s.begin_line = t->lines.lineno;
    if (rc > 0)
        rc = read_body(&s);
    if (rc < 0)
        goto failed;
    tb->index = t->n_read++;
    return 1;
failed:
    t->state = ST_FAILED;
    t->err_code = rc;
    trace_copy_msg(err, errlen, t->err_msg);
    return rc;
}
