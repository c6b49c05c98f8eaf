/* Pipeline register sets: fixed slots, oldest-first selection by uid. */
#include "smtlm/regset.h"

#include "smtlm/ports_direct.h"

void smtlm_regset_init(smtlm_regset *rs, unsigned width)
{
    rs->width = (uint8_t)width;
    rs->count = 0;
    for (unsigned i = 0; i < SMTLM_MAX_REGSET_WIDTH; i++) {
        rs->slot[i] = SMTLM_NO_INST;
        rs->uid[i] = 0;
    }
}

int smtlm_regset_first_free(const smtlm_regset *rs)
{
    for (unsigned i = 0; i < rs->width; i++)
        if (rs->slot[i] == SMTLM_NO_INST)
            return (int)i;
    return -1;
}

int smtlm_regset_oldest(const smtlm_regset *rs)
{
    if (rs->count == 0)
        return -1;
    int best = -1;
    if (rs->count == 1) {
        for (unsigned i = 0;; i++)
            if (rs->slot[i] != SMTLM_NO_INST)
                return (int)i;
    }
    for (unsigned i = 0; i < rs->width; i++)
        if (rs->slot[i] != SMTLM_NO_INST && (best < 0 || rs->uid[i] < rs->uid[best]))
            best = (int)i;
    return best;
}

void smtlm_regset_put(smtlm_regset *rs, unsigned s, smtlm_iref r, uint64_t uid)
{
    rs->slot[s] = r;
    rs->uid[s] = uid;
    rs->count++;
}

int smtlm_regset_move_in(smtlm_regset *rs, int sub_core, unsigned s, smtlm_iref r, uint64_t uid)
{
    int slot = sub_core ? ((s < rs->width && rs->slot[s] == SMTLM_NO_INST) ? (int)s : -1)
                        : smtlm_regset_first_free(rs);
    if (slot >= 0)
        smtlm_regset_put(rs, (unsigned)slot, r, uid);
    return slot;
}

smtlm_iref smtlm_regset_take(smtlm_regset *rs, unsigned s)
{
    smtlm_iref r = rs->slot[s];
    if (r != SMTLM_NO_INST) {
        rs->slot[s] = SMTLM_NO_INST;
        rs->count--;
    }
    return r;
}

/* ---- the C engine's stage ops over an array of sets ---- */

int smtlm_regset_stage_has_free(void *ctx, unsigned set, int sub_core, unsigned s)
{
    return smtlm_regset_has_free(&((smtlm_regset *)ctx)[set], sub_core, s);
}

int smtlm_regset_stage_put(void *ctx, unsigned set, int sub_core, unsigned s, smtlm_iref r, uint64_t uid)
{
    return smtlm_regset_move_in(&((smtlm_regset *)ctx)[set], sub_core, s, r, uid);
}

void smtlm_regset_stage_ops(smtlm_regset *sets, smtlm_stage_ops *out)
{
    out->ctx = sets;
    out->has_free = smtlm_regset_stage_has_free;
    out->put = smtlm_regset_stage_put;
}
