/* Stuck-warp reports for the watchdog. */
#include "smtlm/diag.h"

/* 1 if a register `in` needs is still to be written by a global/local/texture load. */
static int waits_on_load(const smtlm_scoreboard *sb, unsigned w, const smtlm_inst *in)
{
    for (unsigned i = 0; i < in->n_src + in->n_dst; i++) {
        int r = i < in->n_src ? in->src[i] : in->dst[i - in->n_src];
        if (r > 0 && (sb->longop[w][r >> 6] >> (r & 63) & 1))
            return 1;
    }
    return 0;
}

const char *smtlm_warp_block_reason(const smtlm_sm_view *sm, unsigned w)
{
    const smtlm_warp *wp = &sm->iss->warp[w];
    if (wp->done_exit)
        return "exited";
    if (wp->n_completed == SMTLM_WARP_SIZE)
        return wp->stores_out ? "waiting for store acknowledgements" : "draining its pipeline";
    if (sm->iss->cta[wp->cta].at_barrier >> w & 1)
        return "waiting at a barrier";
    if (wp->membar)
        return "waiting at a memory barrier";
    if (wp->n_atomic)
        return "waiting for atomics";
    if (!wp->ib_valid[0] && !wp->ib_valid[1])
        return "waiting for fetch";
    const smtlm_inst *in = &sm->pool->inst[wp->ib[wp->next]];
    if (smtlm_sb_collision(&sm->iss->sb, w, in))
        return waits_on_load(&sm->iss->sb, w, in) ? "waiting on the scoreboard for a memory load"
                                                  : "waiting on the scoreboard";
    return "waiting for a free pipeline slot";
}

void smtlm_describe_memory(FILE *out, const smtlm_gpu *gpu)
{
    uint64_t in_flight = 0, queued = 0;
    const smtlm_mem_req *oldest = 0;
    unsigned oldest_sm = 0;
    for (unsigned s = 0; s < gpu->n_sm; s++) {
        const smtlm_mem_req *o = smtlm_mem_oldest(&gpu->mem[s]);
        in_flight += gpu->mem[s].len;
        smtlm_sm_view v;
        smtlm_gpu_sm_view(gpu, s, &v);
        queued += smtlm_ldst_pending_requests(v.ldst);
        if (!o)
            o = smtlm_ldst_peek_request(v.ldst);
        if (o && (!oldest || o->sent_cycle < oldest->sent_cycle)) {
            oldest = o;
            oldest_sm = s;
        }
    }
    if (!oldest) {
        fprintf(out, "  memory: no request outstanding (the stall is not waiting on memory)\n");
        return;
    }
    const uint64_t now = gpu->tot_cycle + gpu->sim_cycle;
    fprintf(out, "  memory: %llu request%s outstanding (%llu in flight, %llu queued at the SMs' memory ports); "
            "oldest: sm %u warp %u pc 0x%04x address 0x%llx, sent %llu cycles ago\n",
            (unsigned long long)(in_flight + queued), in_flight + queued == 1 ? "" : "s", (unsigned long long)in_flight,
            (unsigned long long)queued, oldest_sm, (unsigned)oldest->warp, (unsigned)oldest->pc,
            (unsigned long long)oldest->addr, (unsigned long long)(now - oldest->sent_cycle));
}

void smtlm_describe_stuck_warps(FILE *out, const smtlm_gpu *gpu, unsigned max)
{
    smtlm_describe_memory(out, gpu);
    unsigned n = 0;
    for (unsigned s = 0; s < gpu->n_sm; s++) {
        smtlm_sm_view view;
        smtlm_gpu_sm_view(gpu, s, &view);
        const smtlm_sm_view *sm = &view;
        if (!gpu->ops->active(gpu->sm_ctx, s))
            continue;
        for (unsigned w = 0; w < sm->cfg->max_warps; w++) {
            const smtlm_warp *wp = &sm->iss->warp[w];
            if (wp->done_exit)
                continue;
            if (n++ == max) {
                fprintf(out, "  ... more stuck warps not shown\n");
                return;
            }
            int has = wp->ib_valid[wp->next];
            fprintf(out, "  sm %u warp %u (CTA %u): %s", s, w, (unsigned)sm->iss->cta[wp->cta].id,
                    smtlm_warp_block_reason(sm, w));
            if (has)
                fprintf(out, " at pc 0x%04x", (unsigned)sm->pool->inst[wp->ib[wp->next]].pc);
            fprintf(out, "\n");
        }
    }
}
