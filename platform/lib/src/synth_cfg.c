/* The synthetic generator's configuration: defaults, validation, derived values, totals. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smtlm/synth.h"

#define SMEM_DEFAULT_SLOTS 4u

void smtlm_synth_cfg_default(smtlm_synth_cfg *c)
{
    static const smtlm_synth_lat qv100[SMTLM_SYNTH_CLASSES] = {
        {2, 2}, {2, 2}, {20, 8}, {8, 4}, {1, 1}, {1, 1}}; /* SM7_QV100 trace.config */
    memset(c, 0, sizeof *c);
    c->n_ctas = 1;
    c->warps_per_cta = 32;
    c->insts_per_warp = 2000;
    c->mix.pct[SMTLM_SYNTH_SP] = 60;
    c->mix.pct[SMTLM_SYNTH_INT] = 30;
    c->mix.pct[SMTLM_SYNTH_SFU] = 5;
    c->mix.pct[SMTLM_SYNTH_LDST] = 5;
    c->dep_distance = 4;
    c->dep_pct = 50;
    c->n_regs = 32;
    c->reg_skew = 2;
    c->smem_stride = 8;
    c->store_pct = 25;
    c->global_base = 0x10000000u;
    memcpy(c->lat, qv100, sizeof qv100);
    c->seed = 1;
}

static int bad(char *err, size_t errlen, int code, const char *msg)
{
    if (err && errlen)
        snprintf(err, errlen, "synthetic workload: %s", msg);
    return code;
}

static uint32_t threads_of(const smtlm_synth_cfg *c)
{
    return c->threads_per_cta ? c->threads_per_cta : c->warps_per_cta * SMTLM_WARP_SIZE;
}

static uint32_t shmem_of(const smtlm_synth_cfg *c)
{
    if (c->shmem_per_cta || !c->mix.pct[SMTLM_SYNTH_LDST])
        return c->shmem_per_cta;
    return SMEM_DEFAULT_SLOTS * SMTLM_WARP_SIZE * c->smem_stride;
}

int smtlm_synth_check(const smtlm_synth_cfg *c, char *err, size_t errlen)
{
    if (!c)
        return bad(err, errlen, SMTLM_EINVAL, "no configuration");
    if (c->n_ctas == 0)
        return bad(err, errlen, SMTLM_EINVAL, "n_ctas must be at least 1");
    if (c->threads_per_cta == 0 && c->warps_per_cta == 0)
        return bad(err, errlen, SMTLM_EINVAL, "warps_per_cta (or threads_per_cta) must be at least 1");
    if (c->warps_per_cta > SMTLM_MAX_WARPS || c->threads_per_cta > SMTLM_MAX_WARPS * SMTLM_WARP_SIZE)
        return bad(err, errlen, SMTLM_ERANGE, "a CTA holds at most 64 warps (2048 threads)");
    if (c->threads_per_cta && c->warps_per_cta &&
        c->warps_per_cta != (c->threads_per_cta + SMTLM_WARP_SIZE - 1) / SMTLM_WARP_SIZE)
        return bad(err, errlen, SMTLM_EINVAL, "warps_per_cta disagrees with threads_per_cta (set one, or 0)");
    if ((uint64_t)c->n_ctas * ((threads_of(c) + SMTLM_WARP_SIZE - 1) / SMTLM_WARP_SIZE) > UINT32_MAX)
        return bad(err, errlen, SMTLM_ERANGE, "too many warps in the grid (more than 2^32)");
    if (c->insts_per_warp >= UINT32_MAX / 16)
        return bad(err, errlen, SMTLM_ERANGE, "insts_per_warp too large (pc = 16 * index must fit 32 bits)");
    unsigned sum = 0;
    for (int k = 0; k < SMTLM_SYNTH_CLASSES; k++)
        sum += c->mix.pct[k];
    if (sum != 100)
        return bad(err, errlen, SMTLM_EINVAL, "op mix percentages must sum to 100");
    if (c->dep_distance > SMTLM_SYNTH_MAX_DEP)
        return bad(err, errlen, SMTLM_ERANGE, "dep_distance must be 0..64");
    if (c->dep_pct > 100 || c->store_pct > 100)
        return bad(err, errlen, SMTLM_EINVAL, "dep_pct and store_pct are percents (0..100)");
    if (c->n_regs == 0 || c->n_regs > SMTLM_SYNTH_MAX_REGS)
        return bad(err, errlen, SMTLM_ERANGE, "n_regs must be 1..255");
    if (c->reg_skew == 0 || c->reg_skew > 8)
        return bad(err, errlen, SMTLM_ERANGE, "reg_skew must be 1..8");
    if (c->mix.pct[SMTLM_SYNTH_LDST]) {
        if (c->smem_stride < 4 || c->smem_stride > 4096 || c->smem_stride % 4)
            return bad(err, errlen, SMTLM_EINVAL, "smem_stride must be a multiple of 4 in 4..4096");
        if (shmem_of(c) < SMTLM_WARP_SIZE * c->smem_stride)
            return bad(err, errlen, SMTLM_EINVAL, "shmem_per_cta must hold 32 * smem_stride bytes");
    }
    for (int k = 0; k < SMTLM_SYNTH_CLASSES; k++)
        if (c->lat[k].latency == 0 || c->lat[k].latency >= SMTLM_MAX_LATENCY || c->lat[k].ii == 0 ||
            c->lat[k].ii > c->lat[k].latency)
            return bad(err, errlen, SMTLM_ERANGE, "latency table: need 1 <= ii <= latency <= 511 for every class");
    return SMTLM_OK;
}

