/* Register file: banks, per-bank read queues and the port arbiter (GPGPU-Sim arbiter_t).
 *
 * One arbitration step (smtlm_rf_arbitrate) in the default `fifo` policy grants, for every bank
 * that is not write-allocated in this step, the head of its FIFO. A collector unit may receive
 * several banks in one step (GPGPU-Sim commented out the `_outmatch` check), so the booksim
 * wavefront loop it runs is degenerate; we implement its observable result directly.
 *
 * The `wavefront` policy is booksim's allocator as GPGPU-Sim meant it: requests from every
 * queued read (not only queue heads), at most one grant per bank AND per collector unit per
 * step, the priority diagonal rotating by one collector each step. A granted read that is not
 * its queue's head leaves the queue out of order.
 *
 * Write allocations (smtlm_rf_write) last until the end of the step (smtlm_rf_end_step); in
 * GPGPU-Sim's cycle the writeback precedes the first read step, so a write blocks its bank in
 * step 1 only.
 *
 * Write port (smtlm_rf_try_write / can_write / write_reg, the ops of smtlm_write_port):
 * faithful mode drops an ALU write to a bank that already took one this step (no stall, as
 * GPGPU-Sim ignores the failed write). With -smtlm_fix_wb_bank_conflict 1 the write waits in a
 * per-bank buffer instead; a bank with buffered writes refuses reads until smtlm_rf_drain_writes
 * (start of writeback, one write per bank per cycle) empties it, and the register is released
 * through smtlm_release_port when its write lands. */
#ifndef SMTLM_REGFILE_H
#define SMTLM_REGFILE_H

#include "smtlm/sm_shape.h"
#include "smtlm/common.h"
#include "smtlm/ports.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SMTLM_RF_QUEUE_CAP 256 /* per-bank read queue (power of two) */
#define SMTLM_RF_WBUF_CAP 64   /* per-bank buffer of waiting writes (fix mode) */
#define SMTLM_RF_DEPTH_BINS 16 /* queue-depth histogram: 0 .. 15 and more */
#define SMTLM_RF_BANK_LO_N 1024 /* a power of two above every valid reg + warp (bank_lo) */

typedef enum smtlm_alloc_policy { SMTLM_ALLOC_FIFO = 0, SMTLM_ALLOC_WAVEFRONT = 1 } smtlm_alloc_policy;

/* The register file's own configuration; the SM's shape (its sub-cores partition the banks)
 * and the collector's unit count come with it (smtlm_rf_init). */
typedef struct smtlm_rf_cfg {
    unsigned n_banks;          /* -gpgpu_num_reg_banks */
    smtlm_alloc_policy policy; /* -smtlm_oc_allocator */
    int fix_wb_bank_conflict;  /* -smtlm_fix_wb_bank_conflict: buffer colliding ALU writes instead of dropping them */
} smtlm_rf_cfg;

typedef struct smtlm_rf_wentry { uint16_t warp, reg; } smtlm_rf_wentry;

typedef struct smtlm_rf {
    smtlm_rf_cfg cfg;
    smtlm_sm_shape shape;
    unsigned n_cus;                         /* collector units (outputs of the allocator) */
    unsigned bps;                           /* banks per scheduler */
    uint8_t bank_lo[SMTLM_RF_BANK_LO_N];    /* x % bps for every x = reg + warp below the size */
    uint8_t sched_base[SMTLM_MAX_SCHED];    /* a scheduler's first bank (sub-core), else 0 */
    uint8_t depth_bin[2 * SMTLM_RF_QUEUE_CAP]; /* queue_depth_hist's bin of a queue depth (no clamp) */
    smtlm_read_req q[SMTLM_MAX_BANKS][SMTLM_RF_QUEUE_CAP];
    /* A bank's queue runs from reads[b] (every read it granted: the statistic doubles as the
     * head) to q_tail[b] (every read queued in it), both counting up, indexed modulo the cap. */
    uint64_t q_tail[SMTLM_MAX_BANKS];
    uint64_t nonempty;                      /* banks with queued reads */
    uint64_t write_alloc;                   /* banks write-allocated in this step */
    uint64_t blocked;                       /* banks refusing reads (buffered writes, fix mode) */
    smtlm_rf_wentry wbuf[SMTLM_MAX_BANKS][SMTLM_RF_WBUF_CAP];
    uint16_t wbuf_head[SMTLM_MAX_BANKS], wbuf_len[SMTLM_MAX_BANKS];
    smtlm_release_port ops;
    const char *cfg_error;                  /* why init rejected the configuration */
    unsigned priority;                      /* wavefront priority diagonal (m_last_cu) */
    /* statistics (reads: also the queue heads) */
    uint64_t reads[SMTLM_MAX_BANKS], writes[SMTLM_MAX_BANKS], wait_steps[SMTLM_MAX_BANKS];
    uint64_t steps_with_wait;               /* steps in which some read waited */
    uint64_t queue_depth_hist[SMTLM_RF_DEPTH_BINS]; /* bank-steps that left d reads queued
                                                     * (d >= 1; the last bin: that many or more) */
    uint64_t dropped_writes;                /* faithful mode: same-bank ALU writes not recorded */
    uint64_t buffered_writes;               /* fix mode: ALU writes that had to wait */
} smtlm_rf;

