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

void smtlm_wb_cycle(smtlm_wb *wb, uint64_t now)
{
    smtlm_regset *exwb = wb->exwb;
    while (exwb->count) {
        int slot = 0;
        if (wb->oldest_first)
            slot = smtlm_regset_oldest(exwb);
        else
            while (exwb->slot[slot] == SMTLM_NO_INST)
                slot++;
        const smtlm_iref r = smtlm_regset_take(exwb, (unsigned)slot);
        smtlm_inst *in = smtlm_pool_get(wb->pool, r);
        for (unsigned i = 0; i < in->n_dst; i++) {
            const unsigned reg = (unsigned)in->dst[i];
            /* a buffered write is released by the register file when it lands */
            if (smtlm_write_try(&wb->rf, in->warp, in->sched, reg) != SMTLM_RF_BUFFERED)
                smtlm_warp_release(&wb->warps, in->warp, reg);
        }
        in->ev[SMTLM_EV_WRITEBACK] = now;
        smtlm_warp_completed(&wb->warps, in);
        smtlm_warp_retired(&wb->warps, in->warp);
        smtlm_pool_free(wb->pool, r);
    }
}