int smtlm_synth_init(smtlm_synth *s, const smtlm_synth_cfg *cfg)
{
    memset(s, 0, sizeof *s);
    int rc = smtlm_synth_check(cfg, NULL, 0);
    if (rc)
        return rc;
    s->cfg = *cfg;
    s->threads_per_cta = threads_of(cfg);
    s->warps_per_cta = (s->threads_per_cta + SMTLM_WARP_SIZE - 1) / SMTLM_WARP_SIZE;
    s->shmem_per_cta = shmem_of(cfg);
    s->smem_slots = cfg->mix.pct[SMTLM_SYNTH_LDST] ? s->shmem_per_cta / (SMTLM_WARP_SIZE * cfg->smem_stride) : 0;
    static const uint8_t op[SMTLM_SYNTH_CLASSES] = {SMTLM_OP_SP, SMTLM_OP_INTP, SMTLM_OP_SFU,
                                                    SMTLM_OP_DP, SMTLM_OP_LOAD, SMTLM_OP_LOAD};
    static const uint8_t n_src[SMTLM_SYNTH_CLASSES] = {3, 3, 1, 3, 1, 1}; /* LDS; STS has 2 */
    memcpy(s->op_of, op, sizeof op);
    memcpy(s->n_src_of, n_src, sizeof n_src);
    unsigned at = 0;
    for (unsigned k = 0; k < SMTLM_SYNTH_CLASSES; k++)
        for (unsigned p = 0; p < cfg->mix.pct[k]; p++)
            s->class_of[at++] = (uint8_t)k;
    return SMTLM_OK;
}

void smtlm_synth_free(smtlm_synth *s)
{
    free(s->slot);
    s->slot = NULL;
    s->n_sm_slots = 0;
}

smtlm_kernel_desc smtlm_synth_kernel(const smtlm_synth *s)
{
    smtlm_kernel_desc k;
    k.n_ctas = s->cfg.n_ctas;
    k.threads_per_cta = s->threads_per_cta;
    k.shmem_per_cta = s->shmem_per_cta;
    k.regs_per_thread = s->cfg.n_regs;
    return k;
}

uint64_t smtlm_synth_total_warp_insts(const smtlm_synth *s)
{
    return (uint64_t)s->cfg.n_ctas * s->warps_per_cta * ((uint64_t)s->cfg.insts_per_warp + 1);
}

uint64_t smtlm_synth_total_thread_insts(const smtlm_synth *s)
{
    return (uint64_t)s->cfg.n_ctas * s->threads_per_cta * ((uint64_t)s->cfg.insts_per_warp + 1);
}