int smtlm_rf_init(smtlm_rf *rf, const smtlm_rf_cfg *cfg, const smtlm_sm_shape *shape, unsigned n_cus);
/* Binds what the register file calls outside itself (needed only in fix mode). */
void smtlm_rf_bind(smtlm_rf *rf, const smtlm_release_port *ops);
void smtlm_rf_reset(smtlm_rf *rf);

/* Bank of register `reg` for warp `wid` issued by scheduler `sched` (smtlm_bank_subcore or
 * smtlm_bank_flat, with the modulo looked up for the registers and warps an SM can have). */
static inline unsigned smtlm_rf_bank(const smtlm_rf *rf, unsigned reg, unsigned wid, unsigned sched)
{
    const unsigned x = reg + wid;
    const unsigned lo = x < SMTLM_RF_BANK_LO_N ? rf->bank_lo[x] : x % rf->bps;
    return rf->shape.sub_core ? lo + sched * rf->bps : lo;
}
/* The same from a (valid) configuration alone: the bank map is configuration, not state. */
unsigned smtlm_rf_cfg_bank(const smtlm_rf_cfg *cfg, const smtlm_sm_shape *shape, unsigned reg, unsigned wid,
                           unsigned sched);

/* Queues a read at the tail of `bank`'s FIFO. SMTLM_EFULL if the queue is full. */
static inline int smtlm_rf_request(smtlm_rf *rf, unsigned bank, smtlm_read_req req)
{
    if (bank >= rf->cfg.n_banks)
        return SMTLM_EINVAL;
    const uint64_t tail = rf->q_tail[bank];
    if (tail - rf->reads[bank] == SMTLM_RF_QUEUE_CAP)
        return SMTLM_EFULL;
    rf->q[bank][tail & (SMTLM_RF_QUEUE_CAP - 1)] = req;
    rf->q_tail[bank] = tail + 1;
    rf->nonempty |= 1ull << bank;
    return SMTLM_OK;
}

/* Queues the reads of operand slots `left` (bit i: src[i]) of collector unit `cu` in the banks of
 * warp `warp` (base: the scheduler's first bank), in operand order, stopping at a full queue
 * when `checked`. Unchecked, reg + warp must be below SMTLM_RF_BANK_LO_N (any valid register
 * and warp: the index is masked, so no other value can reach outside the table). Returns the
 * slots not queued (0 when all were). */
static inline unsigned smtlm_rf_push_reads_(smtlm_rf *rf, unsigned cu, unsigned warp, unsigned base, const int16_t *src,
                                            unsigned left, int checked)
{
    uint64_t nonempty = rf->nonempty;
    for (; left; left &= left - 1) {
        const unsigned op = smtlm_ctz64(left);
        const unsigned reg = (unsigned)src[op], x = reg + warp;
        const unsigned bank = base + (!checked                   ? rf->bank_lo[x & (SMTLM_RF_BANK_LO_N - 1)]
                                      : x < SMTLM_RF_BANK_LO_N ? rf->bank_lo[x]
                                                               : x % rf->bps);
        const uint64_t tail = rf->q_tail[bank];
        if (checked && tail - rf->reads[bank] == SMTLM_RF_QUEUE_CAP)
            break;
        const smtlm_read_req req = {(uint8_t)cu, (uint8_t)op, (uint16_t)reg};
        rf->q[bank][tail & (SMTLM_RF_QUEUE_CAP - 1)] = req;
        rf->q_tail[bank] = tail + 1;
        nonempty |= 1ull << bank;
    }
    rf->nonempty = nonempty;
    return left;
}

/* Queues, in operand order, the reads of collector unit `cu` for the operands set in `ops`
 * (bit i: source register src[i] of warp `warp`, scheduler `sched`): smtlm_rf_bank and
 * smtlm_rf_request for each. On an error, *queued holds the operands queued before it.
 * Inline: the collector's allocation calls it for every instruction. */
