/* Operand collector (GPGPU-Sim opndcoll_rfu_t without the register file): collector-unit sets,
 * input ports, dispatch units. It is coupled to the rest of the SM only through the pipeline
 * register sets (ID_OC_* in, OC_EX_* out) and the register file's read-request interface. */
#ifndef SMTLM_OPCOLL_H
#define SMTLM_OPCOLL_H

#include "smtlm/common.h"
#include "smtlm/inst_pool.h"
#include "smtlm/ports.h"
#include "smtlm/regfile.h"
#include "smtlm/regset.h"
#include "smtlm/sm_shape.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CU set kinds, in GPGPU-Sim's creation order (GEN first, then the specialized sets). */
typedef enum smtlm_cu_set_kind {
    SMTLM_CUS_GEN = 0, SMTLM_CUS_SP, SMTLM_CUS_DP, SMTLM_CUS_TENSOR_CORE, SMTLM_CUS_SFU,
    SMTLM_CUS_MEM, SMTLM_CUS_INT, SMTLM_CUS_KINDS
} smtlm_cu_set_kind;

#define SMTLM_PORT_MAX_PAIRS 16

/* The collector's own configuration; the SM's shape and units come with it (smtlm_opcoll_init). */
typedef struct smtlm_opcoll_cfg {
    /* per smtlm_cu_set_kind: units, input ports, output (dispatch) ports; only GEN unless
     * enable_specialized is set (GPGPU-Sim -gpgpu_enable_specialized_operand_collector) */
    unsigned num_units[SMTLM_CUS_KINDS], num_in_ports[SMTLM_CUS_KINDS], num_out_ports[SMTLM_CUS_KINDS];
    int enable_specialized;
    /* quirk switches (default 0 = GPGPU-Sim behaviour) */
    int fix_subcore_hol;   /* allocate each sub-core's own oldest instruction */
    int fix_optype_priority; /* serve input register sets oldest-instruction first */
} smtlm_opcoll_cfg;

/* A CU is free when it holds no instruction (inst == SMTLM_NO_INST; free_cus has its bit). */
typedef struct smtlm_cu {
    uint8_t set;           /* index into smtlm_opcoll.sets */
    uint8_t oc_ex_slot;    /* sub-core OC_EX slot (from the global CU index, as GPGPU-Sim) */
    uint8_t out;           /* OC_EX register-set id of the current instruction */
    smtlm_iref inst;
    smtlm_regset *out_rs;  /* the C engine's OC_EX set `out` (out_direct[out]), else NULL */
} smtlm_cu;

typedef struct smtlm_cu_set {
    uint8_t kind, first, count;
    uint8_t per_sched;     /* CUs per scheduler under the sub-core model (count / n_sched) */
} smtlm_cu_set;

typedef struct smtlm_dispatch_unit {
    uint8_t set;
    uint8_t last;          /* last CU dispatched (index into smtlm_opcoll.cu) */
    uint64_t cus;          /* the CUs of its set */
    uint64_t from;         /* those at or after where its next scan begins (derived from last) */
} smtlm_dispatch_unit;

typedef struct smtlm_port {
    uint8_t n_pairs;
    uint8_t in[SMTLM_PORT_MAX_PAIRS], out[SMTLM_PORT_MAX_PAIRS];
    uint8_t n_sets;
    uint8_t sets[2];       /* own set first, GEN as fallback */
} smtlm_port;

