/* The C engine's run loop with the SMs stepped in windows where they cannot interact
 * (-smtlm_sm_windows), on one or more host threads (-smtlm_threads), with results identical to
 * smtlm_gpu_run (docs/ARCHITECTURE.md, "SMs in windows"). */
#ifndef SMTLM_GPU_PARALLEL_H
#define SMTLM_GPU_PARALLEL_H

#include "smtlm/gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct smtlm_gpu_par smtlm_gpu_par;

/* gpu: built by smtlm_gpu_init(_lazy) (the C engine). NULL when out of memory or threads. */
smtlm_gpu_par *smtlm_gpu_par_new(smtlm_gpu *gpu, unsigned n_threads);
/* smtlm_gpu_run with the SMs stepped in windows on the pool's n_threads host threads. */
smtlm_run_status smtlm_gpu_par_run(smtlm_gpu_par *p);
/* The cycles run in windows so far (the rest ran cycle by cycle). */
uint64_t smtlm_gpu_par_window_cycles(const smtlm_gpu_par *p);
void smtlm_gpu_par_free(smtlm_gpu_par *p);

#ifdef __cplusplus
}
#endif

#endif
