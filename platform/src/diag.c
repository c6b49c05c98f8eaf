/* Stuck-warp reports for the watchdog. */
#include "smtlm/diag.h"

const char *smtlm_warp_block_reason(const smtlm_sm *sm, unsigned w)
{
    const smtlm_warp *wp = &sm->iss.warp[w];
    if (wp->done_exit)
        return "exited";
    if (wp->n_completed == SMTLM_WARP_SIZE)
        return wp->stores_out ? "waiting for store acknowledgements" : "draining its pipeline";
    if (sm->iss.cta[wp->cta].at_barrier >> w & 1)
        return "waiting at a barrier";
    if (wp->membar)
        return "waiting at a memory barrier";
    if (wp->n_atomic)
        return "waiting for atomics";
    if (!wp->ib_valid[0] && !wp->ib_valid[1])
        return "waiting for fetch";
    const smtlm_inst *in = &sm->pool.inst[wp->ib[wp->next]];
    if (smtlm_sb_collision(&sm->iss.sb, w, in))
        return "waiting on the scoreboard";
    return "waiting for a free pipeline slot";
}

void smtlm_describe_stuck_warps(FILE *out, const smtlm_gpu *gpu, unsigned max)
{
    unsigned n = 0;
    for (unsigned s = 0; s < gpu->n_sm; s++) {
        const smtlm_sm *sm = &gpu->sm[s];
        if (!smtlm_sm_active(sm))
            continue;
        for (unsigned w = 0; w < sm->cfg.max_warps; w++) {
            const smtlm_warp *wp = &sm->iss.warp[w];
            if (wp->done_exit)
                continue;
            if (n++ == max) {
                fprintf(out, "  ... more stuck warps not shown\n");
                return;
            }
            int has = wp->ib_valid[wp->next];
            fprintf(out, "  sm %u warp %u (CTA %u): %s", s, w, (unsigned)sm->iss.cta[wp->cta].id,
                    smtlm_warp_block_reason(sm, w));
            if (has)
                fprintf(out, " at pc 0x%04x", (unsigned)sm->pool.inst[wp->ib[wp->next]].pc);
            fprintf(out, "\n");
        }
    }
}
