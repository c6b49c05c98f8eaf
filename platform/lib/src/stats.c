/* Statistics snapshot, GPGPU-Sim-named text output and JSON output. */
#include "smtlm/stats.h"

#include "stats_internal.h"

#include <inttypes.h>
#include <string.h>

static const char *limit_name(int l)
{
    static const char *n[] = {"threads", "shared memory", "registers", "CTAs per SM", "grid size"};
    return l >= 0 && l < 5 ? n[l] : "?";
}

/* The register file's and operand collector's counters of one SM (gpgpusim mode). */
static void add_collector(smtlm_stats *st, const smtlm_sm_view *sm)
{
    st->n_banks = sm->cfg->rf.n_banks;
    for (unsigned b = 0; b < sm->cfg->rf.n_banks; b++) {
        st->bank_reads[b] += sm->rf->reads[b];
        st->bank_writes[b] += sm->rf->writes[b];
        st->bank_wait_steps[b] += sm->rf->wait_steps[b];
    }
    st->n_cus = sm->oc->n_cus;
    st->cu_busy_sum += sm->oc->occupancy_sum;
    for (unsigned c = 0; c <= sm->oc->n_cus; c++)
        st->cu_hist[c] += sm->oc->occupancy_hist[c];
    for (unsigned c = 0; c < 64; c++)
        st->collect_lat_hist[c] += sm->oc->collect_lat_hist[c];
    for (unsigned d = 0; d < SMTLM_RF_DEPTH_BINS; d++)
        st->queue_depth_hist[d] += sm->rf->queue_depth_hist[d];
    st->dropped_writes += sm->rf->dropped_writes;
    st->buffered_writes += sm->rf->buffered_writes;
}

void smtlm_stats_collect(const smtlm_gpu *gpu, double core_clock_mhz, smtlm_stats *st)
{
    memset(st, 0, sizeof *st);
    st->gpu = gpu;
    st->core_clock_mhz = core_clock_mhz;
    st->tot_issued_cta = gpu->total_ctas_issued;
    st->sim_cycle = gpu->sim_cycle;
    st->sim_insn = smtlm_gpu_sim_insn(gpu);
    st->sim_warp_insn = smtlm_gpu_sim_warp_insn(gpu);
    st->tot_cycle = gpu->tot_cycle + gpu->sim_cycle;
    st->tot_insn = gpu->tot_insn + st->sim_insn;
    st->tot_warp_insn = gpu->tot_warp_insn + st->sim_warp_insn;
    st->ctas_per_sm = gpu->max_cta_per_sm;
    st->skipped_cycles = gpu->skipped_cycles;
    st->cta_limit = (int)gpu->cta_limit;
    for (unsigned i = 0; i < gpu->n_sm; i++) {
        smtlm_sm_view view;
        smtlm_gpu_sm_view(gpu, i, &view);
        const smtlm_sm_view *sm = &view;
        for (unsigned s = 0; s < sm->cfg->shape.n_sched; s++) {
            for (unsigned c = 0; c < SMTLM_DISTRO_SIZE; c++)
                st->distro[c] += sm->iss->distro[s][c];
            st->single_issue += smtlm_issue_single(sm->iss, s);
            st->dual_issue += sm->iss->dual_issue[s];
        }
        st->conflict_cycles += sm->stats.conflict_cycles;
        st->active_cycles += sm->stats.active_cycles;
        if (sm->rf && sm->oc) /* gpgpusim mode's register file and collector */
            add_collector(st, sm);
        for (unsigned f = 0; f < sm->ex->n_fu; f++)
            st->fu_busy[sm->ex->fu[f].kind] += smtlm_exec_unit_busy_cycles(sm->ex, f);
        st->ldst_busy += sm->ldst->busy_cycles;
        for (unsigned w = 0; w < sm->cfg->issue.max_warps; w++)
            for (unsigned r = 0; r < SMTLM_WS_COUNT; r++)
                st->warp_stall[r] += sm->iss->warp_stall[w][r];
        st->result_bus_stalls += sm->ex->rb.stalls;
        st->shmem_accesses += sm->ldst->shmem_accesses;
        st->shmem_bank_conflicts += sm->ldst->shmem_bank_conflicts;
        st->mem_requests += gpu->mem[i].accepted;
        st->mem_bytes += gpu->mem[i].bytes;
        st->mem_latency_sum += gpu->mem[i].latency_sum;
    }
}

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

