/* Statistics of a run: a snapshot summed over the SMs, printed on stdout with GPGPU-Sim's names
 * (so Accel-Sim's scripts keep working) and written as JSON (-smtlm_stats_json). Counters of the
 * SMs (stall distribution, banks, collectors, units) are cumulative over the run's kernels, as
 * GPGPU-Sim's are; gpu_sim_* are per kernel and gpu_tot_* cumulative. */
#ifndef SMTLM_STATS_H
#define SMTLM_STATS_H

#include <stdio.h>

#include "smtlm/gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The stats JSON's layout version ("schema_version" at the top; docs/STATS.md): raised when
 * a field is renamed, moved or removed, not when one is added. */
#define SMTLM_STATS_SCHEMA_VERSION 3

typedef struct smtlm_stats {
    const char *kernel_name;
    unsigned kernel_uid;
    const char *listing_from;       /* silicon core: where the kernel's SASS listing came from
                                     * ("smtlm_sass", "beside", "none"); NULL for the other cores */
    const char *listing_path;       /* that listing ("" for none) */
    uint64_t sim_cycle, sim_insn, sim_warp_insn;
    uint64_t tot_cycle, tot_insn, tot_warp_insn;
    uint64_t distro[SMTLM_DISTRO_SIZE];
    uint64_t single_issue, dual_issue;
    uint64_t bank_reads[SMTLM_MAX_BANKS], bank_writes[SMTLM_MAX_BANKS], bank_wait_steps[SMTLM_MAX_BANKS];
    unsigned n_banks;
    uint64_t conflict_cycles;       /* gpu_reg_bank_conflict_stalls */
    uint64_t active_cycles;         /* SM cycles with the body running, summed */
    uint64_t cu_busy_sum;
    uint64_t cu_hist[SMTLM_MAX_CUS + 1];
    unsigned n_cus;
    uint64_t collect_lat_hist[64];
    uint64_t queue_depth_hist[SMTLM_RF_DEPTH_BINS];
    uint64_t fu_busy[SMTLM_FU_KINDS];   /* busy cycles summed over units of a kind */
    uint64_t ldst_busy;
    uint64_t warp_stall[SMTLM_WS_COUNT];
    uint64_t result_bus_stalls, dropped_writes, buffered_writes;
    uint64_t shmem_accesses, shmem_bank_conflicts, mem_requests, mem_bytes, mem_latency_sum;
    uint64_t ctas_per_sm;
    uint64_t tot_issued_cta;        /* CTAs issued since the run began (gpu_tot_issued_cta) */
    double core_clock_mhz;          /* first field of -gpgpu_clock_domains: cycles -> time */
    uint64_t skipped_cycles;        /* accounted in bulk while every SM only waited */
    int cta_limit;
    const smtlm_gpu *gpu;           /* for the per-warp entries of the JSON */
} smtlm_stats;

/* "sp", "dp", "int", "sfu", "tensor", "spec" (the JSON's unit kind names). */
const char *smtlm_stats_fu_kind_name(unsigned kind);
/* Snapshot of gpu; core_clock_mhz converts cycles to simulated time (0 = unknown). */
void smtlm_stats_collect(const smtlm_gpu *gpu, double core_clock_mhz, smtlm_stats *st);
/* GPGPU-Sim-style block for one kernel. */
void smtlm_stats_print(FILE *out, const smtlm_stats *st);
/* One JSON object (no trailing newline). Its per-SM sections ("sms") and per-warp entries
 * cover the SMs that ran in the GPU's current kernel (smtlm_gpu_sm_ran_in_kernel), with their
 * counters since the run began. Histogram bins: cu_occupancy_hist[i] counts SM
 * cycles with i busy collector units (bin width 1); operand_collection_latency_hist[i] counts
 * instructions whose operands took i cycles from collector allocation (bin width 1 cycle, the
 * last bin holds 63 and more). */
void smtlm_stats_json(FILE *out, const smtlm_stats *st);
/* s as a JSON string, quotes included. */
void smtlm_stats_json_string(FILE *out, const char *s);

/* The run's document, written as the run goes: the head, each kernel's object (0-based index),
 * then the end, which says whether the run completed: every kernel asked for simulated (up to a
 * -gpgpu_max_* limit) and every output written, i.e. exit status 0. */
typedef struct smtlm_stats_run_end {
    uint64_t tot_cycle, tot_insn; /* gpu_tot_sim_cycle, gpu_tot_sim_insn */
    double wall_seconds;
    int exit_status;              /* smsim's: 0 complete, else why not (error text) */
    const char *error;            /* the first error message, "" when complete */
} smtlm_stats_run_end;
void smtlm_stats_json_run_begin(FILE *out);
void smtlm_stats_json_run_kernel(FILE *out, unsigned index, const smtlm_stats *st);
void smtlm_stats_json_run_end(FILE *out, const smtlm_stats_run_end *e);

#ifdef __cplusplus
}
#endif
#endif
