/* smsim -smtlm_compare A.json B.json: two stats files side by side, counter by counter, with
 * the absolute and relative change. What an architect runs after every design change. */
#include "smtlm/stats_compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "smtlm/json_flat.h"

/* Host time differs between any two runs: reported as skipped, never as a difference. */
static int host_dependent(const char *path)
{
    const char *last = strrchr(path, '.');
    return !strcmp(last ? last + 1 : path, "wall_seconds");
}

/* How the run ended is checked before the comparison (only complete runs are compared), and
 * a file written before smsim recorded it does not differ for want of it. */
static int run_outcome(const char *path)
{
    return !strcmp(path, "complete") || !strcmp(path, "exit_status") || !strcmp(path, "error");
}

static const char *leaf_text(const smtlm_json_flat *f, const char *path)
{
    for (size_t i = 0; i < f->n; i++)
        if (!strcmp(f->leaf[i].path, path))
            return f->leaf[i].text;
    return NULL;
}

/* 1 (after the message) when the file's run did not complete: its statistics are no result. */
static int incomplete(const smtlm_json_flat *f, const char *path, FILE *err)
{
    const char *complete = leaf_text(f, "complete");
    if (!complete || strcmp(complete, "false"))
        return 0;
    const char *status = leaf_text(f, "exit_status"), *why = leaf_text(f, "error");
    fprintf(err, "smsim: %s: the run did not complete (exit status %s: %s); its statistics are not a result to compare\n",
            path, status ? status : "?", why && *why ? why : "no reason recorded");
    return 1;
}

/* From schema_version 3 on, kernels[i].sms[j] and kernels[i].warp_stall_per_warp[j] list only
 * the SMs that ran in kernel i; before, every SM that had run so far. The first kernel's lists
 * are the same in both layouts; a later kernel's j-th entry may name another SM in each. */
#define STATS_SCHEMA_PER_KERNEL_SMS 3

static int later_kernel_sm_list(const char *path)
{
    char *end;
    if (strncmp(path, "kernels[", 8) != 0)
        return 0;
    const unsigned long k = strtoul(path + 8, &end, 10);
    if (end == path + 8 || strncmp(end, "].", 2) != 0 || k == 0)
        return 0;
    end += 2;
    return !strncmp(end, "sms[", 4) || !strncmp(end, "warp_stall_per_warp[", 20);
}

static int by_path(const void *a, const void *b)
{
    return strcmp((*(const smtlm_json_leaf *const *)a)->path, (*(const smtlm_json_leaf *const *)b)->path);
}

