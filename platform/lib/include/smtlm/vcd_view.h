/* -smtlm_vcd: the shown SMs' pipeline as waveforms, one time unit per core cycle, read from the
 * kernels' state by the GPU's sample hook after every cycle (so both engines write the same
 * file). Per SM (scope smN):
 *   cu_busy         collector units holding an instruction (end of the cycle)
 *   result_buses    result buses carrying a result in the cycle
 *   ldst_busy       the LDST unit holds work (an instruction, accesses, responses)
 *   schedK.issued   instructions scheduler K issued in the cycle
 *   schedK.state    0 the SM did not run, 1 issued, 2 idle (no warp with an instruction),
 *                   3 scoreboard (no warp free of it), 4 stall (a ready warp could not issue)
 *   bankB.rd, .wr   read and write grants of register bank B in the cycle
 *   bankB.queue     reads waiting in bank B's queue (end of the cycle)
 *   fu.<kind><k>    unit k of a kind (sp, dp, int, sfu, tensor, spec<u>_) holds an instruction
 *   warpW.verdict   what the scheduler found for warp W in the cycle: 0 not examined, else
 *                   1 + SMTLM_WS_* (1 issued, 2 ibuffer empty, 3 barrier, 4 membar, 5 atomics,
 *                   6 draining, 7 scoreboard, 8 pipeline busy)
 *   warpW.in_flight warp W's instructions decoded and not yet retired
 * Per-cycle counts hold through the cycles of an idle skip (each the same) and drop to 0 over
 * cycles no SM ran. */
#ifndef SMTLM_VCD_VIEW_H
#define SMTLM_VCD_VIEW_H

#include <stdio.h>

#include "smtlm/gpu.h"
#include "smtlm/view_filter.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct smtlm_vcd_view smtlm_vcd_view;

/* Declares the signals of the filter's SMs and warps on f (not closed by it); the dump covers
 * the filter's cycle window. NULL when out of memory. */
smtlm_vcd_view *smtlm_vcd_view_new(FILE *f, const smtlm_gpu *gpu, const smtlm_view_filter *flt);
/* The GPU's sample hook (smtlm_sample_hook). */
void smtlm_vcd_view_sample(void *view, const smtlm_gpu *gpu, uint64_t first, uint64_t n);
/* Ends the dump: cycle `end` (the one after the last) shows the counts at 0; frees the view.
 * -1 when writing failed. */
int smtlm_vcd_view_close(smtlm_vcd_view *v, uint64_t end);

#ifdef __cplusplus
}
#endif
#endif
