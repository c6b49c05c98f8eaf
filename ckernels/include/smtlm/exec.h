/* Execution units of one SM (GPGPU-Sim shader_core_ctx::execute without the LDST unit): the
 * pipelined units in m_fu order (SP, DP, INT, SFU, tensor, specialized) and the result buses.
 * Each unit reads its OC_EX register set (its own slot under the sub-core model) and needs a
 * result bus free `latency` cycles ahead to accept an instruction; finished instructions move
 * into EX_WB. */
#ifndef SMTLM_EXEC_H
#define SMTLM_EXEC_H

#include "smtlm/fu.h"
#include "smtlm/inst_pool.h"
#include "smtlm/ports.h"
#include "smtlm/regset.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct smtlm_exec {
    unsigned n_fu;
    int sub_core;
    smtlm_fu fu[SMTLM_MAX_FUS];
    smtlm_resbus rb;
    /* A unit is visited only in the cycles its calendar entries name (smtlm_fu_visit) and tries
     * to issue only while an OC_EX set it reads holds an instruction; all other cycles would
     * change nothing for it. */
    uint64_t t;                                   /* execute cycles so far (the units' clock) */
    smtlm_fu_cal cal;
    /* Runs of units reading one OC_EX set, unit first + k reading slot slot0 + k, within one
     * word of the unit masks (bind). */
    unsigned n_groups;
    smtlm_regset *group_set[SMTLM_MAX_FUS]; /* looked at every cycle: kept apart */
    struct smtlm_exec_group {
        uint8_t first, slot0;
        uint64_t mask; /* bit k: unit first + k */
    } group[SMTLM_MAX_FUS];
    /* Bit k (k < 64): group k's set may hold an instruction. The sets' puts set the bits
     * (smtlm_regset watch), the issue pass clears them when it finds the set empty; groups from
     * 64 on are looked at every cycle. */
    uint64_t live;
    uint64_t wide;          /* nonzero when groups from 64 on exist (no `live` bit tells of them) */
    uint64_t exwb_overflow; /* results lost because EX_WB was full (misconfiguration) */
    /* ports (smtlm_exec_bind) */
    smtlm_regset *in[SMTLM_NUM_REGSETS]; /* its own OC_EX sets (NULL for the others) */
    smtlm_stage_port out;                 /* hand-off into EX_WB (writeback's) */
    smtlm_inst_pool *pool;
    const char *cfg_error;               /* why init / add_units rejected the configuration */
} smtlm_exec;

int smtlm_exec_init(smtlm_exec *ex, unsigned n_result_buses, int sub_core);
/* Appends `count` units of one kind reading OC_EX set `issue_set` (unit k reads slot k). */
int smtlm_exec_add_units(smtlm_exec *ex, smtlm_fu_kind kind, unsigned spec, unsigned count,
                         unsigned depth, unsigned issue_set);
/* Ports, after the units are added: of the SM's row of register sets it keeps the OC_EX sets
 * its units read (its own); finished instructions go to EX_WB through `out`. */
void smtlm_exec_bind(smtlm_exec *ex, smtlm_regset *sets, const smtlm_stage_port *out, smtlm_inst_pool *pool);
void smtlm_exec_reset(smtlm_exec *ex);
/* One execute() pass over the pipelined units at cycle `now`. */
int smtlm_exec_cycle(smtlm_exec *ex, uint64_t now);
/* smtlm_exec_cycle when the coming cycle would only move the clocks: no unit is due a visit
 * and no OC_EX set the units read may hold work. Returns 1 when it did the cycle so, 0 when
 * smtlm_exec_cycle must do it (nothing changed then). */
static inline int smtlm_exec_idle_cycle(smtlm_exec *ex)
{
    const uint64_t *due = ex->cal.at[(ex->t + 1) & SMTLM_RING_MASK];
    uint64_t any = ex->live | ex->wide;
    for (unsigned w = 0; w < SMTLM_FU_WORDS; w++)
        any |= due[w];
    if (any)
        return 0;
    smtlm_resbus_shift(&ex->rb);
    ex->t++;
    return 1;
}
/* The cycle as an SM runs it (both engines): the idle shortcut, else the full pass. */
static inline int smtlm_exec_step(smtlm_exec *ex, uint64_t now)
{
    return smtlm_exec_idle_cycle(ex) ? SMTLM_OK : smtlm_exec_cycle(ex, now);
}
int smtlm_exec_busy(const smtlm_exec *ex);
/* 1 when no unit holds an instruction and its OC_EX sets are empty. */
int smtlm_exec_idle(const smtlm_exec *ex);
/* Accounts k idle cycles (smtlm_exec_idle): the clock and the result buses advance as k cycles
 * would (an idle exec has no calendar entries left). */
void smtlm_exec_skip(smtlm_exec *ex, uint64_t k);
/* Unit i's busy cycles so far (GPGPU-Sim counts them per cycle; here per busy interval). */
static inline uint64_t smtlm_exec_unit_busy_cycles(const smtlm_exec *ex, unsigned i)
{
    return smtlm_fu_busy_cycles(&ex->fu[i], ex->t);
}

#ifdef __cplusplus
}
#endif
#endif
