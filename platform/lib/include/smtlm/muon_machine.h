/* The Muon machine as the -smtlm_muon_* options describe it, read and validated in one place
 * (the Muon modes, the analytic and the cost reports share it). Every error is one message
 * "<file>:<line>: -<option>: ..." naming where the value at fault was set; when two options
 * conflict, the one set last is blamed (as for the GPGPU-Sim options). */
#ifndef SMTLM_MUON_MACHINE_H
#define SMTLM_MUON_MACHINE_H

#include <stddef.h>

#include "smtlm/muon_cost.h"
#include "smtlm/options.h"

#ifdef __cplusplus
extern "C" {
#endif

/* -smtlm_muon_war: how write-after-read hazards are kept (docs/OPTIONS.md). */
typedef enum smtlm_muon_opt_war {
    SMTLM_MUON_OPT_WAR_OPTION1 = 0,  /* gate RS admission of a writer while reads are pending */
    SMTLM_MUON_OPT_WAR_OPTION2,      /* stall the writer's writeback; every reader counts */
    SMTLM_MUON_OPT_WAR_OPTION2_FWD,  /* the same; forwarded readers do not count (must-forward) */
    SMTLM_MUON_OPT_WAR_OPTION2_EPOCH /* the same with two epochs of pendingReads */
} smtlm_muon_opt_war;

/* -smtlm_muon_rs_policy: which eligible RS entry dispatches. */
typedef enum smtlm_muon_opt_policy {
    SMTLM_MUON_OPT_POLICY_RR = 0,
    SMTLM_MUON_OPT_POLICY_OLDEST,
    SMTLM_MUON_OPT_POLICY_GTO
} smtlm_muon_opt_policy;

/* -smtlm_muon_collector: the operand-collector organisation. */
typedef enum smtlm_muon_opt_collector {
    SMTLM_MUON_OPT_COLL_DUPLICATED = 0, /* 3 PRF copies, one per source slot (the RTL) */
    SMTLM_MUON_OPT_COLL_SRC_BANKED,     /* collector banked by source-register slot */
    SMTLM_MUON_OPT_COLL_INST_BANKED,    /* collector banked by FU, whole instructions */
    SMTLM_MUON_OPT_COLL_MIN_BANKED,     /* minimally banked: more PRF banks, few entries */
    SMTLM_MUON_OPT_COLL_CACHING         /* entries re-serve operands of later instructions */
} smtlm_muon_opt_collector;

/* Limits the options are checked against. */
#define SMTLM_MUON_MAX_PENDING_READ_BITS 8u
#define SMTLM_MUON_MAX_RS_ENTRIES 64u
#define SMTLM_MUON_MAX_COLLECTOR_ENTRIES 64u
#define SMTLM_MUON_MAX_PHYS_REGS 65536u
#define SMTLM_MUON_MAX_THREADS 64u

typedef struct smtlm_muon_machine {
    smtlm_muon_opt_war war;
    unsigned pending_read_bits;
    int past_waw;
    unsigned rs_entries;
    unsigned rs_per_warp;         /* 0 = no per-warp limit */
    smtlm_muon_opt_policy rs_policy;
    int in_order;
    int forwarding;
    unsigned phys_regs;
    unsigned threads;             /* NT */
    unsigned xlen;
    smtlm_muon_opt_collector collector;
    unsigned prf_banks;
    unsigned collector_entries;
    unsigned collector_banks;     /* 0: the strategy's default */
    unsigned warps;               /* warp slots: -gpgpu_shader_core_pipeline threads / 32 */
} smtlm_muon_machine;

/* Reads and validates the Muon options. Returns 0, or -1 with one message in err. */
int smtlm_muon_machine_read(const smtlm_options *opts, smtlm_muon_machine *m, char *err, size_t errlen);

/* The storage cost model's inputs for machine m. */
void smtlm_muon_machine_cost_cfg(const smtlm_muon_machine *m, smtlm_muon_cost_cfg *out);

/* Option spellings of the enumerations ("option2_epoch", "gto", "src_banked", ...). */
const char *smtlm_muon_opt_war_name(smtlm_muon_opt_war w);
const char *smtlm_muon_policy_name(smtlm_muon_opt_policy p);
const char *smtlm_muon_collector_name(smtlm_muon_opt_collector c);

#ifdef __cplusplus
}
#endif
#endif
