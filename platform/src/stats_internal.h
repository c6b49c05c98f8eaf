/* Shared between the stats writers (stats.c, stats_sm_json.c). */
#ifndef SMTLM_STATS_INTERNAL_H
#define SMTLM_STATS_INTERNAL_H

#include <stdio.h>

#include "smtlm/stats.h"

/* "sms":[...]: one entry per SM that ran (active cycles > 0). */
void smtlm_stats_json_sms(FILE *out, const smtlm_gpu *gpu);

#endif
