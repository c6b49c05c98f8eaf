/* Calls across a port, direct when the port is bound to the C engine's own implementation.
 * The ops tables of ports.h are what keeps every block independent of its neighbours (the
 * SystemC model binds socket calls to them); in the C engine they always point at the same C
 * functions, so each wrapper compares the function pointer with that implementation, or (the
 * warp port) reads the issue block it is bound to, and then calls it directly, where the
 * compiler can inline it. Either branch runs the same code: the result is identical, only the
 * indirect call is saved. */
#ifndef SMTLM_PORTS_DIRECT_H
#define SMTLM_PORTS_DIRECT_H

#include "smtlm/issue_events.h"
#include "smtlm/ports.h"
#include "smtlm/regfile.h"
#include "smtlm/regset.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The C engine's implementations (regset.c, regfile.c). */
int smtlm_regset_stage_has_free(void *sets, unsigned set, int sub_core, unsigned s);
int smtlm_regset_stage_put(void *sets, unsigned set, int sub_core, unsigned s, smtlm_iref r, uint64_t uid);
unsigned smtlm_rf_port_bank(void *rf, unsigned reg, unsigned warp, unsigned sched);
int smtlm_rf_port_request(void *rf, unsigned bank, smtlm_read_req req);
smtlm_rf_write_result smtlm_rf_port_try_write(void *rf, unsigned warp, unsigned sched, unsigned reg);

static inline int smtlm_stage_has_free(const smtlm_stage_ops *o, unsigned set, int sub_core, unsigned s)
{
    if (o->row)
        return smtlm_regset_has_free(&o->row[set], sub_core, s);
    return o->has_free(o->ctx, set, sub_core, s);
}

static inline int smtlm_stage_put(const smtlm_stage_ops *o, unsigned set, int sub_core, unsigned s, smtlm_iref r,
                                  uint64_t uid)
{
    if (o->put == smtlm_regset_stage_put)
        return smtlm_regset_move_in(&((smtlm_regset *)o->ctx)[set], sub_core, s, r, uid);
    return o->put(o->ctx, set, sub_core, s, r, uid);
}

static inline unsigned smtlm_read_bank(const smtlm_rf_read_ops *o, unsigned reg, unsigned warp, unsigned sched)
{
    if (o->bank == smtlm_rf_port_bank)
        return smtlm_rf_bank((const smtlm_rf *)o->ctx, reg, warp, sched);
    return o->bank(o->ctx, reg, warp, sched);
}

static inline int smtlm_read_request(const smtlm_rf_read_ops *o, unsigned bank, smtlm_read_req req)
{
    if (o->request == smtlm_rf_port_request)
        return smtlm_rf_request((smtlm_rf *)o->ctx, bank, req);
    return o->request(o->ctx, bank, req);
}

/* direct (a constant): the caller knows the port is bound to the register file's kernel
 * (smtlm_write_direct_rf) and writes only what an SM admits (a register 0..SMTLM_MAX_REG of a
 * warp below SMTLM_MAX_WARPS, a valid scheduler): smtlm_rf_try_write_valid. */
static SMTLM_ALWAYS_INLINE smtlm_rf_write_result smtlm_write_try_(const smtlm_rf_write_ops *o, unsigned warp,
                                                                  unsigned sched, unsigned reg, int direct)
{
    if (direct)
        return smtlm_rf_try_write_valid((smtlm_rf *)o->ctx, warp, sched, reg);
    if (o->try_write == smtlm_rf_port_try_write)
        return smtlm_rf_try_write((smtlm_rf *)o->ctx, warp, sched, reg);
    return o->try_write(o->ctx, warp, sched, reg);
}
static inline smtlm_rf_write_result smtlm_write_try(const smtlm_rf_write_ops *o, unsigned warp, unsigned sched,
                                                    unsigned reg)
{
    return smtlm_write_try_(o, warp, sched, reg, 0);
}
/* The register file's kernel when the write port is bound to it, else NULL. */
static inline smtlm_rf *smtlm_write_direct_rf(const smtlm_rf_write_ops *o)
{
    return o->try_write == smtlm_rf_port_try_write ? (smtlm_rf *)o->ctx : 0;
}

/* The written-back event (issue_events.h) on the issue block bound directly, else through the
 * ops. noted (a constant): as smtlm_issue_written_back_'s, the port bound directly. */
static SMTLM_ALWAYS_INLINE void smtlm_warp_written_back_(const smtlm_warp_ops *o, const smtlm_inst *in,
                                                         unsigned release_mask, int noted)
{
    if (noted || o->issue)
        smtlm_issue_written_back_(o->issue, in, release_mask, noted);
    else
        o->written_back(o->ctx, in, release_mask);
}
static SMTLM_ALWAYS_INLINE void smtlm_warp_written_back(const smtlm_warp_ops *o, const smtlm_inst *in,
                                                        unsigned release_mask)
{
    smtlm_warp_written_back_(o, in, release_mask, 0);
}

#ifdef __cplusplus
}
#endif
#endif
