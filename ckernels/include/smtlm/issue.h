/* Front end and issue (GPGPU-Sim shader_core_ctx fetch/decode/issue, shd_warp_t,
 * scheduler_unit, barrier_set_t). Owns the warps, their 2-entry instruction buffers, CTA slots,
 * barriers, the scoreboard and the warp schedulers. Its only outputs are the ID_OC register
 * sets; instructions come in through an smtlm_inst_source. */
#ifndef SMTLM_ISSUE_H
#define SMTLM_ISSUE_H

#include "smtlm/common.h"
#include "smtlm/inst.h"
#include "smtlm/ctrl.h"
#include "smtlm/inst_pool.h"
#include "smtlm/regset.h"
#include "smtlm/ports.h"
#include "smtlm/scoreboard.h"
#include "smtlm/sm_shape.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Supplies the instruction stream of each hardware warp. next() returns 1 and fills *out,
 * 0 when the warp's stream is exhausted (and on every later call), or a negative error (the SM
 * then stops with SMTLM_ESOURCE). */
typedef struct smtlm_inst_source {
    void *ctx;
    int (*next)(void *ctx, unsigned sm, unsigned warp, smtlm_inst_desc *out);
    /* 1 if the warp's stream holds another instruction (Accel-Sim's trace_done test). A pure
     * query: its answer may change only with next() (the issue stage asks it lazily). */
    int (*has_more)(void *ctx, unsigned sm, unsigned warp);
    /* Optional (may be NULL): next() decoding straight into the pool, without a descriptor in
     * between. Writes the instruction's descriptor fields into *in (in->pc .. in->line, with
     * in->left_ldst in place of the reserved byte) and, for a memory instruction, all 32 lane
     * addresses into addr (see smtlm_pool_commit); returns as next(). */
    int (*next_into)(void *ctx, unsigned sm, unsigned warp, smtlm_inst *in, uint64_t *addr);
    /* 1 when next_into also sets in->sb_regs, in->sb_dsts (smtlm_reg_summary of its registers,
     * worked out ahead, e.g. by a reader thread): the commit then does not recompute them. */
    int sets_summary;
    /* 1 when next_into also sets in->left_ldst to SMTLM_FIELDS_OK exactly when smtlm_fields_ok
     * holds for the instruction (else 0), worked out ahead: the SM's checks then test only the
     * shape memo's key (smtlm_sm_memo_pass_marked). */
    int marks_fields_ok;
    /* Optional (may be NULL; only with marks_fields_ok): up to max instructions of the warp taken
     * straight into the pool, each filled as next_into would, passed by the shape memo
     * (smtlm_sm_memo_pass_marked) and committed (smtlm_pool_commit_summarized), refs into out.
     * Stops, taking nothing more, at the first instruction not at hand or not passed: the SM
     * then asks next_into. Returns the count; never an error. One call for a decode's two. */
    unsigned (*take_ready)(void *ctx, unsigned sm, unsigned warp, smtlm_inst_pool *pool, const uint64_t *memo,
                           smtlm_iref *out, unsigned max);
    /* Optional (may be NULL; only with take_ready): SM sm's per-warp windows (NULL: none), what
     * take_ready takes from, so that decode takes without the call (smtlm_pool_take_window).
     * The array stays put; its pointers and windows change only between cycles (CTA binding). */
    smtlm_rec_window *const *(*windows)(void *ctx, unsigned sm);
    /* Optional (may be NULL): the kernel's control bits by PC (the silicon core follows them;
     * without them it derives what an ideal compiler would encode). */
    const smtlm_code *code;
} smtlm_inst_source;

typedef enum smtlm_sched_policy {
    SMTLM_SCHED_LRR = 0, SMTLM_SCHED_GTO, SMTLM_SCHED_OLDEST, SMTLM_SCHED_RRR, SMTLM_SCHED_TWO_LEVEL
} smtlm_sched_policy;

/* Issue-stall categories per scheduler per cycle (GPGPU-Sim shader_cycle_distro). */
enum { SMTLM_DISTRO_IDLE = 0, SMTLM_DISTRO_SCOREBOARD = 1, SMTLM_DISTRO_STALL = 2,
       SMTLM_DISTRO_W0 = 2, /* index 2 + k: issued with k active lanes (k = 0 counts as Stall) */
       SMTLM_DISTRO_SIZE = 3 + SMTLM_WARP_SIZE };

/* Finer per-warp breakdown, counted for the warps a scheduler examined each cycle. */
enum { SMTLM_WS_ISSUED = 0, SMTLM_WS_IBUFFER_EMPTY, SMTLM_WS_BARRIER, SMTLM_WS_MEMBAR,
       SMTLM_WS_ATOMIC,   /* waiting for its atomics to return */
       SMTLM_WS_DRAINING, /* every lane exited; the warp waits for its last results */
       SMTLM_WS_SCOREBOARD, SMTLM_WS_UNIT_BUSY, SMTLM_WS_COUNT };

