/* Stuck-warp reports for the watchdog. */
#include "smtlm/diag.h"

#include <string.h>

#include "smtlm/view_names.h"

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

/* A register as the trace names it (the trace front end numbers R<n> as n + 1). */
static void reg_name(char *buf, size_t n, int reg)
{
    snprintf(buf, n, "R%d", reg - 1);
}

/* Muon mode: the head's admission verdict, or the warp's reservation-station rows. */
static const char *muon_block_reason(const smtlm_sm_view *sm, unsigned w)
{
    const smtlm_warp *wp = &sm->iss->warp[w];
    if (wp->ib_valid[wp->next]) {
        switch (smtlm_muon_sb_check(&sm->muon->sb, &sm->pool->inst[wp->ib[wp->next]])) {
        case SMTLM_MUON_STALL_WAW: return "waiting on the Muon scoreboard (WAW: a destination has a pending write)";
        case SMTLM_MUON_STALL_WAR: return "waiting on the Muon scoreboard (WAR: a destination has pending reads)";
        case SMTLM_MUON_STALL_SATURATED: return "waiting on the Muon scoreboard (a pendingReads counter is saturated)";
        default: break;
        }
        if (!smtlm_muon_rs_room(&sm->muon->rs, w))
            return "waiting for a reservation-station row";
    }
    if (sm->muon->rs.n_warp_rows[w])
        return "waiting for its reservation-station instructions to issue";
    return wp->ib_valid[0] || wp->ib_valid[1] ? "waiting for admission" : "waiting for fetch";
}

/* Muon mode: what holds warp w's instructions: RS rows waiting for a writeback, and
 * writebacks held by the scoreboard's writeback gate with the readers holding the counts. */
static void describe_muon_warp(FILE *out, const smtlm_sm_view *sm, unsigned w)
{
    const smtlm_muon_issue *m = sm->muon;
    for (uint64_t v = m->rs.valid; v; v &= v - 1) {
        const smtlm_muon_rs_row *row = &m->rs.row[smtlm_ctz64(v)];
        if (row->warp != w)
            continue;
        fprintf(out, "    in the reservation station: pc 0x%04x", (unsigned)row->pc);
        for (unsigned i = 0; i < row->n_src; i++)
            if (row->busy >> i & 1) {
                char r[16];
                reg_name(r, sizeof r, row->src[i]);
                fprintf(out, ", waiting for the writeback of %s", r);
            }
        fprintf(out, "\n");
    }
    for (unsigned i = 0; i < m->n_held; i++) {
        const unsigned t = m->held[i];
        const smtlm_muon_sb_ticket *k = &m->sb.ticket[t];
        if (k->warp != w)
            continue;
        fprintf(out, "    writeback of pc 0x%04x held by the scoreboard (-smtlm_muon_war %s); pending reads held by:",
                (unsigned)k->pc, smtlm_muon_war_name(m->sb.cfg.war));
        smtlm_muon_sb_holder h[16];
        const unsigned n = smtlm_muon_sb_wb_blockers(&m->sb, (smtlm_iref)t, h, 16);
        for (unsigned j = 0; j < n && j < 16; j++) {
            char r[16];
            reg_name(r, sizeof r, h[j].reg);
            fprintf(out, "%s pc 0x%04x (warp %u, source %u, %s)", j ? "," : "", (unsigned)h[j].pc, (unsigned)h[j].warp,
                    (unsigned)h[j].slot, r);
        }
        fprintf(out, "%s\n", n > 16 ? ", ..." : "");
    }
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
    if (sm->muon)
        return muon_block_reason(sm, w);
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
        for (unsigned w = 0; w < sm->cfg->issue.max_warps; w++) {
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
            if (sm->muon)
                describe_muon_warp(out, sm, w);
        }
    }
}

/* Why the SM refused an instruction, in the configuration's terms. */
static void reject_text(const smtlm_sm_view *sm, char *buf, size_t n)
{
    switch (sm->reject) {
    case SMTLM_REJECT_SPEC_UNIT:
        snprintf(buf, n, "the instruction needs specialized unit %u, which the configuration does not enable "
                 "(-specialized_unit_%u); is the trace's binary version meant for this GPU?", sm->reject_detail, sm->reject_detail);
        break;
    case SMTLM_REJECT_DEPTH:
        snprintf(buf, n, "the instruction's latency does not fit its unit's pipeline of depth %u "
                 "(-trace_opcode_latency_initiation_* against -ptx_opcode_latency_*)", sm->reject_detail);
        break;
    case SMTLM_REJECT_NO_UNIT:
        snprintf(buf, n, "the instruction needs the %s unit, of which the configuration has none (-%s is 0%s)",
                 smtlm_view_unit_name(sm->reject_detail), smtlm_sm_unit_option(sm->cfg, sm->reject_detail),
                 sm->reject_detail == SMTLM_UNIT_SFU && !sm->cfg->units.n_dp ? "; DP instructions run there too while "
                                                                         "-gpgpu_num_dp_units is 0" : "");
        break;
    case SMTLM_REJECT_REGISTER:
        snprintf(buf, n, "register number beyond R%d", SMTLM_MAX_REG - 1);
        break;
    default:
        snprintf(buf, n, "malformed instruction (operation, operand counts, memory space or latency)");
        break;
    }
}

void smtlm_describe_kernel_error(const smtlm_gpu *gpu, const char *where, const char *source_error, char *buf, size_t n)
{
    if (source_error) {
        snprintf(buf, n, "%s", source_error);
        return;
    }
    if (gpu->error != SMTLM_EINPUT) {
        snprintf(buf, n, "%s:%u: simulation error: %s", where, (unsigned)gpu->error_line, smtlm_status_str(gpu->error));
        return;
    }
    smtlm_sm_view v;
    memset(&v, 0, sizeof v);
    if (gpu->error_sm < gpu->n_sm)
        smtlm_gpu_sm_view(gpu, gpu->error_sm, &v);
    char why[320];
    reject_text(&v, why, sizeof why);
    snprintf(buf, n, "%s:%u: %s", where, (unsigned)gpu->error_line, why);
}