static inline int smtlm_rf_request_reads(smtlm_rf *rf, unsigned cu, unsigned warp, unsigned sched, const int16_t *src,
                                         unsigned ops, unsigned *queued)
{
    /* Every bank of a valid scheduler exists, so only the scheduler can make a bank invalid. */
    if (rf->shape.sub_core && sched >= rf->shape.n_sched) {
        *queued = 0;
        return ops ? SMTLM_EINVAL : SMTLM_OK;
    }
    const unsigned left = smtlm_rf_push_reads_(rf, cu, warp, rf->shape.sub_core ? sched * rf->bps : 0, src, ops, 1);
    *queued = ops & ~left; /* the operands before the one that failed, if any */
    return left ? SMTLM_EFULL : SMTLM_OK;
}

/* smtlm_rf_request_reads for a caller that keeps every queue from overflowing: the C engine's
 * collector, where each CU has at most SMTLM_MAX_SRC reads waiting (a CU is reused only once
 * its reads were all granted) and init ensures n_cus x 4 <= SMTLM_RF_QUEUE_CAP. `sched` must be
 * a valid scheduler, the registers 0..SMTLM_MAX_REG and the warp below SMTLM_MAX_WARPS (the SM
 * admits no other). */
static inline void smtlm_rf_queue_reads(smtlm_rf *rf, unsigned cu, unsigned warp, unsigned sched, const int16_t *src,
                                        unsigned ops)
{
    smtlm_rf_push_reads_(rf, cu, warp, rf->sched_base[sched], src, ops, 0);
}

/* One read of smtlm_rf_queue_reads (operand slot `op`, register `reg`, same conditions), for a
 * caller that unrolls its operand walk; returns the bank's bit for rf->nonempty, which the
 * caller sets once for all its reads. */
static SMTLM_ALWAYS_INLINE uint64_t smtlm_rf_queue_read(smtlm_rf *rf, unsigned cu, unsigned op, unsigned reg,
                                                        unsigned warp, unsigned base)
{
    const unsigned bank = base + rf->bank_lo[(reg + warp) & (SMTLM_RF_BANK_LO_N - 1)];
    const uint64_t tail = rf->q_tail[bank];
    const smtlm_read_req req = {(uint8_t)cu, (uint8_t)op, (uint16_t)reg};
    rf->q[bank][tail & (SMTLM_RF_QUEUE_CAP - 1)] = req;
    rf->q_tail[bank] = tail + 1;
    return 1ull << bank;
}

/* One arbitration step: fills `out` (room for n_banks grants), returns the number granted. */
unsigned smtlm_rf_arbitrate(smtlm_rf *rf, smtlm_read_grant *out);

/* The pieces of a fifo step, for a caller that hands each grant on itself (the C engine's
 * collector, without a grant list): the banks that grant their head in this step, ... */
static inline uint64_t smtlm_rf_fifo_granting(const smtlm_rf *rf)
{
    return rf->nonempty & ~(rf->write_alloc | rf->blocked);
}
/* ... the grant of bank b's head (a bank of that mask, each once, in any order: it is popped
 * and counted, and b added to *emptied if that emptied its queue) ... */
static inline smtlm_read_req smtlm_rf_fifo_grant(smtlm_rf *rf, unsigned b, uint64_t *emptied)
{
    const uint64_t head = rf->reads[b]; /* granting counts the read and pops it */
    rf->reads[b] = head + 1;
    if (head + 1 == rf->q_tail[b])
        *emptied |= 1ull << b;
    return rf->q[b][head & (SMTLM_RF_QUEUE_CAP - 1)];
}
/* The statistics of an arbitration step's end: the banks that still hold a read made it wait. */
static inline void smtlm_rf_count_waits(smtlm_rf *rf)
{
    uint64_t waiting = rf->nonempty;
    if (!waiting)
        return;
    rf->steps_with_wait++;
    for (; waiting; waiting &= waiting - 1) {
        const unsigned b = smtlm_ctz64(waiting);
        rf->wait_steps[b]++;
        rf->queue_depth_hist[rf->depth_bin[(rf->q_tail[b] - rf->reads[b]) & (2 * SMTLM_RF_QUEUE_CAP - 1)]]++;
    }
}
/* ... and the end of the step: the emptied banks leave nonempty and the reads left wait (the
 * statistics of smtlm_rf_arbitrate). Inline: the C engine's collector ends every step with it. */
