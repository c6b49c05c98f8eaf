/* "did you mean": the registered option name nearest to a misspelt one, by Levenshtein
 * distance ignoring case (so -gpgpu_tb_launch_latency finds -gpgpu_TB_launch_latency), and
 * only when it is near: at most 2 edits, or at most a third of the name's length, so a long
 * name with a few typos is found but -bogus does not suggest -keep. */
#include "options_internal.h"

#include <ctype.h>
#include <string.h>

/* Longer inputs are cut: no option name is near this long, and it bounds the work on
 * hostile input (the fuzzer feeds megabyte tokens). */
#define SUGGEST_MAX_LEN 64

/* Levenshtein distance, or any value >= bound once it is sure to reach bound. */
static size_t distance(const char *a, size_t la, const char *b, size_t lb, size_t bound)
{
    size_t row[2][SUGGEST_MAX_LEN + 1];
    size_t i, j;
    for (j = 0; j <= lb; j++)
        row[0][j] = j;
    for (i = 1; i <= la; i++) {
        size_t *prev = row[(i - 1) & 1], *cur = row[i & 1];
        size_t row_min;
        cur[0] = i;
        row_min = i;
        for (j = 1; j <= lb; j++) {
            size_t cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            size_t best = prev[j - 1] + cost;
            if (prev[j] + 1 < best)
                best = prev[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            cur[j] = best;
            if (best < row_min)
                row_min = best;
        }
        if (row_min >= bound) /* rows never decrease below their minimum */
            return bound;
    }
    return row[la & 1][lb];
}

const char *smtlm_opt_nearest(const smtlm_options *opts, const char *name)
{
    size_t i, la, best_d = (size_t)-1;
    const char *best = NULL;
    if (!opts || !name)
        return NULL;
    la = strlen(name);
    if (la > SUGGEST_MAX_LEN)
        la = SUGGEST_MAX_LEN;
    for (i = 0; i < opts->n; i++) {
        const char *cand = opts->defs[i].name;
        size_t lb = strlen(cand), d;
        if (lb > SUGGEST_MAX_LEN)
            lb = SUGGEST_MAX_LEN;
        /* the distance is at least the length difference: skip hopeless candidates */
        if ((la > lb ? la - lb : lb - la) >= best_d)
            continue;
        d = distance(name, la, cand, lb, best_d);
        if (d < best_d) { /* ties keep the earlier table row */
            best_d = d;
            best = cand;
        }
    }
    if (best && best_d > 2 && best_d * 3 > la)
        return NULL;
    return best;
}
