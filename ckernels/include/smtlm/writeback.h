/* Writeback (GPGPU-Sim shader_core_ctx::writeback): drains every instruction in EX_WB, writes
 * its destination registers through the register file's write port and releases them in the
 * scoreboard. A write that collides with another in the same bank is the register file's
 * business (dropped, or buffered under -smtlm_fix_wb_bank_conflict); writeback never stalls.
 * Ports: EX_WB (the register set it reads and owns), the instruction pool, the register-file
 * write port and the warp events of the issue stage. */
#ifndef SMTLM_WRITEBACK_H
#define SMTLM_WRITEBACK_H

#include "smtlm/inst_pool.h"
#include "smtlm/ports.h"
#include "smtlm/regset.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct smtlm_wb {
    int oldest_first;          /* take EX_WB oldest first (fix mode's buffers need it) */
    smtlm_regset *exwb;
    smtlm_inst_pool *pool;
    smtlm_rf_write_ops rf;
    smtlm_warp_ops warps;
} smtlm_wb;

/* oldest_first: 1 under -smtlm_fix_wb_bank_conflict (in faithful mode the order in which EX_WB
 * drains is not observable: every write releases its register and marks its bank). */
void smtlm_wb_init(smtlm_wb *wb, int oldest_first);
void smtlm_wb_bind(smtlm_wb *wb, smtlm_regset *exwb, smtlm_inst_pool *pool, const smtlm_rf_write_ops *rf,
                   const smtlm_warp_ops *warps);
void smtlm_wb_reset(smtlm_wb *wb);
/* Drains all of EX_WB at cycle `now`. */
void smtlm_wb_cycle(smtlm_wb *wb, uint64_t now);
static inline int smtlm_wb_idle(const smtlm_wb *wb) { return wb->exwb->count == 0; }

#ifdef __cplusplus
}
#endif
#endif
