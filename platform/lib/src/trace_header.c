/* .traceg header: '-key = value' lines until the first line starting with '#'
 * (Accel-Sim trace_parser::parse_kernel_info). Keys are matched by their first two words,
 * unknown keys and other lines are skipped, as Accel-Sim does. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "trace_internal.h"

typedef struct hdr_lines {
    unsigned long grid, block, binary;
} hdr_lines;

/* Value part of a header line: what follows the first '=' with blanks trimmed. */
static int value_of(const char *line, const char **v, size_t *n)
{
    const char *eq = strchr(line, '=');
    const char *e;
    if (eq == NULL)
        return -1;
    eq++;
    while (*eq == ' ' || *eq == '\t')
        eq++;
    e = eq + strlen(eq);
    while (e > eq && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
    *v = eq;
    *n = (size_t)(e - eq);
    return 0;
}

/* HDR_ABOVE is trace_parse_dec's -2; HDR_REPORTED: the message is written (a limit). */
enum { HDR_OK = 0, HDR_MALFORMED = -1, HDR_ABOVE = -2, HDR_NOMEM = -3, HDR_REPORTED = -4 };

/* A number: HDR_OK, HDR_MALFORMED, or HDR_ABOVE when it is one above max (*tok: its text). */
static int value_dec(const char *line, uint64_t max, uint64_t *out, trace_tok *tok)
{
    if (value_of(line, &tok->s, &tok->n) < 0)
        return HDR_MALFORMED;
    return trace_parse_dec(*tok, max, out);
}

static int value_hex(const char *line, uint64_t *out)
{
    trace_tok t;
    if (value_of(line, &t.s, &t.n) < 0)
        return HDR_MALFORMED;
    return trace_parse_hex(t, UINT64_MAX, out);
}

/* "(x,y,z)", blanks allowed around the numbers: each one's text and value (UINT64_MAX when it
 * does not fit 64 bits, which is above every limit). */
typedef struct dim3_val {
    trace_tok tok[3];
    uint64_t v[3];
} dim3_val;

static int value_dim3(const char *line, dim3_val *d)
{
    const char *v, *p, *end;
    size_t n;
    unsigned k;
    if (value_of(line, &v, &n) < 0 || n < 2 || v[0] != '(' || v[n - 1] != ')')
        return HDR_MALFORMED;
    p = v + 1;
    end = v + n - 1;
    for (k = 0; k < 3; k++) {
        trace_tok t;
        int rc;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        t.s = p;
        while (p < end && *p != ',' && *p != ' ' && *p != '\t')
            p++;
        t.n = (size_t)(p - t.s);
        rc = trace_parse_dec(t, UINT64_MAX, &d->v[k]);
        if (rc == HDR_MALFORMED)
            return HDR_MALFORMED;
        if (rc == HDR_ABOVE)
            d->v[k] = UINT64_MAX;
        d->tok[k] = t;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if (k < 2) {
            if (p >= end || *p != ',')
                return HDR_MALFORMED;
            p++;
        }
    }
    return p == end ? HDR_OK : HDR_MALFORMED;
}

static int value_str(const char *line, char **out)
{
    const char *v;
    size_t n;
    char *s;
    if (value_of(line, &v, &n) < 0)
        return HDR_MALFORMED;
    s = malloc(n + 1);
    if (s == NULL)
        return HDR_NOMEM;
    memcpy(s, v, n);
    s[n] = '\0';
    free(*out);
    *out = s;
    return HDR_OK;
}

/* ---- limits (trace_internal.h): a value no GPU allows is refused at its line, naming the
 * limit; after these checks the header's products fit the engine's 32-bit counts ---- */

static int above(const trace_lines *l, char *err, size_t errlen, const char *fmt, ...) TRACE_PRINTF(4, 5);
static int above(const trace_lines *l, char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    trace_vfail(err, errlen, SMTLM_TRACE_ERR_FORMAT, l->name, l->lineno, fmt, ap);
    va_end(ap);
    return HDR_REPORTED;
}

/* Checks a -block dim (what = "threads", TRACE_MAX_BLOCK_*) or a -grid dim (what = "thread
 * blocks", TRACE_MAX_GRID_*): each dimension, then the product, 1..max_total. */
static int check_dim3(const trace_lines *l, const dim3_val *d, const char *key, const char *what,
                      const uint64_t lim[3], uint64_t max_total, const char *total_limit, char *err, size_t errlen)
{
    uint64_t total;
    for (unsigned k = 0; k < 3; k++)
        if (d->v[k] > lim[k])
            return above(l, err, errlen, "%s has %.*s %s in %c (at most %llu in x, %llu in y, %llu in z)", key,
                         TRACE_TOK_ARG(d->tok[k]), what, "xyz"[k], (unsigned long long)lim[0],
                         (unsigned long long)lim[1], (unsigned long long)lim[2]);
    total = d->v[0] * d->v[1] * d->v[2]; /* each below 2^31: no overflow */
    if (total == 0 || total > max_total)
        return above(l, err, errlen, "%s (%llu,%llu,%llu) has %llu %s (allowed 1..%llu%s)", key,
                     (unsigned long long)d->v[0], (unsigned long long)d->v[1], (unsigned long long)d->v[2],
                     (unsigned long long)total, what, (unsigned long long)max_total, total_limit);
    return 0;
}

static int check_block(const trace_lines *l, const dim3_val *d, char *err, size_t errlen)
{
    static const uint64_t lim[3] = {TRACE_MAX_BLOCK_X, TRACE_MAX_BLOCK_Y, TRACE_MAX_BLOCK_Z};
    return check_dim3(l, d, "block dim", "threads", lim, TRACE_MAX_BLOCK_THREADS, " per block", err, errlen);
}

static int check_grid(const trace_lines *l, const dim3_val *d, char *err, size_t errlen)
{
    static const uint64_t lim[3] = {TRACE_MAX_GRID_X, TRACE_MAX_GRID_Y, TRACE_MAX_GRID_Z};
    return check_dim3(l, d, "grid dim", "thread blocks", lim, TRACE_MAX_GRID_TBS,
                      ": the engine numbers thread blocks in 32 bits", err, errlen);
}

/* -nregs and -shmem: rc from value_dec, then the limit (`most`: what it bounds). */
static int check_count(const trace_lines *l, int rc, uint64_t v, trace_tok tok, uint64_t max, const char *key,
                       const char *most, char *err, size_t errlen)
{
    if (rc == HDR_ABOVE || (rc == HDR_OK && v > max))
        return above(l, err, errlen, "%s = %.*s is above %llu, the most %s", key, TRACE_TOK_ARG(tok),
                     (unsigned long long)max, most);
    return rc;
}

/* One '-' line. Returns 0, or < 0 after writing the message. */
static int header_line(trace_lines *l, trace_header_store *hs, hdr_lines *at, char *err,
                       size_t errlen)
{
    const char *line = l->line, *p = l->line + 1;
    smtlm_trace_header *h = &hs->h;
    trace_tok k1 = {"", 0}, k2 = {"", 0}, tok;
    uint64_t v = 0;
    dim3_val d;
    int bad = 0;
    trace_next_tok(&p, &k1);
    trace_next_tok(&p, &k2);
    if (trace_tok_is(k1, "kernel") && trace_tok_is(k2, "name")) {
        bad = value_str(line, &hs->kernel_name);
    } else if (trace_tok_is(k1, "kernel") && trace_tok_is(k2, "id")) {
        bad = value_dec(line, UINT32_MAX, &v, &tok);
        h->kernel_id = (unsigned)v;
    } else if (trace_tok_is(k1, "grid") && trace_tok_is(k2, "dim")) {
        if ((bad = value_dim3(line, &d)) == HDR_OK && (bad = check_grid(l, &d, err, errlen)) == 0)
            for (unsigned k = 0; k < 3; k++)
                h->grid[k] = (unsigned)d.v[k];
        at->grid = l->lineno;
    } else if (trace_tok_is(k1, "block") && trace_tok_is(k2, "dim")) {
        if ((bad = value_dim3(line, &d)) == HDR_OK && (bad = check_block(l, &d, err, errlen)) == 0)
            for (unsigned k = 0; k < 3; k++)
                h->block[k] = (unsigned)d.v[k];
        at->block = l->lineno;
    } else if (trace_tok_is(k1, "shmem") && trace_tok_is(k2, "=")) {
        bad = value_dec(line, UINT64_MAX, &v, &tok);
        bad = check_count(l, bad, v, tok, TRACE_MAX_SHMEM, "shmem", "bytes of shared memory a block may have", err,
                          errlen);
        h->shmem = (unsigned)v;
    } else if (trace_tok_is(k1, "nregs")) {
        bad = value_dec(line, UINT64_MAX, &v, &tok);
        bad = check_count(l, bad, v, tok, TRACE_MAX_REGS, "nregs", "registers a thread may have", err, errlen);
        h->nregs = (unsigned)v;
    } else if (trace_tok_is(k1, "cuda") && trace_tok_is(k2, "stream")) {
        bad = value_dec(line, UINT64_MAX, &v, &tok);
        h->cuda_stream_id = v;
    } else if (trace_tok_is(k1, "binary") && trace_tok_is(k2, "version")) {
        bad = value_dec(line, UINT32_MAX, &v, &tok);
        h->binary_version = (unsigned)v;
        at->binary = l->lineno;
    } else if (trace_tok_is(k1, "enable") && trace_tok_is(k2, "lineinfo")) {
        bad = value_dec(line, UINT32_MAX, &v, &tok);
        h->lineinfo = v != 0;
    } else if (trace_tok_is(k1, "nvbit") && trace_tok_is(k2, "version")) {
        bad = value_str(line, &hs->nvbit_version);
    } else if (trace_tok_is(k1, "accelsim") && trace_tok_is(k2, "tracer")) {
        bad = value_dec(line, UINT32_MAX, &v, &tok);
        h->tracer_version = (unsigned)v;
    } else if (trace_tok_is(k1, "shmem") && trace_tok_is(k2, "base_addr")) {
        bad = value_hex(line, &h->shmem_base);
    } else if (trace_tok_is(k1, "local") && trace_tok_is(k2, "mem")) {
        bad = value_hex(line, &h->local_base);
    }
    if (bad == HDR_REPORTED)
        return SMTLM_TRACE_ERR_FORMAT;
    if (bad == HDR_NOMEM)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_NOMEM, l->name, l->lineno,
                          "out of memory");
    if (bad < 0)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, l->name, l->lineno,
                          "malformed header line: %.200s", line);
    return 0;
}

