/* One SM back end: the composition of the blocks in GPGPU-Sim's cycle order
 *   writeback -> execute (pipelined units, LDST) -> read operands x port throughput
 *   (dispatch, arbitrate+collect, allocate, end of step) -> issue -> fetch/decode x throughput.
 * smtlm_sm holds no logic of its own beyond that order and the glue between the blocks. */
#ifndef SMTLM_SM_H
#define SMTLM_SM_H

#include "smtlm/exec.h"
#include "smtlm/issue.h"
#include "smtlm/issue_events.h"
#include "smtlm/ldst.h"
#include "smtlm/opcoll.h"
#include "smtlm/regfile.h"
#include "smtlm/sm_muon.h"
#include "smtlm/sm_silicon.h"
#include "smtlm/writeback.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The SM's configuration: its shape and units, which several blocks follow, and each block's
 * own configuration, handed to the block as it is (smtlm_sm_init). */
typedef struct smtlm_sm_cfg {
    smtlm_sm_shape shape;             /* the sub-core layout */
    unsigned width[SMTLM_NUM_STD_REGSETS]; /* pipeline widths, GPGPU-Sim order (ID_OC_SP .. OC_EX_TENSOR_CORE) */
    smtlm_units_cfg units;            /* execution units and their pipeline depths */
    smtlm_issue_cfg issue;            /* front end and issue */
    smtlm_opcoll_cfg oc;              /* operand collector */
    smtlm_rf_cfg rf;                  /* register file (and the writeback's bank-conflict quirk) */
    unsigned reg_file_port_throughput; /* -gpgpu_reg_file_port_throughput: read-operand steps a cycle */
    smtlm_ldst_cfg ldst;              /* load/store */
    smtlm_sm_muon_cfg muon;           /* -smtlm_mode muon: the Muon issue logic replaces issue and the collector */
    smtlm_silicon_cfg silicon;        /* -smtlm_core silicon: the silicon core replaces issue, collector and units */
} smtlm_sm_cfg;

/* QV100-like preset (SM7_QV100 gpgpusim.config + trace.config). */
void smtlm_sm_cfg_qv100(smtlm_sm_cfg *cfg);

/* Why an instruction was refused (smtlm_sm.reject, with SMTLM_EINPUT). */
typedef enum smtlm_reject {
    SMTLM_REJECT_NONE = 0,
    SMTLM_REJECT_FIELDS,      /* bad op, counts, memory space, latency 0 or II > latency */
    SMTLM_REJECT_REGISTER,    /* register number outside 0..SMTLM_MAX_REG */
    SMTLM_REJECT_SPEC_UNIT,   /* needs specialized unit `detail`, which is not configured */
    SMTLM_REJECT_DEPTH,       /* latency - II does not fit the unit's pipeline of depth `detail` */
    SMTLM_REJECT_NO_UNIT      /* runs on unit type `detail` (smtlm_unit), of which the SM has none */
} smtlm_reject;

typedef void (*smtlm_cta_hook)(void *ctx, unsigned sm, unsigned cta_slot, uint32_t cta_id);

/* A block of the owner's that drains EX_WB in the SM's writeback's place (a virtual platform's
 * own module, bound to the other blocks through its own ports). The cycle calls it where it
 * would drain its own writeback; quiescence asks it whether it is idle; a reset resets it. */
typedef struct smtlm_sm_wb_stand_in {
    void *ctx;
    void (*cycle)(void *ctx, uint64_t now); /* NULL: the SM's own writeback */
    int (*idle)(const void *ctx);
    void (*reset)(void *ctx);
} smtlm_sm_wb_stand_in;

typedef struct smtlm_sm {
    smtlm_sm_cfg cfg;
    unsigned id;
    uint64_t now;
    smtlm_inst_pool pool;
    smtlm_regset rs[SMTLM_NUM_REGSETS];
    smtlm_issue iss;
    smtlm_opcoll oc;
    smtlm_rf rf;
    smtlm_exec ex;
    smtlm_ldst ldst;
    smtlm_wb wb;
    smtlm_sm_wb_stand_in wb_stand_in; /* zero unless an owner's block drains EX_WB instead */
    smtlm_sm_muon muon;            /* muon mode only (cfg.muon.enabled) */
    smtlm_silicon silicon;         /* silicon core only (cfg.silicon.enabled) */
    smtlm_inst_source src;
    smtlm_sm_stats stats;
    smtlm_retire_hook on_retire;
    smtlm_cta_hook on_cta_done;
    void *hook_ctx;                /* context of on_cta_done */
    void *retire_ctx;              /* context of on_retire */
    uint64_t last_progress;        /* last cycle something issued or retired */
    int error;                     /* nonzero: the SM stopped (smtlm_sm_cycle_end) */
    uint32_t error_line;
    smtlm_reject reject;           /* with SMTLM_EINPUT: what was wrong */
    unsigned reject_detail;        /* specialized unit number or pipeline depth */
    uint64_t ok_shape[SMTLM_SHAPE_MEMO]; /* smtlm_sm_check_inst_memo's memo */
    const char *cfg_error;         /* why smtlm_sm_init refused the configuration (the field) */
} smtlm_sm;

