/* Fixed-capacity instruction pool with intrusive free lists. */
#include "smtlm/inst_pool.h"

#include <stddef.h>
#include <string.h>

/* smtlm_pool_alloc copies the descriptor's pc .. line in one block: the two layouts must agree. */
#define AT(f) (offsetof(smtlm_inst, f) - offsetof(smtlm_inst, pc))
#define SAME_PLACE(f) (AT(f) == offsetof(smtlm_inst_desc, f) - offsetof(smtlm_inst_desc, pc))
_Static_assert(SAME_PLACE(mask) && SAME_PLACE(op) && SAME_PLACE(spec) && SAME_PLACE(n_dst) && SAME_PLACE(n_src) &&
                   SAME_PLACE(dst) && SAME_PLACE(src) && SAME_PLACE(latency) && SAME_PLACE(ii) &&
                   SAME_PLACE(mem_space) && SAME_PLACE(mem_width) && SAME_PLACE(atomic) && SAME_PLACE(line),
               "smtlm_inst's pc .. line must lie as in smtlm_inst_desc");
#define DESC_BLOCK (offsetof(smtlm_inst_desc, line) + sizeof(uint32_t) - offsetof(smtlm_inst_desc, pc))

void smtlm_pool_init(smtlm_inst_pool *p)
{
    for (unsigned i = 0; i < SMTLM_POOL_SIZE; i++)
        p->inst[i].next_free = (uint16_t)(i + 1 < SMTLM_POOL_SIZE ? i + 1 : SMTLM_NO_INST);
    for (unsigned i = 0; i < SMTLM_MEM_POOL_SIZE; i++)
        p->mem[i].next_free = (uint16_t)(i + 1 < SMTLM_MEM_POOL_SIZE ? i + 1 : SMTLM_NO_INST);
    p->free_head = 0;
    p->mem_free_head = 0;
    p->used = 0;
    p->mem_used = 0;
}

smtlm_iref smtlm_pool_alloc(smtlm_inst_pool *p, const smtlm_inst_desc *d, uint16_t warp)
{
    smtlm_iref r = p->free_head;
    if (r == SMTLM_NO_INST)
        return SMTLM_NO_INST;
    uint16_t m = SMTLM_NO_INST;
    if (d->mem_space != SMTLM_MEM_NONE) {
        m = p->mem_free_head;
        if (m == SMTLM_NO_INST)
            return SMTLM_NO_INST;
        p->mem_free_head = p->mem[m].next_free;
        p->mem_used++;
        memcpy(p->mem[m].addr, d->addr, sizeof d->addr);
    }
    smtlm_inst *in = &p->inst[r];
    p->free_head = in->next_free;
    p->used++;
    in->uid = 0;
    for (unsigned e = 0; e < SMTLM_EV_COUNT; e++)
        in->ev[e] = UINT64_MAX;
    memcpy((char *)in + offsetof(smtlm_inst, pc), (const char *)d + offsetof(smtlm_inst_desc, pc), DESC_BLOCK);
    in->left_ldst = 0; /* over the descriptor's reserved byte */
    in->warp = warp;
    in->unit = SMTLM_UNIT_NONE;
    in->sched = 0;
    in->mem = m;
    in->pending = 0;
    in->next_free = SMTLM_NO_INST;
    return r;
}
