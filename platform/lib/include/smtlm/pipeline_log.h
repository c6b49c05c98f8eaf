/* -smtlm_pipeline_log: every instruction's way through the SM as a Kanata log (the Konata
 * viewer's format). Stages (lane 0): IB in the instruction buffer, IS issued into ID_OC, OC in
 * a collector unit, DI dispatched into OC_EX, EX in its unit (the LDST's memory access
 * included), WB written back. Stalls (lane 1): the scheduler's reason for each cycle the
 * instruction waited at the head of its warp's instruction buffer, and the waits for a
 * collector unit, for register banks, for an OC_EX slot and for the unit.
 *
 * The event cycles are the retire hook's (smtlm_inst.ev); the rest is read from the kernels'
 * state by the GPU's sample hook after every cycle: instruction buffers, the scheduler's
 * per-warp stall counters, and the collector units' operands still to read. Both engines
 * expose the same state, so they write the same file. */
#ifndef SMTLM_PIPELINE_LOG_H
#define SMTLM_PIPELINE_LOG_H

#include <stddef.h>
#include <stdio.h>

#include "smtlm/gpu.h"
#include "smtlm/view_filter.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct smtlm_pipeline_log smtlm_pipeline_log;

/* A log written to f (not closed by it) for the instructions the filter shows: those of its
 * SMs and warps issued in its cycle window. NULL when out of memory. */
smtlm_pipeline_log *smtlm_pipeline_log_new(FILE *f, const smtlm_gpu *gpu, const smtlm_view_filter *flt);
/* The GPU's sample hook (smtlm_sample_hook) and what the retire hook hands over. */
void smtlm_pipeline_log_sample(void *log, const smtlm_gpu *gpu, uint64_t first, uint64_t n);
void smtlm_pipeline_log_retired(smtlm_pipeline_log *p, const smtlm_gpu *gpu, unsigned sm, const smtlm_inst *in);
/* After a kernel: everything up to its last cycle is written; the next kernel is kernel k + 1. */
void smtlm_pipeline_log_kernel_end(smtlm_pipeline_log *p, const smtlm_gpu *gpu);
/* Instructions written so far. */
uint64_t smtlm_pipeline_log_count(const smtlm_pipeline_log *p);
/* Writes the rest and frees the log; -1 when writing failed or memory ran out. */
int smtlm_pipeline_log_close(smtlm_pipeline_log *p);

#ifdef __cplusplus
}
#endif
#endif