/* Validates cfg and builds every block. Returns SMTLM_OK or a negative code, and then
 * sm->cfg_error names the rejected field. */
int smtlm_sm_init(smtlm_sm *sm, const smtlm_sm_cfg *cfg, unsigned id);
/* Clears all state and statistics (warps, pipelines, queues), keeping the configuration. */
void smtlm_sm_reset(smtlm_sm *sm);
void smtlm_sm_set_source(smtlm_sm *sm, const smtlm_inst_source *src);
/* One core cycle at global cycle `now` of the GPGPU-Sim composition (muon mode:
 * smtlm_sm_muon_cycle). Returns SMTLM_OK or an error (sm->error). */
int smtlm_sm_cycle(smtlm_sm *sm, uint64_t now);
/* 1 while the SM holds a CTA or unfinished threads (GPGPU-Sim: its body runs). */
static inline int smtlm_sm_active(const smtlm_sm *sm)
{
    return sm->iss.n_active_ctas > 0 || sm->iss.not_completed > 0;
}
/* The bookkeeping around every composition's cycle (both engines, both modes). begin: 1 when
 * the SM runs cycle `now` (it holds work and has not stopped), its clock and active-cycle count
 * then advanced; else the cycle returns smtlm_sm_idle_result. end: the watchdog's progress and
 * the first error of the cycle (rc nonzero) stops the SM, unless the checked source already
 * recorded an input error with its line (checked_miss); returns the cycle's result. */
static inline int smtlm_sm_cycle_begin(smtlm_sm *sm, uint64_t now)
{
    if (!smtlm_sm_active(sm) || sm->error)
        return 0;
    sm->now = now;
    sm->stats.active_cycles++;
    return 1;
}
static inline int smtlm_sm_idle_result(const smtlm_sm *sm) { return smtlm_sm_active(sm) ? sm->error : SMTLM_OK; }
static inline int smtlm_sm_cycle_end(smtlm_sm *sm, uint64_t now, int rc)
{
    if (sm->iss.issued_this_cycle)
        sm->last_progress = now;
    if (rc && !sm->error)
        sm->error = rc;
    return sm->error;
}
/* Launches a CTA of `threads` threads; returns the slot or a negative code. */
int smtlm_sm_launch_cta(smtlm_sm *sm, unsigned threads, uint32_t cta_id);

/* GPGPU-Sim composition. 1 when the SM's coming cycles would only advance counters until an outside event (a memory
 * response or a new CTA): every pipeline register, collector, unit and queue is empty, and no
 * warp can be fetched, decoded, issued or retired. Holds for the lrr, gto and oldest policies
 * (the others may reorder warps while idle). */
int smtlm_sm_quiescent(const smtlm_sm *sm);
/* Accounts k quiescent cycles starting at `now` exactly as k calls of smtlm_sm_cycle would:
 * one issue stage runs for real and its counter deltas are applied k-1 more times. */
void smtlm_sm_skip(smtlm_sm *sm, uint64_t now, uint64_t k);

/* ---- the composition's pieces ---- */

/* The SM-level configuration checks; SMTLM_OK or a code with *why naming the field. */
int smtlm_sm_validate(const smtlm_sm_cfg *cfg, const char **why);
/* Initialises ex and adds the units in GPGPU-Sim's m_fu order (SP, DP, INT, SFU, tensor, spec). */
int smtlm_sm_build_exec(const smtlm_sm_cfg *cfg, smtlm_exec *ex);
/* The SM's row of pipeline register sets with the configured widths, all empty. */
void smtlm_sm_regsets_init(const smtlm_sm_cfg *cfg, smtlm_regset *rs);
/* How many units the SM has of the type op runs on (smtlm_op_route; 0: no instruction of op
 * can ever issue), and that type (smtlm_unit) into *unit. */
unsigned smtlm_sm_op_units(const smtlm_sm_cfg *cfg, unsigned op, unsigned *unit);
/* The GPGPU-Sim option (without '-') that gives the SM its units of type `unit` (smtlm_unit);
 * for the tensor core the one that took it away. For messages. */
