/* The synthetic generator as the engine sees it: inst source, CTA binder, slot table. */
#include <stdlib.h>
#include <string.h>

#include "synth_internal.h"

static smtlm_synth_stream *slot_of(smtlm_synth *s, unsigned sm, unsigned warp)
{
    if (sm >= s->n_sm_slots || warp >= SMTLM_MAX_WARPS)
        return NULL;
    smtlm_synth_stream *st = &s->slot[(size_t)sm * SMTLM_MAX_WARPS + warp];
    return st->bound ? st : NULL;
}

static int src_next(void *ctx, unsigned sm, unsigned warp, smtlm_inst_desc *out)
{
    smtlm_synth *s = ctx;
    smtlm_synth_stream *st = slot_of(s, sm, warp);
    if (!st)
        return SMTLM_EINVAL; /* no CTA bound to this warp */
    return smtlm_synth_gen(s, st, out);
}

static int src_has_more(void *ctx, unsigned sm, unsigned warp)
{
    smtlm_synth *s = ctx;
    const smtlm_synth_stream *st = slot_of(s, sm, warp);
    return st && smtlm_synth_stream_more(s, st);
}

static int grow(smtlm_synth *s, unsigned sm)
{
    if (sm < s->n_sm_slots)
        return SMTLM_OK;
    unsigned n = s->n_sm_slots ? s->n_sm_slots : 1;
    while (n <= sm)
        n *= 2;
    smtlm_synth_stream *p = realloc(s->slot, (size_t)n * SMTLM_MAX_WARPS * sizeof *p);
    if (!p)
        return SMTLM_EFULL;
    memset(p + (size_t)s->n_sm_slots * SMTLM_MAX_WARPS, 0,
           (size_t)(n - s->n_sm_slots) * SMTLM_MAX_WARPS * sizeof *p);
    s->slot = p;
    s->n_sm_slots = n;
    return SMTLM_OK;
}

int smtlm_synth_bind(smtlm_synth *s, unsigned sm, unsigned first_warp, unsigned n_warps, uint32_t cta_id)
{
    if (n_warps != s->warps_per_cta || first_warp + n_warps > SMTLM_MAX_WARPS || cta_id >= s->cfg.n_ctas ||
        sm > 0xFFFFFFu)
        return SMTLM_EINVAL;
    int rc = grow(s, sm);
    if (rc)
        return rc;
    for (unsigned i = 0; i < n_warps; i++) {
        smtlm_synth_stream *st = &s->slot[(size_t)sm * SMTLM_MAX_WARPS + first_warp + i];
        smtlm_synth_stream_init(s, st, cta_id * s->warps_per_cta + i);
        st->bound = 1;
    }
    return SMTLM_OK;
}

static int cta_start(void *ctx, unsigned sm, unsigned slot, unsigned first_warp, unsigned n_warps, uint32_t cta_id)
{
    (void)slot;
    return smtlm_synth_bind(ctx, sm, first_warp, n_warps, cta_id);
}

smtlm_inst_source smtlm_synth_source(smtlm_synth *s)
{
    smtlm_inst_source src = {s, src_next, src_has_more, NULL, 0, 0, NULL, NULL, NULL}; /* no in-place decoding: it builds descriptors */
    return src;
}

smtlm_cta_binder smtlm_synth_binder(smtlm_synth *s)
{
    smtlm_cta_binder b = {s, cta_start, NULL};
    return b;
}
