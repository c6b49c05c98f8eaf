/* -smtlm_stats_csv: one row per kernel, the columns every per-kernel counter of the stats JSON
 * (its path as the column name, e.g. rf_bank_reads[3]) except the per-SM and per-warp lists. */
#ifndef SMTLM_STATS_CSV_H
#define SMTLM_STATS_CSV_H

#include <stddef.h>
#include <stdio.h>

#include "smtlm/stats.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct smtlm_stats_csv {
    FILE *f;
    char **cols; /* the header, fixed by the first kernel */
    size_t n;
} smtlm_stats_csv;

/* Rows go to f (the caller's, who checks its writes and closes it). */
void smtlm_stats_csv_init(smtlm_stats_csv *c, FILE *f);
/* Appends the kernel's row (the header first, at the first row). -1 when memory ran out. */
int smtlm_stats_csv_row(smtlm_stats_csv *c, const smtlm_stats *st, char *msg, size_t n);
/* Frees the columns (not f). */
void smtlm_stats_csv_free(smtlm_stats_csv *c);

#ifdef __cplusplus
}
#endif
#endif
