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
#include "smtlm/ports_direct.h"
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
    smtlm_rf_write_ops rf;
    smtlm_warp_ops warps;
} smtlm_wb;

/* oldest_first: 1 under -smtlm_fix_wb_bank_conflict (in faithful mode the order in which EX_WB
 * drains is not observable: every write releases its register and marks its bank). */
void smtlm_wb_init(smtlm_wb *wb, int oldest_first);
void smtlm_wb_bind(smtlm_wb *wb, smtlm_regset *exwb, smtlm_inst_pool *pool, const smtlm_rf_write_ops *rf,
                   const smtlm_warp_ops *warps);
void smtlm_wb_reset(smtlm_wb *wb);
/* Drains all of EX_WB at cycle `now`. */
void smtlm_wb_cycle(smtlm_wb *wb, uint64_t now);
static inline int smtlm_wb_idle(const smtlm_wb *wb) { return wb->exwb->count == 0; }

/* The parts of smtlm_wb_cycle, for an owner that handles the warp event itself (the C engine's
 * SM, with its handler inline). Per cycle: while EX_WB holds one, take the next instruction,
 * write it, hand it on with its release mask, free it. */

/* The C engine's register file when the write port is bound to it (writes inline), else 0. */
static inline smtlm_rf *smtlm_wb_direct_rf(const smtlm_wb *wb)
{
    return wb->rf.try_write == smtlm_rf_port_try_write ? (smtlm_rf *)wb->rf.ctx : 0;
}
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
/* Writes in's destinations straight into the register file (rf from smtlm_wb_direct_rf, not
 * 0), as smtlm_rf_try_write each. Returns the release mask: bit i set unless destination i was
 * buffered (the register file releases a buffered write when it lands). The register file and
 * the scoreboard do not see each other here, so all writes go first and the releases follow
 * in one event. */
static inline unsigned smtlm_wb_write_direct(smtlm_rf *rf, const smtlm_inst *in)
{
    const unsigned n = in->n_dst, warp = in->warp, sched = in->sched;
    unsigned release = 0;
    for (unsigned i = 0; i < n; i++)
        release |= (unsigned)(smtlm_rf_try_write(rf, warp, sched, (unsigned)in->dst[i]) != SMTLM_RF_BUFFERED) << i;
    return release;
}
/* The same through the write port's ops (any binding). */
unsigned smtlm_wb_write_port(const smtlm_wb *wb, const smtlm_inst *in);

/* The register-file writes of destinations 1.. (rare: out of line, so the usual
 * one-destination case keeps its registers; static, so each caller's unit sees which
 * registers it clobbers). */
#if defined(__GNUC__)
__attribute__((noinline, unused))
#endif
static void smtlm_wb_write_more_dsts(smtlm_rf *rf, const smtlm_inst *in)
{
    for (unsigned i = 1; i < in->n_dst; i++)
        (void)smtlm_rf_try_write(rf, in->warp, in->sched, (unsigned)in->dst[i]);
}
/* One instruction's writes and scoreboard releases in one pass (rf from smtlm_wb_direct_rf):
 * each destination is written and, unless the register file buffered it, released at once
 * (equal to smtlm_wb_write_direct then the releases, as the two do not see each other). fast
 * (no buffered write possible: faithful mode) with the summary's bit 0 clear: every
 * destination is released by the pool entry's summary, in one step. For owners that handle
 * the warp event themselves (the C engine's SM, the SystemC writeback with direct access).
 * (An else rather than an early return: the early return compiles to more instructions in
 * the SM's cycle.) */
static SMTLM_ALWAYS_INLINE void smtlm_wb_write_release(smtlm_rf *rf, smtlm_scoreboard *sb, const smtlm_inst *in, int fast)
{
    const unsigned n = in->n_dst, warp = in->warp, sched = in->sched;
    const uint64_t d = in->sb_dsts;
    if (fast && !(d & 1)) {
        if (n)
            (void)smtlm_rf_try_write_valid(rf, warp, sched, (unsigned)in->dst[0]);
        if (n > 1)
            smtlm_wb_write_more_dsts(rf, in);
        smtlm_sb_release_dsts(sb, warp, d);
    } else {
        for (unsigned i = 0; i < n; i++) {
            const unsigned reg = (unsigned)in->dst[i];
            if (smtlm_rf_try_write(rf, warp, sched, reg) != SMTLM_RF_BUFFERED)
                smtlm_sb_release_reg(sb, warp, reg);
        }
    }
}

#ifdef __cplusplus
}
#endif
#endif
