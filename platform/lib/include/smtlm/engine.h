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

#define SMTLM_MAX_ADDR_MAP 16
#define SMTLM_MAX_THREADS 64 /* -smtlm_threads' upper bound */

/* -smtlm_sm_windows: 0, 1, auto. Auto: where the memory is known to be order-independent (the C
 * engine's own memory model is; the SystemC engine asks its memory target). */
enum { SMTLM_WINDOWS_OFF = 0, SMTLM_WINDOWS_ON = 1, SMTLM_WINDOWS_AUTO = 2 };

/* What an engine with a SoC side and time takes besides the GPU configuration. */
typedef struct smtlm_engine_params {
    double core_clock_mhz;       /* the clock period */
    uint64_t quantum_cycles;     /* synchronisation batch; 0 = the engine's default */
    int real_access;             /* memory: real reads/writes instead of timing-only accesses */
    int stage_dmi;               /* SystemC: pipeline hand-offs by TLM-2.0 DMI where granted */
    int single_mem_port;         /* SystemC: every SM's memory requests through the Gpu's one socket */
    int memory_waits;            /* SystemC: every memory access in a process of its own (a target that waits) */
    unsigned threads;            /* -smtlm_threads: host threads for the SMs (0 or 1 = one; more only up to
                                  * the engine's max_threads) */
    int threads_best_effort;     /* threads chosen by the program, not the user: one if they cannot start */
    int sm_windows;              /* -smtlm_sm_windows: SMTLM_WINDOWS_* (each SM stepped alone for windows) */
    unsigned n_map;              /* -smtlm_addr_map: trace windows moved into the SoC map */
    struct { uint64_t trace_base, size, soc_base; } map[SMTLM_MAX_ADDR_MAP];
} smtlm_engine_params;

typedef struct smtlm_engine {
    const char *name; /* as -smtlm_engine names it: "c", "systemc" */
    /* Builds the GPU (and its platform) for cfg. On success *gpu is the GPU state to launch
     * kernels on; else -1 with a message in msg. */
    int (*create)(void **self, const smtlm_gpu_cfg *cfg, const smtlm_engine_params *p, smtlm_gpu **gpu, char *msg,
                  size_t n);
    /* Runs the kernel launched on *gpu to its end (done, limit, deadlock or error). */
    smtlm_run_status (*run)(void *self);
    void (*destroy)(void *self);
    /* Host threads it can step the SMs on (0 or 1: one, as the SystemC engine). */
    unsigned max_threads;
} smtlm_engine;

/* What an engine's create says when the memory for the GPU cannot be allocated (both engines,
 * one message: printf format, the number of SMs). */
#define SMTLM_ENGINE_NO_MEMORY "out of memory for %u SMs"

/* The C engine. */
const smtlm_engine *smtlm_c_engine(void);

#ifdef __cplusplus
}
#endif
#endif
