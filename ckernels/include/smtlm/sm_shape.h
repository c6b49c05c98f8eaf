/* What an SM's blocks know of the SM as a whole. The SM's configuration (smtlm_sm_cfg) gives
 * it once, and each block that follows it gets it when it is built: the sub-core layout (issue,
 * the operand collector and the register file) and the execution units (the units themselves;
 * issue routes instructions to them; the collector forwards to their register sets). */
#ifndef SMTLM_SM_SHAPE_H
#define SMTLM_SM_SHAPE_H

#include "smtlm/common.h"
#include "smtlm/inst.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct smtlm_sm_shape {
    unsigned n_sched; /* -gpgpu_num_sched_per_core: warp schedulers, one per sub-core */
    int sub_core;     /* -gpgpu_sub_core_model: each scheduler has its own slot of every
                         register set and its own collector units and register banks */
} smtlm_sm_shape;

typedef struct smtlm_sm_spec_unit {
    unsigned num_units;     /* 0 = unit absent */
    unsigned max_latency;   /* pipeline depth */
    unsigned id_oc_width, oc_ex_width;
    char name[16];
} smtlm_sm_spec_unit;

/* The pipelined execution units and their pipeline depths. */
typedef struct smtlm_units_cfg {
    unsigned n_sp, n_dp, n_int, n_sfu, n_tensor;
    int tensor_core_avail; /* -gpgpu_tensor_core_avail: without it the tensor units are absent */
    unsigned depth_sp, depth_dp, depth_int, depth_sfu, depth_tensor;
    smtlm_sm_spec_unit spec[SMTLM_MAX_SPEC_UNITS];
} smtlm_units_cfg;

/* The tensor units the SM has (none without -gpgpu_tensor_core_avail). */
static inline unsigned smtlm_units_tensor(const smtlm_units_cfg *u) { return u->tensor_core_avail ? u->n_tensor : 0; }

#ifdef __cplusplus
}
#endif

#endif
