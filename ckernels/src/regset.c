/* Pipeline register sets: fixed slots, oldest-first selection by uid. */
#include "smtlm/regset.h"

#include "smtlm/ports.h"

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

/* ---- a stage port bound directly to a row of sets ---- */

void smtlm_regset_stage_port(smtlm_regset *sets, smtlm_stage_port *out)
{
    const smtlm_stage_port direct = {sets, NULL, NULL, NULL, sets};
    *out = direct;
}