/* Issue's own configuration; the SM's shape and units come with it (smtlm_issue_init). */
typedef struct smtlm_issue_cfg {
    unsigned max_warps;        /* hardware warp slots (threads per SM / 32) */
    smtlm_sched_policy policy; /* -gpgpu_scheduler */
    unsigned two_level_active; /* N of two_level_active:N:0:1 */
    unsigned max_issue_per_warp; /* -gpgpu_max_insn_issue_per_warp */
    int dual_issue_diff_units; /* -gpgpu_dual_issue_diff_exec_units */
    unsigned fetch_throughput; /* -gpgpu_inst_fetch_throughput: decode+fetch rounds per cycle */
} smtlm_issue_cfg;

/* scheduler_unit::cycle's unit for an op over the SM's unit counts (n_tensor 0 without a tensor
 * core): the smtlm_unit into *unit and its ID_OC set into *set; returns how many units of that
 * type the SM has, 0 when no instruction of the op can ever issue. DP runs on the SFU without
 * DP units, INT and the other ALU ops on the SP without INT units (SP alone stays SP). A
 * specialized op's unit is the instruction's own: SMTLM_UNIT_SPECIALIZED, set 0xFF, 0 here. */
static inline unsigned smtlm_op_route(unsigned op, unsigned n_sp, unsigned n_dp, unsigned n_int, unsigned n_sfu,
                                      unsigned n_tensor, unsigned *unit, unsigned *set)
{
    switch (op) {
    case SMTLM_OP_LOAD: case SMTLM_OP_STORE: case SMTLM_OP_MEMBAR:
        *unit = SMTLM_UNIT_MEM, *set = SMTLM_ID_OC_MEM;
        return 1;
    case SMTLM_OP_TENSOR_CORE:
        *unit = SMTLM_UNIT_TENSOR, *set = SMTLM_ID_OC_TENSOR_CORE;
        return n_tensor;
    case SMTLM_OP_SPEC:
        *unit = SMTLM_UNIT_SPECIALIZED, *set = 0xFFu;
        return 0;
    case SMTLM_OP_DP:
        if (n_dp > 0) {
            *unit = SMTLM_UNIT_DP, *set = SMTLM_ID_OC_DP;
            return n_dp;
        }
        *unit = SMTLM_UNIT_SFU, *set = SMTLM_ID_OC_SFU;
        return n_sfu;
    case SMTLM_OP_SFU:
        *unit = SMTLM_UNIT_SFU, *set = SMTLM_ID_OC_SFU;
        return n_sfu;
    default: /* SP, INT, ALU, branch, BAR, EXIT */
        if (n_int > 0 && op != SMTLM_OP_SP) {
            *unit = SMTLM_UNIT_INT, *set = SMTLM_ID_OC_INT;
            return n_int;
        }
        *unit = SMTLM_UNIT_SP, *set = SMTLM_ID_OC_SP;
        return n_sp;
    }
}

typedef struct smtlm_warp {
    smtlm_iref ib[2];
    uint8_t ib_valid[2];
    uint8_t next;              /* ibuffer slot the scheduler looks at */
    uint8_t done_exit;         /* slot unused or warp exited */
    uint8_t trace_done;        /* instruction stream known to be exhausted (asked lazily) */
    uint8_t membar;
    uint8_t cta;               /* CTA slot */
    uint8_t n_completed;       /* lanes that executed EXIT or lie outside the CTA */
    uint8_t n_threads;         /* CTA threads in this warp */
    uint32_t active_lanes;     /* lanes not yet retired by an EXIT */
    uint16_t in_pipeline;      /* decoded and not yet retired (GPGPU-Sim inst_in_pipeline) */
    uint32_t n_atomic;
    uint32_t stores_out;
    uint64_t dyn_id;
} smtlm_warp;

typedef struct smtlm_cta_slot {
    uint8_t active;
    uint32_t threads_left;
    uint64_t warps;            /* hardware warps of this CTA */
    uint64_t warp_active;      /* not yet functionally exited (barrier participation) */
    uint64_t at_barrier;
    uint32_t id;               /* CTA index within the kernel (for the source/stats) */
} smtlm_cta_slot;

