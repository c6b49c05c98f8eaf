/* Helpers shared by the issue block's source files (not part of the public API). */
#ifndef SMTLM_ISSUE_INTERNAL_H
#define SMTLM_ISSUE_INTERNAL_H

#include "smtlm/issue.h"

static inline int warp_functional_done(const smtlm_warp *w) { return w->n_completed == SMTLM_WARP_SIZE; }
static inline int warp_ib_empty(const smtlm_warp *w) { return !w->ib_valid[0] && !w->ib_valid[1]; }

/* The warp's next instruction changed: its cached scoreboard verdict is stale. */
static inline void warp_ib_changed(smtlm_issue *iss, unsigned w) { iss->sb_blocked &= ~(1ull << w); }

/* Decode filled the warp's empty ibuffer: when its first instruction names only registers
 * below 64 and one of them has a pending write, the warp is known stuck from the next cycle
 * on (counted in bulk) instead of examined once only to collide. The verdict stays valid
 * until the warp's scoreboard set changes (dirty) or its next instruction does. */
static inline void warp_ib_filled(smtlm_issue *iss, const smtlm_inst_pool *pool, unsigned w, smtlm_iref first)
{
    const uint64_t m = pool->inst[first].sb_regs;
    if (!(m & 1) && (iss->sb.pending[w][0] & m)) {
        const uint64_t b = 1ull << w;
        iss->sb_blocked |= b;
        iss->sb.dirty &= ~b;
    }
}

/* Frees both ibuffer slots (GPGPU-Sim ibuffer_flush). */
void smtlm_issue_ibuffer_flush(smtlm_issue *iss, smtlm_inst_pool *pool, unsigned w);
/* Removes warp w from its CTA's barrier participants and releases a completed barrier. */
void smtlm_issue_barrier_exit(smtlm_issue *iss, unsigned w);
/* Fills the unit routing table from cfg (issue_sched.c). */
void smtlm_issue_route_init(smtlm_issue *iss);
/* Marks the warp functionally done (all lanes exited). */
void smtlm_issue_set_fdone(smtlm_issue *iss, unsigned w);
/* The functional effects of an atomic, EXIT, BAR or MEMBAR at its issue (issue_sched.c). */
void smtlm_issue_special(smtlm_issue *iss, const smtlm_issue_ports *ports, unsigned w, const smtlm_inst *in);

#endif
