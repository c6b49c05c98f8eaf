/* Execution units of one SM (GPGPU-Sim shader_core_ctx::execute without the LDST unit): the
 * pipelined units in m_fu order (SP, DP, INT, SFU, tensor, specialized) and the result buses.
 * Each unit reads its OC_EX register set (its own slot under the sub-core model) and needs a
 * result bus free `latency` cycles ahead to accept an instruction; finished instructions move
 * into EX_WB. */
#ifndef SMTLM_EXEC_H
#define SMTLM_EXEC_H

#include "smtlm/fu.h"
#include "smtlm/inst_pool.h"
#include "smtlm/regset.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct smtlm_exec {
    unsigned n_fu;
    int sub_core;
    smtlm_fu fu[SMTLM_MAX_FUS];
    smtlm_resbus rb;
    uint64_t exwb_overflow; /* results lost because EX_WB was full (misconfiguration) */
} smtlm_exec;

int smtlm_exec_init(smtlm_exec *ex, unsigned n_result_buses, int sub_core);
/* Appends `count` units of one kind reading OC_EX set `issue_set` (unit k reads slot k). */
int smtlm_exec_add_units(smtlm_exec *ex, smtlm_fu_kind kind, unsigned spec, unsigned count,
                         unsigned depth, unsigned issue_set);
void smtlm_exec_reset(smtlm_exec *ex);
/* One execute() pass over the pipelined units. */
int smtlm_exec_cycle(smtlm_exec *ex, smtlm_regset *rs, smtlm_inst_pool *pool, uint64_t now);
int smtlm_exec_busy(const smtlm_exec *ex);

#ifdef __cplusplus
}
#endif
#endif