const char *smtlm_sm_unit_option(const smtlm_sm_cfg *cfg, unsigned unit);
/* What is wrong with an instruction from the source (SMTLM_REJECT_NONE when it may enter). */
smtlm_reject smtlm_sm_check_inst(const smtlm_sm_cfg *cfg, const smtlm_inst_desc *d, unsigned *detail);
/* The same verdict with a memo: shape[op] packs every field the checks read except the
 * register numbers (op, spec, counts, latency, ii) of the last instruction of that op accepted,
 * so an instruction of that shape has only its registers checked (a trace repeats a few shapes
 * per op). Start the memo with smtlm_sm_memo_clear. */
/* The full check's verdict `why`, remembering the shape when it passed. */
static inline smtlm_reject smtlm_sm_memo_remember_(uint64_t *memo, unsigned op, uint64_t key, unsigned n_src,
                                                   unsigned n_dst, smtlm_reject why)
{
    if (why == SMTLM_REJECT_NONE)
        smtlm_sm_memo_store_(memo, op, key, n_src, n_dst);
    return why;
}
static inline smtlm_reject smtlm_sm_check_inst_memo(const smtlm_sm_cfg *cfg, uint64_t *memo, const smtlm_inst_desc *d,
                                                    unsigned *detail)
{
    const uint64_t key = smtlm_sm_shape_key_(&d->op, &d->latency);
    const int v = smtlm_sm_memo_verdict_(memo, d->op, key, d->mem_space, d->src, d->dst);
    if (v < 0)
        return smtlm_sm_memo_remember_(memo, d->op, key, d->n_src, d->n_dst, smtlm_sm_check_inst(cfg, d, detail));
    *detail = 0;
    return v ? SMTLM_REJECT_REGISTER : SMTLM_REJECT_NONE;
}
/* smtlm_sm_check_inst on the descriptor fields of a pool entry. */
smtlm_reject smtlm_sm_check_entry(const smtlm_sm_cfg *cfg, const smtlm_inst *in, unsigned *detail);
/* The same verdict for an instruction decoded in place into a pool entry (same memo). */
static inline smtlm_reject smtlm_sm_check_entry_memo(const smtlm_sm_cfg *cfg, uint64_t *memo, const smtlm_inst *in,
                                                     unsigned *detail)
{
    const uint64_t key = smtlm_sm_shape_key_(&in->op, &in->latency);
    const int v = smtlm_sm_memo_verdict_(memo, in->op, key, in->mem_space, in->src, in->dst);
    if (v < 0)
        return smtlm_sm_memo_remember_(memo, in->op, key, in->n_src, in->n_dst, smtlm_sm_check_entry(cfg, in, detail));
    *detail = 0;
    return v ? SMTLM_REJECT_REGISTER : SMTLM_REJECT_NONE;
}

/* ---- muon mode (sm_muon.c) ---- */

/* The Muon collector's configuration: cfg->muon.coll for the SM's warp slots (both engines). */
void smtlm_sm_muon_coll_cfg(const smtlm_sm_cfg *c, smtlm_muon_coll_cfg *out);
/* Validates and builds the Muon kernels from cfg->muon (called by smtlm_sm_init). */
int smtlm_sm_muon_init(smtlm_sm *sm);
/* Binds the LDST to the Muon writeback path (called by smtlm_sm_init after the SM's bind). */
void smtlm_sm_muon_bind(smtlm_sm *sm);
/* Clears the Muon state (called by smtlm_sm_reset). */
void smtlm_sm_muon_reset(smtlm_sm *sm);
/* One core cycle of the Muon composition (muon mode's smtlm_sm_cycle). Muon SMs never skip
 * cycles (the GPU asks them nothing of quiescence). */
int smtlm_sm_muon_cycle(smtlm_sm *sm, uint64_t now);

/* ---- the silicon core (sm_silicon.c) ---- */

/* Validates and builds the silicon core from cfg->silicon (called by smtlm_sm_init). */
int smtlm_sm_silicon_init(smtlm_sm *sm);
/* Binds the silicon core and the LDST to the SM's blocks (called by smtlm_sm_init). */
void smtlm_sm_silicon_bind(smtlm_sm *sm);
/* Clears the silicon core's state (called by smtlm_sm_reset). */
void smtlm_sm_silicon_reset(smtlm_sm *sm);
/* One core cycle of the silicon composition. Its SMs never skip cycles. */
int smtlm_sm_silicon_cycle(smtlm_sm *sm, uint64_t now);

/* Per-scheduler shader_cycle_distro sums over schedulers. */
uint64_t smtlm_sm_distro(const smtlm_sm *sm, unsigned category);

#ifdef __cplusplus
}
#endif
#endif
