/* The silicon core (-smtlm_core silicon): issue, register reads, pipes and shared memory of an
 * SM as H100 silicon measures them (docs/SILICON.md gives each rule with the measurement that
 * fixes it). It replaces the Accel-Sim issue stage, operand collector, register file and
 * execute units; the SM's front end (fetch, decode, CTA and warp bookkeeping) and its LDST unit
 * for memory beyond shared memory are the SM's own.
 *
 * Per sub-core (warp w on sub-core w mod n_sched), one cycle:
 *   - a warp may issue once its stall count has passed (and, with the yield bit 0, no earlier
 *     than no_yield_gap cycles after its previous issue), once no barrier it waits on is set,
 *     and never before bar_delay cycles after the set was made (a consumer closer than that does
 *     not see it); the check is made once, when the stall count has passed, and then holds
 *     while the instruction waits for its pipe (a "throttled" instruction is not re-checked);
 *   - one instruction issues per sub-core per cycle: the last warp that issued if it can, else
 *     the oldest that can;
 *   - its pipe takes one instruction every interval[pipe] cycles; the FMA pipe is two halves
 *     (heavy and lite, interval[FMA] each): FP32 takes the lite half when it is free, else the
 *     heavy one, integer multiply-add (IMAD, IMUL, IDP) only the heavy one, FP16x2 both;
 *     matrix-pipe FP16, FP64 and tensor instructions share one pipe;
 *   - its register reads, one 32-bit register per bank per cycle (bank = register mod rf_banks),
 *     go in the earliest free cycles from the cycle after issue, and must all fit within
 *     rf_window cycles after issue (or within as many cycles as one bank has reads); RZ, a
 *     register named twice and a hit in the operand slot's reuse cache are not read, a 64-bit
 *     operand reads both registers of its pair; an instruction on the matrix pipe (HFMA2.MMA)
 *     is served by the reuse caches but leaves them empty (its reuse flags keep nothing);
 *   - a fixed-latency pipe's result (FP32, integer, FP16, matrix-pipe FP16, FP64) is written
 *     latency[pipe] cycles after issue, one register per bank per cycle: an instruction whose
 *     result would land in a bank another result takes that cycle waits;
 *   - shared-memory loads and stores: their wavefronts (one per conflict way) take one cycle
 *     each of the SM's shared-memory port, one warp's no closer than lds_warp_gap apart, the
 *     warp's next one no earlier than lds_warp_gap after its last; a load's barrier is released
 *     lds_latency cycles after its last wavefront.
 * Without control bits (a trace without a listing) the warp waits for its source and
 * destination registers instead, as an ideal compiler's stall counts and barriers would have
 * it: a result is ready latency[pipe] cycles after issue (the instruction's own latency for
 * pipes without one). */
#ifndef SMTLM_SILICON_H
#define SMTLM_SILICON_H

#include "smtlm/ctrl.h"
#include "smtlm/inst_pool.h"
#include "smtlm/issue.h"
#include "smtlm/regset.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SMTLM_SILICON_ARCH 90u  /* the architecture it is timed as (H100: sm_90, binary version 90) */
#define SMTLM_SIL_BARS 6        /* dependency barriers per warp */
#define SMTLM_SIL_SLOTS 3       /* operand slots a, b, c with a reuse cache */
#define SMTLM_SIL_MAX_BANKS 8   /* register banks per sub-core */
#define SMTLM_SIL_WHEEL 4096    /* completion horizon in cycles (a power of two) */
/* read-barrier releases pending: each sub-core issues at most one instruction a cycle, whose
 * reads end within 31 cycles (the banks' horizon) */
#define SMTLM_SIL_READ_EVENTS (SMTLM_MAX_SCHED * 32)

