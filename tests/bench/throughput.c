/* Whole-run throughput of the C engine: one QV100-like SM, one CTA of 32 warps running an
 * ALU-heavy synthetic stream, repeated R times. Prints simulated SM-cycles per second and warp
 * instructions per second (median, min, max). The simulated cycle count must be the same in
 * every repetition (the engine is deterministic); the program fails if it is not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "throughput.h"

typedef struct tp_result {
    int ok;
    uint64_t gpu_cycles, sm_cycles, warp_insts;
    double seconds;
} tp_result;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static tp_result run_once(const smtlm_synth_cfg *scfg)
{
    tp_result r;
    memset(&r, 0, sizeof r);
    smtlm_gpu_cfg cfg;
    smtlm_gpu_cfg_qv100(&cfg);
    cfg.n_clusters = 1;
    smtlm_sm *sm = calloc(1, sizeof *sm);
    smtlm_mem_model *mem = calloc(1, sizeof *mem);
    smtlm_gpu *gpu = calloc(1, sizeof *gpu);
    smtlm_synth s;
    int rc = sm && mem && gpu ? smtlm_gpu_init(gpu, &cfg, sm, mem) : SMTLM_EFULL;
    if (rc == SMTLM_OK)
        rc = smtlm_synth_init(&s, scfg);
    if (rc == SMTLM_OK) {
        const smtlm_inst_source src = smtlm_synth_source(&s);
        const smtlm_cta_binder b = smtlm_synth_binder(&s);
        smtlm_gpu_set_source(gpu, &src, &b);
        const smtlm_kernel_desc k = smtlm_synth_kernel(&s);
        const double t0 = now_s();
        rc = smtlm_gpu_launch(gpu, &k);
        smtlm_run_status st = rc ? SMTLM_RUN_ERROR : smtlm_gpu_run(gpu);
        r.seconds = now_s() - t0;
        r.gpu_cycles = gpu->sim_cycle;
        r.sm_cycles = sm->stats.active_cycles;
        r.warp_insts = smtlm_gpu_sim_warp_insn(gpu);
        r.ok = st == SMTLM_RUN_DONE && r.warp_insts == smtlm_synth_total_warp_insts(&s);
        if (!r.ok)
            fprintf(stderr, "smtlm_throughput: run ended with status %d (error %s), %llu of %llu warp instructions\n",
                    (int)st, smtlm_status_str(gpu->error), (unsigned long long)r.warp_insts,
                    (unsigned long long)smtlm_synth_total_warp_insts(&s));
        smtlm_synth_free(&s);
    } else {
        fprintf(stderr, "smtlm_throughput: setup failed: %s\n", smtlm_status_str(rc));
    }
    free(gpu);
    free(mem);
    free(sm);
    return r;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void summary(const char *what, double *v, unsigned n)
{
    qsort(v, n, sizeof *v, cmp_double);
    double med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    printf("%-14s median %.3f M/s  min %.3f M/s  max %.3f M/s\n", what, med / 1e6, v[0] / 1e6, v[n - 1] / 1e6);
}

int main(int argc, char **argv)
{
    tp_args a;
    int p = tp_parse_args(argc, argv, &a);
    if (p)
        return p > 0 ? 0 : 2;
    char mix[128];
    smtlm_synth_mix_str(&a.synth.mix, mix, sizeof mix);
    printf("smtlm_throughput: C engine, QV100-like config, 1 SM, 1 CTA x %u warps, mix %s, dep %u, %u regs, "
           "%u insts/warp, seed %llu, %u reps\n",
           a.synth.warps_per_cta, mix, a.synth.dep_distance, a.synth.n_regs, a.synth.insts_per_warp,
           (unsigned long long)a.synth.seed, a.reps);
    double *cps = calloc(a.reps, sizeof *cps), *ips = calloc(a.reps, sizeof *ips);
    if (!cps || !ips)
        return 2;
    tp_result first;
    memset(&first, 0, sizeof first);
    int status = 0;
    for (unsigned i = 0; i < a.reps; i++) {
        tp_result r = run_once(&a.synth);
        if (!r.ok) {
            status = 1;
            break;
        }
        if (i == 0)
            first = r;
        else if (r.gpu_cycles != first.gpu_cycles || r.warp_insts != first.warp_insts) {
            fprintf(stderr, "smtlm_throughput: rep %u simulated %llu cycles, rep 1 %llu: not deterministic\n", i + 1,
                    (unsigned long long)r.gpu_cycles, (unsigned long long)first.gpu_cycles);
            status = 1;
            break;
        }
        const double t = r.seconds > 0 ? r.seconds : 1e-9;
        cps[i] = (double)r.sm_cycles / t;
        ips[i] = (double)r.warp_insts / t;
        printf("rep %u: %.3f s  %.3f M SM-cycles/s  %.3f M warp-insts/s\n", i + 1, r.seconds, cps[i] / 1e6, ips[i] / 1e6);
    }
    if (status == 0) {
        printf("gpu_sim_cycle = %llu (identical in all %u reps; includes the kernel launch latency)\n",
               (unsigned long long)first.gpu_cycles, a.reps);
        printf("sm_cycles = %llu  warp_insts = %llu  ipc = %.3f warp-insts/SM-cycle\n",
               (unsigned long long)first.sm_cycles, (unsigned long long)first.warp_insts,
               first.sm_cycles ? (double)first.warp_insts / (double)first.sm_cycles : 0.0);
        summary("SM-cycles/s", cps, a.reps);
        summary("warp-insts/s", ips, a.reps);
    }
    free(cps);
    free(ips);
    return status;
}
