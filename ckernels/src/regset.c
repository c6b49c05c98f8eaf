/* Pipeline register sets: fixed slots, oldest-first selection by uid. */
#include "smtlm/regset.h"

#include "smtlm/ports_direct.h"

void smtlm_regset_init(smtlm_regset *rs, unsigned width)
{
    rs->width = (uint8_t)width;
    rs->count = 0;
    rs->occ = 0;
    rs->watch = 0;
    rs->watch_bits = 0;
    for (unsigned i = 0; i < SMTLM_MAX_REGSET_WIDTH; i++) {
        rs->slot[i] = SMTLM_NO_INST;
        rs->uid[i] = 0;
    }
}

int smtlm_regset_oldest_of_many(const smtlm_regset *rs) { return (int)smtlm_regset_oldest_occupied(rs); }

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
    out->row = sets;
}
