/* The progress line smsim keeps on stderr during long runs: kernel k/n, cycles, warp
 * instructions, the rate, for a trace how much of the kernel's trace has been read, and an ETA.
 * Driven by wall time: shown only when stderr is a terminal, once a run has lasted a second
 * (however short its kernels), at most 4 times a second; off with -smtlm_quiet 1. It never
 * changes what the run computes or prints elsewhere. */
#ifndef SMTLM_PROGRESS_H
#define SMTLM_PROGRESS_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "smtlm/gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What one line shows. */
typedef struct smtlm_progress_state {
    unsigned kernel, n_kernels;          /* 1-based */
    uint64_t cycles;                     /* the kernel's gpu_sim_cycle */
    uint64_t warp_insts;                 /* warp instructions of the whole run so far */
    double warp_insts_per_s;
    int traced;                          /* the kernel comes from a trace: show how much is read */
    uint32_t tbs_read, tbs;              /* thread blocks of the kernel read from its trace */
    double kernel_done;                  /* fraction of this kernel done, 0 to 1 */
    double elapsed_s;                    /* since the run started */
} smtlm_progress_state;

/* Formats the line (no carriage return). The ETA assumes the kernels left take as long as the
 * ones done, and the rest of this one as long as its part done so far. */
void smtlm_progress_format(char *buf, size_t n, const smtlm_progress_state *s);

typedef struct smtlm_progress {
    FILE *err;
    int enabled;
    double (*clock)(void);               /* seconds, monotonic */
    double start, last;
    unsigned kernel, n_kernels;
    uint64_t base_warp_insts;            /* warp instructions of the kernels before this one */
    uint64_t kernel_warp_insts;          /* this kernel's warp instructions when known, else 0 */
    int traced;
    volatile sig_atomic_t shown;         /* a line is on the terminal (read by a signal handler) */
} smtlm_progress;

/* enabled: the caller decided (terminal and not quiet). */
void smtlm_progress_init(smtlm_progress *p, FILE *err, int enabled, double (*clock)(void));
/* Before kernel k (1-based) of n runs; base = warp instructions retired before it; total =
 * the kernel's warp instructions when known (the synthetic workload), 0 when not (its share
 * done is then its share of finished thread blocks); traced: the kernel is read from a trace. */
void smtlm_progress_kernel(smtlm_progress *p, unsigned k, unsigned n, uint64_t base_warp_insts, uint64_t total,
                           int traced);
/* Maybe redraws the line (call it often: at every poll of the GPU and at each kernel's start). */
void smtlm_progress_tick(smtlm_progress *p, const smtlm_gpu *gpu);
/* Erases the line, if one is shown (before any other output and at the end). */
void smtlm_progress_clear(smtlm_progress *p);

#ifdef __cplusplus
}
#endif
#endif
