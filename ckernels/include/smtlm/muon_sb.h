/* Muon scoreboard and hazard check (muon mode): per (warp, register) a pendingWrite bit and
 * saturating pendingReads counters, the reservation-station admission check (WAW gate, the
 * WAR option, counter saturation, the optional past-WAW walk) and the writeback gate.
 *
 * Every admitted instruction is identified by a caller tag (its instruction-pool index): the
 * scoreboard keeps what each tag holds (which source slots counted a pending read, in which
 * epoch; which destinations hold pendingWrite) so that a later read-done, writeback or
 * diagnostic query needs only the tag. Register 0 (no register) and the configured zero
 * register are never tracked. Semantics in full: docs/MUON.md. */
#ifndef SMTLM_MUON_SB_H
#define SMTLM_MUON_SB_H

#include "smtlm/common.h"
#include "smtlm/inst_pool.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SMTLM_MUON_REGS (SMTLM_MAX_REG + 1)        /* registers 0..SMTLM_MAX_REG per warp */
#define SMTLM_MUON_SB_WORDS (SMTLM_MUON_REGS / 64)
#define SMTLM_MUON_MAX_TAGS SMTLM_POOL_SIZE        /* tags are instruction-pool indices */
#define SMTLM_MUON_MAX_READ_BITS 7                 /* pendingReads counters fit a uint8_t */

/* -smtlm_muon_war */
typedef enum smtlm_muon_war {
    SMTLM_MUON_WAR_OPTION1 = 0,  /* gate admission while reads of a destination are pending */
    SMTLM_MUON_WAR_OPTION2,      /* stall writeback until pendingReads = 0; every reader counts */
    SMTLM_MUON_WAR_OPTION2_FWD,  /* as option2, forwarded (busy) readers do not count */
    SMTLM_MUON_WAR_OPTION2_EPOCH /* as option2, two pendingReads epochs per register */
} smtlm_muon_war;

/* Why an instruction may not enter the reservation station (SMTLM_MUON_ADMIT: it may). */
typedef enum smtlm_muon_verdict {
    SMTLM_MUON_ADMIT = 0,
    SMTLM_MUON_STALL_WAW,        /* a destination has a pending write */
    SMTLM_MUON_STALL_WAR,        /* option1: a destination has pending reads */
    SMTLM_MUON_STALL_SATURATED,  /* a pendingReads counter would exceed its width */
    SMTLM_MUON_STALL_FENCE,      /* past-WAW walk: uses a register of a skipped older instruction */
    SMTLM_MUON_VERDICTS
} smtlm_muon_verdict;

typedef struct smtlm_muon_sb_cfg {
    unsigned n_warps;
    smtlm_muon_war war;          /* -smtlm_muon_war */
    unsigned pending_read_bits;  /* -smtlm_muon_pending_read_bits: counter width, 1..7 */
    int past_waw;                /* -smtlm_muon_past_waw: admission may look past a WAW-blocked head */
    int forwarding;              /* -smtlm_muon_forwarding: busy operands get the writeback value */
    int zero_reg;                /* hardwired-zero register, never tracked (0: none but register 0) */
} smtlm_muon_sb_cfg;

/* What one admitted instruction holds. Slots are source / destination indices of the inst. */
typedef struct smtlm_muon_sb_ticket {
    uint32_t pc;
    uint16_t warp;
    uint8_t n_src, n_dst;
    int16_t src[SMTLM_MAX_SRC];
    int16_t dst[SMTLM_MAX_DST];
    uint8_t reads;               /* source slots holding a pendingReads count, not yet read */
    uint8_t read_epoch;          /* bit per source slot: the epoch its count went into */
    uint8_t writes;              /* destination slots holding pendingWrite, not yet written back */
    uint8_t wait_epoch;          /* bit per destination slot: the epoch its writeback waits on */
} smtlm_muon_sb_ticket;

/* What admission tells the reservation station about each source slot. */
typedef struct smtlm_muon_sb_operands {
    uint8_t busy;                /* a pending write: the value comes from that writer's writeback */
    uint8_t none;                /* nothing to read (no register, or the zero register) */
} smtlm_muon_sb_operands;

/* One source operand holding a pendingReads count (diagnostics). */
typedef struct smtlm_muon_sb_holder {
    uint16_t tag;
    uint16_t warp;
    uint32_t pc;
    uint8_t slot;                /* source slot */
    uint8_t epoch;
    int16_t reg;
} smtlm_muon_sb_holder;

