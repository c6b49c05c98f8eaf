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
        /* the oldest, or the first occupied slot (count > 0: occ has a bit) */
        const int slot = wb->oldest_first ? smtlm_regset_oldest(exwb) : (int)smtlm_ctz64(exwb->occ);
        const smtlm_iref r = smtlm_regset_take(exwb, (unsigned)slot);
        smtlm_inst *in = smtlm_pool_get(wb->pool, r);
        /* The register file and the scoreboard do not see each other here, so all writes go
         * first and the releases follow in one event. A buffered write is released by the
         * register file when it lands. */
        unsigned release = 0;
        for (unsigned i = 0; i < in->n_dst; i++)
            if (smtlm_write_try(&wb->rf, in->warp, in->sched, (unsigned)in->dst[i]) != SMTLM_RF_BUFFERED)
                release |= 1u << i;
        in->ev[SMTLM_EV_WRITEBACK] = now;
        smtlm_warp_written_back(&wb->warps, in, release);
        smtlm_pool_free(wb->pool, r);
    }
}
