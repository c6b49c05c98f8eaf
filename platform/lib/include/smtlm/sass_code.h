/* A kernel's control bits by PC, built from its function in a `cuobjdump -sass` listing: what the
 * silicon core follows (smtlm_code, ctrl.h). Each instruction's entry holds its encoded stall
 * count, yield bit, barriers and wait mask; for each source in the trace's order its reuse flag
 * and operand slot; whether its sources are 64-bit pairs (smtlm_sass_wide_sources); and its pipe
 * (smtlm_sass_pipe). */
#ifndef SMTLM_SASS_CODE_H
#define SMTLM_SASS_CODE_H

#include <stddef.h>

#include "smtlm/ctrl.h"
#include "smtlm/sass_listing.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Builds *out (allocating its table) from f. 0, or -1 with "<listing>:<line>: ..." in err (a PC
 * that is not a multiple of 16). */
int smtlm_sass_code_build(const smtlm_sass_listing *l, const smtlm_sass_func *f, smtlm_code *out, char *err, size_t n);
/* The entry of one listing instruction (what smtlm_sass_code_build stores at its PC). */
smtlm_ctrl smtlm_sass_code_entry(const smtlm_sass_inst *in);
void smtlm_sass_code_free(smtlm_code *c);

#ifdef __cplusplus
}
#endif
#endif
