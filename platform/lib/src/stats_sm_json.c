/* The per-SM part of the stats JSON ("sms"): every counter of each SM that ran in the kernel,
 * per scheduler, per register-file bank, per function unit, with the collector's histograms.
 * Read from the SM views, so both engines write the same bytes. */
#include "stats_internal.h"

#include <inttypes.h>

static const char *unit_name[8] = {"none", "sp", "sfu", "mem", "dp", "int", "tensor", "specialized"};

static void u64_array(FILE *out, const char *name, const uint64_t *v, unsigned n)
{
    fprintf(out, "\"%s\":[", name);
    for (unsigned i = 0; i < n; i++)
        fprintf(out, "%s%" PRIu64, i ? "," : "", v[i]);
    fputc(']', out);
}

static void schedulers(FILE *out, const smtlm_sm_view *sm)
{
    fprintf(out, ",\"schedulers\":[");
    for (unsigned s = 0; s < sm->cfg->shape.n_sched; s++) {
        const uint64_t *d = sm->iss->distro[s];
        fprintf(out, "%s{\"stall\":%" PRIu64 ",\"w0_idle\":%" PRIu64 ",\"w0_scoreboard\":%" PRIu64 ",", s ? "," : "",
                d[SMTLM_DISTRO_STALL], d[SMTLM_DISTRO_IDLE], d[SMTLM_DISTRO_SCOREBOARD]);
        u64_array(out, "issued_by_active_lanes", d + SMTLM_DISTRO_W0 + 1, SMTLM_WARP_SIZE);
        fprintf(out, ",\"single_issue\":%" PRIu64 ",\"dual_issue\":%" PRIu64 "}", smtlm_issue_single(sm->iss, s),
                sm->iss->dual_issue[s]);
    }
    fputc(']', out);
}

static void banks(FILE *out, const smtlm_sm_view *sm)
{
    fprintf(out, ",\"rf_banks\":[");
    for (unsigned b = 0; b < sm->cfg->rf.n_banks; b++)
        fprintf(out, "%s{\"reads\":%" PRIu64 ",\"writes\":%" PRIu64 ",\"wait_steps\":%" PRIu64 "}", b ? "," : "",
                sm->rf->reads[b], sm->rf->writes[b], sm->rf->wait_steps[b]);
    fprintf(out, "],\"rf_steps_with_wait\":%" PRIu64 ",\"wb_dropped_writes\":%" PRIu64 ",\"wb_buffered_writes\":%" PRIu64 ",",
            sm->rf->steps_with_wait, sm->rf->dropped_writes, sm->rf->buffered_writes);
    u64_array(out, "rf_queue_depth_hist", sm->rf->queue_depth_hist, SMTLM_RF_DEPTH_BINS);
}

static void units(FILE *out, const smtlm_sm_view *sm)
{
    fprintf(out, ",\"units\":[");
    unsigned index[SMTLM_FU_KINDS] = {0};
    for (unsigned f = 0; f < sm->ex->n_fu; f++) {
        const smtlm_fu *fu = &sm->ex->fu[f];
        fprintf(out, "%s{\"kind\":\"%s\",\"index\":%u", f ? "," : "", smtlm_stats_fu_kind_name(fu->kind), index[fu->kind]++);
        if (fu->kind == SMTLM_FU_SPEC)
            fprintf(out, ",\"specialized_unit\":%u", fu->spec);
        fprintf(out, ",\"issued\":%" PRIu64 ",\"busy_cycles\":%" PRIu64 "}", fu->issued,
                smtlm_exec_unit_busy_cycles(sm->ex, f));
    }
    fprintf(out, "],\"ldst\":{\"issued\":%" PRIu64 ",\"busy_cycles\":%" PRIu64 ",\"shmem_accesses\":%" PRIu64
                 ",\"shmem_bank_conflicts\":%" PRIu64 ",\"mem_requests\":%" PRIu64 ",\"mem_responses\":%" PRIu64
                 ",\"wb_bank_stalls\":%" PRIu64 "}",
            sm->ldst->issued, sm->ldst->busy_cycles, sm->ldst->shmem_accesses, sm->ldst->shmem_bank_conflicts,
            sm->ldst->mem_requests, sm->ldst->mem_responses, sm->ldst->wb_bank_stalls);
    fprintf(out, ",\"result_bus_stalls\":%" PRIu64, sm->ex->rb.stalls);
}

static void collector(FILE *out, const smtlm_sm_view *sm)
{
    fprintf(out, ",\"collector\":{\"units\":%u,\"allocations\":%" PRIu64 ",\"dispatches\":%" PRIu64
                 ",\"occupancy_sum\":%" PRIu64 ",",
            sm->oc->n_cus, smtlm_opcoll_allocations(sm->oc), smtlm_opcoll_dispatches(sm->oc), sm->oc->occupancy_sum);
    u64_array(out, "occupancy_hist", sm->oc->occupancy_hist, sm->oc->n_cus + 1);
    fputc(',', out);
    u64_array(out, "operand_collection_latency_hist", sm->oc->collect_lat_hist, 64);
    fputc(',', out);
    u64_array(out, "cu_allocations", sm->oc->cu_allocations, sm->oc->n_cus);
    fputc(',', out);
    u64_array(out, "cu_held_cycles", sm->oc->cu_held, sm->oc->n_cus);
    fputc('}', out);
}

void smtlm_stats_json_sms(FILE *out, const smtlm_gpu *gpu)
{
    fprintf(out, "\"sms\":[");
    unsigned n = 0;
    for (unsigned i = 0; gpu && i < gpu->n_sm; i++) {
        smtlm_sm_view v;
        smtlm_gpu_sm_view(gpu, i, &v);
        if (!smtlm_gpu_sm_ran_in_kernel(gpu, i, &v))
            continue; /* idle in this kernel: its counters are those of an earlier kernel's entry */
        fprintf(out, "%s{\"sm\":%u,\"active_cycles\":%" PRIu64 ",\"warp_insts\":%" PRIu64 ",\"thread_insts\":%" PRIu64
                     ",\"conflict_cycles\":%" PRIu64 ",\"completed_by_unit\":{",
                n++ ? "," : "", i, v.stats.active_cycles, v.stats.warp_insts, v.stats.thread_insts,
                v.stats.conflict_cycles);
        for (unsigned u = 1; u < 8; u++)
            fprintf(out, "%s\"%s\":%" PRIu64, u > 1 ? "," : "", unit_name[u], v.stats.unit_insts[u]);
        fputc('}', out);
        schedulers(out, &v);
        if (v.muon) /* muon mode: its own collector and PRF */
            smtlm_stats_json_muon(out, &v);
        else if (v.silicon) /* the silicon core: its own register reads */
            smtlm_stats_json_silicon(out, &v);
        else {
            banks(out, &v);
            collector(out, &v);
        }
        units(out, &v);
        fprintf(out, ",\"mem\":{\"accepted\":%" PRIu64 ",\"bytes\":%" PRIu64 ",\"latency_sum\":%" PRIu64 "}}",
                gpu->mem[i].accepted, gpu->mem[i].bytes, gpu->mem[i].latency_sum);
    }
    fputc(']', out);
}