typedef struct smtlm_silicon_cfg {
    int enabled;
    unsigned interval[SMTLM_PIPE_COUNT]; /* cycles per warp instruction of a sub-core's pipe */
    unsigned latency[SMTLM_PIPE_COUNT];  /* issue to result (0: the instruction's own latency) */
    unsigned rf_banks;                   /* register banks per sub-core */
    unsigned rf_window;                  /* cycles after issue an instruction's reads must fit in */
    unsigned bar_delay;                  /* cycles from a barrier's set to when consumers see it */
    unsigned no_yield_gap;               /* least cycles after an issue whose yield bit is 0 */
    unsigned lds_latency;                /* a shared load's last wavefront to its barrier's release */
    unsigned lds_warp_gap;               /* least cycles between one warp's wavefronts */
    unsigned shmem_banks;                /* shared-memory banks (4-byte words) */
} smtlm_silicon_cfg;

/* The H100 figures (configs/h100.config sets the same). */
void smtlm_silicon_cfg_h100(smtlm_silicon_cfg *c);
/* A figure out of its range: the option that sets it (without '-'), the element of its list
 * (pipe order FMA, FMA_HEAVY, ...; -1 for a single value), the value and its range. */
typedef struct smtlm_silicon_bad {
    const char *option;
    int index;
    unsigned value, lo, hi;
} smtlm_silicon_bad;
/* SMTLM_OK or SMTLM_EINVAL (an interval of 0) / SMTLM_ERANGE with *why a fixed text and *bad
 * (may be NULL) the figure. */
int smtlm_silicon_cfg_check_at(const smtlm_silicon_cfg *c, const char **why, smtlm_silicon_bad *bad);
int smtlm_silicon_cfg_check(const smtlm_silicon_cfg *c, const char **why);

/* An instruction's 32-bit register reads (physical numbers) after RZ, repeats and reuse hits,
 * and what the reuse caches hold after it. */
typedef struct smtlm_sil_reads {
    int16_t reg[2 * SMTLM_MAX_SRC];
    uint8_t n, hits;
    int16_t keep[SMTLM_SIL_SLOTS];
} smtlm_sil_reads;

typedef struct smtlm_sil_warp {
    uint64_t next_at;                    /* earliest cycle of the warp's next issue */
    uint64_t lds_next;                   /* earliest cycle of its next shared-memory access */
    uint64_t bar_since[SMTLM_SIL_BARS];  /* cycle of the first set since the barrier was last clear */
    uint16_t bar_cnt[SMTLM_SIL_BARS];    /* sets outstanding */
    uint8_t passed;                      /* the head instruction passed its dependency check */
    /* What the core worked out of the warp's head instruction, while it waits to issue: */
    uint8_t pipe;
    uint8_t result_banks;                /* banks its fixed-latency result takes (bit b: bank b) */
    uint16_t latency;                    /* issue to result (a fixed-latency pipe's: the write's cycle) */
    smtlm_iref head;                     /* that instruction (SMTLM_NO_INST: none yet) */
    const smtlm_ctrl *ctrl;              /* its control bits (NULL: none) */
    uint8_t rd_known;                    /* rd is the head's (worked out in reads_epoch) */
    uint32_t reads_epoch;                /* the sub-core's epoch `rd` was worked out in */
    smtlm_sil_reads rd;
} smtlm_sil_warp;

typedef struct smtlm_sil_sub {
    uint64_t pipe_free[SMTLM_PIPE_COUNT]; /* first cycle each pipe takes an instruction again (as
                                           * pipe_free_at in silicon.c reads them) */
    uint64_t rf_at;                       /* the cycle bit 0 of rf_busy stands for */
    uint32_t rf_busy[SMTLM_SIL_MAX_BANKS]; /* bit j: the bank reads a register in cycle rf_at + j */
    /* [c % SMTLM_MAX_LATENCY], bit b: bank b takes a fixed-latency result in cycle c (cycles
     * from wr_clean on; a result is less than SMTLM_MAX_LATENCY cycles ahead) */
    uint8_t wr_busy[SMTLM_MAX_LATENCY];
    uint64_t wr_clean;
    int16_t reuse_reg[SMTLM_SIL_SLOTS];   /* the register each slot's reuse cache holds, -1 none */
    uint16_t reuse_warp[SMTLM_SIL_SLOTS];
    int16_t last;                         /* the warp that issued last (-1 none) */
    uint32_t epoch;                       /* +1 at each issue: the reuse caches may have changed */
} smtlm_sil_sub;

