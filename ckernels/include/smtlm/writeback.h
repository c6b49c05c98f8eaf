/* Writeback (GPGPU-Sim shader_core_ctx::writeback): drains every instruction in EX_WB, writes
 * its destination registers through the register file's write port and releases them in the
 * scoreboard. A write that collides with another in the same bank is the register file's
 * business (dropped, or buffered under -smtlm_fix_wb_bank_conflict); writeback never stalls.
 * Ports: EX_WB (the register set it reads and owns), the instruction pool, the register-file
 * write port and the warp events of the issue stage. */
#ifndef SMTLM_WRITEBACK_H
#define SMTLM_WRITEBACK_H

#include "smtlm/inst_pool.h"
#include "smtlm/ports.h"
#include "smtlm/port_calls.h"
#include "smtlm/regfile.h"
#include "smtlm/regset.h"
#include "smtlm/scoreboard.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct smtlm_wb {
    int oldest_first;          /* take EX_WB oldest first (fix mode's buffers need it) */
    smtlm_regset *exwb;
    smtlm_inst_pool *pool;
    smtlm_write_port rf;
    smtlm_warp_port warps;
} smtlm_wb;

/* oldest_first: 1 under -smtlm_fix_wb_bank_conflict (in faithful mode the order in which EX_WB
 * drains is not observable: every write releases its register and marks its bank). */
void smtlm_wb_init(smtlm_wb *wb, int oldest_first);
void smtlm_wb_bind(smtlm_wb *wb, smtlm_regset *exwb, smtlm_inst_pool *pool, const smtlm_write_port *rf,
                   const smtlm_warp_port *warps);
void smtlm_wb_reset(smtlm_wb *wb);
static inline int smtlm_wb_idle(const smtlm_wb *wb) { return wb->exwb->count == 0; }

/* Slot of EX_WB's oldest occupant (count > 0), by its pool entry's uid: execute's direct
 * hand-off keeps no copy of the uid in the set (its pool entry holds it until writeback). The
 * lowest slot wins a tie, as smtlm_regset_oldest. */
static inline unsigned smtlm_wb_oldest_slot(const smtlm_regset *exwb, const smtlm_inst_pool *pool)
{
    uint32_t occ = exwb->occ;
    unsigned best = smtlm_ctz64(occ);
    uint64_t best_uid = pool->inst[exwb->slot[best]].uid;
    for (occ &= occ - 1; occ; occ &= occ - 1) {
        const unsigned i = smtlm_ctz64(occ);
        const uint64_t uid = pool->inst[exwb->slot[i]].uid;
        if (uid < best_uid) {
            best = i;
            best_uid = uid;
        }
    }
    return best;
}
/* Takes the next instruction out of EX_WB (count > 0): the oldest, or the first occupied slot
 * (in faithful mode the drain order is not observable: every write releases its register and
 * marks its bank). */
static inline smtlm_iref smtlm_wb_take(smtlm_wb *wb)
{
    smtlm_regset *exwb = wb->exwb;
    const unsigned slot = wb->oldest_first ? smtlm_wb_oldest_slot(exwb, wb->pool) : smtlm_ctz64(exwb->occ);
    return smtlm_regset_take(exwb, slot);
}
/* Writes in's destinations first.. through the write port, as smtlm_rf_try_write each.
 * Returns the release mask: bit i set unless destination i was buffered (the register file
 * releases a buffered write when it lands). The register file and the scoreboard do not see
 * each other here, so all writes go first and the releases follow in one event. valid (a
 * constant): as smtlm_write_try_'s. */
static SMTLM_ALWAYS_INLINE unsigned smtlm_wb_write_from(const smtlm_wb *wb, const smtlm_inst *in, unsigned first,
                                                        int valid)
{
    const unsigned n = in->n_dst, warp = in->warp, sched = in->sched;
    unsigned release = 0;
    for (unsigned i = first; i < n; i++)
        release |= (unsigned)(smtlm_write_try_(&wb->rf, warp, sched, (unsigned)in->dst[i], valid) != SMTLM_RF_BUFFERED)
                   << i;
    return release;
}
static inline unsigned smtlm_wb_write(const smtlm_wb *wb, const smtlm_inst *in) { return smtlm_wb_write_from(wb, in, 0, 0); }
/* Destinations 1.. on the port bound directly (rare: out of line, so the usual one-destination
 * case keeps its registers; static, so each caller's unit sees which registers it clobbers). */