typedef struct smtlm_sched {
    uint8_t n_sup;
    uint8_t sup[SMTLM_MAX_WARPS];  /* supervised warps (wid mod n_sched == id), all slots */
    int16_t last;                  /* index in sup of the last warp that issued; -1 = none (not
                                    * kept under lrr, which reads lrr_start) */
    uint8_t lrr_start;             /* lrr: the walk starts at this warp id (last that issued + 1) */
    uint8_t turn;                  /* rrr */
    uint64_t sup_mask;             /* the supervised warps as a mask over warp ids */
    uint64_t active_set;           /* two-level: warps in the active set */
    uint8_t n_age;
    uint8_t age[SMTLM_MAX_WARPS];  /* gto/oldest: live supervised warps, oldest (dyn_id) first */
} smtlm_sched;

/* The SM's statistics: the completion counters are kept by the issue block's completion
 * event (issue_events.h), the cycle counters by the SM's cycle. */
typedef struct smtlm_sm_stats {
    uint64_t active_cycles;        /* cycles in which the SM body ran */
    uint64_t warp_insts, thread_insts;
    uint64_t conflict_cycles;      /* cycles in which some read waited for its bank */
    uint64_t unit_insts[8];        /* completed per smtlm_unit */
} smtlm_sm_stats;

/* Called for every retired instruction (event cycles in smtlm_inst.ev). Optional. */
typedef void (*smtlm_retire_hook)(void *ctx, unsigned sm, const smtlm_inst *in);

/* What the issue stage is bound to (smtlm_issue_bind). */
typedef struct smtlm_issue_ports {
    smtlm_inst_pool *pool;
    smtlm_stage_port out;         /* hand-off into the collector's ID_OC sets */
    smtlm_inst_source src;       /* the owner's source (has_more; decode's intake below is read off it) */
    unsigned sm_id;
    void *owner;
    void (*cta_done)(void *owner, unsigned cta_slot); /* a CTA's last warp exited */
    uint64_t now;                /* the cycle being run (set by each call) */
    /* Decode's intake (issue_frontend.c), one rule for every source: the source's capabilities
     * are read once, when it is bound (smtlm_issue_ports_source), into the one form decode runs:
     * take what the source has at hand in the pool's record layout (take_ready, or its windows
     * inline), then the rest one by one through next_into (a descriptor-only source behind an
     * adapter), each passed by the owner's shape memo or fully checked by check_miss, committed
     * with its register summary. check_miss(owner, in) records a refusal (the instruction's line)
     * and returns SMTLM_EINPUT, else 1; memo and check_miss are the owner's (bound with it). */
    int (*next_into)(void *ctx, unsigned sm, unsigned warp, smtlm_inst *in, uint64_t *addr); /* never NULL once bound */
    void *next_ctx;
    const uint64_t *memo;
    int (*check_miss)(void *owner, smtlm_inst *in);
    int sets_summary;            /* next_into sets the register summary (the source's sets_summary) */
    int marks_fields_ok;         /* next_into marks smtlm_fields_ok (the source's marks_fields_ok) */
    unsigned (*take_ready)(void *ctx, unsigned sm, unsigned warp, smtlm_inst_pool *pool, const uint64_t *memo,
                           smtlm_iref *out, unsigned max); /* the source's take_ready (marking sources only), or NULL */
    smtlm_rec_window *const *windows; /* the source's windows of this SM, or NULL (then take_ready) */
    /* Where the completion events report (issue_events.h): the owner's records, read at each
     * event (the owner may change its hook between cycles). */
    smtlm_sm_stats *done;        /* the completion counters */
    uint64_t *last_progress;     /* set to *clock by a completion or a store's acknowledgement */
    const uint64_t *clock;       /* the cycle the owner runs */
    const smtlm_retire_hook *on_retire; /* told of every completion when not NULL */
    void *const *retire_ctx;
} smtlm_issue_ports;

/* Binds decode's intake (above) and the stream-end query (has_more) to src, which must stay put
 * while bound: a source offering only next() is read in place through an adapter that reads it
 * there. A source without next() or next_into() has an empty stream. Call again when the source
 * changes (its windows array stays put; binding CTAs changes only what the windows hold). */
void smtlm_issue_ports_source(smtlm_issue_ports *p, const smtlm_inst_source *src);

