/* The one function per port operation (ports.h). Each branches on the port's binding, chosen
 * once when it was bound: the direct target (the neighbour block's own state, whose kernel call
 * the compiler can inline) or the ops table. Both branches run the neighbour's same rule, so
 * the result is identical; a block calls its ports only through these. */
#ifndef SMTLM_PORTS_DIRECT_H
#define SMTLM_PORTS_DIRECT_H

#include "smtlm/issue_events.h"
#include "smtlm/ports.h"
#include "smtlm/regfile.h"
#include "smtlm/regset.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- a pipeline register set, seen from its producer ---- */

static inline int smtlm_stage_has_free(const smtlm_stage_port *o, unsigned set, int sub_core, unsigned s)
{
    if (o->row)
        return smtlm_regset_has_free(&o->row[set], sub_core, s);
    return o->has_free(o->ctx, set, sub_core, s);
}

static inline int smtlm_stage_put(const smtlm_stage_port *o, unsigned set, int sub_core, unsigned s, smtlm_iref r,
                                  uint64_t uid)
{
    if (o->sets)
        return smtlm_regset_move_in(&o->sets[set], sub_core, s, r, uid);
    return o->put(o->ctx, set, sub_core, s, r, uid);
}

/* ---- the register file's read port ---- */

static inline unsigned smtlm_read_bank(const smtlm_read_port *o, unsigned reg, unsigned warp, unsigned sched)
{
    if (o->rf)
        return smtlm_rf_bank(o->rf, reg, warp, sched);
    return o->bank(o->ctx, reg, warp, sched);
}

static inline int smtlm_read_request(const smtlm_read_port *o, unsigned bank, smtlm_read_req req)
{
    if (o->rf)
        return smtlm_rf_request(o->rf, bank, req);
    return o->request(o->ctx, bank, req);
}

/* The reads of operand slots `ops` (a mask) of CU `cu`'s instruction, as smtlm_rf_request_reads
 * (*queued = the slots queued); through ops without request_reads, one request per read. */
static inline int smtlm_read_request_reads(const smtlm_read_port *o, unsigned cu, unsigned warp, unsigned sched,
                                           const int16_t *src, unsigned ops, unsigned *queued)
{
    if (o->rf)
        return smtlm_rf_request_reads(o->rf, cu, warp, sched, src, ops, queued);
    if (o->request_reads)
        return o->request_reads(o->ctx, cu, warp, sched, src, ops, queued);
    *queued = 0;
    while (ops) {
        const unsigned op = smtlm_ctz64(ops);
        ops &= ops - 1;
        const unsigned reg = (unsigned)src[op];
        const smtlm_read_req req = {(uint8_t)cu, (uint8_t)op, (uint16_t)reg};
        const int rc = o->request(o->ctx, o->bank(o->ctx, reg, warp, sched), req);
        if (rc)
            return rc;
        *queued |= 1u << op;
    }
    return SMTLM_OK;
}

/* ---- the register file's write port ---- */

/* valid (a constant): the caller knows the port is direct (o->rf) and writes only what an SM
 * admits (a register 0..SMTLM_MAX_REG of a warp below SMTLM_MAX_WARPS, a valid scheduler), so
 * the register file's range checks are left out (smtlm_rf_try_write_valid). */
static SMTLM_ALWAYS_INLINE smtlm_rf_write_result smtlm_write_try_(const smtlm_write_port *o, unsigned warp,
                                                                  unsigned sched, unsigned reg, int valid)
{
    if (valid)
        return smtlm_rf_try_write_valid(o->rf, warp, sched, reg);
    if (o->rf)
        return smtlm_rf_try_write(o->rf, warp, sched, reg);
    return o->try_write(o->ctx, warp, sched, reg);
}
static inline smtlm_rf_write_result smtlm_write_try(const smtlm_write_port *o, unsigned warp, unsigned sched,
                                                    unsigned reg)
{
    return smtlm_write_try_(o, warp, sched, reg, 0);
}

static inline int smtlm_write_can(const smtlm_write_port *o, unsigned warp, unsigned sched, unsigned reg)
{
    if (o->rf)
        return smtlm_rf_can_write(o->rf, warp, sched, reg);
    return o->can_write(o->ctx, warp, sched, reg);
}

static inline void smtlm_write_reg(const smtlm_write_port *o, unsigned warp, unsigned sched, unsigned reg)
{
    if (o->rf)
        smtlm_rf_write_reg(o->rf, warp, sched, reg);
    else
        o->write(o->ctx, warp, sched, reg);
}

/* ---- the register file's release of a buffered write ---- */

static inline void smtlm_rf_out_release(const smtlm_release_port *o, unsigned warp, unsigned reg)
{
    if (o->issue)
        smtlm_issue_release(o->issue, warp, reg);
    else
        o->release(o->ctx, warp, reg);
}

/* ---- the warp events, to the issue block ---- */

static inline void smtlm_warp_release(const smtlm_warp_port *o, unsigned warp, unsigned reg)
{
    if (o->issue)
        smtlm_issue_release(o->issue, warp, reg);
    else
        o->release(o->ctx, warp, reg);
}

/* Releases every destination of `in` (register 0 is never tracked). */
static inline void smtlm_warp_release_dsts(const smtlm_warp_port *o, const smtlm_inst *in)
{
    for (unsigned i = 0; i < in->n_dst; i++)
        if (in->dst[i] > 0)
            smtlm_warp_release(o, in->warp, (unsigned)in->dst[i]);
}

static inline void smtlm_warp_completed(const smtlm_warp_port *o, const smtlm_inst *in)
{
    if (o->issue)
        smtlm_issue_completed(o->issue, in);
    else
        o->completed(o->ctx, in);
}

static inline void smtlm_warp_retired(const smtlm_warp_port *o, unsigned warp)
{
    if (o->issue)
        smtlm_issue_retired(o->issue, warp);
    else
        o->retired(o->ctx, warp);
}

static inline void smtlm_warp_store_sent(const smtlm_warp_port *o, unsigned warp)
{
    if (o->issue)
        smtlm_issue_store_sent(o->issue, warp);
    else
        o->store_sent(o->ctx, warp);
}

static inline void smtlm_warp_store_acked(const smtlm_warp_port *o, unsigned warp)
{
    if (o->issue)
        smtlm_issue_store_acked(o->issue, warp);
    else
        o->store_acked(o->ctx, warp);
}

static inline void smtlm_warp_atomic_done(const smtlm_warp_port *o, unsigned warp, unsigned lanes)
{
    if (o->issue)
        smtlm_issue_atomic_done(o->issue, warp, lanes);
    else
        o->atomic_done(o->ctx, warp, lanes);
}

/* The written-back event. noted (a constant): as smtlm_issue_written_back_'s, the port direct. */
static SMTLM_ALWAYS_INLINE void smtlm_warp_written_back_(const smtlm_warp_port *o, const smtlm_inst *in,
                                                         unsigned release_mask, int noted)
{
    if (noted || o->issue)
        smtlm_issue_written_back_(o->issue, in, release_mask, noted);
    else
        o->written_back(o->ctx, in, release_mask);
}
static SMTLM_ALWAYS_INLINE void smtlm_warp_written_back(const smtlm_warp_port *o, const smtlm_inst *in,
                                                        unsigned release_mask)
{
    smtlm_warp_written_back_(o, in, release_mask, 0);
}

#ifdef __cplusplus
}
#endif
#endif