static const smtlm_json_leaf *find(const smtlm_json_leaf *const *sorted, size_t n, const char *path)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        const int c = strcmp(sorted[mid]->path, path);
        if (c == 0)
            return sorted[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* The file's schema_version, or 0 when it has none (version 1, or not a stats file). */
static double schema_version(const smtlm_json_leaf *const *sorted, size_t n)
{
    const smtlm_json_leaf *v = find(sorted, n, "schema_version");
    return v && v->is_number ? v->number : 0;
}

static int same(const smtlm_json_leaf *a, const smtlm_json_leaf *b)
{
    if (a->is_number && b->is_number)
        return a->number == b->number;
    return a->is_number == b->is_number && !strcmp(a->text, b->text);
}

static int integral(double v) { return fabs(v) < 9007199254740992.0 && v == floor(v); }

static void print_row(FILE *out, int width, const char *path, const smtlm_json_leaf *a, const smtlm_json_leaf *b)
{
    char delta[48] = "", change[48] = "";
    if (a && b && a->is_number && b->is_number) {
        const double d = b->number - a->number;
        if (integral(a->number) && integral(b->number))
            snprintf(delta, sizeof delta, "%+.0f", d);
        else
            snprintf(delta, sizeof delta, "%+.6g", d);
        if (a->number != 0)
            snprintf(change, sizeof change, "%+.2f%%", 100.0 * d / fabs(a->number));
        else
            snprintf(change, sizeof change, "from 0");
    } else if (!a) {
        snprintf(change, sizeof change, "only in B");
    } else if (!b) {
        snprintf(change, sizeof change, "only in A");
    } else {
        snprintf(change, sizeof change, "changed");
    }
    fprintf(out, "%-*s %14s %14s %12s %10s\n", width, path, a ? a->text : "-", b ? b->text : "-", delta, change);
}

int smtlm_stats_compare(const char *path_a, const char *path_b, int show_all, FILE *out, FILE *err)
{
    smtlm_json_flat fa, fb;
    char msg[1024];
    if (smtlm_json_flatten_file(path_a, &fa, msg, sizeof msg)) {
        fprintf(err, "smsim: %s\n", msg);
        return 2;
    }
    if (smtlm_json_flatten_file(path_b, &fb, msg, sizeof msg)) {
        fprintf(err, "smsim: %s\n", msg);
        smtlm_json_flat_free(&fa);
        return 2;
    }
    if (incomplete(&fa, path_a, err) || incomplete(&fb, path_b, err)) {
        smtlm_json_flat_free(&fa), smtlm_json_flat_free(&fb);
        return 2;
    }
    const smtlm_json_leaf **sa = malloc((fa.n + 1) * sizeof *sa), **sb = malloc((fb.n + 1) * sizeof *sb);
    if (!sa || !sb) {
        fprintf(err, "smsim: out of memory\n");
        free(sa), free(sb), smtlm_json_flat_free(&fa), smtlm_json_flat_free(&fb);
        return 2;
    }
    for (size_t i = 0; i < fa.n; i++)
        sa[i] = &fa.leaf[i];
    for (size_t i = 0; i < fb.n; i++)
        sb[i] = &fb.leaf[i];
    qsort(sa, fa.n, sizeof *sa, by_path);
    qsort(sb, fb.n, sizeof *sb, by_path);
    const double va = schema_version(sa, fa.n), vb = schema_version(sb, fb.n);
    const int lists_differ = va > 0 && vb > 0 && (va < STATS_SCHEMA_PER_KERNEL_SMS) != (vb < STATS_SCHEMA_PER_KERNEL_SMS);

    /* widths first: the rows that will print */
    int width = (int)strlen("counter");
    size_t compared = 0, differ = 0, only_a = 0, only_b = 0, skipped = 0, unmatched_lists = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            fprintf(out, "A: %s\nB: %s\n", path_a, path_b);
            fprintf(out, "%-*s %14s %14s %12s %10s\n", width, "counter", "A", "B", "B-A", "change");
        }
        for (size_t i = 0; i < fa.n; i++) {
            const smtlm_json_leaf *a = &fa.leaf[i], *b = find(sb, fb.n, a->path);
            if (host_dependent(a->path) || run_outcome(a->path)) {
                skipped += pass == 0 && host_dependent(a->path);
                continue;
            }
            if (lists_differ && later_kernel_sm_list(a->path)) {
                unmatched_lists += pass == 0;
                continue;
            }
            const int diff = !b || !same(a, b);
            if (pass == 0) {
                compared += b != NULL;
                differ += b && diff;
                only_a += !b;
            }
            if (diff || show_all) {
                if (pass == 0 && (int)strlen(a->path) > width)
                    width = (int)strlen(a->path);
                if (pass == 1)
                    print_row(out, width, a->path, a, b);
            }
        }
        for (size_t i = 0; i < fb.n; i++) {
            const smtlm_json_leaf *b = &fb.leaf[i];
            if (host_dependent(b->path) || run_outcome(b->path) || find(sa, fa.n, b->path))
                continue;
            if (lists_differ && later_kernel_sm_list(b->path)) {
                unmatched_lists += pass == 0;
                continue;
            }
            if (pass == 0) {
                only_b++;
                if ((int)strlen(b->path) > width)
                    width = (int)strlen(b->path);
            } else {
                print_row(out, width, b->path, NULL, b);
            }
        }
    }
    fprintf(out, "%zu counters in both: %zu differ; %zu only in A, %zu only in B", compared, differ, only_a, only_b);
    if (skipped)
        fprintf(out, "; wall_seconds (host time) not compared");
    if (unmatched_lists)
        fprintf(out, "; %zu per-SM and per-warp counters of kernels after the first not compared (schema_version %g "
                     "against %g: those lists name other SMs)",
                unmatched_lists, va, vb);
    fputc('\n', out);
    free(sa), free(sb), smtlm_json_flat_free(&fa), smtlm_json_flat_free(&fb);
    return differ || only_a || only_b ? 1 : 0;
}