typedef struct smtlm_muon_sb {
    smtlm_muon_sb_cfg cfg;
    unsigned max_reads;          /* 2^pending_read_bits - 1 */
    uint64_t write[SMTLM_MAX_WARPS][SMTLM_MUON_SB_WORDS];  /* pendingWrite */
    uint64_t epoch[SMTLM_MAX_WARPS][SMTLM_MUON_SB_WORDS];  /* epoch new readers count in (epoch mode) */
    uint8_t reads[2][SMTLM_MAX_WARPS][SMTLM_MUON_REGS];    /* pendingReads per epoch; epoch 0 only
                                                            * outside option2_epoch */
    smtlm_muon_sb_ticket ticket[SMTLM_MUON_MAX_TAGS];
    uint64_t live[SMTLM_MUON_MAX_TAGS / 64];               /* tags holding a count or a write */
    const char *cfg_error;       /* why init rejected the configuration */
} smtlm_muon_sb;

int smtlm_muon_sb_init(smtlm_muon_sb *sb, const smtlm_muon_sb_cfg *cfg);
void smtlm_muon_sb_reset(smtlm_muon_sb *sb);

static inline int smtlm_muon_sb_pending_write(const smtlm_muon_sb *sb, unsigned w, unsigned reg)
{
    return (int)(sb->write[w][reg >> 6] >> (reg & 63) & 1);
}
/* pendingReads of (w, reg) over both epochs. */
static inline unsigned smtlm_muon_sb_pending_reads(const smtlm_muon_sb *sb, unsigned w, unsigned reg)
{
    return (unsigned)sb->reads[0][w][reg] + sb->reads[1][w][reg];
}

/* Admission check of `in` (warp in->warp) against the scoreboard: SMTLM_MUON_ADMIT or a stall
 * reason (never SMTLM_MUON_STALL_FENCE), or SMTLM_EINPUT for a malformed instruction. */
int smtlm_muon_sb_check(const smtlm_muon_sb *sb, const smtlm_inst *in);

/* Chooses what a warp may admit this cycle from its instruction buffer `window` (program
 * order, window[0] = head, n entries). Without past_waw only the head is considered. With it,
 * the walk passes instructions blocked by WAW (or by the fence of an earlier skipped one) and
 * stops at any other stall. Returns 1 with *pick = the window index to admit, 0 if none, or
 * SMTLM_EINPUT. *head_verdict (if not NULL) gets the head's own verdict (stall statistics). */
int smtlm_muon_sb_select(const smtlm_muon_sb *sb, const smtlm_inst *const *window, unsigned n,
                         unsigned *pick, int *head_verdict);

/* Admits `in` under `tag`: re-checks (WAW, WAR, saturation; the fence is the caller's walk),
 * then counts its reads, sets pendingWrite of its destinations and, in epoch mode, moves each
 * destination's readers to the other epoch. Returns SMTLM_MUON_ADMIT with *ops filled, a stall
 * verdict (> 0, nothing changed), or SMTLM_EINPUT (bad register, warp or tag, tag in use). */
int smtlm_muon_sb_admit(smtlm_muon_sb *sb, smtlm_iref tag, const smtlm_inst *in, smtlm_muon_sb_operands *ops);

/* Source slots of `tag` finished reading (from the register file, or forwarded): their counts
 * drop. Slots that hold no count are ignored. */
void smtlm_muon_sb_read_done(smtlm_muon_sb *sb, smtlm_iref tag, unsigned slots);

/* 1 if `tag`'s writeback may happen now (the WAR option's writeback gate). */
int smtlm_muon_sb_wb_allowed(const smtlm_muon_sb *sb, smtlm_iref tag);

/* Writeback of `tag`: clears pendingWrite of its destinations if allowed. Returns 1 when done,
 * 0 when the writeback must wait (nothing changed). */
int smtlm_muon_sb_writeback(smtlm_muon_sb *sb, smtlm_iref tag);

/* 1 if `tag` still holds a pendingReads count or a pendingWrite. */
static inline int smtlm_muon_sb_live(const smtlm_muon_sb *sb, smtlm_iref tag)
{
    return tag < SMTLM_MUON_MAX_TAGS && (int)(sb->live[tag >> 6] >> (tag & 63) & 1);
}

/* Diagnostics (not per cycle): the source operands holding a count on (w, reg), either epoch.
 * Writes up to `max` into out, returns how many there are. */
unsigned smtlm_muon_sb_holders(const smtlm_muon_sb *sb, unsigned w, unsigned reg, smtlm_muon_sb_holder *out,
                               unsigned max);
/* The source operands whose counts keep `tag`'s writeback waiting (empty when allowed). */
unsigned smtlm_muon_sb_wb_blockers(const smtlm_muon_sb *sb, smtlm_iref tag, smtlm_muon_sb_holder *out,
                                   unsigned max);

const char *smtlm_muon_war_name(smtlm_muon_war war);
const char *smtlm_muon_verdict_name(int verdict);

#ifdef __cplusplus
}
#endif
#endif
