/* Value Change Dump writer: declarations, then the values of each time, changes only. */
#include "smtlm/vcd_writer.h"

#include <stdlib.h>
#include <string.h>

struct smtlm_vcd {
    FILE *f;
    uint64_t from, to;
    uint64_t *cur, *dumped; /* the values now, and as last written */
    uint8_t *width, *dirty;
    int *dirty_list;        /* variables set since the last written time */
    int n, cap, n_dirty;
    uint64_t now;
    int has_time, started, oom;
    uint64_t last_written;  /* the last time written to the file */
};

smtlm_vcd *smtlm_vcd_new(FILE *f, const char *version, const char *timescale, uint64_t from, uint64_t to)
{
    smtlm_vcd *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    v->f = f;
    v->from = from;
    v->to = to;
    fprintf(f, "$version %s $end\n$timescale %s $end\n", version, timescale);
    return v;
}

/* A variable's identifier: its index in base 94 over the printable characters '!'..'~'. */
static void put_id(FILE *f, int var)
{
    char s[8];
    int n = 0;
    unsigned x = (unsigned)var;
    do {
        s[n++] = (char)('!' + x % 94);
        x /= 94;
    } while (x);
    while (n)
        fputc(s[--n], f);
}

void smtlm_vcd_scope(smtlm_vcd *v, const char *name) { fprintf(v->f, "$scope module %s $end\n", name); }
void smtlm_vcd_upscope(smtlm_vcd *v) { fputs("$upscope $end\n", v->f); }

static int grow(smtlm_vcd *v)
{
    int cap = v->cap ? v->cap * 2 : 64;
    uint64_t *cur = realloc(v->cur, (size_t)cap * sizeof *cur);
    if (cur)
        v->cur = cur;
    uint64_t *dumped = realloc(v->dumped, (size_t)cap * sizeof *dumped);
    if (dumped)
        v->dumped = dumped;
    uint8_t *width = realloc(v->width, (size_t)cap);
    if (width)
        v->width = width;
    uint8_t *dirty = realloc(v->dirty, (size_t)cap);
    if (dirty)
        v->dirty = dirty;
    int *list = realloc(v->dirty_list, (size_t)cap * sizeof *list);
    if (list)
        v->dirty_list = list;
    if (!cur || !dumped || !width || !dirty || !list)
        return -1;
    v->cap = cap;
    return 0;
}

int smtlm_vcd_var(smtlm_vcd *v, const char *name, unsigned width)
{
    if (width < 1 || width > 64 || (v->n == v->cap && grow(v))) {
        v->oom = 1;
        return -1;
    }
    const int i = v->n++;
    v->cur[i] = v->dumped[i] = 0;
    v->width[i] = (uint8_t)width;
    v->dirty[i] = 0;
    fprintf(v->f, "$var wire %u ", width);
    put_id(v->f, i);
    if (width > 1)
        fprintf(v->f, " %s [%u:0] $end\n", name, width - 1);
    else
        fprintf(v->f, " %s $end\n", name);
    return i;
}

void smtlm_vcd_end_header(smtlm_vcd *v) { fputs("$enddefinitions $end\n", v->f); }

static void put_value(smtlm_vcd *v, int i)
{
    const uint64_t x = v->cur[i];
    if (v->width[i] == 1) {
        fputc(x ? '1' : '0', v->f);
    } else {
        fputc('b', v->f);
        int top = 63;
        while (top > 0 && !(x >> top & 1))
            top--;
        for (int b = top; b >= 0; b--)
            fputc(x >> b & 1 ? '1' : '0', v->f);
        fputc(' ', v->f);
    }
    put_id(v->f, i);
    fputc('\n', v->f);
    v->dumped[i] = x;
}

/* The current values held from v->now up to `next` (exclusive): written at the first time of
 * that span inside the window (every value the first time, else the changes). */
static void flush(smtlm_vcd *v, uint64_t next)
{
    const uint64_t lo = v->now > v->from ? v->now : v->from;
    const uint64_t hi = next - 1 < v->to ? next - 1 : v->to;
    if (lo <= hi && !v->started) {
        fprintf(v->f, "#%llu\n$dumpvars\n", (unsigned long long)lo);
        for (int i = 0; i < v->n; i++)
            put_value(v, i);
        fputs("$end\n", v->f);
        v->started = 1;
        v->last_written = lo;
    } else if (lo <= hi) {
        int stamped = 0;
        for (int k = 0; k < v->n_dirty; k++) {
            const int i = v->dirty_list[k];
            if (v->cur[i] == v->dumped[i])
                continue;
            if (!stamped) {
                fprintf(v->f, "#%llu\n", (unsigned long long)lo);
                v->last_written = lo;
                stamped = 1;
            }
            put_value(v, i);
        }
    }
    for (int k = 0; k < v->n_dirty; k++)
        v->dirty[v->dirty_list[k]] = 0;
    v->n_dirty = 0;
}

void smtlm_vcd_time(smtlm_vcd *v, uint64_t t)
{
    if (v->has_time && t <= v->now)
        return;
    if (v->has_time)
        flush(v, t);
    v->now = t;
    v->has_time = 1;
}

void smtlm_vcd_set(smtlm_vcd *v, int var, uint64_t value)
{
    if (var < 0 || var >= v->n)
        return;
    if (v->width[var] < 64)
        value &= (1ull << v->width[var]) - 1;
    if (value == v->cur[var])
        return;
    if (!v->has_time)
        smtlm_vcd_time(v, 0);
    v->cur[var] = value;
    if (!v->dirty[var]) {
        v->dirty[var] = 1;
        v->dirty_list[v->n_dirty++] = var;
    }
}

uint64_t smtlm_vcd_get(const smtlm_vcd *v, int var) { return var >= 0 && var < v->n ? v->cur[var] : 0; }

int smtlm_vcd_close(smtlm_vcd *v, uint64_t end)
{
    if (!v)
        return 0;
    if (v->has_time && end > v->now)
        flush(v, end);
    const uint64_t last = end <= v->to ? end : v->to + 1;
    if (v->started && last > v->last_written)
        fprintf(v->f, "#%llu\n", (unsigned long long)last);
    const int rc = v->oom || fflush(v->f) || ferror(v->f) ? -1 : 0;
    free(v->cur);
    free(v->dumped);
    free(v->width);
    free(v->dirty);
    free(v->dirty_list);
    free(v);
    return rc;
}
