/* Diagnostics for runs that stop early: which warps are stuck and why, why a kernel failed. */
#ifndef SMTLM_DIAG_H
#define SMTLM_DIAG_H

#include <stddef.h>
#include <stdio.h>

#include "smtlm/gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the memory line, then one line per live warp of every SM (at most `max` lines):
 * "sm S warp W: <reason> at pc 0x..." where the reason is what keeps it from issuing. */
void smtlm_describe_stuck_warps(FILE *out, const smtlm_gpu *gpu, unsigned max);
/* One line about the memory system: requests outstanding (in flight and queued at the SMs'
 * ports) with the oldest one's SM, warp, pc, address and age, or that none is outstanding. */
void smtlm_describe_memory(FILE *out, const smtlm_gpu *gpu);
/* Why warp w of sm cannot issue now, as a short phrase. */
const char *smtlm_warp_block_reason(const smtlm_sm_view *sm, unsigned w);
/* Why a kernel ended with SMTLM_RUN_ERROR (other than a memory error response), in one line as
 * smsim prints it and the SystemC Gpu reports it: the instruction source's own message when it
 * has one (`source_error`, the trace reader's "<file>:<line>: ..."), else "<where>:<line>: " and
 * why the SM refused the instruction of that line (SMTLM_EINPUT) or the engine's status. `where`
 * names the kernel's trace. */
void smtlm_describe_kernel_error(const smtlm_gpu *gpu, const char *where, const char *source_error, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
