/* Names the views of the model (-smtlm_pipeline_log, -smtlm_vcd) give to what they show. */
#ifndef SMTLM_VIEW_NAMES_H
#define SMTLM_VIEW_NAMES_H

#include <stddef.h>

#include "smtlm/fu.h"
#include "smtlm/inst_pool.h"
#include "smtlm/issue.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A stall reason of a warp's next instruction in a cycle: the scheduler's verdict
 * (SMTLM_WS_*), or SMTLM_VIEW_OTHER when its scheduler issued another warp first. */
#define SMTLM_VIEW_OTHER SMTLM_WS_COUNT
/* A stretch of several reasons (a pipeline log row keeps a few stretches per instruction). */
#define SMTLM_VIEW_MIXED (SMTLM_WS_COUNT + 1)

/* "sp", "int", "load", ... (smtlm_op; "spec3" for specialized unit 3). */
const char *smtlm_view_op_name(unsigned op, unsigned spec, char *buf, size_t n);
/* The unit type chosen at issue: "SP", "SFU", "LDST", "DP", "INT", "TENSOR", "SPEC". */
const char *smtlm_view_unit_name(unsigned unit);
/* A function unit kind as a signal name: "sp", "dp", "int", "sfu", "tensor", "spec". */
const char *smtlm_view_fu_name(unsigned kind);
/* A simulator register number as the trace names it: R<n-1>, RZ for 256. */
const char *smtlm_view_reg_name(int reg, char *buf, size_t n);
/* A stall reason: a short stage name ("sb") and what it means ("scoreboard: ..."). */
const char *smtlm_view_stall_short(unsigned why);
const char *smtlm_view_stall_text(unsigned why);

#ifdef __cplusplus
}
#endif
#endif
