/* The speed work's reference inputs as Accel-Sim trace text (Volta binary 70):
 *   imix    1 TB of 16 warps x N instructions alternating FFMA and IADD3, sources R3 R4 R5,
 *           destinations rotating over R20..R27 (independent), then EXIT
 *   dep     1 TB of 16 warps x N `FFMA R2 <- R2 R4 R6` (each depends on the one before), EXIT
 *   manycta imix with N instructions per warp, 8 warps per TB, T thread blocks
 * Used by smtlm_refgen (files) and smtlm_bench_trace (in memory). */
#ifndef SMTLM_BENCH_REFGEN_TEXT_H
#define SMTLM_BENCH_REFGEN_TEXT_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct refgen {
    const char *kind;
    unsigned warps_per_tb, insts, tbs;
    int dependent;
} refgen;

/* The defaults of input `kind` (imix, dep, manycta); -1 for another name. */
int refgen_kind(refgen *g, const char *kind);
/* The whole .traceg text of g. */
void refgen_write(FILE *f, const refgen *g);

#ifdef __cplusplus
}
#endif
#endif