typedef struct smtlm_issue {
    smtlm_issue_cfg cfg;
    smtlm_sm_shape shape;
    smtlm_units_cfg units;         /* the SM's units: where each op issues */
    smtlm_warp warp[SMTLM_MAX_WARPS];
    smtlm_cta_slot cta[SMTLM_MAX_CTAS];
    smtlm_sched sched[SMTLM_MAX_SCHED];
    uint8_t issued_last[SMTLM_MAX_SCHED];
    uint64_t sched_live[SMTLM_MAX_SCHED]; /* per scheduler: sup_mask & ~exited, kept at launch and exit */
    smtlm_scoreboard sb;
    uint64_t warps_all;            /* the max_warps warp slots as a mask */
    uint64_t ib_empty;             /* warps whose ibuffer is empty (both slots) */
    uint64_t fdone;                /* functionally done warps (all lanes exited) or unused */
    uint64_t exited;               /* done_exit as a mask */
    /* Issue-side masks kept on events so a scheduler skips work that cannot change anything */
    uint64_t may_wait;             /* superset of the warps smtlm_warp_waiting reports: set when
                                    * a membar, atomic, BAR or EXIT issues, cleared by the first
                                    * look that finds the warp not waiting */
    uint64_t sb_blocked;           /* the warp's ib[next] was found to collide (RAW/WAW); valid
                                    * while the scoreboard's dirty bit is clear too */
    uint8_t route_set[SMTLM_OP_COUNT + 1];  /* per op: the ID_OC set it issues into (0xFF: none) */
    uint8_t route_unit[SMTLM_OP_COUNT + 1]; /* and the unit type (from cfg, set by reset) */
    unsigned last_fetched;
    int fetch_valid;
    unsigned fetch_warp;
    unsigned issue_prio;
    uint64_t next_uid;
    uint64_t dyn_counter;
    unsigned n_active_ctas;
    uint32_t not_completed;        /* threads still running on this SM */
    uint64_t issued_this_cycle;
    /* statistics (cumulative) */
    uint64_t distro[SMTLM_MAX_SCHED][SMTLM_DISTRO_SIZE];
    uint64_t dual_issue[SMTLM_MAX_SCHED]; /* single issues: smtlm_issue_single */
    uint64_t warp_stall[SMTLM_MAX_WARPS][SMTLM_WS_COUNT];
    uint64_t decoded;              /* (issued: smtlm_issue_issued) */
    uint64_t pool_stalls;          /* decode rounds deferred because the pool was full */
    int error;                     /* SMTLM_ESOURCE once the source or the owner's check refused */
    smtlm_issue_ports ports;
    const char *cfg_error;         /* why init rejected the configuration */
} smtlm_issue;



/* Builds issue for an SM of that shape with those units. */
int smtlm_issue_init(smtlm_issue *iss, const smtlm_issue_cfg *cfg, const smtlm_sm_shape *shape,
                     const smtlm_units_cfg *units);
void smtlm_issue_reset(smtlm_issue *iss);

/* CTA launch into the lowest free slot: warps slot*warps_per_cta + i. Returns the slot or a
 * negative error. `threads` = CTA threads, warps_per_cta = ceil(threads / 32). */
int smtlm_issue_launch_cta(smtlm_issue *iss, unsigned threads, uint32_t cta_id);
int smtlm_issue_free_cta_slot(const smtlm_issue *iss, unsigned max_cta);

void smtlm_issue_bind(smtlm_issue *iss, const smtlm_issue_ports *ports);
/* The schedulers' issue stage for cycle `now`. Returns SMTLM_OK or an error. */
int smtlm_issue_cycle(smtlm_issue *iss, uint64_t now);
/* inst_fetch_throughput rounds of decode() then fetch(), with exit detection. */
int smtlm_issue_fetch_decode(smtlm_issue *iss, uint64_t now);

/* 1 when no warp can change state before an outside event (a memory response, a released
 * register, a new CTA): nothing issued or fetched this cycle and every live warp waits on its
 * scoreboard, a barrier, atomics or stores. Holds for the lrr, gto and oldest policies only
 * (the others may reorder warps while idle); 0 for them. The usual busy cycle answers inline. */
int smtlm_issue_idle_scan(const smtlm_issue *iss);
static inline int smtlm_issue_idle(const smtlm_issue *iss)
{
    return !iss->issued_this_cycle && !iss->fetch_valid && smtlm_issue_idle_scan(iss);
}
/* Accounts k idle cycles from `now` exactly as k calls of smtlm_issue_cycle would: one cycle
 * runs for real and its counter deltas are applied k - 1 more times. */
void smtlm_issue_skip(smtlm_issue *iss, uint64_t now, uint64_t k);

/* Instructions issued: every issue takes the next uid. */
static inline uint64_t smtlm_issue_issued(const smtlm_issue *iss) { return iss->next_uid; }
/* Scheduler s's single issues: its warps' issue events (examine counts each as ISSUED) less
 * its dual ones, worked out when read instead of counted per issue. */
static inline uint64_t smtlm_issue_single(const smtlm_issue *iss, unsigned s)
{
    uint64_t events = 0;
    for (unsigned w = s; w < iss->cfg.max_warps; w += iss->shape.n_sched)
        events += iss->warp_stall[w][SMTLM_WS_ISSUED];
    return events - iss->dual_issue[s];
}

int smtlm_warp_waiting(smtlm_issue *iss, unsigned w);

#ifdef __cplusplus
}
#endif
#endif
