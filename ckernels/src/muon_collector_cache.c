/* Muon caching collector: every operand field remembers the register value it holds; a later
 * instruction reading that register in a slot of the same collector bank reuses it instead of
 * reading the PRF, until a writeback of the register invalidates the field. */
#include "muon_collector_internal.h"

static inline int holds(const smtlm_muon_coll_entry *e, unsigned s, unsigned warp, int reg)
{
    return (e->field_ok >> s & 1) && e->field_warp[s] == warp && e->field_reg[s] == reg;
}

unsigned smtlm_muon_coll_in_place(const smtlm_muon_coll *c, const smtlm_muon_coll_entry *e,
                                  const smtlm_muon_coll_req *req, unsigned readable)
{
    (void)c;
    unsigned n = 0;
    for (unsigned s = 0; s < SMTLM_MAX_SRC; s++)
        if ((readable >> s & 1) && !(req->wait >> s & 1) && holds(e, s, req->warp, req->reg[s]))
            n++;
    return n;
}

int smtlm_muon_coll_cached(const smtlm_muon_coll *c, unsigned s, unsigned warp, int reg)
{
    const unsigned banks = c->cfg.collector_banks;
    for (unsigned i = 0; i < c->cfg.entries; i++)
        for (unsigned f = s % banks; f < SMTLM_MAX_SRC; f += banks)
            if (holds(&c->entry[i], f, warp, reg))
                return 1;
    return 0;
}

void smtlm_muon_coll_fill(smtlm_muon_coll_entry *e, unsigned s, unsigned warp, int reg, int ok)
{
    e->field_warp[s] = (uint16_t)warp;
    e->field_reg[s] = reg;
    if (ok)
        e->field_ok |= (uint8_t)(1u << s);
    else
        e->field_ok &= (uint8_t)~(1u << s);
}

void smtlm_muon_coll_invalidate(smtlm_muon_coll *c, unsigned warp, int reg)
{
    for (unsigned i = 0; i < c->cfg.entries; i++) {
        smtlm_muon_coll_entry *e = &c->entry[i];
        for (unsigned s = 0; s < SMTLM_MAX_SRC; s++)
            if (holds(e, s, warp, reg)) {
                e->field_ok &= (uint8_t)~(1u << s);
                c->st.invalidations++;
            }
    }
}
