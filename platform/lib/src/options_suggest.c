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

/* Levenshtein distance of two lower-cased names, or any value >= bound once it is sure to
 * reach bound. */
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
            size_t cost = a[i - 1] != b[j - 1];
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

/* The first la (<= SUGGEST_MAX_LEN) characters of s in lower case. */
static void lower(const char *s, size_t la, char *out)
{
    for (size_t i = 0; i < la; i++)
        out[i] = (char)tolower((unsigned char)s[i]);
}

/* Characters counted in 64 classes (c mod 64). */
#define SUGGEST_CLASSES 64

/* A lower bound of the distance of a name of la characters (`count`: its characters by
 * class) to b: the characters of either that the other cannot match, class by class, each need
 * an edit (the bag distance; classes that merge characters only lower it). Far cheaper than the
 * distance, so most candidates end here. count is as it was on return. */
static size_t bag_distance(int count[SUGGEST_CLASSES], size_t la, const char *b, size_t lb)
{
    size_t more = la, fewer = 0; /* characters of the name, of b, left unmatched */
    for (size_t j = 0; j < lb; j++) {
        int *c = &count[(unsigned char)b[j] % SUGGEST_CLASSES];
        if (*c > 0)
            more--;
        else
            fewer++;
        (*c)--;
    }
    for (size_t j = 0; j < lb; j++)
        count[(unsigned char)b[j] % SUGGEST_CLASSES]++;
    return more > fewer ? more : fewer;
}

const char *smtlm_opt_nearest(const smtlm_options *opts, const char *name)
{
    size_t i, la, best_d;
    const char *best = NULL;
    char a[SUGGEST_MAX_LEN], b[SUGGEST_MAX_LEN];
    if (!opts || !name)
        return NULL;
    la = strlen(name);
    if (la > SUGGEST_MAX_LEN)
        la = SUGGEST_MAX_LEN;
    lower(name, la, a);
    int count[SUGGEST_CLASSES] = {0};
    for (i = 0; i < la; i++)
        count[(unsigned char)a[i] % SUGGEST_CLASSES]++;
    /* near means at most 2 edits or a third of the name: a candidate at this distance or
     * more is never suggested, so the search looks no further */
    best_d = (la / 3 > 2 ? la / 3 : 2) + 1;
    for (i = 0; i < opts->n; i++) {
        const char *cand = opts->defs[i].name;
        size_t lb = strlen(cand), d;
        if (lb > SUGGEST_MAX_LEN)
            lb = SUGGEST_MAX_LEN;
        /* the distance is at least the length difference: skip hopeless candidates */
        if ((la > lb ? la - lb : lb - la) >= best_d)
            continue;
        lower(cand, lb, b);
        if (bag_distance(count, la, b, lb) >= best_d)
            continue;
        /* a common start or end costs no edit: the table covers only what lies between */
        size_t pre = 0, post = 0;
        while (pre < la && pre < lb && a[pre] == b[pre])
            pre++;
        while (post < la - pre && post < lb - pre && a[la - 1 - post] == b[lb - 1 - post])
            post++;
        d = distance(a + pre, la - pre - post, b + pre, lb - pre - post, best_d);
        if (d < best_d) { /* ties keep the earlier table row */
            best_d = d;
            best = cand;
        }
    }
    return best;
}
