/* The Muon issue logic inside an SM (-smtlm_mode muon): the state the Muon composition adds to
 * an smtlm_sm and its configuration. The front end (fetch, decode, instruction buffers), the
 * execute units, result buses and the LDST are the SM's own; issue (schedulers + scoreboard)
 * and the operand collector are replaced by the Muon scoreboard, reservation station and
 * collector kernels. Cycle order and timing: docs/MUON.md, "The Muon SM". */
#ifndef SMTLM_SM_MUON_H
#define SMTLM_SM_MUON_H

#include "smtlm/muon_collector.h"
#include "smtlm/muon_rs.h"
#include "smtlm/muon_sb.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SMTLM_MUON_NO_TAG 0xFFFFu

/* What smtlm_sm_cfg carries for muon mode (enabled = 0: the GPGPU-Sim composition). */
typedef struct smtlm_sm_muon_cfg {
    int enabled;
    smtlm_muon_sb_cfg sb;      /* n_warps is set by the SM from max_warps */
    smtlm_muon_rs_cfg rs;
    smtlm_muon_coll_cfg coll;
} smtlm_sm_muon_cfg;

/* One admitted instruction, by its Muon tag (the scoreboard's and RS's id). A tag lives from
 * admission until its instruction dispatched and its scoreboard ticket is no longer live. */
typedef struct smtlm_sm_muon_tag {
    uint16_t ref;              /* instruction-pool entry while it is in the pipeline */
    uint8_t used;
    uint8_t dispatched;
    uint8_t row;               /* RS row until dispatch */
    int8_t entry;              /* collector entry (-1: none) until released */
    uint8_t wb_waiting;        /* a register release waits on the writeback gate */
    uint16_t warp;
    uint32_t pc;
} smtlm_sm_muon_tag;

/* Statistics of the composition (the kernels keep their own). */
typedef struct smtlm_sm_muon_stats {
    uint64_t admit_stall[SMTLM_MUON_VERDICTS]; /* head verdicts of warps that could not be admitted */
    uint64_t wb_gate_waits;                     /* cycles x writebacks held by the writeback gate */
    uint64_t tag_stalls;                        /* admissions deferred because no tag was free */
} smtlm_sm_muon_stats;

typedef struct smtlm_sm_muon {
    smtlm_muon_sb sb;
    smtlm_muon_rs rs;
    smtlm_muon_coll coll;
    smtlm_sm_muon_tag tag[SMTLM_MUON_MAX_TAGS];
    uint16_t ref_tag[SMTLM_POOL_SIZE];          /* pool entry -> tag */
    uint16_t writer[SMTLM_MAX_WARPS][SMTLM_MUON_REGS]; /* the tag holding pendingWrite of (w, reg) */
    uint64_t tag_free[SMTLM_MUON_MAX_TAGS / 64];
    /* writebacks held by the gate: ALU results still holding their pool entry (ref != NO_INST)
     * or LDST register releases (the pool entry is gone), oldest first */
    uint16_t held[SMTLM_MUON_MAX_TAGS];
    unsigned n_held;
    /* collector entries to release (readData) in the cycle after their row dispatched */
    int8_t release[SMTLM_MUON_RS_MAX];
    unsigned n_release;
    /* wake-ups deferred to the end of the cycle (no forwarding: the RS requests the woken
     * operand from the next cycle on, when the write is visible in the register file) */
    struct { uint16_t warp; int16_t reg; } wake[SMTLM_MUON_COLL_MAX_WB];
    unsigned n_wake;
    smtlm_sm_muon_stats st;
} smtlm_sm_muon;

#ifdef __cplusplus
}
#endif
#endif
