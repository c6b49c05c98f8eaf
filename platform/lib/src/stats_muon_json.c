/* The per-SM "muon" part of the stats JSON (muon mode): the reservation station, the
 * scoreboard's admission verdicts and writeback gate, and the Muon collector with its PRF
 * banks. Read from the SM views, so both engines write the same bytes. */
#include "stats_internal.h"

#include <inttypes.h>

void smtlm_stats_json_muon(FILE *out, const smtlm_sm_view *sm)
{
    const smtlm_muon_issue *mi = sm->muon;
    const smtlm_muon_coll_stats *c = &sm->muon_coll->st;
    fprintf(out, ",\"muon\":{\"rs\":{\"entries\":%u,\"admitted\":%" PRIu64 ",\"dispatched\":%" PRIu64
                 ",\"occupancy_sum\":%" PRIu64 ",\"cycles_eligible\":%" PRIu64 "}",
            mi->rs.cfg.rs_entries, mi->rs.admitted, mi->rs.dispatched, mi->rs.occupancy_sum, mi->rs.cycles_eligible);
    fprintf(out, ",\"admit_stalls\":{\"waw\":%" PRIu64 ",\"war\":%" PRIu64 ",\"saturated\":%" PRIu64 ",\"fence\":%" PRIu64
                 "},\"wb_gate_waits\":%" PRIu64 ",\"tag_stalls\":%" PRIu64,
            mi->st.admit_stall[SMTLM_MUON_STALL_WAW], mi->st.admit_stall[SMTLM_MUON_STALL_WAR],
            mi->st.admit_stall[SMTLM_MUON_STALL_SATURATED], mi->st.admit_stall[SMTLM_MUON_STALL_FENCE], mi->st.wb_gate_waits,
            mi->st.tag_stalls);
    fprintf(out, ",\"collector\":{\"kind\":\"%s\",\"entries\":%u,\"requests\":%" PRIu64 ",\"responses\":%" PRIu64
                 ",\"cycles\":%" PRIu64 ",\"occupancy_sum\":%" PRIu64 ",\"prf_reads\":%" PRIu64 ",\"conflict_waits\":%" PRIu64
                 ",\"conflict_cycles\":%" PRIu64 ",\"lost_to_forward\":%" PRIu64 ",\"forwards\":%" PRIu64
                 ",\"forward_drops\":%" PRIu64 ",\"cache_hits_in_place\":%" PRIu64 ",\"cache_hits_copy\":%" PRIu64
                 ",\"invalidations\":%" PRIu64 ",\"zero_reads\":%" PRIu64 ",\"prf_bank_reads\":[",
            smtlm_muon_coll_kind_name(sm->muon_coll->cfg.kind), sm->muon_coll->cfg.entries, c->requests, c->responses,
            c->cycles, c->occupancy_sum, c->prf_reads, c->conflict_waits, c->conflict_cycles, c->lost_to_forward, c->forwards,
            c->forward_drops, c->cache_hits_in_place, c->cache_hits_copy, c->invalidations, c->zero_reads);
    for (unsigned b = 0; b < sm->muon_coll->cfg.prf_banks; b++)
        fprintf(out, "%s%" PRIu64, b ? "," : "", c->bank_reads[b]);
    fprintf(out, "]}}");
}
