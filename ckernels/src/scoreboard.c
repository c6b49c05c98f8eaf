/* Scoreboard: per-warp bitsets of pending destination registers. */
#include "smtlm/scoreboard.h"

#include <string.h>

_Static_assert((SMTLM_SB_WORDS & (SMTLM_SB_WORDS - 1)) == 0, "smtlm_sb_bit_ masks the word index");

int smtlm_sb_init(smtlm_scoreboard *sb, unsigned n_warps)
{
    if (n_warps == 0)
        return SMTLM_EINVAL;
    if (n_warps > SMTLM_MAX_WARPS)
        return SMTLM_ERANGE;
    sb->n_warps = n_warps;
    smtlm_sb_reset(sb);
    return SMTLM_OK;
}

void smtlm_sb_reset(smtlm_scoreboard *sb)
{
    memset(sb->pending, 0, sizeof sb->pending);
    memset(sb->longop, 0, sizeof sb->longop);
    sb->dirty = 0;
}

unsigned smtlm_sb_count(const smtlm_scoreboard *sb, unsigned w)
{
    unsigned n = 0;
    for (unsigned k = 0; k < SMTLM_SB_WORDS; k++)
        n += smtlm_popcount32((uint32_t)sb->pending[w][k]) + smtlm_popcount32((uint32_t)(sb->pending[w][k] >> 32));
    return n;
}

int smtlm_sb_collision(const smtlm_scoreboard *sb, unsigned w, const smtlm_inst *in)
{
    return smtlm_sb_collides(sb, w, in);
}

void smtlm_sb_release(smtlm_scoreboard *sb, unsigned w, const smtlm_inst *in)
{
    for (unsigned i = 0; i < in->n_dst; i++)
        if (in->dst[i] > 0)
            smtlm_sb_release_reg(sb, w, (unsigned)in->dst[i]);
}

int smtlm_sb_reads_longop(const smtlm_scoreboard *sb, unsigned w, const smtlm_inst *in)
{
    for (unsigned i = 0; i < in->n_src; i++) {
        int r = in->src[i];
        if (r > 0 && (sb->longop[w][r >> 6] >> (r & 63) & 1))
            return 1;
    }
    return 0;
}
