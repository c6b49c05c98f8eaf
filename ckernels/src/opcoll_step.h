/* The operand collector's read step (smtlm_opcoll_step_) and the collection of a step's grants,
 * one body each, visible to the SM's read-operand stage (sm.c) as well as to opcoll.c: they are
 * inlined where they are called, so the SM's cycle runs the fifo arbitration without a call
 * (link-time optimisation alone does not inline it there). */
#ifndef SMTLM_OPCOLL_STEP_H
#define SMTLM_OPCOLL_STEP_H

#include "smtlm/opcoll.h"
#include "smtlm/regfile.h"

/* The operand bits a grant of operand slot `op` keeps: smtlm_opcoll_keep_of[op & 0xff]. */
extern const uint8_t smtlm_opcoll_keep_of[256];

/* The other arbitration policies through the grant list (out of line: its buffer stays off the
 * fifo path). */
void smtlm_opcoll_arbitrate_listed_(smtlm_opcoll *oc, smtlm_rf *rf, uint64_t now);

/* CU `cu`, holding `in`, has every operand read. */
static inline void smtlm_opcoll_operands_done_(smtlm_opcoll *oc, unsigned cu, smtlm_inst *in, uint64_t now)
{
    oc->collected |= 1ull << cu;
    in->ev[SMTLM_EV_OPERANDS] = now;
    uint64_t lat = now - in->ev[SMTLM_EV_CU_ALLOC];
    oc->collect_lat_hist[lat < 63 ? lat : 63]++;
}

/* Operand slot `operand` of CU j was read. */
static SMTLM_ALWAYS_INLINE void smtlm_opcoll_collect_one_(smtlm_opcoll *oc, unsigned j, unsigned operand, uint64_t now)
{
    const unsigned not_ready = oc->not_ready[j] & smtlm_opcoll_keep_of[operand & 0xff];
    oc->not_ready[j] = (uint8_t)not_ready;
    if (not_ready == 0)
        smtlm_opcoll_operands_done_(oc, j, oc->cu_in[j], now);
}

/* smtlm_opcoll_arbitrate_collect: one arbitration step of the register file `rf` bound directly,
 * its grants collected. */
static SMTLM_ALWAYS_INLINE void smtlm_opcoll_arbitrate_collect_(smtlm_opcoll *oc, smtlm_rf *rf, uint64_t now)
{
    if (rf->cfg.policy != SMTLM_ALLOC_FIFO) {
        smtlm_opcoll_arbitrate_listed_(oc, rf, now);
        return;
    }
    /* fifo: each bank's grant goes to its CU as it is made, in bank order like the list */
    uint64_t granting = smtlm_rf_fifo_granting(rf), emptied = 0;
    while (granting) {
        const unsigned b = smtlm_ctz64(granting);
        granting &= granting - 1;
        const smtlm_read_req r = smtlm_rf_fifo_grant(rf, b, &emptied);
        smtlm_opcoll_collect_one_(oc, r.cu, r.operand, now);
    }
    smtlm_rf_fifo_done(rf, emptied);
}

/* One whole read-operand step: dispatch, one arbitration step's grants through the read port
 * collected, allocate. Returns SMTLM_OK or an error from the register file. */
static SMTLM_ALWAYS_INLINE int smtlm_opcoll_step_(smtlm_opcoll *oc, uint64_t now)
{
    smtlm_opcoll_dispatch(oc, now);
    smtlm_rf *rf = oc->rf.rf;
    if (!rf)
        smtlm_opcoll_arbitrate_through_port(oc, now);
    else if (rf->nonempty) /* an empty file grants nothing (and moves no priority) */
        smtlm_opcoll_arbitrate_collect_(oc, rf, now);
    return smtlm_opcoll_allocate(oc, now);
}

#endif
