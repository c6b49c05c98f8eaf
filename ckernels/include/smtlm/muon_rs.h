/* Muon reservation station (muon mode): rows of admitted instructions with per-source-slot
 * busy / ready / requested bits; admission arbitration over the warps' instruction-buffer
 * heads; the writeback wake-up CAM (optionally capturing the forwarded value); the choice of
 * the next row to collect operands for; the eligibility search and the dispatch policy.
 *
 * The RS knows nothing about the scoreboard: admission takes the busy / nothing-to-read masks
 * the scoreboard computed, and the caller reports operand reads to the scoreboard itself.
 * Fixed arrays, no allocation; semantics in full: docs/MUON.md. */
#ifndef SMTLM_MUON_RS_H
#define SMTLM_MUON_RS_H

#include "smtlm/common.h"
#include "smtlm/inst_pool.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SMTLM_MUON_RS_MAX 64 /* rows; row masks are uint64_t */

/* -smtlm_muon_rs_policy */
typedef enum smtlm_muon_rs_policy {
    SMTLM_MUON_RS_RR = 0,  /* round-robin over rows (the RTL's RRArbiter) */
    SMTLM_MUON_RS_OLDEST,  /* oldest admitted eligible row */
    SMTLM_MUON_RS_GTO      /* the last dispatched warp's oldest eligible row, else the oldest */
} smtlm_muon_rs_policy;

typedef struct smtlm_muon_rs_cfg {
    unsigned n_warps;
    unsigned rs_entries;   /* -smtlm_muon_rs_entries: rows, 1..SMTLM_MUON_RS_MAX */
    unsigned rs_per_warp;  /* -smtlm_muon_rs_per_warp: rows one warp may hold (0 = rs_entries) */
    smtlm_muon_rs_policy rs_policy;
    int in_order;          /* -smtlm_muon_in_order: only a warp's oldest row may dispatch */
    int forwarding;        /* -smtlm_muon_forwarding: wake-up captures the value (operand ready) */
} smtlm_muon_rs_cfg;

typedef struct smtlm_muon_rs_row {
    uint64_t seq;          /* admission order (the age used by oldest, gto and in_order) */
    uint32_t pc;
    uint16_t tag;          /* the caller's instruction id (instruction-pool index) */
    uint16_t warp;
    uint8_t n_src;
    uint8_t busy;          /* slot bits: waiting for a pending writer's writeback */
    uint8_t ready;         /* slot bits: value in hand (collected, forwarded, or nothing to read) */
    uint8_t requested;     /* slot bits: collection requested, not yet done */
    int16_t src[SMTLM_MAX_SRC];
} smtlm_muon_rs_row;

/* A row that received forwarded values at a wake-up. */
typedef struct smtlm_muon_rs_fwd {
    uint8_t row;
    uint8_t slots;
    uint16_t tag;
} smtlm_muon_rs_fwd;

/* A collection request (smtlm_muon_rs_collect_pick) or a dispatched row. */
typedef struct smtlm_muon_rs_pick {
    uint8_t row;
    uint8_t slots;         /* collection: the slots requested; dispatch: 0 */
    uint16_t tag;
    uint16_t warp;
    uint32_t pc;
} smtlm_muon_rs_pick;

typedef struct smtlm_muon_rs {
    smtlm_muon_rs_cfg cfg;
    smtlm_muon_rs_row row[SMTLM_MUON_RS_MAX];
    uint64_t valid;                          /* occupied rows */
    uint64_t complete;                       /* occupied rows with every slot ready */
    uint64_t warp_rows[SMTLM_MAX_WARPS];     /* occupied rows per warp */
    uint8_t n_warp_rows[SMTLM_MAX_WARPS];
    unsigned n_valid;
    unsigned per_warp;                       /* effective per-warp cap */
    uint64_t next_seq;
    unsigned last_row;                       /* rr: the last row dispatched */
    unsigned last_admit;                     /* admission round-robin: the last warp admitted */
    unsigned last_warp;                      /* gto: the last warp dispatched */
    int has_last_warp;
    /* statistics (cumulative) */
    uint64_t admitted, dispatched;
    uint64_t occupancy_sum;                  /* sum over sampled cycles of occupied rows */
    uint64_t cycles_eligible;                /* sampled cycles with an eligible row */
    const char *cfg_error;                   /* why init rejected the configuration */
} smtlm_muon_rs;

int smtlm_muon_rs_init(smtlm_muon_rs *rs, const smtlm_muon_rs_cfg *cfg);
void smtlm_muon_rs_reset(smtlm_muon_rs *rs);

/* 1 if warp w may be given a row now (a free row, and under its per-warp cap). */
static inline int smtlm_muon_rs_room(const smtlm_muon_rs *rs, unsigned w)
{
    return rs->n_valid < rs->cfg.rs_entries && rs->n_warp_rows[w] < rs->per_warp;
}

/* Admission arbiter: among `candidates` (bit w: warp w has an instruction the scoreboard
 * admits) with room, the first warp after the last admitted one, round-robin. -1 if none. */
int smtlm_muon_rs_admit_pick(const smtlm_muon_rs *rs, uint64_t candidates);

/* Admits `in` (warp in->warp) under `tag` into the lowest free row, with the scoreboard's
 * busy and nothing-to-read slot masks. Returns the row, SMTLM_EFULL without room, or
 * SMTLM_EINPUT for a malformed instruction. */
int smtlm_muon_rs_admit(smtlm_muon_rs *rs, smtlm_iref tag, const smtlm_inst *in, unsigned busy, unsigned none);

/* Writeback broadcast of warp w's register `reg`: clears the matching busy slots; with
 * forwarding those slots also become ready, and each row that got values is appended to
 * `fwd` (capacity SMTLM_MUON_RS_MAX; may be NULL without forwarding). Returns the count. */
unsigned smtlm_muon_rs_wakeup(smtlm_muon_rs *rs, unsigned w, int reg, smtlm_muon_rs_fwd *fwd);

/* The next operand collection (one per call): the lowest row all of whose missing slots can be
 * read now (none busy, none requested); with in_order, a row waits until no older row of its
 * warp has slots left to request. Marks the slots requested. Returns 1 and fills *out, or 0. */
int smtlm_muon_rs_collect_pick(smtlm_muon_rs *rs, smtlm_muon_rs_pick *out);
/* The same among the rows of `allowed` only (e.g. those whose collector bank has room). */
int smtlm_muon_rs_collect_pick_among(smtlm_muon_rs *rs, uint64_t allowed, smtlm_muon_rs_pick *out);
/* Operand reads of `slots` in `row` completed: they become ready. */
void smtlm_muon_rs_collected(smtlm_muon_rs *rs, unsigned row, unsigned slots);

/* Rows that may dispatch: every slot ready and, with in_order, the oldest row of their warp. */
uint64_t smtlm_muon_rs_eligible(const smtlm_muon_rs *rs);
/* Dispatches one eligible row among `allowed` (e.g. rows whose unit is free) by the policy and
 * frees it. Returns 1 and fills *out, or 0. */
int smtlm_muon_rs_dispatch(smtlm_muon_rs *rs, uint64_t allowed, smtlm_muon_rs_pick *out);

/* Once per cycle: occupancy statistics. */
void smtlm_muon_rs_sample(smtlm_muon_rs *rs);

const char *smtlm_muon_rs_policy_name(smtlm_muon_rs_policy p);

#ifdef __cplusplus
}
#endif
#endif