typedef struct smtlm_sil_read_event {     /* a read barrier's release */
    uint64_t at;
    uint16_t warp;
    uint8_t bar;
} smtlm_sil_read_event;

typedef struct smtlm_silicon_stats {
    uint64_t issued[SMTLM_PIPE_COUNT];
    uint64_t bank_stalls;    /* issues held a cycle by the register-read window */
    uint64_t write_stalls;   /* ... by a bank another fixed-latency result takes in the same cycle */
    uint64_t pipe_stalls;    /* ... by a busy pipe (throttle) */
    uint64_t bar_stalls;     /* ... by a barrier (or, without control bits, a register) */
    uint64_t reuse_hits;
    uint64_t reads;          /* register reads (32-bit) */
    uint64_t wavefronts;     /* shared-memory wavefronts */
} smtlm_silicon_stats;

/* What the silicon core reaches: the SM's issue block (front end, warps, CTAs, its scoreboard
 * for the no-control-bits rule), the pool, the source (the kernel's control bits) and the hand-off
 * into the LDST's OC_EX_MEM set (memory beyond shared memory). */
typedef struct smtlm_sil_ports {
    smtlm_issue *iss;
    smtlm_inst_pool *pool;
    const smtlm_inst_source *src;
    smtlm_stage_port ldst;
} smtlm_sil_ports;

typedef struct smtlm_silicon {
    smtlm_silicon_cfg cfg;
    unsigned n_sub;
    smtlm_sil_ports p;
    smtlm_sil_sub sub[SMTLM_MAX_SCHED];
    smtlm_sil_warp warp[SMTLM_MAX_WARPS];
    uint16_t wheel[SMTLM_SIL_WHEEL];     /* per cycle: the first instruction that completes then */
    uint16_t wnext[SMTLM_POOL_SIZE];     /* the next one of the same cycle */
    uint8_t wbar[SMTLM_POOL_SIZE];       /* the write barrier an in-flight instruction releases */
    uint64_t port[SMTLM_SIL_WHEEL / 64]; /* shared-memory port: bit c % WHEEL = a wavefront in c */
    uint64_t port_clean;                 /* port bits of cycles before this one are clear */
    smtlm_sil_read_event rq[SMTLM_SIL_READ_EVENTS];
    unsigned n_rq;
    smtlm_silicon_stats st;
    const char *cfg_error;
} smtlm_silicon;

int smtlm_silicon_init(smtlm_silicon *s, const smtlm_silicon_cfg *cfg, unsigned n_sub);
void smtlm_silicon_bind(smtlm_silicon *s, const smtlm_sil_ports *p);
void smtlm_silicon_reset(smtlm_silicon *s);
/* The warps in `warps` (a mask) start a new CTA: their barriers, stall counts and pending
 * read-barrier releases are cleared. */
void smtlm_silicon_launch(smtlm_silicon *s, uint64_t warps);
/* Completions and read-barrier releases due at `now`. */
void smtlm_silicon_complete(smtlm_silicon *s, uint64_t now);
/* One issue per sub-core. SMTLM_OK or an error (an instruction the core cannot run). */
int smtlm_silicon_issue(smtlm_silicon *s, uint64_t now);
/* The LDST's warp events (memory beyond shared memory) as the silicon core takes them: a
 * completion also releases the instruction's write barrier; the others are the issue block's.
 * Both engines bind the LDST's warp port to these. */
smtlm_warp_port smtlm_silicon_warp_port(smtlm_silicon *s);

#ifdef __cplusplus
}
#endif
#endif