/* Simulated time of the kernel at the core clock, in microseconds (cycles / MHz). */
static double sim_time_us(const smtlm_stats *st)
{
    return st->core_clock_mhz > 0 ? (double)st->sim_cycle / st->core_clock_mhz : 0.0;
}

static const char *const smtlm_stats_fu_name[SMTLM_FU_KINDS] = {"sp", "dp", "int", "sfu", "tensor", "spec"};

const char *smtlm_stats_fu_kind_name(unsigned kind) { return kind < SMTLM_FU_KINDS ? smtlm_stats_fu_name[kind] : "?"; }
static const char *ws_name[SMTLM_WS_COUNT] = {"issued", "ibuffer_empty", "barrier", "membar", "atomic",
                                              "draining", "scoreboard", "unit_busy"};

void smtlm_stats_print(FILE *out, const smtlm_stats *st)
{
    fprintf(out, "kernel_name = %s\n", st->kernel_name ? st->kernel_name : "");
    fprintf(out, "kernel_launch_uid = %u\n", st->kernel_uid);
    fprintf(out, "gpu_sim_cycle = %" PRIu64 "\n", st->sim_cycle);
    fprintf(out, "gpu_sim_insn = %" PRIu64 "\n", st->sim_insn);
    fprintf(out, "gpu_ipc = %12.4f\n", ratio(st->sim_insn, st->sim_cycle));
    fprintf(out, "gpu_tot_sim_cycle = %" PRIu64 "\n", st->tot_cycle);
    fprintf(out, "gpu_tot_sim_insn = %" PRIu64 "\n", st->tot_insn);
    fprintf(out, "gpu_tot_ipc = %12.4f\n", ratio(st->tot_insn, st->tot_cycle));
    fprintf(out, "gpu_tot_issued_cta = %" PRIu64 "\n", st->tot_issued_cta);
    fprintf(out, "gpu_sim_warp_insn = %" PRIu64 "\n", st->sim_warp_insn);
    fprintf(out, "gpgpu_n_tot_thrd_icount = %" PRIu64 "\n", st->tot_insn);
    fprintf(out, "gpgpu_n_tot_w_icount = %" PRIu64 "\n", st->tot_warp_insn);
    if (st->core_clock_mhz > 0)
        fprintf(out, "smtlm_sim_time_us = %.6f (core clock %.1f MHz)\n", sim_time_us(st), st->core_clock_mhz);
    fprintf(out, "CTA/core = %" PRIu64 ", limited by: %s\n", st->ctas_per_sm, limit_name(st->cta_limit));
    fprintf(out, "gpu_reg_bank_conflict_stalls = %" PRIu64 "\n", st->conflict_cycles);
    fprintf(out, "Stall:%" PRIu64 "\tW0_Idle:%" PRIu64 "\tW0_Scoreboard:%" PRIu64, st->distro[SMTLM_DISTRO_STALL],
            st->distro[SMTLM_DISTRO_IDLE], st->distro[SMTLM_DISTRO_SCOREBOARD]);
    for (unsigned k = 1; k <= SMTLM_WARP_SIZE; k++)
        fprintf(out, "\tW%u:%" PRIu64, k, st->distro[SMTLM_DISTRO_W0 + k]);
    fprintf(out, "\n");
    fprintf(out, "single_issue_nums = %" PRIu64 "\ndual_issue_nums = %" PRIu64 "\n", st->single_issue, st->dual_issue);
    fprintf(out, "smtlm_cu_occupancy_mean = %.4f\n", ratio(st->cu_busy_sum, st->active_cycles));
    fprintf(out, "smtlm_rf_bank_reads =");
    for (unsigned b = 0; b < st->n_banks; b++)
        fprintf(out, " %" PRIu64, st->bank_reads[b]);
    fprintf(out, "\nsmtlm_rf_bank_wait_steps =");
    for (unsigned b = 0; b < st->n_banks; b++)
        fprintf(out, " %" PRIu64, st->bank_wait_steps[b]);
    fprintf(out, "\nsmtlm_fu_busy_cycles =");
    for (unsigned f = 0; f < SMTLM_FU_KINDS; f++)
        fprintf(out, " %s:%" PRIu64, smtlm_stats_fu_name[f], st->fu_busy[f]);
    fprintf(out, " ldst:%" PRIu64 "\n", st->ldst_busy);
    fprintf(out, "gpgpu_n_shmem_bkconflict = %" PRIu64 "\n", st->shmem_bank_conflicts);
    fprintf(out, "smtlm_mem_requests = %" PRIu64 "\nsmtlm_mem_avg_latency = %.1f\n", st->mem_requests,
            ratio(st->mem_latency_sum, st->mem_requests));
}

