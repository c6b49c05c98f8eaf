/* Scoreboard (GPGPU-Sim Scoreboard): per warp, the set of registers with a pending write and
 * the long-operation subset (global/local/texture loads). A binary set, not a counter.
 * Collision = any source or destination reserved (RAW and WAW; WAR cannot occur in order).
 * Register 0 is never tracked. */
#ifndef SMTLM_SCOREBOARD_H
#define SMTLM_SCOREBOARD_H

#include "smtlm/common.h"
#include "smtlm/inst_pool.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SMTLM_SB_WORDS ((SMTLM_MAX_REG + 64) / 64)

typedef struct smtlm_scoreboard {
    unsigned n_warps;
    uint64_t pending[SMTLM_MAX_WARPS][SMTLM_SB_WORDS];
    uint64_t longop[SMTLM_MAX_WARPS][SMTLM_SB_WORDS];
    uint64_t dirty;                    /* bit w: warp w's set changed (its reader clears it) */
} smtlm_scoreboard;

int smtlm_sb_init(smtlm_scoreboard *sb, unsigned n_warps);
void smtlm_sb_reset(smtlm_scoreboard *sb);

static inline int smtlm_sb_test(const smtlm_scoreboard *sb, unsigned w, unsigned reg)
{
    return (int)(sb->pending[w][reg >> 6] >> (reg & 63) & 1);
}
/* Bit `reg` of a warp's pending set. Registers are 0..SMTLM_MAX_REG (the SM admits no other:
 * smtlm_sm_check_inst), and 0 means none: its bit is never set, so it reads 0 unmasked. The
 * word index is kept in range whatever the value. */
static inline uint64_t smtlm_sb_bit_(const uint64_t *p, int reg)
{
    const unsigned r = (uint16_t)reg;
    return p[(r >> 6) & (SMTLM_SB_WORDS - 1)] >> (r & 63);
}

/* RAW/WAW check of an instruction for warp w: one bit test per named register, unrolled
 * (an instruction names at most SMTLM_MAX_SRC sources and SMTLM_MAX_DST destinations). */
static inline int smtlm_sb_collides(const smtlm_scoreboard *sb, unsigned w, const smtlm_inst *in)
{
    const uint64_t *p = sb->pending[w];
    uint64_t hit = 0;
    switch (in->n_src) {
    default: hit |= smtlm_sb_bit_(p, in->src[3]); /* fall through */
    case 3: hit |= smtlm_sb_bit_(p, in->src[2]); /* fall through */
    case 2: hit |= smtlm_sb_bit_(p, in->src[1]); /* fall through */
    case 1: hit |= smtlm_sb_bit_(p, in->src[0]); /* fall through */
    case 0: break;
    }
    switch (in->n_dst) {
    default: hit |= smtlm_sb_bit_(p, in->dst[3]); /* fall through */
    case 3: hit |= smtlm_sb_bit_(p, in->dst[2]); /* fall through */
    case 2: hit |= smtlm_sb_bit_(p, in->dst[1]); /* fall through */
    case 1: hit |= smtlm_sb_bit_(p, in->dst[0]); /* fall through */
    case 0: break;
    }
    return (int)(hit & 1);
}
int smtlm_sb_collision(const smtlm_scoreboard *sb, unsigned w, const smtlm_inst *in);
/* smtlm_sb_collides for a committed pool entry: one AND of its register summary with the
 * warp's registers 0..63 (register 0 is never pending), the full test when it names another. */
static inline int smtlm_sb_collides_entry(const smtlm_scoreboard *sb, unsigned w, const smtlm_inst *in)
{
    const uint64_t m = in->sb_regs;
    if (m & 1)
        return smtlm_sb_collision(sb, w, in);
    return (sb->pending[w][0] & m) != 0;
}
/* Reserves the destinations; `longop` marks them as long operations. */
static inline void smtlm_sb_reserve(smtlm_scoreboard *sb, unsigned w, const smtlm_inst *in, int longop)
{
    for (unsigned i = 0; i < in->n_dst; i++) {
        const int r = in->dst[i];
        if (r <= 0 || smtlm_sb_test(sb, w, (unsigned)r))
            continue; /* duplicate destination inside one instruction */
        sb->pending[w][r >> 6] |= 1ull << (r & 63);
        if (longop)
            sb->longop[w][r >> 6] |= 1ull << (r & 63);
        sb->dirty |= 1ull << w;
    }
}
/* smtlm_sb_reserve for a committed pool entry: its destination summary ORed into the warp's
 * registers 0..63, the per-register loop when it names another. */
static inline void smtlm_sb_reserve_entry(smtlm_scoreboard *sb, unsigned w, const smtlm_inst *in, int longop)
{
    const uint64_t d = in->sb_dsts;
    if (d & 1) {
        smtlm_sb_reserve(sb, w, in, longop);
        return;
    }
    uint64_t add = d & ~sb->pending[w][0];
    if (!add)
        return;
    sb->pending[w][0] |= add;
    if (longop)
        sb->longop[w][0] |= add;
    sb->dirty |= 1ull << w;
}
/* Releases one register (writeback of a destination); a register not reserved is ignored.
 * Inline: every written-back instruction calls it. */
static inline void smtlm_sb_release_reg(smtlm_scoreboard *sb, unsigned w, unsigned reg)
{
    if (reg == 0 || !smtlm_sb_test(sb, w, reg))
        return;
    sb->pending[w][reg >> 6] &= ~(1ull << (reg & 63));
    sb->longop[w][reg >> 6] &= ~(1ull << (reg & 63));
    sb->dirty |= 1ull << w;
}
void smtlm_sb_release(smtlm_scoreboard *sb, unsigned w, const smtlm_inst *in);
/* smtlm_sb_release_reg of every destination in a summary `d` of registers 1..63 (a pool
 * entry's sb_dsts with bit 0 clear): one AND-NOT, as the per-register calls leave the set. */
static SMTLM_ALWAYS_INLINE void smtlm_sb_release_dsts(smtlm_scoreboard *sb, unsigned w, uint64_t d)
{
    uint64_t rel = sb->pending[w][0] & d;
    if (!rel)
        return;
    sb->pending[w][0] &= ~rel;
    sb->longop[w][0] &= ~rel;
    sb->dirty |= 1ull << w;
}
/* Any register of warp w reserved: read only on cold paths (MEMBAR, exit, idle scan), so the
 * set itself is scanned rather than a per-warp count kept on every reserve and release. */
static inline int smtlm_sb_pending_writes(const smtlm_scoreboard *sb, unsigned w)
{
    uint64_t any = 0;
    for (unsigned k = 0; k < SMTLM_SB_WORDS; k++)
        any |= sb->pending[w][k];
    return any != 0;
}
/* Number of registers warp w has reserved (tests). */
unsigned smtlm_sb_count(const smtlm_scoreboard *sb, unsigned w);
/* 1 if any source of `in` is a long-operation register (two-level scheduler demotion). */
int smtlm_sb_reads_longop(const smtlm_scoreboard *sb, unsigned w, const smtlm_inst *in);

#ifdef __cplusplus
}
#endif
#endif
