/* EX_WB drain with GPGPU-Sim's never-stall write rule, or the one-write-per-bank fix. */
#include "smtlm/writeback.h"

#include <string.h>

void smtlm_wb_init(smtlm_wb *wb, int fix_bank_conflict)
{
    wb->fix_bank_conflict = fix_bank_conflict;
    smtlm_wb_reset(wb);
}

void smtlm_wb_reset(smtlm_wb *wb)
{
    memset(wb->head, 0, sizeof wb->head);
    memset(wb->len, 0, sizeof wb->len);
    wb->dropped_writes = wb->buffered_writes = 0;
}

int smtlm_wb_pending(const smtlm_wb *wb)
{
    for (unsigned b = 0; b < SMTLM_MAX_BANKS; b++)
        if (wb->len[b])
            return 1;
    return 0;
}

static void drain_buffers(smtlm_wb *wb, const smtlm_wb_env *env)
{
    uint64_t blocked = env->rf->blocked;
    while (blocked) {
        unsigned b = smtlm_ctz64(blocked);
        blocked &= blocked - 1;
        smtlm_wb_entry e = wb->buf[b][wb->head[b]];
        wb->head[b] = (uint16_t)((wb->head[b] + 1) % SMTLM_WB_BUF_CAP);
        wb->len[b]--;
        smtlm_rf_write(env->rf, b);
        smtlm_sb_release_reg(env->sb, e.warp, e.reg);
        if (wb->len[b] == 0)
            env->rf->blocked &= ~(1ull << b);
    }
}

void smtlm_wb_cycle(smtlm_wb *wb, smtlm_regset *exwb, const smtlm_wb_env *env)
{
    if (wb->fix_bank_conflict && env->rf->blocked)
        drain_buffers(wb, env);
    while (exwb->count) {
        /* Faithful mode: the drain order is not observable (every write releases its register
         * and marks its bank), so take slots in order; the fix's buffers need oldest first. */
        int slot = 0;
        if (wb->fix_bank_conflict)
            slot = smtlm_regset_oldest(exwb);
        else
            while (exwb->slot[slot] == SMTLM_NO_INST)
                slot++;
        smtlm_iref r = smtlm_regset_take(exwb, (unsigned)slot);
        smtlm_inst *in = smtlm_pool_get(env->pool, r);
        for (unsigned i = 0; i < in->n_dst; i++) {
            unsigned reg = (unsigned)in->dst[i];
            unsigned bank = smtlm_rf_bank(env->rf, reg, in->warp, in->sched);
            int busy = (env->rf->write_alloc | env->rf->blocked) >> bank & 1;
            if (!busy) {
                smtlm_rf_write(env->rf, bank);
                smtlm_sb_release_reg(env->sb, in->warp, reg);
            } else if (!wb->fix_bank_conflict || wb->len[bank] == SMTLM_WB_BUF_CAP) {
                wb->dropped_writes++; /* GPGPU-Sim ignores the failed write */
                smtlm_sb_release_reg(env->sb, in->warp, reg);
            } else {
                wb->buf[bank][(wb->head[bank] + wb->len[bank]) % SMTLM_WB_BUF_CAP] =
                    (smtlm_wb_entry){in->warp, (uint16_t)reg};
                wb->len[bank]++;
                wb->buffered_writes++;
                env->rf->blocked |= 1ull << bank;
            }
        }
        in->ev[SMTLM_EV_WRITEBACK] = env->now;
        env->retire(env->owner, r);
    }
}