static void json_array(FILE *out, const char *name, const uint64_t *v, unsigned n)
{
    fprintf(out, "\"%s\":[", name);
    for (unsigned i = 0; i < n; i++)
        fprintf(out, "%s%" PRIu64, i ? "," : "", v[i]);
    fprintf(out, "]");
}

void smtlm_stats_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

/* Per-warp stall reasons: one entry per warp slot ever examined on an SM that ran in the
 * kernel, so the list is bounded by the kernel's SMs (a slot reused by later CTAs accumulates). */
static void json_warp_stalls(FILE *out, const smtlm_stats *st)
{
    fprintf(out, "\"warp_stall_per_warp\":[");
    unsigned n = 0;
    for (unsigned s = 0; st->gpu && s < st->gpu->n_sm; s++) {
        smtlm_sm_view view;
        smtlm_gpu_sm_view(st->gpu, s, &view);
        const smtlm_sm_view *sm = &view;
        if (!smtlm_gpu_sm_ran_in_kernel(st->gpu, s, sm))
            continue;
        for (unsigned w = 0; w < sm->cfg->issue.max_warps; w++) {
            uint64_t any = 0;
            for (unsigned r = 0; r < SMTLM_WS_COUNT; r++)
                any |= sm->iss->warp_stall[w][r];
            if (!any)
                continue;
            fprintf(out, "%s{\"sm\":%u,\"warp\":%u", n++ ? "," : "", s, w);
            for (unsigned r = 0; r < SMTLM_WS_COUNT; r++)
                fprintf(out, ",\"%s\":%" PRIu64, ws_name[r], sm->iss->warp_stall[w][r]);
            fprintf(out, "}");
        }
    }
    fprintf(out, "]");
}

