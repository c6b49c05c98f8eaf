/* EX_WB drain: every instruction writes its registers and retires in the cycle it arrives. */
#include "smtlm/writeback.h"

#include "smtlm/ports_direct.h"

void smtlm_wb_init(smtlm_wb *wb, int oldest_first)
{
    wb->oldest_first = oldest_first;
    wb->exwb = 0;
    wb->pool = 0;
}

void smtlm_wb_bind(smtlm_wb *wb, smtlm_regset *exwb, smtlm_inst_pool *pool, const smtlm_rf_write_ops *rf,
                   const smtlm_warp_ops *warps)
{
    wb->exwb = exwb;
    wb->pool = pool;
    wb->rf = *rf;
    wb->warps = *warps;
}

void smtlm_wb_reset(smtlm_wb *wb) { (void)wb; /* no state of its own besides its bindings */ }

unsigned smtlm_wb_write_port(const smtlm_wb *wb, const smtlm_inst *in)
{
    const unsigned n = in->n_dst, warp = in->warp, sched = in->sched;
    unsigned release = 0;
    for (unsigned i = 0; i < n; i++)
        release |= (unsigned)(smtlm_write_try(&wb->rf, warp, sched, (unsigned)in->dst[i]) != SMTLM_RF_BUFFERED) << i;
    return release;
}

void smtlm_wb_cycle(smtlm_wb *wb, uint64_t now)
{
    if (!wb->exwb->count)
        return;
    smtlm_rf *rf = smtlm_wb_direct_rf(wb);
    do {
        const smtlm_iref r = smtlm_wb_take(wb);
        smtlm_inst *in = smtlm_pool_get(wb->pool, r);
        const unsigned release = rf ? smtlm_wb_write_direct(rf, in) : smtlm_wb_write_port(wb, in);
        in->ev[SMTLM_EV_WRITEBACK] = now;
        smtlm_warp_written_back(&wb->warps, in, release);
        smtlm_pool_free(wb->pool, r);
    } while (wb->exwb->count);
}
