/* .traceg header: '-key = value' lines until the first line starting with '#'
 * (Accel-Sim trace_parser::parse_kernel_info). Keys are matched by their first two words,
 * unknown keys and other lines are skipped, as Accel-Sim does. */
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

static int value_dec(const char *line, uint64_t max, uint64_t *out)
{
    trace_tok t;
    if (value_of(line, &t.s, &t.n) < 0)
        return -1;
    return trace_parse_dec(t, max, out);
}

static int value_hex(const char *line, uint64_t *out)
{
    trace_tok t;
    if (value_of(line, &t.s, &t.n) < 0)
        return -1;
    return trace_parse_hex(t, UINT64_MAX, out);
}

/* "(x,y,z)", blanks allowed around the numbers. */
static int value_dim3(const char *line, unsigned d[3])
{
    const char *v, *p, *end;
    size_t n;
    unsigned k;
    if (value_of(line, &v, &n) < 0 || n < 2 || v[0] != '(' || v[n - 1] != ')')
        return -1;
    p = v + 1;
    end = v + n - 1;
    for (k = 0; k < 3; k++) {
        trace_tok t;
        uint64_t x;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        t.s = p;
        while (p < end && *p != ',' && *p != ' ' && *p != '\t')
            p++;
        t.n = (size_t)(p - t.s);
        if (trace_parse_dec(t, UINT32_MAX, &x) < 0)
            return -1;
        d[k] = (unsigned)x;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if (k < 2) {
            if (p >= end || *p != ',')
                return -1;
            p++;
        }
    }
    return p == end ? 0 : -1;
}

static int value_str(const char *line, char **out)
{
    const char *v;
    size_t n;
    char *s;
    if (value_of(line, &v, &n) < 0)
        return -1;
    s = malloc(n + 1);
    if (s == NULL)
        return -2;
    memcpy(s, v, n);
    s[n] = '\0';
    free(*out);
    *out = s;
    return 0;
}

/* One '-' line. Returns 0, or < 0 after writing the message. */
static int header_line(trace_lines *l, trace_header_store *hs, hdr_lines *at, char *err,
                       size_t errlen)
{
    const char *line = l->line, *p = l->line + 1;
    smtlm_trace_header *h = &hs->h;
    trace_tok k1 = {"", 0}, k2 = {"", 0};
    uint64_t v = 0;
    int bad = 0;
    trace_next_tok(&p, &k1);
    trace_next_tok(&p, &k2);
    if (trace_tok_is(k1, "kernel") && trace_tok_is(k2, "name")) {
        bad = value_str(line, &hs->kernel_name);
    } else if (trace_tok_is(k1, "kernel") && trace_tok_is(k2, "id")) {
        bad = value_dec(line, UINT32_MAX, &v);
        h->kernel_id = (unsigned)v;
    } else if (trace_tok_is(k1, "grid") && trace_tok_is(k2, "dim")) {
        bad = value_dim3(line, h->grid);
        at->grid = l->lineno;
    } else if (trace_tok_is(k1, "block") && trace_tok_is(k2, "dim")) {
        bad = value_dim3(line, h->block);
        at->block = l->lineno;
    } else if (trace_tok_is(k1, "shmem") && trace_tok_is(k2, "=")) {
        bad = value_dec(line, UINT32_MAX, &v);
        h->shmem = (unsigned)v;
    } else if (trace_tok_is(k1, "nregs")) {
        bad = value_dec(line, UINT32_MAX, &v);
        h->nregs = (unsigned)v;
    } else if (trace_tok_is(k1, "cuda") && trace_tok_is(k2, "stream")) {
        bad = value_dec(line, UINT64_MAX, &v);
        h->cuda_stream_id = v;
    } else if (trace_tok_is(k1, "binary") && trace_tok_is(k2, "version")) {
        bad = value_dec(line, UINT32_MAX, &v);
        h->binary_version = (unsigned)v;
        at->binary = l->lineno;
    } else if (trace_tok_is(k1, "enable") && trace_tok_is(k2, "lineinfo")) {
        bad = value_dec(line, UINT32_MAX, &v);
        h->lineinfo = v != 0;
    } else if (trace_tok_is(k1, "nvbit") && trace_tok_is(k2, "version")) {
        bad = value_str(line, &hs->nvbit_version);
    } else if (trace_tok_is(k1, "accelsim") && trace_tok_is(k2, "tracer")) {
        bad = value_dec(line, UINT32_MAX, &v);
        h->tracer_version = (unsigned)v;
    } else if (trace_tok_is(k1, "shmem") && trace_tok_is(k2, "base_addr")) {
        bad = value_hex(line, &h->shmem_base);
    } else if (trace_tok_is(k1, "local") && trace_tok_is(k2, "mem")) {
        bad = value_hex(line, &h->local_base);
    }
    if (bad == -2)
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
                          "unsupported binary version %u (supported: 60, 61, 70, 75, 80, 86)",
                          h->binary_version);
    h->arch = map->arch;
    if (at->block == 0)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, l->name, 0,
                          "missing -block dim in the header");
    threads = (uint64_t)h->block[0] * h->block[1] * h->block[2];
    if (threads == 0 || threads > TRACE_MAX_BLOCK_THREADS)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, l->name, at->block,
                          "block dim (%u,%u,%u) has %llu threads (allowed 1..%u)",
                          h->block[0], h->block[1], h->block[2], (unsigned long long)threads,
                          TRACE_MAX_BLOCK_THREADS);
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
