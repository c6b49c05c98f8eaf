/* -smtlm_threads: the C engine's SMs stepped on several host threads where they cannot
 * interact, with results identical to smtlm_gpu_run (docs/ARCHITECTURE.md, "SMs in parallel"). */
#ifndef SMTLM_GPU_PARALLEL_H
#define SMTLM_GPU_PARALLEL_H

#include "smtlm/gpu.h"

typedef struct smtlm_gpu_par smtlm_gpu_par;

/* gpu: built by smtlm_gpu_init(_lazy) (the C engine). NULL when out of memory or threads. */
smtlm_gpu_par *smtlm_gpu_par_new(smtlm_gpu *gpu, unsigned n_threads);
/* smtlm_gpu_run on n_threads host threads. */
smtlm_run_status smtlm_gpu_par_run(smtlm_gpu_par *p);
void smtlm_gpu_par_free(smtlm_gpu_par *p);

#endif