/* Checks the fields the reader depends on and derives the rest. */
static int header_finish(trace_lines *l, trace_header_store *hs, const hdr_lines *at,
                         char *err, size_t errlen)
{
    smtlm_trace_header *h = &hs->h;
    const smtlm_opcode_map *map;
    uint64_t threads;
    if (at->binary == 0)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, l->name, 0,
                          "missing -binary version in the header");
    map = smtlm_opcode_map_for_binary(h->binary_version);
    if (map == NULL)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_UNSUPPORTED, l->name, at->binary,
                          "unsupported binary version %u (supported: 60, 61, 70, 75, 80, 86, 90)",
                          h->binary_version);
    h->arch = map->arch;
    if (at->block == 0)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, l->name, 0,
                          "missing -block dim in the header");
    threads = (uint64_t)h->block[0] * h->block[1] * h->block[2]; /* 1..TRACE_MAX_BLOCK_THREADS */
    h->warps_per_tb = (unsigned)((threads + SMTLM_WARP_SIZE - 1) / SMTLM_WARP_SIZE);
    if (at->grid == 0)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, l->name, 0,
                          "missing -grid dim in the header");
    h->n_tbs = (unsigned long long)h->grid[0] * h->grid[1] * h->grid[2];
    h->kernel_name = hs->kernel_name != NULL ? hs->kernel_name : "";
    h->nvbit_version = hs->nvbit_version != NULL ? hs->nvbit_version : "";
    return 0;
}