static inline void smtlm_rf_fifo_done(smtlm_rf *rf, uint64_t emptied)
{
    rf->nonempty &= ~emptied;
    smtlm_rf_count_waits(rf);
}

/* Write-allocates `bank` for this step. Returns 1 if the bank was free, 0 if it already held a
 * write (the caller decides whether that stalls: LDST yes, ALU writeback no).
 * Inline: every written register goes through it. */
static inline int smtlm_rf_write(smtlm_rf *rf, unsigned bank)
{
    const uint64_t bit = 1ull << bank;
    rf->writes[bank]++;
    if (rf->write_alloc & bit)
        return 0;
    rf->write_alloc |= bit;
    return 1;
}

/* ---- write port ---- */
/* A write to a bank that took one this step or holds buffered writes: dropped, or buffered in
 * fix mode (smtlm_rf_try_write's rare path). */
smtlm_rf_write_result smtlm_rf_write_conflict(smtlm_rf *rf, unsigned warp, unsigned bank, unsigned reg);
/* A write to `bank`: the free-bank case is writeback's common path (inline). */
static inline smtlm_rf_write_result smtlm_rf_write_bank_(smtlm_rf *rf, unsigned warp, unsigned bank, unsigned reg)
{
    const uint64_t bit = 1ull << bank;
    if ((rf->write_alloc | rf->blocked) & bit)
        return smtlm_rf_write_conflict(rf, warp, bank, reg);
    rf->writes[bank]++;
    rf->write_alloc |= bit;
    return SMTLM_RF_WRITTEN;
}
static inline smtlm_rf_write_result smtlm_rf_try_write(smtlm_rf *rf, unsigned warp, unsigned sched, unsigned reg)
{
    return smtlm_rf_write_bank_(rf, warp, smtlm_rf_bank(rf, reg, warp, sched), reg);
}
/* smtlm_rf_try_write for a register 0..SMTLM_MAX_REG, a warp below SMTLM_MAX_WARPS and a valid
 * scheduler (the SM admits no other): the bank from the two tables alone (the indices are
 * masked, so no other value can reach outside them). Writeback's one-destination path. */
static inline smtlm_rf_write_result smtlm_rf_try_write_valid(smtlm_rf *rf, unsigned warp, unsigned sched, unsigned reg)
{
    const unsigned bank =
        rf->sched_base[sched & (SMTLM_MAX_SCHED - 1)] + rf->bank_lo[(reg + warp) & (SMTLM_RF_BANK_LO_N - 1)];
    return smtlm_rf_write_bank_(rf, warp, bank, reg);
}
int smtlm_rf_can_write(const smtlm_rf *rf, unsigned warp, unsigned sched, unsigned reg);
void smtlm_rf_write_reg(smtlm_rf *rf, unsigned warp, unsigned sched, unsigned reg);
/* Fix mode, start of writeback: one buffered write lands in every bank that holds some. */
#if defined(__GNUC__)
__attribute__((cold)) /* fix mode only: off the cycle's common path */
#endif
void smtlm_rf_drain_writes(smtlm_rf *rf);
static inline int smtlm_rf_writes_pending(const smtlm_rf *rf) { return rf->blocked != 0; }
/* Ports bound directly to this register file (the C engine's binding). */
smtlm_write_port smtlm_rf_write_port(smtlm_rf *rf);
/* A write port whose writes are never refused or delayed (no bank conflicts modelled). */
smtlm_write_port smtlm_rf_free_write_port(void);
smtlm_read_port smtlm_rf_read_port(smtlm_rf *rf);

/* 1 when no read is queued and no write waits. */
static inline int smtlm_rf_idle(const smtlm_rf *rf) { return !rf->nonempty && !rf->blocked; }

/* End of an arbitration step: clears all allocations (GPGPU-Sim process_banks). */
static inline void smtlm_rf_end_step(smtlm_rf *rf) { rf->write_alloc = 0; }

static inline unsigned smtlm_rf_queued(const smtlm_rf *rf, unsigned bank)
{
    return (unsigned)(rf->q_tail[bank] - rf->reads[bank]);
}
/* Entry i (0 = head) of `bank`'s read queue (i < smtlm_rf_queued). */
static inline const smtlm_read_req *smtlm_rf_entry(const smtlm_rf *rf, unsigned bank, unsigned i)
{
    return &rf->q[bank][(rf->reads[bank] + i) & (SMTLM_RF_QUEUE_CAP - 1)];
}

#ifdef __cplusplus
}
#endif
#endif