typedef struct smtlm_opcoll {
    smtlm_opcoll_cfg cfg;
    smtlm_sm_shape shape;
    unsigned n_cus, n_sets, n_du, n_ports;
    smtlm_cu cu[SMTLM_MAX_CUS];
    smtlm_cu_set sets[SMTLM_CUS_KINDS];
    smtlm_dispatch_unit du[SMTLM_MAX_CUS];
    smtlm_port ports[SMTLM_MAX_PORTS];
    unsigned busy;                        /* CUs not free */
    /* CU masks (bit j = cu[j]), kept with the CUs' state so no step scans the CUs */
    uint64_t free_cus;                    /* CUs free (cu[j].inst == SMTLM_NO_INST) */
    uint64_t collected;                   /* CUs holding an instruction with every operand read */
    /* per CU, bit per operand slot still to be read (apart from the CUs: a grant's update is
     * then one byte at the CU's index) */
    uint8_t not_ready[SMTLM_MAX_CUS];
    /* per CU, its instruction's pool entry (valid while busy): the collect and dispatch steps
     * reach it with one load instead of the pool look-up from cu[j].inst */
    smtlm_inst *cu_in[SMTLM_MAX_CUS];
    uint64_t blocked;                     /* collected CUs found with a full OC_EX slot at cycle */
    uint64_t blocked_at;                  /* ... blocked_at (slots free only in execute, so the
                                           * later read steps of that cycle need not look again) */
    uint64_t now;                         /* the cycle of the allocation walk under way */
    uint64_t settled_at;                  /* cycle of the last allocation walk if it left nothing */
    uint64_t settled_free;                /* to allocate, and the free CUs after it */
    uint64_t set_cus[SMTLM_CUS_KINDS];    /* each set's CUs */
    uint64_t sched_cus[SMTLM_CUS_KINDS][SMTLM_MAX_SCHED]; /* the CUs of a set scheduler k may use */
    uint64_t rr_from[SMTLM_MAX_CUS];      /* a dispatch unit's `from` after it took CU j */
    uint8_t n_generic_ports;              /* the first ports, identical generic ones */
    uint8_t cu_order_dispatch;            /* dispatch looks at the CUs in index order (opcoll.c) */
    uint8_t generic_fast;                 /* no quirk fix changes how the generic ports allocate */
    uint8_t n_in_sets;
    uint8_t in_sets[SMTLM_NUM_REGSETS];   /* the ID_OC sets the ports read */
    smtlm_regset *gen_in[SMTLM_PORT_MAX_PAIRS]; /* the generic ports' ID_OC sets, in pair order */
    uint64_t gen_live;                    /* bit i: gen_in[i] may hold work (a superset: each put
                                           * sets its bit through the set's watch, the walk clears
                                           * it when it finds the set empty) */
    uint64_t walk_always;                 /* nonzero when gen_live does not cover the walk (a quirk fix,
                                           * the specialized ports): ORed into its tests */
    /* statistics */
    uint64_t occupancy_sum;               /* sum over cycles of busy CUs */
    uint64_t occupancy_hist[SMTLM_MAX_CUS + 1];
    uint64_t collect_lat_hist[64];        /* CU allocation -> operands collected, cycles */
    uint64_t cu_allocations[SMTLM_MAX_CUS]; /* instructions each CU took (their sum: allocations) */
    uint64_t cu_held[SMTLM_MAX_CUS];        /* cycles from allocation to dispatch, summed */
    /* ports (smtlm_opcoll_bind) */
    smtlm_regset *in[SMTLM_NUM_REGSETS];  /* its own ID_OC sets (NULL for the others) */
    smtlm_stage_port out;                  /* hand-off into the OC_EX sets of the units */
    smtlm_regset *out_direct;             /* `out` puts straight into this row (the C engine's), else NULL */
    smtlm_regset *out_rs_of[SMTLM_NUM_REGSETS]; /* &out_direct[s] per OC_EX set id s (NULL without it) */
    const smtlm_regset *out_row;          /* the OC_EX sets when seen without a call (smtlm_stage_port.row
                                           * or the C engine's row), else NULL: ask out.has_free */
    smtlm_inst_pool *pool;
    smtlm_read_port rf;                 /* read requests to the register file */
    struct smtlm_rf *rf_direct;           /* `rf`'s register file when it is the C engine's (direct) */
    const char *cfg_error;                /* why init rejected the configuration */
} smtlm_opcoll;

/* Builds the collector for an SM of that shape; the pipelines whose units exist (the tensor
 * core, DP, INT, the specialized units) join the generic ports. */
int smtlm_opcoll_init(smtlm_opcoll *oc, const smtlm_opcoll_cfg *cfg, const smtlm_sm_shape *shape,
                      const smtlm_units_cfg *units);
void smtlm_opcoll_reset(smtlm_opcoll *oc);

/* Ports: `sets` is the SM's row of register sets, of which the collector keeps only the ID_OC
 * sets its ports read (they are its own); it hands collected instructions into the units' OC_EX
 * sets through `out` and queues reads in the register file through `rf`. */
