/* The warp events of the issue block: what the back end (writeback, the LDST, the register
 * file) reports about the warps the issue block owns. Each event has this one body; the C SM
 * and the SystemC issue module only route their ports to it, and a port with the issue block
 * as its direct target (smtlm_warp_port.issue) calls it inline.
 *
 * A completion is counted in the owner's statistics, notes the owner's progress and tells the
 * owner's retire hook, all where smtlm_issue_ports points (the owner binds them). */
#ifndef SMTLM_ISSUE_EVENTS_H
#define SMTLM_ISSUE_EVENTS_H

#include "smtlm/issue.h"
#include "smtlm/scoreboard.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A register of the warp was written: its scoreboard reservation ends. */
static inline void smtlm_issue_release(smtlm_issue *iss, unsigned warp, unsigned reg)
{
    smtlm_sb_release_reg(&iss->sb, warp, reg);
}

/* The completion counters: warp, threads, unit. */
static SMTLM_ALWAYS_INLINE void smtlm_issue_count(smtlm_issue *iss, const smtlm_inst *in)
{
    smtlm_sm_stats *st = iss->ports.done;
    st->warp_insts++;
    st->thread_insts += smtlm_popcount32(in->mask);
    st->unit_insts[in->unit & 7]++;
}

/* Progress: something completed or was acknowledged in the owner's cycle. */
static inline void smtlm_issue_note_progress(smtlm_issue *iss) { *iss->ports.last_progress = *iss->ports.clock; }

/* 1 when no retire hook is set: a completion then only counts and notes progress (a caller
 * that handles several in one cycle may note it once, smtlm_issue_written_back_). */
static inline int smtlm_issue_unhooked(const smtlm_issue *iss) { return !*iss->ports.on_retire; }

/* The instruction finished executing: counted, progress noted, the retire hook told. */
static SMTLM_ALWAYS_INLINE void smtlm_issue_completed(smtlm_issue *iss, const smtlm_inst *in)
{
    smtlm_issue_count(iss, in);
    smtlm_issue_note_progress(iss);
    const smtlm_retire_hook hook = *iss->ports.on_retire;
    if (hook)
        hook(*iss->ports.retire_ctx, iss->ports.sm_id, in);
}

/* It left the pipeline (GPGPU-Sim inst_in_pipeline - 1). */
static inline void smtlm_issue_retired(smtlm_issue *iss, unsigned warp) { iss->warp[warp].in_pipeline--; }

/* An ALU instruction's writeback: destination i released for bit i of release_mask (the
 * register file releases a write it buffered when the write lands), then completed, then
 * retired. When every destination is released and the pool entry's summary covers them, the
 * releases are the summary's one step (smtlm_sb_release_dsts: the same set). noted (a
 * constant): the caller has noted this cycle's progress, no retire hook is set
 * (smtlm_issue_unhooked), so the completion is only counted, and every destination is
 * released (no write was buffered: release_mask holds all n_dst bits). */
static SMTLM_ALWAYS_INLINE void smtlm_issue_written_back_(smtlm_issue *iss, const smtlm_inst *in,
                                                          unsigned release_mask, int noted)
{
    const unsigned warp = in->warp;
    const uint64_t d = in->sb_dsts;
    if (!(d & 1) && (noted || release_mask == (1u << in->n_dst) - 1))
        smtlm_sb_release_dsts(&iss->sb, warp, d);
    else
        for (unsigned m = release_mask; m; m &= m - 1) /* bit i < n_dst */
            smtlm_sb_release_reg(&iss->sb, warp, (unsigned)in->dst[smtlm_ctz64(m)]);
    if (noted)
        smtlm_issue_count(iss, in);
    else
        smtlm_issue_completed(iss, in);
    smtlm_issue_retired(iss, warp);
}
static SMTLM_ALWAYS_INLINE void smtlm_issue_written_back(smtlm_issue *iss, const smtlm_inst *in, unsigned release_mask)
{
    smtlm_issue_written_back_(iss, in, release_mask, 0);
}

/* A store request of the warp left for memory. */
static inline void smtlm_issue_store_sent(smtlm_issue *iss, unsigned warp) { iss->warp[warp].stores_out++; }

/* And its acknowledgement came back (progress). */
static inline void smtlm_issue_store_acked(smtlm_issue *iss, unsigned warp)
{
    smtlm_warp *w = &iss->warp[warp];
    if (w->stores_out)
        w->stores_out--;
    smtlm_issue_note_progress(iss);
}

/* `lanes` of the warp's atomics are done. */
static inline void smtlm_issue_atomic_done(smtlm_issue *iss, unsigned warp, unsigned lanes)
{
    smtlm_warp *w = &iss->warp[warp];
    w->n_atomic = w->n_atomic > lanes ? w->n_atomic - lanes : 0;
}

/* Points the issue block's completion events at the owner's records (smtlm_issue_ports). */
static inline void smtlm_issue_ports_record(smtlm_issue_ports *p, smtlm_sm_stats *done, uint64_t *last_progress,
                                            const uint64_t *clock, const smtlm_retire_hook *on_retire,
                                            void *const *retire_ctx)
{
    p->done = done;
    p->last_progress = last_progress;
    p->clock = clock;
    p->on_retire = on_retire;
    p->retire_ctx = retire_ctx;
}

#ifdef __cplusplus
}
#endif
#endif
