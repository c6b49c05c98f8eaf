/* EX_WB drain: every instruction writes its registers and retires in the cycle it arrives. */
#include "smtlm/writeback.h"

#include "smtlm/port_calls.h"

void smtlm_wb_init(smtlm_wb *wb, int oldest_first)
{
    wb->oldest_first = oldest_first;
    wb->exwb = 0;
    wb->pool = 0;
}

void smtlm_wb_bind(smtlm_wb *wb, smtlm_regset *exwb, smtlm_inst_pool *pool, const smtlm_write_port *rf,
                   const smtlm_warp_port *warps)
{
    wb->exwb = exwb;
    wb->pool = pool;
    wb->rf = *rf;
    wb->warps = *warps;
}

void smtlm_wb_reset(smtlm_wb *wb) { (void)wb; /* no state of its own besides its bindings */ }

void smtlm_wb_cycle(smtlm_wb *wb, uint64_t now) { smtlm_wb_drain(wb, now); }