void smtlm_opcoll_bind(smtlm_opcoll *oc, smtlm_regset *sets, const smtlm_stage_port *out, smtlm_inst_pool *pool,
                       const smtlm_read_port *rf);

/* One read-operand step at cycle `now`, in GPGPU-Sim's order: dispatch, then the register
 * file's arbitration delivers its grants (collect), then allocate.
 * Phase 1: every dispatch unit moves at most one ready CU into its OC_EX slot. The OC_EX sets
 * must not free a slot between two calls with the same `now` (execute runs before the steps). */
void smtlm_opcoll_dispatch_scan(smtlm_opcoll *oc, uint64_t now);
static inline void smtlm_opcoll_dispatch(smtlm_opcoll *oc, uint64_t now)
{
    if (oc->collected) /* the common empty case without a call */
        smtlm_opcoll_dispatch_scan(oc, now);
}
/* Phase 2: delivers the grants of one arbitration step to their CUs. */
void smtlm_opcoll_collect(smtlm_opcoll *oc, uint64_t now, const smtlm_read_grant *g, unsigned n);
/* Phase 2 over the register file `rf` bound directly (its fifo policy without the grant list):
 * the same as smtlm_rf_arbitrate(rf, g) followed by smtlm_opcoll_collect(oc, now, g, n). */
void smtlm_opcoll_arbitrate_collect(smtlm_opcoll *oc, struct smtlm_rf *rf, uint64_t now);
/* Phase 2 through the read port's ops: one arbitration step's grants, collected. */
void smtlm_opcoll_arbitrate_through_port(smtlm_opcoll *oc, uint64_t now);
/* Phase 3: every input port allocates CUs to ready ID_OC instructions and queues their reads.
 * Returns SMTLM_OK or an error from the register file (queue overflow). The ID_OC sets must
 * not receive an instruction between two calls with the same `now` (issue runs after the steps). */
int smtlm_opcoll_allocate_walk(smtlm_opcoll *oc, uint64_t now);
static inline int smtlm_opcoll_allocate(smtlm_opcoll *oc, uint64_t now)
{
    /* No ID_OC set the walk reads can hold an instruction (gen_live is a superset). */
    if (!(oc->gen_live | oc->walk_always))
        return SMTLM_OK;
    if (!oc->free_cus) /* every CU busy: nothing can be allocated */
        return SMTLM_OK;
    /* A walk earlier in this cycle left nothing to allocate, and since then no CU was freed
     * (ID_OC sets fill only in issue, after the read steps): this walk would find nothing. */
    if (now == oc->settled_at && !(oc->free_cus & ~oc->settled_free))
        return SMTLM_OK;
    return smtlm_opcoll_allocate_walk(oc, now);
}
/* 1 when a read step would change nothing in the collector: no CU to dispatch, no ID_OC
 * instruction to allocate; the register file must also hold no queued read. */
static inline int smtlm_opcoll_quiet(const smtlm_opcoll *oc)
{
    return !(oc->collected | oc->gen_live | oc->walk_always);
}
/* Operand slots of CU j still to be read (bit i: src[i]). */
static inline unsigned smtlm_opcoll_not_ready(const smtlm_opcoll *oc, unsigned j) { return oc->not_ready[j]; }
/* Instructions given a CU, and instructions dispatched: derived from the per-CU counts and the
 * busy CUs (each allocation is dispatched once), so the hot path counts only per CU. */
uint64_t smtlm_opcoll_allocations(const smtlm_opcoll *oc);
static inline uint64_t smtlm_opcoll_dispatches(const smtlm_opcoll *oc)
{
    return smtlm_opcoll_allocations(oc) - oc->busy;
}
/* 1 when no collector unit is busy and its ID_OC sets are empty. */
int smtlm_opcoll_idle(const smtlm_opcoll *oc);
/* Accounts k idle cycles (the occupancy samples of an empty collector). */
static inline void smtlm_opcoll_skip(smtlm_opcoll *oc, uint64_t k) { oc->occupancy_hist[0] += k; }
/* Once per cycle: occupancy statistics (inline: the C engine's SM calls it every cycle). */
static inline void smtlm_opcoll_sample(smtlm_opcoll *oc)
{
    oc->occupancy_sum += oc->busy;
    oc->occupancy_hist[oc->busy]++;
}

#ifdef __cplusplus
}
#endif
#endif