#if defined(__GNUC__)
__attribute__((noinline, unused))
#endif
static void smtlm_wb_write_more(const smtlm_wb *wb, const smtlm_inst *in)
{
    (void)smtlm_wb_write_from(wb, in, 1, 1);
}
/* smtlm_wb_write; fast (a constant): the port is bound to the register file's kernel, which
 * buffers no write (faithful mode), so every destination is released. */
static SMTLM_ALWAYS_INLINE unsigned smtlm_wb_write_(const smtlm_wb *wb, const smtlm_inst *in, int fast)
{
    if (!fast)
        return smtlm_wb_write(wb, in);
    const unsigned n = in->n_dst;
    if (n)
        (void)smtlm_write_try_(&wb->rf, in->warp, in->sched, (unsigned)in->dst[0], 1);
    if (n > 1)
        smtlm_wb_write_more(wb, in);
    return (1u << n) - 1;
}
/* One instruction out of EX_WB: written, its writeback time set, the written-back event sent
 * with its release mask, the pool entry freed. fast (a constant): both ports bound directly,
 * no write buffered and no retire hook (so nothing reads the writeback time before the
 * entry's reuse resets it), this cycle's progress already noted. */
static SMTLM_ALWAYS_INLINE void smtlm_wb_one(smtlm_wb *wb, smtlm_iref r, uint64_t now, int fast)
{
    smtlm_inst *in = smtlm_pool_get(wb->pool, r);
    const unsigned release = smtlm_wb_write_(wb, in, fast);
    if (!fast)
        in->ev[SMTLM_EV_WRITEBACK] = now;
    smtlm_warp_written_back_(&wb->warps, in, release, fast);
    smtlm_pool_free(wb->pool, r);
}
/* The drain, fast as smtlm_wb_one's. Oldest first one at a time; in faithful mode nothing in
 * the loop looks at EX_WB, so it is emptied at once and drained in slot order. */
static SMTLM_ALWAYS_INLINE void smtlm_wb_drain_(smtlm_wb *wb, uint64_t now, int fast)
{
    smtlm_regset *exwb = wb->exwb;
    if (!fast && wb->oldest_first) {
        do
            smtlm_wb_one(wb, smtlm_wb_take(wb), now, 0);
        while (exwb->count);
        return;
    }
    for (uint32_t occ = smtlm_regset_take_all(exwb); occ; occ &= occ - 1) {
        const unsigned s = smtlm_ctz64(occ);
        const smtlm_iref r = exwb->slot[s];
        exwb->slot[s] = SMTLM_NO_INST;
        smtlm_wb_one(wb, r, now, fast);
    }
}
/* Drains all of EX_WB at cycle `now` (the body of smtlm_wb_cycle, inline for the C SM's
 * cycle): fast when both ports are bound directly, the register file buffers no write and no
 * retire hook is set (progress is then noted once for the cycle). */
static SMTLM_ALWAYS_INLINE void smtlm_wb_drain(smtlm_wb *wb, uint64_t now)
{
    if (!wb->exwb->count)
        return;
    const smtlm_rf *rf = wb->rf.rf;
    smtlm_issue *iss = wb->warps.issue;
    if (rf && iss && !rf->cfg.fix_wb_bank_conflict && !wb->oldest_first && smtlm_issue_unhooked(iss)) {
        smtlm_issue_note_progress(iss);
        smtlm_wb_drain_(wb, now, 1);
    } else {
        smtlm_wb_drain_(wb, now, 0);
    }
}
void smtlm_wb_cycle(smtlm_wb *wb, uint64_t now);

#ifdef __cplusplus
}
#endif
#endif
