/* Measures Muon's bank-conflict probability through the register-file arbiter kernel.
 *
 * C collector entries each hold one instruction with 3 source registers drawn by a seeded
 * PRNG; every operand queues a read in the register file (smtlm/regfile.h, fifo policy, one
 * scheduler, no sub-cores) at bank = (reg + 0) mod N, which is the Muon PRF bank rule
 * reg mod N. One arbitration step grants the head read of every bank that has one, so the
 * number of grants in a step is the number of distinct banks among the queued reads; a cycle
 * "finds 3 operands in distinct banks" when the step grants at least 3.
 *
 * Fresh mode (the analytic model's assumption, smtlm/muon_analytic.h): every cycle all C
 * entries hold new instructions, so the step sees 3C independent operands. Steady mode: an
 * entry keeps its instruction until all its operands were granted and only then takes a new
 * one, so the reads left over from earlier cycles (those that lost a bank conflict) are
 * queued too. Options move the draws away from the formula's assumption to measure where the
 * model departs from it (docs/MUON-MODELS.md). No allocation and no I/O. */
#ifndef SMTLM_MUON_BANK_PROBE_H
#define SMTLM_MUON_BANK_PROBE_H

#include <stdint.h>

#include "smtlm/regfile.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SMTLM_MUON_PROBE_MAX_ENTRIES (SMTLM_RF_QUEUE_CAP / 4) /* the arbiter's collector limit */
#define SMTLM_MUON_PROBE_MAX_REGS 65536u                      /* register numbers are 16 bits */

typedef struct smtlm_muon_probe_cfg {
    unsigned banks;      /* N (1..SMTLM_MAX_BANKS) */
    unsigned entries;    /* C collector entries of 3 operands (1..SMTLM_MUON_PROBE_MAX_ENTRIES) */
    unsigned phys_regs;  /* registers are drawn uniformly from first_reg .. phys_regs - 1 */
    unsigned first_reg;  /* 0, or 1 to leave out x0 (which Muon never reads from the PRF) */
    int distinct_regs;   /* 1: the 3 operands of one instruction name 3 different registers */
    int steady;          /* 0: fresh mode; 1: steady mode (see above) */
    uint64_t seed;       /* PRNG seed: equal seeds give equal results */
} smtlm_muon_probe_cfg;

typedef struct smtlm_muon_probe_result {
    uint64_t cycles;   /* arbitration steps counted */
    uint64_t hits;     /* steps that granted reads in >= 3 distinct banks */
    uint64_t grants;   /* reads granted in the counted steps */
} smtlm_muon_probe_result;

/* Runs `cycles` measured cycles (steady mode first runs SMTLM_MUON_PROBE_WARMUP uncounted
 * ones). `rf` is caller-provided storage for the register file (it is initialised here).
 * Returns SMTLM_OK, or SMTLM_EINVAL / SMTLM_ERANGE with *why (when why is not NULL) naming
 * the field at fault. */
#define SMTLM_MUON_PROBE_WARMUP 1024u
int smtlm_muon_probe_run(smtlm_rf *rf, const smtlm_muon_probe_cfg *cfg, uint64_t cycles,
                         smtlm_muon_probe_result *out, const char **why);

#ifdef __cplusplus
}
#endif
#endif
