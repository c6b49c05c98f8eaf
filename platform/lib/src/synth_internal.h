/* The synthetic generator's per-instruction step, shared by the stream API and the engine
 * source (inlined into both so the engine's next() is one call). Exactly two splitmix64 draws
 * per body instruction:
 *   x: bits 63..32 pick the class (multiply-shift to 0..99, then a 100-entry table),
 *      bits 31..16 the dependency draw (0..99), bits 15..0 the load/store draw (0..99);
 *   y: four 16-bit uniforms u, used in order by the destination, the sources and (shared
 *      accesses) the slot; register = floor(n_regs * u^reg_skew) at 16-bit resolution. */
#ifndef SMTLM_SYNTH_INTERNAL_H
#define SMTLM_SYNTH_INTERNAL_H

#include <string.h>

#include "smtlm/synth.h"

#define SMTLM_SYNTH_GOLDEN 0x9E3779B97F4A7C15ull

static inline uint64_t smtlm_synth_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline uint64_t smtlm_synth_draw(uint64_t *state)
{
    *state += SMTLM_SYNTH_GOLDEN;
    return smtlm_synth_mix64(*state);
}

/* floor(n * u^skew / 2^(16 skew)) for a 16-bit u: low registers are hot. */
static inline int16_t smtlm_synth_reg(unsigned u16, unsigned n, unsigned skew)
{
    uint32_t p = u16;
    if (skew == 2) {
        p = (p * u16) >> 16;
    } else {
        for (unsigned k = 1; k < skew; k++)
            p = (p * u16) >> 16;
    }
    return (int16_t)(((p * n) >> 16) + 1); /* simulator number = trace number + 1 */
}

static inline int smtlm_synth_gen(const smtlm_synth *s, smtlm_synth_stream *st, smtlm_inst_desc *d)
{
    const smtlm_synth_cfg *c = &s->cfg;
    const uint32_t i = st->pos;
    if (i > c->insts_per_warp)
        return 0;
    st->pos = i + 1;
    d->pc = i * 16;
    d->mask = st->mask;
    d->spec = 0;
    d->atomic = 0;
    d->reserved = 0;
    d->line = 0;
    d->mem_space = SMTLM_MEM_NONE;
    d->mem_width = 0;
    memset(d->dst, 0, sizeof d->dst);
    memset(d->src, 0, sizeof d->src);
    if (i == c->insts_per_warp) {
        d->op = SMTLM_OP_EXIT;
        d->n_dst = d->n_src = 0;
        d->latency = d->ii = 1;
        return 1;
    }
    const uint64_t x = smtlm_synth_draw(&st->rng);
    const uint64_t y = smtlm_synth_draw(&st->rng);
    const unsigned k = s->class_of[((x >> 32) * 100) >> 32];
    const unsigned dep = (unsigned)((((x >> 16) & 0xFFFF) * 100) >> 16);
    d->op = s->op_of[k];
    d->n_src = s->n_src_of[k];
    d->n_dst = 1;
    d->latency = c->lat[k].latency;
    d->ii = c->lat[k].ii;
    if (k == SMTLM_SYNTH_LDST && (((x & 0xFFFF) * 100) >> 16) < c->store_pct) {
        d->op = SMTLM_OP_STORE; /* STS [Ra], Rb */
        d->n_src = 2;
        d->n_dst = 0;
    }
    const unsigned n = c->n_regs, skew = c->reg_skew;
    int16_t r[4]; /* the four 16-bit lanes of y as registers; the shapes take them in order */
    for (unsigned j = 0; j < 4; j++)
        r[j] = smtlm_synth_reg((unsigned)(y >> (16 * j)) & 0xFFFF, n, skew);
    const int16_t *next = r;
    if (d->n_dst)
        d->dst[0] = *next++;
    for (unsigned j = 0; j < d->n_src; j++)
        d->src[j] = *next++;
    if (c->dep_distance && i >= c->dep_distance && dep < c->dep_pct) {
        const int16_t prod = st->hist[(i - c->dep_distance) % SMTLM_SYNTH_MAX_DEP];
        if (prod)
            d->src[0] = prod;
    }
    st->hist[i % SMTLM_SYNTH_MAX_DEP] = d->dst[0];
    if (k == SMTLM_SYNTH_LDST) { /* lane j at slot_base + j * stride; slot from y's next 16 bits */
        const uint64_t u = (y >> (16 * (unsigned)(next - r))) & 0xFFFF; /* at most 2 lanes used */
        const uint64_t stride = c->smem_stride;
        const uint64_t base = ((u * s->smem_slots) >> 16) * SMTLM_WARP_SIZE * stride;
        d->mem_space = SMTLM_MEM_SHARED;
        d->mem_width = 4;
        for (unsigned j = 0; j < SMTLM_WARP_SIZE; j++)
            d->addr[j] = base + j * stride;
    } else if (k == SMTLM_SYNTH_LDG) { /* one coalesced 128-byte line */
        const uint64_t base = c->global_base + (uint64_t)st->gwarp * 4096 + (uint64_t)(i % 32) * 128;
        d->mem_space = SMTLM_MEM_GLOBAL;
        d->mem_width = 4;
        for (unsigned j = 0; j < SMTLM_WARP_SIZE; j++)
            d->addr[j] = base + 4 * j;
    }
    return 1;
}

#endif
