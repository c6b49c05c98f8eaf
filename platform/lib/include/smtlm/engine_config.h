/* Turns parsed GPGPU-Sim/Accel-Sim options into the C engine's configuration, with checks
 * that name the option (and the file:line that set it) when a value is impossible. */
#ifndef SMTLM_ENGINE_CONFIG_H
#define SMTLM_ENGINE_CONFIG_H

#include <stddef.h>

#include "smtlm/engine.h"
#include "smtlm/gpu.h"
#include "smtlm/options.h"
#include "smtlm/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Everything a run needs besides the workload. */
typedef struct smtlm_run_cfg {
    smtlm_gpu_cfg gpu;
    smtlm_trace_latency lat;   /* -trace_opcode_latency_initiation_* */
    double core_clock_mhz;     /* first field of -gpgpu_clock_domains */
} smtlm_run_cfg;

/* Fills *out from opts. Returns 0, or -1 with one message "<file>:<line>: ..." in err. */
int smtlm_engine_config(const smtlm_options *opts, smtlm_run_cfg *out, char *err, size_t errlen);

/* Fills *p from opts: the engine's clock (core_clock_mhz, from smtlm_run_cfg), -smtlm_quantum_cycles,
 * -smtlm_mem_real_access, -smtlm_tlm_dmi, -smtlm_addr_map (parsed and checked) and -smtlm_threads
 * (1 to 64). Returns 0, or -1 with one message "<file>:<line>: ..." in err. */
int smtlm_engine_params_config(const smtlm_options *opts, double core_clock_mhz, smtlm_engine_params *p, char *err,
                               size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
