/* Writeback (GPGPU-Sim shader_core_ctx::writeback): drains every instruction in EX_WB, writes
 * its destination banks and releases the scoreboard. Faithful mode: a write to a bank that
 * already took one this cycle is dropped with no stall (the return value GPGPU-Sim ignores).
 * -smtlm_fix_wb_bank_conflict 1: one write per bank per cycle; extra writes wait in a per-bank
 * buffer (their registers stay reserved) and block that bank's reads until drained. */
#ifndef SMTLM_WRITEBACK_H
#define SMTLM_WRITEBACK_H

#include "smtlm/inst_pool.h"
#include "smtlm/regfile.h"
#include "smtlm/regset.h"
#include "smtlm/scoreboard.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SMTLM_WB_BUF_CAP 64

typedef struct smtlm_wb_entry { uint16_t warp, reg; } smtlm_wb_entry;

typedef struct smtlm_wb {
    int fix_bank_conflict;
    smtlm_wb_entry buf[SMTLM_MAX_BANKS][SMTLM_WB_BUF_CAP];
    uint16_t head[SMTLM_MAX_BANKS], len[SMTLM_MAX_BANKS];
    uint64_t dropped_writes;   /* faithful mode: same-bank writes that were not recorded */
    uint64_t buffered_writes;  /* fix mode: writes that had to wait */
} smtlm_wb;

typedef struct smtlm_wb_env {
    smtlm_inst_pool *pool;
    smtlm_rf *rf;
    smtlm_scoreboard *sb;
    uint64_t now;
    void *owner;
    void (*retire)(void *owner, smtlm_iref r); /* stats, in_pipeline--, then frees */
} smtlm_wb_env;

void smtlm_wb_init(smtlm_wb *wb, int fix_bank_conflict);
void smtlm_wb_reset(smtlm_wb *wb);
/* Drains buffered writes (fix mode), then all of EX_WB. */
void smtlm_wb_cycle(smtlm_wb *wb, smtlm_regset *exwb, const smtlm_wb_env *env);
int smtlm_wb_pending(const smtlm_wb *wb);

#ifdef __cplusplus
}
#endif
#endif
