/* Human-readable names of the kernels' status codes. */
#include "smtlm/common.h"

const char *smtlm_status_str(int status)
{
    switch (status) {
    case SMTLM_OK: return "ok";
    case SMTLM_EINVAL: return "invalid configuration";
    case SMTLM_ERANGE: return "value exceeds a built-in limit";
    case SMTLM_EFULL: return "no free slot";
    case SMTLM_EINPUT: return "malformed instruction";
    case SMTLM_ESOURCE: return "instruction source error";
    case SMTLM_EMEMORY: return "memory error response";
    default: return "unknown error";
    }
}
