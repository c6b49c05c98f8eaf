/* One warp's synthetic instruction stream, for direct use (tests, tools). */
#include "synth_internal.h"

void smtlm_synth_stream_init(const smtlm_synth *s, smtlm_synth_stream *st, uint32_t global_warp)
{
    memset(st, 0, sizeof *st);
    st->rng = smtlm_synth_mix64(smtlm_synth_mix64(s->cfg.seed + SMTLM_SYNTH_GOLDEN) + global_warp);
    st->gwarp = global_warp;
    const uint32_t w = global_warp % s->warps_per_cta;
    const uint32_t lanes = s->threads_per_cta - w * SMTLM_WARP_SIZE;
    st->mask = lanes >= SMTLM_WARP_SIZE ? 0xFFFFFFFFu : (1u << lanes) - 1;
}

int smtlm_synth_stream_next(const smtlm_synth *s, smtlm_synth_stream *st, smtlm_inst_desc *out)
{
    return smtlm_synth_gen(s, st, out);
}