int trace_header_read(trace_lines *l, trace_header_store *hs, char *err, size_t errlen)
{
    hdr_lines at = {0, 0, 0};
    int rc;
    while ((rc = trace_lines_next(l, err, errlen)) == 1) {
        if (trace_lines_tell(l) > TRACE_MAX_HEADER_BYTES)
            return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, l->name, l->lineno,
                              "the header runs past %u bytes, the limit for a trace header (no '#traces format' "
                              "or '#BEGIN_TB' line?)", TRACE_MAX_HEADER_BYTES);
        if (l->line[0] == '#') {
            /* "#traces format = ..." opens the body; a trace without that line ends its header
             * at the first #BEGIN_TB, which then also opens the first TB. */
            const char *p = l->line;
            trace_tok t;
            hs->begin_consumed = trace_next_tok(&p, &t) && trace_tok_is(t, "#BEGIN_TB");
            break;
        }
        if (l->line[0] == '-' && (rc = header_line(l, hs, &at, err, errlen)) < 0)
            return rc;
    }
    if (rc < 0)
        return rc;
    return header_finish(l, hs, &at, err, errlen);
}

void trace_header_free(trace_header_store *hs)
{
    free(hs->kernel_name);
    free(hs->nvbit_version);
    hs->kernel_name = NULL;
    hs->nvbit_version = NULL;
}
