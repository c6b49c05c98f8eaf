/* The pipeline log's parts: what it learns of an instruction between decode and retirement
 * (pipeline_log.c, from the sample hook) and how that becomes a Kanata record
 * (pipeline_record.c). */
#ifndef SMTLM_PIPELINE_LOG_INTERNAL_H
#define SMTLM_PIPELINE_LOG_INTERNAL_H

#include "smtlm/gpu.h"
#include "smtlm/kanata_log.h"

#define PL_RUNS 8 /* stall runs kept per instruction; the last one takes any later ones */

/* From `from` on, the instruction at the head of its warp's buffer waited for reason `why`
 * (SMTLM_WS_*, SMTLM_VIEW_OTHER, or SMTLM_VIEW_MIXED for the last run when there were more). */
typedef struct pl_run {
    uint64_t from;
    uint8_t why;
} pl_run;

/* What the sampler learnt of the instruction in one pool entry. */
typedef struct pl_side {
    uint64_t gen;                 /* 0: no instruction followed here */
    uint64_t uid;                 /* its uid once issued */
    uint64_t seen;                /* the cycle it entered the instruction buffer */
    uint64_t opnd[SMTLM_MAX_SRC]; /* the cycle each operand was read (bit set in `known`) */
    int dep[SMTLM_MAX_SRC];       /* the Kanata handles of its producers (held) */
    uint8_t known, clipped, issued, logged, n_runs;
    pl_run run[PL_RUNS];
    uint32_t waited[SMTLM_WS_COUNT + 1]; /* cycles at the head per reason (SMTLM_VIEW_OTHER last) */
} pl_side;

/* The instruction at the head of its warp's buffer waited for `why` in the n cycles from
 * `from`: counted, and a new run unless it continues the last one. A cycle in which another
 * warp issued first says nothing new: it continues the run it falls in. */
void pl_add_run(pl_side *s, uint64_t from, uint64_t n, unsigned why);

/* Operand slots read from the register file: one per distinct source register (a register
 * named twice is read once, by its first slot). */
unsigned pl_distinct_sources(const smtlm_inst *in);

/* Adds the Kanata record of a retired instruction; returns a handle when keep (else 0), -1
 * when out of memory. thread = the Kanata thread id (SM x warps per SM + warp). */
int pl_add_record(smtlm_kanata *k, const smtlm_inst *in, const pl_side *s, const smtlm_sm_view *v, unsigned sm,
                  unsigned kernel, unsigned thread, int keep);

#endif