void smtlm_stats_json(FILE *out, const smtlm_stats *st)
{
    fprintf(out, "{\"kernel_name\":");
    smtlm_stats_json_string(out, st->kernel_name);
    fprintf(out, ",\"kernel_launch_uid\":%u", st->kernel_uid);
    if (st->listing_from) {
        fprintf(out, ",\"sass_listing\":{\"from\":");
        smtlm_stats_json_string(out, st->listing_from);
        fprintf(out, ",\"path\":");
        smtlm_stats_json_string(out, st->listing_path ? st->listing_path : "");
        fprintf(out, "}");
    }
    fprintf(out, ",\"gpu_sim_cycle\":%" PRIu64 ",\"gpu_sim_insn\":%" PRIu64 ",\"gpu_ipc\":%.6f", st->sim_cycle,
            st->sim_insn, ratio(st->sim_insn, st->sim_cycle));
    fprintf(out, ",\"gpu_sim_warp_insn\":%" PRIu64 ",\"gpgpu_n_tot_w_icount\":%" PRIu64, st->sim_warp_insn, st->tot_warp_insn);
    fprintf(out, ",\"gpu_tot_issued_cta\":%" PRIu64, st->tot_issued_cta);
    fprintf(out, ",\"core_clock_mhz\":%.3f,\"sim_time_us\":%.6f", st->core_clock_mhz, sim_time_us(st));
    fprintf(out, ",\"gpu_tot_sim_cycle\":%" PRIu64 ",\"gpu_tot_sim_insn\":%" PRIu64, st->tot_cycle, st->tot_insn);
    fprintf(out, ",\"ctas_per_sm\":%" PRIu64 ",\"cta_limit\":\"%s\"", st->ctas_per_sm, limit_name(st->cta_limit));
    fprintf(out, ",\"stall\":%" PRIu64 ",\"w0_idle\":%" PRIu64 ",\"w0_scoreboard\":%" PRIu64,
            st->distro[SMTLM_DISTRO_STALL], st->distro[SMTLM_DISTRO_IDLE], st->distro[SMTLM_DISTRO_SCOREBOARD]);
    fprintf(out, ",");
    json_array(out, "issued_by_active_lanes", st->distro + SMTLM_DISTRO_W0 + 1, SMTLM_WARP_SIZE);
    fprintf(out, ",\"single_issue_nums\":%" PRIu64 ",\"dual_issue_nums\":%" PRIu64, st->single_issue, st->dual_issue);
    fprintf(out, ",\"warp_stall\":{");
    for (unsigned r = 0; r < SMTLM_WS_COUNT; r++)
        fprintf(out, "%s\"%s\":%" PRIu64, r ? "," : "", ws_name[r], st->warp_stall[r]);
    fprintf(out, "},");
    json_warp_stalls(out, st);
    fprintf(out, ",\"gpu_reg_bank_conflict_stalls\":%" PRIu64 ",", st->conflict_cycles);
    json_array(out, "rf_bank_reads", st->bank_reads, st->n_banks);
    fprintf(out, ",");
    json_array(out, "rf_bank_writes", st->bank_writes, st->n_banks);
    fprintf(out, ",");
    json_array(out, "rf_bank_wait_steps", st->bank_wait_steps, st->n_banks);
    fprintf(out, ",\"cu_occupancy_mean\":%.6f,", ratio(st->cu_busy_sum, st->active_cycles));
    json_array(out, "cu_occupancy_hist", st->cu_hist, st->n_cus + 1);
    fprintf(out, ",");
    json_array(out, "operand_collection_latency_hist", st->collect_lat_hist, 64);
    fprintf(out, ",");
    json_array(out, "rf_queue_depth_hist", st->queue_depth_hist, SMTLM_RF_DEPTH_BINS);
    fprintf(out, ",\"fu_busy_cycles\":{");
    for (unsigned f = 0; f < SMTLM_FU_KINDS; f++)
        fprintf(out, "\"%s\":%" PRIu64 ",", smtlm_stats_fu_name[f], st->fu_busy[f]);
    fprintf(out, "\"ldst\":%" PRIu64 "}", st->ldst_busy);
    fprintf(out, ",\"skipped_cycles\":%" PRIu64, st->skipped_cycles);
    fprintf(out, ",\"sm_active_cycles\":%" PRIu64 ",\"result_bus_stalls\":%" PRIu64, st->active_cycles, st->result_bus_stalls);
    fprintf(out, ",\"wb_dropped_writes\":%" PRIu64 ",\"wb_buffered_writes\":%" PRIu64, st->dropped_writes, st->buffered_writes);
    fprintf(out, ",\"shmem_accesses\":%" PRIu64 ",\"shmem_bank_conflicts\":%" PRIu64, st->shmem_accesses, st->shmem_bank_conflicts);
    fprintf(out, ",\"mem_requests\":%" PRIu64 ",\"mem_bytes\":%" PRIu64 ",\"mem_avg_latency\":%.3f,", st->mem_requests,
            st->mem_bytes, ratio(st->mem_latency_sum, st->mem_requests));
    smtlm_stats_json_sms(out, st->gpu);
    fputc('}', out);
}
