/* Shared between the stats writers (stats.c, stats_sm_json.c). */
#ifndef SMTLM_STATS_INTERNAL_H
#define SMTLM_STATS_INTERNAL_H

#include <stdio.h>

#include "smtlm/stats.h"

/* "sms":[...]: one entry per SM that ran in the kernel (smtlm_gpu_sm_ran_in_kernel), so a
 * run of many kernels writes each SM's section once per kernel it ran in. */
void smtlm_stats_json_sms(FILE *out, const smtlm_gpu *gpu);
/* The per-SM "muon" section of an SM in muon mode (stats_muon_json.c). */
void smtlm_stats_json_muon(FILE *out, const smtlm_sm_view *sm);
void smtlm_stats_json_silicon(FILE *out, const smtlm_sm_view *sm);

#endif
