/* The Muon issue block (-smtlm_mode muon): scoreboard + reservation station + the glue between
 * them, the front end's instruction buffers and the Muon operand collector. It admits
 * instruction-buffer heads into the RS, asks the collector for a row's operands (readReq),
 * takes its answers (readResp), dispatches complete rows into the units' OC_EX sets, releases
 * their collector entries (readData) and applies writebacks through the scoreboard's gate.
 *
 * What it needs from other blocks goes through ports bound once (ports.h style): the collector
 * (smtlm_muon_coll_ops), the OC_EX sets (smtlm_stage_port) and the SM's completion counters.
 * The C engine (sm_muon.c) binds the collector kernel's functions; the SystemC model
 * (MuonIssue) binds transactions to its MuonCollector. Each cycle the caller runs, in order:
 *
 *   smtlm_muon_issue_begin      writebacks the gate held in earlier cycles
 *   smtlm_muon_issue_result     each EX_WB instruction, oldest first
 *   (execute units and LDST; the LDST's events: _ldst_release, _ldst_completed)
 *   smtlm_muon_issue_collected  the collector's readResp of the cycle
 *   smtlm_muon_issue_read_data  readData of the rows dispatched last cycle
 *   smtlm_muon_issue_dispatch   one complete row into its unit's OC_EX set
 *   smtlm_muon_issue_collect    one row's readReq
 *   (collector arbitration)
 *   smtlm_muon_issue_wake       wake-ups without forwarding
 *   smtlm_muon_issue_admit      one instruction-buffer entry into the RS
 * Cycle order and timing: docs/MUON.md, "The Muon SM". */
#ifndef SMTLM_MUON_ISSUE_H
#define SMTLM_MUON_ISSUE_H

#include "smtlm/issue.h"
#include "smtlm/muon_collector.h"
#include "smtlm/muon_rs.h"
#include "smtlm/muon_sb.h"
#include "smtlm/ports.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SMTLM_MUON_NO_TAG 0xFFFFu

/* The Muon configuration an SM carries (enabled = 0: the GPGPU-Sim composition). */
typedef struct smtlm_sm_muon_cfg {
    int enabled;
    smtlm_muon_sb_cfg sb;      /* n_warps is set by the SM from max_warps */
    smtlm_muon_rs_cfg rs;
    smtlm_muon_coll_cfg coll;
} smtlm_sm_muon_cfg;

/* The collector as the issue block sees it (smtlm_muon_coll_* of the same names). */
typedef struct smtlm_muon_coll_ops {
    void *ctx;
    int (*writeback)(void *ctx, uint64_t now, unsigned warp, int reg);
    int (*can_accept)(void *ctx, unsigned fu);
    int (*request)(void *ctx, uint64_t now, const smtlm_muon_coll_req *req); /* entry or error */
    int (*release)(void *ctx, uint64_t now, unsigned entry);
} smtlm_muon_coll_ops;

/* The collector kernel's own functions behind smtlm_muon_coll_ops (ctx = smtlm_muon_coll). */
smtlm_muon_coll_ops smtlm_muon_coll_direct_ops(smtlm_muon_coll *c);

typedef struct smtlm_muon_issue_ports {
    smtlm_issue *iss;          /* the front end: instruction buffers, warps, the SM's scoreboard */
    smtlm_inst_pool *pool;
    smtlm_stage_port exec;      /* the units' OC_EX sets (row set: room checks read it) */
    smtlm_muon_coll_ops coll;
    /* an instruction finished: the SM's completion counters, progress and retire hook */
    void *ctx;
    void (*completed)(void *ctx, const smtlm_inst *in);
} smtlm_muon_issue_ports;

/* One admitted instruction, by its Muon tag (the scoreboard's and RS's id). A tag lives from
 * admission until its instruction dispatched and its scoreboard ticket is no longer live. */
typedef struct smtlm_muon_tag {
    uint16_t ref;              /* instruction-pool entry while it is in the pipeline */
    uint8_t used;
    uint8_t dispatched;
    uint8_t row;               /* RS row until dispatch */
    int8_t entry;              /* collector entry (-1: none) until released */
    uint8_t wb_waiting;        /* a register release waits on the writeback gate */
    uint16_t warp;
    uint32_t pc;
} smtlm_muon_tag;

/* Statistics of the block (the scoreboard and RS keep their own). */
typedef struct smtlm_muon_issue_stats {
    uint64_t admit_stall[SMTLM_MUON_VERDICTS]; /* head verdicts of warps that could not be admitted */
    uint64_t wb_gate_waits;                     /* cycles x writebacks held by the writeback gate */
    uint64_t tag_stalls;                        /* admissions deferred because no tag was free */
} smtlm_muon_issue_stats;

