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

/* Writes r's destinations, then hands it to the issue stage (release, count, retire) and frees
 * it. `rf` is the C engine's register file when the write port is bound to it (direct, inline
 * writes), else 0. */
static inline void retire_one(smtlm_wb *wb, smtlm_rf *rf, smtlm_iref r, uint64_t now)
{
    smtlm_inst *in = smtlm_pool_get(wb->pool, r);
    /* The register file and the scoreboard do not see each other here, so all writes go
     * first and the releases follow in one event. A buffered write is released by the
     * register file when it lands. */
    const unsigned n = in->n_dst, warp = in->warp, sched = in->sched;
    unsigned release = 0;
    for (unsigned i = 0; i < n; i++) {
        const smtlm_rf_write_result w = rf ? smtlm_rf_try_write(rf, warp, sched, (unsigned)in->dst[i])
                                           : wb->rf.try_write(wb->rf.ctx, warp, sched, (unsigned)in->dst[i]);
        release |= (unsigned)(w != SMTLM_RF_BUFFERED) << i;
    }
    in->ev[SMTLM_EV_WRITEBACK] = now;
    smtlm_warp_written_back(&wb->warps, in, release);
    smtlm_pool_free(wb->pool, r);
}

void smtlm_wb_cycle(smtlm_wb *wb, uint64_t now)
{
    smtlm_regset *exwb = wb->exwb;
    if (!exwb->count)
        return;
    smtlm_rf *rf = wb->rf.try_write == smtlm_rf_port_try_write ? (smtlm_rf *)wb->rf.ctx : 0;
    do { /* the oldest, or the first occupied slot (count > 0: occ has a bit); one call site keeps retire_one inline */
        const int slot = wb->oldest_first ? smtlm_regset_oldest(exwb) : (int)smtlm_ctz64(exwb->occ);
        retire_one(wb, rf, smtlm_regset_take(exwb, (unsigned)slot), now);
    } while (exwb->count);
}
