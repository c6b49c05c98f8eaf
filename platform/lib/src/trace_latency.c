/* Per-category (latency, initiation interval) in trace mode: Accel-Sim trace_config::set_latency
 * plus the FP16 half-II rule of trace_warp_inst_t::parse_from_trace_struct. */
#include <stdio.h>

#include "trace_internal.h"

#define MAX_LATENCY 511u /* GPGPU-Sim pipelines hold at most 512 stages */

smtlm_trace_latency smtlm_trace_latency_defaults(void)
{
    smtlm_trace_latency l;
    unsigned k;
    smtlm_trace_lat_ii d41 = {4, 1}, d44 = {4, 4};
    l.int_op = d41;
    l.sp = d41;
    l.dp = d41;
    l.sfu = d41;
    l.tensor = d41;
    for (k = 0; k < SMTLM_MAX_SPEC_UNITS; k++)
        l.spec[k] = d44;
    return l;
}

static int check_one(smtlm_trace_lat_ii v, const char *name, unsigned k, char *err,
                     size_t errlen)
{
    char label[32];
    if (k > 0)
        snprintf(label, sizeof label, "%s%u", name, k);
    else
        snprintf(label, sizeof label, "%s", name);
    if (v.latency > MAX_LATENCY || !smtlm_ii_fits(v.latency, v.ii))
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_ARG, "trace latency table", 0,
                          "%s = %u,%u out of range (latency 1..%u, ii 0..latency; with ii 0 latency at most %u)",
                          label, v.latency, v.ii, MAX_LATENCY, SMTLM_MAX_LATENCY_II0);
    return 0;
}

int smtlm_trace_latency_check(const smtlm_trace_latency *lat, char *err, size_t errlen)
{
    unsigned k;
    int rc;
    if (lat == NULL)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_ARG, "trace latency table", 0, "NULL");
    if ((rc = check_one(lat->int_op, "int", 0, err, errlen)) < 0 ||
        (rc = check_one(lat->sp, "sp", 0, err, errlen)) < 0 ||
        (rc = check_one(lat->dp, "dp", 0, err, errlen)) < 0 ||
        (rc = check_one(lat->sfu, "sfu", 0, err, errlen)) < 0 ||
        (rc = check_one(lat->tensor, "tensor", 0, err, errlen)) < 0)
        return rc;
    for (k = 0; k < SMTLM_MAX_SPEC_UNITS; k++)
        if ((rc = check_one(lat->spec[k], "spec_op_", k + 1, err, errlen)) < 0)
            return rc;
    return 0;
}

void smtlm_trace_latency_apply(const smtlm_trace_latency *lat, smtlm_opcat cat, unsigned flags,
                               uint16_t *latency, uint16_t *ii)
{
    smtlm_trace_lat_ii v = {1, 1};
    switch (cat) {
    case SMTLM_OPCAT_ALU:
    case SMTLM_OPCAT_INTP:
    case SMTLM_OPCAT_BRANCH:
    case SMTLM_OPCAT_CALL:
    case SMTLM_OPCAT_RET: v = lat->int_op; break;
    case SMTLM_OPCAT_SP: v = lat->sp; break;
    case SMTLM_OPCAT_DP: v = lat->dp; break;
    case SMTLM_OPCAT_SFU: v = lat->sfu; break;
    case SMTLM_OPCAT_TENSOR_CORE: v = lat->tensor; break;
    default:
        if (cat >= SMTLM_OPCAT_SPEC_1 && cat <= SMTLM_OPCAT_SPEC_8)
            v = lat->spec[cat - SMTLM_OPCAT_SPEC_1];
        break; /* LOAD, STORE, BARRIER, MEMBAR, EXIT: 1,1 */
    }
    if (flags & SMTLM_OPF_FP16_HALF_II) {
        v.ii /= 2; /* FP16 has twice the FP32 throughput */
        if (v.ii < 1)
            v.ii = 1;
    }
    *latency = (uint16_t)v.latency;
    *ii = (uint16_t)v.ii;
}