typedef struct smtlm_muon_issue {
    unsigned n_warps, n_sched;
    int sub_core, forwarding, past_waw;
    unsigned fu_banks;         /* inst_banked collector: FU banks (0: the collector is not FU-banked) */
    smtlm_muon_issue_ports p;
    uint64_t now;
    smtlm_muon_sb sb;
    smtlm_muon_rs rs;
    smtlm_muon_tag tag[SMTLM_MUON_MAX_TAGS];
    uint16_t ref_tag[SMTLM_POOL_SIZE];          /* pool entry -> tag */
    uint16_t writer[SMTLM_MAX_WARPS][SMTLM_MUON_REGS]; /* the tag holding pendingWrite of (w, reg) */
    uint64_t tag_free[SMTLM_MUON_MAX_TAGS / 64];
    /* writebacks held by the gate: ALU results still holding their pool entry (ref != NO_INST)
     * or LDST register releases (the pool entry is gone), oldest first */
    uint16_t held[SMTLM_MUON_MAX_TAGS];
    unsigned n_held;
    /* collector entries to release (readData) in the cycle after their row dispatched */
    int8_t release[SMTLM_MUON_RS_MAX];
    unsigned n_release;
    /* the cycle's writebacks; without forwarding their wake-ups wait for smtlm_muon_issue_wake
     * (the RS requests the woken operand from the next cycle on, when the register file has it) */
    struct { uint16_t warp; int16_t reg; } wake[SMTLM_MUON_COLL_MAX_WB];
    unsigned n_wake;
    smtlm_muon_issue_stats st;
    const char *cfg_error;
} smtlm_muon_issue;

/* Validates the scoreboard and RS configuration (n_warps warp slots, at most 64) and clears
 * the state; SMTLM_EINVAL / SMTLM_ERANGE with cfg_error naming the option. */
int smtlm_muon_issue_init(smtlm_muon_issue *mi, const smtlm_sm_muon_cfg *cfg, unsigned n_warps, unsigned n_sched,
                          int sub_core);
void smtlm_muon_issue_bind(smtlm_muon_issue *mi, const smtlm_muon_issue_ports *p);
void smtlm_muon_issue_reset(smtlm_muon_issue *mi);

/* The cycle's steps, in the order above (each returns SMTLM_OK or the kernel error). */
void smtlm_muon_issue_begin(smtlm_muon_issue *mi, uint64_t now);
void smtlm_muon_issue_result(smtlm_muon_issue *mi, smtlm_iref r);
void smtlm_muon_issue_ldst_release(smtlm_muon_issue *mi, unsigned warp, unsigned reg);
void smtlm_muon_issue_ldst_completed(smtlm_muon_issue *mi, const smtlm_inst *in);
void smtlm_muon_issue_collected(smtlm_muon_issue *mi, const smtlm_muon_coll_resp *resp, unsigned n);
int smtlm_muon_issue_read_data(smtlm_muon_issue *mi);
void smtlm_muon_issue_dispatch(smtlm_muon_issue *mi);
int smtlm_muon_issue_collect(smtlm_muon_issue *mi);
void smtlm_muon_issue_wake(smtlm_muon_issue *mi);
int smtlm_muon_issue_admit(smtlm_muon_issue *mi);

/* A port into the Muon issue block from the SM's other Muon stages: the results the writeback
 * takes from EX_WB (MuonResult) and the collector's readResp of the cycle (MuonReadResp). Bound
 * once to the issue block itself (the direct target) or to an owner's ops (a SystemC socket);
 * the stages call it only through smtlm_muon_in_result / smtlm_muon_in_collected. */
typedef struct smtlm_muon_issue_in {
    smtlm_muon_issue *mi; /* direct target, else NULL: the ops below */
    void *ctx;
    void (*result)(void *ctx, smtlm_iref r);
    void (*collected)(void *ctx, uint64_t now, const smtlm_muon_coll_resp *resp, unsigned n); /* readResp of `now` */
} smtlm_muon_issue_in;

static inline void smtlm_muon_in_result(const smtlm_muon_issue_in *p, smtlm_iref r)
{
    if (p->mi)
        smtlm_muon_issue_result(p->mi, r);
    else
        p->result(p->ctx, r);
}
static inline void smtlm_muon_in_collected(const smtlm_muon_issue_in *p, uint64_t now, const smtlm_muon_coll_resp *resp,
                                           unsigned n)
{
    if (p->mi)
        smtlm_muon_issue_collected(p->mi, resp, n);
    else
        p->collected(p->ctx, now, resp, n);
}

#ifdef __cplusplus
}
#endif
#endif
