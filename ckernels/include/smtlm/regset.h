/* Pipeline register sets (GPGPU-Sim register_set): ID_OC_*, OC_EX_*, EX_WB. A set is a row of
 * slots; in the sub-core model slot s belongs to scheduler s. "Ready" means occupied; the
 * oldest (lowest uid) occupied slot is selected when no slot is named. */
#ifndef SMTLM_REGSET_H
#define SMTLM_REGSET_H

#include "smtlm/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Register-set ids in GPGPU-Sim's pipeline_stage_name_t order, then specialized units. */
enum {
    SMTLM_ID_OC_SP = 0, SMTLM_ID_OC_DP, SMTLM_ID_OC_INT, SMTLM_ID_OC_SFU, SMTLM_ID_OC_MEM,
    SMTLM_OC_EX_SP, SMTLM_OC_EX_DP, SMTLM_OC_EX_INT, SMTLM_OC_EX_SFU, SMTLM_OC_EX_MEM,
    SMTLM_EX_WB, SMTLM_ID_OC_TENSOR_CORE, SMTLM_OC_EX_TENSOR_CORE,
    SMTLM_NUM_STD_REGSETS, /* 13 */
    /* specialized unit k (0-based): ID_OC = 13 + 2k, OC_EX = 14 + 2k */
    SMTLM_NUM_REGSETS = SMTLM_NUM_STD_REGSETS + 2 * 8
};
#define SMTLM_ID_OC_SPEC(k) (SMTLM_NUM_STD_REGSETS + 2 * (k))
#define SMTLM_OC_EX_SPEC(k) (SMTLM_NUM_STD_REGSETS + 2 * (k) + 1)

typedef struct smtlm_regset {
    uint8_t width;
    uint8_t count;                            /* occupied slots */
    uint32_t occ;                             /* bit s: slot s occupied (kept with slot[]) */
    smtlm_iref slot[SMTLM_MAX_REGSET_WIDTH];
    uint64_t uid[SMTLM_MAX_REGSET_WIDTH];     /* uid of the occupant, for oldest-first */
    /* The reader's mask of sets that may hold work (execute's; NULL: none): every put ORs
     * watch_bits into it, so the reader looks only at sets with work. smtlm_regset_init clears
     * it; the reader installs it again on its bind and reset. */
    uint64_t *watch;
    uint64_t watch_bits;
} smtlm_regset;

void smtlm_regset_init(smtlm_regset *rs, unsigned width);

static inline int smtlm_regset_slot_free(const smtlm_regset *rs, unsigned s)
{
    return rs->slot[s] == SMTLM_NO_INST;
}
/* Any free slot (non-sub-core) or slot `s` (sub-core). Slots at or past the width are never
 * occupied, so `occ` alone cannot tell that slot s does not exist. */
static inline int smtlm_regset_has_free(const smtlm_regset *rs, int sub_core, unsigned s)
{
    return sub_core ? (s < rs->width && !(rs->occ >> s & 1)) : rs->count < rs->width;
}
/* First free slot index, or -1. */
static inline int smtlm_regset_first_free(const smtlm_regset *rs)
{
    return rs->count < rs->width ? (int)smtlm_ctz64(~(uint64_t)rs->occ) : -1;
}
/* Slot of the oldest occupant of a set that holds at least one (inline for hot walks). */
static inline unsigned smtlm_regset_oldest_occupied(const smtlm_regset *rs)
{
    uint32_t occ = rs->occ;
    unsigned best = smtlm_ctz64(occ);
    for (occ &= occ - 1; occ; occ &= occ - 1) {
        const unsigned i = smtlm_ctz64(occ);
        if (rs->uid[i] < rs->uid[best])
            best = i;
    }
    return best;
}
/* The same out of line, for sets with several occupants (smtlm_regset_oldest). */
int smtlm_regset_oldest_of_many(const smtlm_regset *rs);
/* Slot of the oldest occupant, or -1 when empty. */
static inline int smtlm_regset_oldest(const smtlm_regset *rs)
{
    if (rs->count <= 1)
        return rs->count ? (int)smtlm_ctz64(rs->occ) : -1;
    return smtlm_regset_oldest_of_many(rs);
}
/* Puts r into slot s (must be free). */
static inline void smtlm_regset_put(smtlm_regset *rs, unsigned s, smtlm_iref r, uint64_t uid)
{
    rs->slot[s] = r;
    rs->uid[s] = uid;
    rs->occ |= 1u << s;
    rs->count++;
    if (rs->watch)
        *rs->watch |= rs->watch_bits;
}
/* Sub-core: slot s; otherwise the first free slot. Returns the slot or -1 if none free. */
static inline int smtlm_regset_move_in(smtlm_regset *rs, int sub_core, unsigned s, smtlm_iref r, uint64_t uid)
{
    int slot = sub_core ? (smtlm_regset_has_free(rs, 1, s) ? (int)s : -1) : smtlm_regset_first_free(rs);
    if (slot >= 0)
        smtlm_regset_put(rs, (unsigned)slot, r, uid);
    return slot;
}
/* Removes and returns the occupant of slot s. */
static inline smtlm_iref smtlm_regset_take(smtlm_regset *rs, unsigned s)
{
    smtlm_iref r = rs->slot[s];
    if (r != SMTLM_NO_INST) {
        rs->slot[s] = SMTLM_NO_INST;
        rs->occ &= ~(1u << s);
        rs->count--;
    }
    return r;
}

/* Removes and returns the occupant of slot s, known occupied (no empty-slot test). */
static inline smtlm_iref smtlm_regset_take_occupied(smtlm_regset *rs, unsigned s)
{
    const smtlm_iref r = rs->slot[s];
    rs->slot[s] = SMTLM_NO_INST;
    rs->occ &= ~(1u << s);
    rs->count--;
    return r;
}
/* Empties a set at once: returns its occupied-slot mask and marks every slot free in the count
 * and the mask; the caller takes slot[s] of each bit (and writes SMTLM_NO_INST there) before
 * anything else looks at the set. */
static inline uint32_t smtlm_regset_take_all(smtlm_regset *rs)
{
    const uint32_t occ = rs->occ;
    rs->occ = 0;
    rs->count = 0;
    return occ;
}

/* The C engine's hand-off into a row of sets owned by their readers: stage ops whose ctx is
 * the array of SMTLM_NUM_REGSETS sets (smtlm_sm's). */
struct smtlm_stage_port;
void smtlm_regset_stage_port(smtlm_regset *sets, struct smtlm_stage_port *out);

#ifdef __cplusplus
}
#endif
#endif
