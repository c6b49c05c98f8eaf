/* The per-SM "silicon" part of the stats JSON (-smtlm_core silicon): instructions per pipe and
 * what held issues back. Read from the SM views, so both engines write the same bytes. */
#include "stats_internal.h"

#include <inttypes.h>

void smtlm_stats_json_silicon(FILE *out, const smtlm_sm_view *sm)
{
    static const char *const pipe_name[SMTLM_PIPE_COUNT] = {"none", "fma", "fma_heavy", "alu", "fp16", "mma16", "fp64",
                                                            "mufu", "lsu", "tensor", "other"};
    const smtlm_silicon_stats *st = &sm->silicon->st;
    fprintf(out, ",\"silicon\":{\"issued\":{");
    for (unsigned p = 0; p < SMTLM_PIPE_COUNT; p++)
        fprintf(out, "%s\"%s\":%" PRIu64, p ? "," : "", pipe_name[p], st->issued[p]);
    fprintf(out, "},\"register_reads\":%" PRIu64 ",\"reuse_hits\":%" PRIu64 ",\"bank_stalls\":%" PRIu64
                 ",\"write_stalls\":%" PRIu64 ",\"pipe_stalls\":%" PRIu64 ",\"barrier_stalls\":%" PRIu64 ",\"shared_wavefronts\":%" PRIu64 "}",
            st->reads, st->reuse_hits, st->bank_stalls, st->write_stalls, st->pipe_stalls, st->bar_stalls, st->wavefronts);
}
