/* Calls across a port, direct when the port is bound to the C engine's own implementation.
 * The ops tables of ports.h are what keeps every block independent of its neighbours (the
 * SystemC model binds socket calls to them); in the C engine they always point at the same C
 * functions, so each wrapper compares the function pointer with that implementation and then
 * calls it directly, where the compiler can inline it. Either branch runs the same code: the
 * result is identical, only the indirect call is saved. */
#ifndef SMTLM_PORTS_DIRECT_H
#define SMTLM_PORTS_DIRECT_H

#include "smtlm/ports.h"
#include "smtlm/regfile.h"
#include "smtlm/regset.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The C engine's implementations (regset.c, regfile.c, sm.c). */
int smtlm_regset_stage_has_free(void *sets, unsigned set, int sub_core, unsigned s);
int smtlm_regset_stage_put(void *sets, unsigned set, int sub_core, unsigned s, smtlm_iref r, uint64_t uid);
unsigned smtlm_rf_port_bank(void *rf, unsigned reg, unsigned warp, unsigned sched);
int smtlm_rf_port_request(void *rf, unsigned bank, smtlm_read_req req);
smtlm_rf_write_result smtlm_rf_port_try_write(void *rf, unsigned warp, unsigned sched, unsigned reg);
void smtlm_sm_ev_release(void *sm, unsigned warp, unsigned reg);
void smtlm_sm_ev_completed(void *sm, const smtlm_inst *in);
void smtlm_sm_ev_retired(void *sm, unsigned warp);
void smtlm_sm_ev_written_back(void *sm, const smtlm_inst *in, unsigned release_mask);
void smtlm_sm_ev_store_sent(void *sm, unsigned warp);
void smtlm_sm_ev_store_acked(void *sm, unsigned warp);
void smtlm_sm_ev_atomic_done(void *sm, unsigned warp, unsigned lanes);

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

static inline smtlm_rf_write_result smtlm_write_try(const smtlm_rf_write_ops *o, unsigned warp, unsigned sched,
                                                    unsigned reg)
{
    if (o->try_write == smtlm_rf_port_try_write)
        return smtlm_rf_try_write((smtlm_rf *)o->ctx, warp, sched, reg);
    return o->try_write(o->ctx, warp, sched, reg);
}

static inline void smtlm_warp_release(const smtlm_warp_ops *o, unsigned warp, unsigned reg)
{
    if (o->release == smtlm_sm_ev_release)
        smtlm_sm_ev_release(o->ctx, warp, reg);
    else
        o->release(o->ctx, warp, reg);
}

static inline void smtlm_warp_completed(const smtlm_warp_ops *o, const smtlm_inst *in)
{
    if (o->completed == smtlm_sm_ev_completed)
        smtlm_sm_ev_completed(o->ctx, in);
    else
        o->completed(o->ctx, in);
}

static inline void smtlm_warp_retired(const smtlm_warp_ops *o, unsigned warp)
{
    if (o->retired == smtlm_sm_ev_retired)
        smtlm_sm_ev_retired(o->ctx, warp);
    else
        o->retired(o->ctx, warp);
}

static inline void smtlm_warp_written_back(const smtlm_warp_ops *o, const smtlm_inst *in, unsigned release_mask)
{
    if (o->written_back == smtlm_sm_ev_written_back)
        smtlm_sm_ev_written_back(o->ctx, in, release_mask);
    else if (o->written_back)
        o->written_back(o->ctx, in, release_mask);
    else
        smtlm_warp_written_back_parts(o, in, release_mask);
}

#ifdef __cplusplus
}
#endif
#endif
