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

/* Opens path for writing; -1 with "path: cannot open for writing: why" in msg. */
int smtlm_stats_csv_open(smtlm_stats_csv *c, const char *path, char *msg, size_t n);
/* Appends the kernel's row (the header first, at the first row). -1 on a write failure. */
int smtlm_stats_csv_row(smtlm_stats_csv *c, const smtlm_stats *st, char *msg, size_t n);
/* 0, or -1 when the file could not be completed. */
int smtlm_stats_csv_close(smtlm_stats_csv *c);

#ifdef __cplusplus
}
#endif
#endif
