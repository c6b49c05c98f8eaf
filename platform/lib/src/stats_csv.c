/* -smtlm_stats_csv: the kernel's stats JSON, flattened, as one CSV row (see stats_csv.h). */
#include "smtlm/stats_csv.h"

#include <stdlib.h>
#include <string.h>

#include "smtlm/json_flat.h"

void smtlm_stats_csv_init(smtlm_stats_csv *c, FILE *f)
{
    memset(c, 0, sizeof *c);
    c->f = f;
}

/* Lists of one entry per SM or warp would make columns without end: the JSON has them. */
static int per_kernel(const char *path)
{
    return strncmp(path, "sms[", 4) != 0 && strncmp(path, "warp_stall_per_warp[", 20) != 0;
}

/* A field as CSV: quoted when it holds a comma, quote or line break. */
static void field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static int header(smtlm_stats_csv *c, const smtlm_json_flat *j)
{
    if (!(c->cols = calloc(j->n ? j->n : 1, sizeof *c->cols)))
        return -1;
    for (size_t i = 0; i < j->n; i++) {
        if (!per_kernel(j->leaf[i].path))
            continue;
        if (!(c->cols[c->n] = strdup(j->leaf[i].path)))
            return -1;
        fprintf(c->f, "%s", c->n ? "," : "");
        field(c->f, c->cols[c->n++]);
    }
    fputc('\n', c->f);
    return 0;
}

int smtlm_stats_csv_row(smtlm_stats_csv *c, const smtlm_stats *st, char *msg, size_t n)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        snprintf(msg, n, "-smtlm_stats_csv: out of memory");
        return -1;
    }
    smtlm_stats_json(mem, st);
    fclose(mem);
    smtlm_json_flat j;
    char why[256];
    const int rc = smtlm_json_flatten(text, len, &j, why, sizeof why);
    free(text);
    if (rc) { /* our own JSON: cannot happen unless memory ran out */
        snprintf(msg, n, "-smtlm_stats_csv: %s", why);
        return -1;
    }
    int ok = c->cols || header(c, &j) == 0;
    /* the columns are the first kernel's; the machine is the same for every kernel of a run,
     * so later kernels have the same leaves in the same order */
    for (size_t i = 0, k = 0; ok && k < c->n; k++) {
        while (i < j.n && strcmp(j.leaf[i].path, c->cols[k]) != 0)
            i++;
        fprintf(c->f, "%s", k ? "," : "");
        if (i < j.n)
            field(c->f, j.leaf[i].text);
        else
            i = 0; /* absent in this kernel: an empty field, and look from the start again */
    }
    if (ok)
        fputc('\n', c->f);
    smtlm_json_flat_free(&j);
    if (!ok) {
        snprintf(msg, n, "-smtlm_stats_csv: out of memory");
        return -1;
    }
    return 0;
}

void smtlm_stats_csv_free(smtlm_stats_csv *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->cols[i]);
    free(c->cols);
    memset(c, 0, sizeof *c);
}
