/* The SMs stepped in windows where they cannot interact (-smtlm_sm_windows), on one or more
 * host threads (-smtlm_threads), with results identical to stepping them cycle by cycle
 * (docs/ARCHITECTURE.md, "SMs in windows"). Both engines use it: the C engine through
 * smtlm_gpu_par_run, the SystemC Gpu as its run loop's window function. */
#ifndef SMTLM_GPU_PARALLEL_H
#define SMTLM_GPU_PARALLEL_H

#include "smtlm/gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct smtlm_gpu_par smtlm_gpu_par;

/* gpu: built by smtlm_gpu_init(_lazy) or smtlm_gpu_init_engine. NULL when out of memory or
 * threads. SMs behind operations that are not thread-safe (SystemC modules) take n_threads 1. */
smtlm_gpu_par *smtlm_gpu_par_new(smtlm_gpu *gpu, unsigned n_threads);
/* smtlm_gpu_run with the SMs stepped in windows on the pool's n_threads host threads. */
smtlm_run_status smtlm_gpu_par_run(smtlm_gpu_par *p);
/* The window function itself (smtlm_window_fn, ctx = the smtlm_gpu_par), for a caller that runs
 * the loop in batches (smtlm_gpu_run_until) with smtlm_gpu_set_window. */
void smtlm_gpu_par_window(void *ctx, smtlm_gpu *gpu, uint64_t end);
/* The cycles run in windows so far (the rest ran cycle by cycle). */
uint64_t smtlm_gpu_par_window_cycles(const smtlm_gpu_par *p);
void smtlm_gpu_par_free(smtlm_gpu_par *p);

#ifdef __cplusplus
}
#endif

#endif
