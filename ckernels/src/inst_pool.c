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
    p->free_head = p->fresh = 0;
    p->mem_free_head = p->mem_fresh = 0;
    p->used = 0;
    p->mem_used = 0;
}

void smtlm_pool_fill_from_desc(smtlm_inst *in, uint64_t *addr, const smtlm_inst_desc *d)
{
    memcpy((char *)in + offsetof(smtlm_inst, pc), (const char *)d + offsetof(smtlm_inst_desc, pc), DESC_BLOCK);
    if (d->mem_space != SMTLM_MEM_NONE)
        memcpy(addr, d->addr, sizeof d->addr);
}

void smtlm_pool_entry_desc(const smtlm_inst *in, smtlm_inst_desc *d)
{
    memset(d, 0, sizeof *d);
    memcpy((char *)d + offsetof(smtlm_inst_desc, pc), (const char *)in + offsetof(smtlm_inst, pc), DESC_BLOCK);
    d->reserved = 0; /* (the entry's left_ldst) */
}

smtlm_iref smtlm_pool_alloc(smtlm_inst_pool *p, const smtlm_inst_desc *d, uint16_t warp)
{
    if (p->free_head == SMTLM_NO_INST || (d->mem_space != SMTLM_MEM_NONE && p->mem_free_head == SMTLM_NO_INST))
        return SMTLM_NO_INST;
    /* a non-memory instruction needs no payload, and there may be none free */
    uint64_t *addr = d->mem_space != SMTLM_MEM_NONE ? smtlm_pool_next_addr(p) : NULL;
    smtlm_pool_fill_from_desc(smtlm_pool_next_entry(p), addr, d);
    return smtlm_pool_commit(p, warp);
}
