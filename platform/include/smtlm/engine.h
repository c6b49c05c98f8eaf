/* An engine runs the GPU model for smsim: the C engine (smtlm_gpu over smtlm_sm), or the
 * SystemC/TLM model (smtlm::Gpu over smtlm::Sm modules). Both expose the same C GPU state
 * (smtlm_gpu) for launching kernels and reading statistics, and give identical results. */
#ifndef SMTLM_ENGINE_H
#define SMTLM_ENGINE_H

#include <stddef.h>

#include "smtlm/gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct smtlm_engine {
    const char *name; /* as -smtlm_engine names it: "c", "systemc" */
    /* Builds the GPU for cfg. core_clock_mhz gives engines with time their clock period;
     * quantum_cycles their synchronisation batch (0 = their default). On success *gpu is the
     * GPU state to launch kernels on; else -1 with a message in msg. */
    int (*create)(void **self, const smtlm_gpu_cfg *cfg, double core_clock_mhz, uint64_t quantum_cycles,
                  smtlm_gpu **gpu, char *msg, size_t n);
    /* Runs the kernel launched on *gpu to its end (done, limit, deadlock or error). */
    smtlm_run_status (*run)(void *self);
    void (*destroy)(void *self);
} smtlm_engine;

/* The C engine. */
const smtlm_engine *smtlm_c_engine(void);

#ifdef __cplusplus
}
#endif
#endif
