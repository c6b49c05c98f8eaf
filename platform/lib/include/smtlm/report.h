/* -smtlm_report <path.html>: one self-contained HTML page of charts drawn by the project
 * (inline SVG, no script, nothing fetched): IPC over time, a bank-conflict heat map (bank x
 * time), the stall breakdown, collector occupancy and per-unit utilisation.
 *
 * The time series are snapshots of the SMs' cumulative counters every SMTLM_SERIES_CYCLES
 * cycles of each kernel and at each kernel's end (read from the SM views, so both engines give
 * the same page); a chart's time bin is the difference of two snapshots. */
#ifndef SMTLM_REPORT_H
#define SMTLM_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "smtlm/stats.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SMTLM_REPORT_MAX_KERNELS 64 /* kernels named on the page; later ones are counted */

/* Cumulative counters at one instant, summed over the SMs. */
typedef struct smtlm_report_sample {
    uint64_t cycle;           /* run-wide cycle (gpu_tot_sim_cycle + gpu_sim_cycle) */
    uint64_t thread_insts, warp_insts;
    uint64_t active_cycles;   /* SM-cycles */
    uint64_t cu_busy;         /* busy collector units summed over cycles */
    uint64_t bank_wait[SMTLM_MAX_BANKS], bank_reads[SMTLM_MAX_BANKS];
} smtlm_report_sample;

typedef struct smtlm_report {
    smtlm_report_sample *s;
    size_t n, cap;
    unsigned n_banks;
    unsigned n_kernels;
    uint64_t kernel_end[SMTLM_REPORT_MAX_KERNELS];   /* run-wide cycle where each kernel ended */
    char kernel_name[SMTLM_REPORT_MAX_KERNELS][64];
    int failed;               /* out of memory while sampling: the page says so */
} smtlm_report;

void smtlm_report_init(smtlm_report *r);
void smtlm_report_free(smtlm_report *r);
/* The GPU's sample hook (smtlm_gpu_set_series_hook). */
void smtlm_report_series_hook(void *ctx, const smtlm_gpu *gpu);
/* At a kernel's launch (its first snapshot, so the charts start at its first cycle). */
void smtlm_report_kernel_start(smtlm_report *r, const smtlm_gpu *gpu);
/* At a kernel's end, before smtlm_gpu_end_kernel: its last snapshot and name. */
void smtlm_report_kernel_end(smtlm_report *r, const smtlm_gpu *gpu, const char *name);
/* Writes the page; st = the statistics of the last kernel (cumulative SM counters). */
int smtlm_report_write_html(const smtlm_report *r, const smtlm_stats *st, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
