/* Diagnostics for runs that stop early: which warps are stuck and why. */
#ifndef SMTLM_DIAG_H
#define SMTLM_DIAG_H

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

#ifdef __cplusplus
}
#endif
#endif
