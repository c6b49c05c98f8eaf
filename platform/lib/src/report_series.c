/* The report's time series: snapshots of the SMs' cumulative counters (see report.h). */
#include "smtlm/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void smtlm_report_init(smtlm_report *r) { memset(r, 0, sizeof *r); }

void smtlm_report_free(smtlm_report *r)
{
    free(r->s);
    memset(r, 0, sizeof *r);
}

static void take(smtlm_report *r, const smtlm_gpu *gpu)
{
    if (r->n == r->cap) {
        const size_t cap = r->cap ? r->cap * 2 : 256;
        smtlm_report_sample *s = realloc(r->s, cap * sizeof *s);
        if (!s) {
            r->failed = 1;
            return;
        }
        r->s = s;
        r->cap = cap;
    }
    smtlm_report_sample *x = &r->s[r->n++];
    memset(x, 0, sizeof *x);
    x->cycle = gpu->tot_cycle + gpu->sim_cycle;
    x->thread_insts = gpu->tot_insn + smtlm_gpu_sim_insn(gpu);
    x->warp_insts = gpu->tot_warp_insn + smtlm_gpu_sim_warp_insn(gpu);
    for (unsigned i = 0; i < gpu->n_sm; i++) {
        smtlm_sm_view v;
        smtlm_gpu_sm_view(gpu, i, &v);
        if (!v.stats.active_cycles)
            continue;
        x->active_cycles += v.stats.active_cycles;
        x->cu_busy += v.oc->occupancy_sum;
        r->n_banks = v.cfg->rf.n_banks;
        for (unsigned b = 0; b < v.cfg->rf.n_banks && b < SMTLM_MAX_BANKS; b++) {
            x->bank_wait[b] += v.rf->wait_steps[b];
            x->bank_reads[b] += v.rf->reads[b];
        }
    }
}

void smtlm_report_series_hook(void *ctx, const smtlm_gpu *gpu) { take(ctx, gpu); }

void smtlm_report_kernel_start(smtlm_report *r, const smtlm_gpu *gpu) { take(r, gpu); }

void smtlm_report_kernel_end(smtlm_report *r, const smtlm_gpu *gpu, const char *name)
{
    take(r, gpu);
    if (r->n_kernels < SMTLM_REPORT_MAX_KERNELS) {
        r->kernel_end[r->n_kernels] = gpu->tot_cycle + gpu->sim_cycle;
        snprintf(r->kernel_name[r->n_kernels], sizeof r->kernel_name[0], "%s", name ? name : "");
    }
    r->n_kernels++;
}
