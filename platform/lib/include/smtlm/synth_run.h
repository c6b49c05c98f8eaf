/* The built-in synthetic workload as smsim runs it: the -smtlm_synth_* options and the
 * configured latency table turned into an smtlm_synth generator. */
#ifndef SMTLM_SYNTH_RUN_H
#define SMTLM_SYNTH_RUN_H

#include "smtlm/engine_config.h"
#include "smtlm/options.h"
#include "smtlm/synth.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct smtlm_synth_run smtlm_synth_run;

/* Returns 0, or -1 with "<file>:<line>: -option: ..." in err. */
int smtlm_synth_run_open(smtlm_synth_run **out, const smtlm_options *opts, const smtlm_run_cfg *cfg,
                         unsigned n_sm, char *err, size_t errlen);
void smtlm_synth_run_close(smtlm_synth_run *r);
smtlm_inst_source smtlm_synth_run_iface(smtlm_synth_run *r);
smtlm_cta_binder smtlm_synth_run_binder(smtlm_synth_run *r);
smtlm_kernel_desc smtlm_synth_run_kernel(const smtlm_synth_run *r);
/* The kernel's warp instructions, each warp's EXIT included. */
uint64_t smtlm_synth_run_warp_insts(const smtlm_synth_run *r);

#ifdef __cplusplus
}
#endif
#endif
