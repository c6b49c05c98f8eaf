/* The stats JSON document of a whole run (see stats.h): its head, the kernels as they end,
 * and the end with the totals and whether the run completed. */
#include <inttypes.h>

#include "smtlm/stats.h"

void smtlm_stats_json_run_begin(FILE *out)
{
    fprintf(out, "{\"schema_version\":%d,\"kernels\":[", SMTLM_STATS_SCHEMA_VERSION);
}

void smtlm_stats_json_run_kernel(FILE *out, unsigned index, const smtlm_stats *st)
{
    fprintf(out, "%s\n  ", index ? "," : "");
    smtlm_stats_json(out, st);
}

void smtlm_stats_json_run_end(FILE *out, const smtlm_stats_run_end *e)
{
    fprintf(out, "\n],\"gpu_tot_sim_cycle\":%" PRIu64 ",\"gpu_tot_sim_insn\":%" PRIu64 ",\"wall_seconds\":%.6f,", e->tot_cycle,
            e->tot_insn, e->wall_seconds);
    fprintf(out, "\"complete\":%s,\"exit_status\":%d,\"error\":", e->exit_status ? "false" : "true", e->exit_status);
    smtlm_stats_json_string(out, e->error ? e->error : "");
    fputs("}\n", out);
}
