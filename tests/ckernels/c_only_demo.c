/* Proof that the kernels need nothing but a C compiler: a QV100-like GPU with one SM runs one
 * warp of 4 dependent FFMAs (R2 = R2 * R4 + R6) and an EXIT, and prints the cycle count and
 * each instruction's pipeline events. Accel-Sim gives gpu_sim_cycle = 5031 for this kernel
 * (reference timeline dep_4_w1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smtlm/gpu.h"

#define N_FFMA 4

static unsigned pos[SMTLM_MAX_WARPS];

static int next_inst(void *ctx, unsigned sm, unsigned warp, smtlm_inst_desc *d)
{
    (void)ctx;
    (void)sm;
    if (pos[warp] > N_FFMA)
        return 0;
    memset(d, 0, sizeof *d);
    d->pc = pos[warp] * 16;
    d->mask = 0xFFFFFFFFu;
    if (pos[warp] < N_FFMA) { /* trace registers +1, as Accel-Sim does */
        d->op = SMTLM_OP_SP;
        d->n_dst = 1;
        d->dst[0] = 3;
        d->n_src = 3;
        d->src[0] = 3;
        d->src[1] = 5;
        d->src[2] = 7;
        d->latency = d->ii = 2;
    } else {
        d->op = SMTLM_OP_EXIT;
        d->latency = d->ii = 1;
    }
    pos[warp]++;
    return 1;
}

static int has_more(void *ctx, unsigned sm, unsigned warp)
{
    (void)ctx;
    (void)sm;
    return pos[warp] <= N_FFMA;
}

static void on_retire(void *ctx, unsigned sm, const smtlm_inst *in)
{
    (void)ctx;
    (void)sm;
    const uint64_t o = 5001; /* Accel-Sim timelines count from the SM's first cycle */
    printf("warp %u pc 0x%04x issue %llu cu %llu operands %llu oc_ex %llu fu %llu wb %llu\n", in->warp, in->pc,
           (unsigned long long)(in->ev[SMTLM_EV_ISSUE] - o), (unsigned long long)(in->ev[SMTLM_EV_CU_ALLOC] - o),
           (unsigned long long)(in->ev[SMTLM_EV_OPERANDS] - o), (unsigned long long)(in->ev[SMTLM_EV_OC_EX] - o),
           (unsigned long long)(in->ev[SMTLM_EV_FU_ISSUE] - o), (unsigned long long)(in->ev[SMTLM_EV_WRITEBACK] - o));
}

int main(void)
{
    smtlm_gpu_cfg cfg;
    smtlm_gpu_cfg_qv100(&cfg);
    cfg.n_clusters = 1;
    smtlm_sm *sm = calloc(1, sizeof *sm);
    smtlm_mem_model *mem = calloc(1, sizeof *mem);
    smtlm_gpu *gpu = calloc(1, sizeof *gpu);
    if (!sm || !mem || !gpu)
        return 1;
    int rc = smtlm_gpu_init(gpu, &cfg, sm, mem);
    if (rc) {
        fprintf(stderr, "init: %s\n", smtlm_status_str(rc));
        return 1;
    }
    const smtlm_inst_source src = {0, next_inst, has_more, 0, 0, 0, 0, 0, 0};
    smtlm_gpu_set_source(gpu, &src, 0);
    smtlm_gpu_set_retire_hook(gpu, on_retire, 0);
    const smtlm_kernel_desc k = {1, 32, 0, 64};
    smtlm_gpu_launch(gpu, &k);
    smtlm_run_status st = smtlm_gpu_run(gpu);
    printf("status %d\ncycles = %llu\n", (int)st, (unsigned long long)gpu->sim_cycle);
    free(gpu);
    free(mem);
    free(sm);
    return st == SMTLM_RUN_DONE ? 0 : 1;
}
