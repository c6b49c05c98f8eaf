/* Muon collector, PRF bank arbiter: one cycle's grants among the pending operand reads. Reads
 * are taken oldest request first, in slot order within a request, and granted while their PRF
 * bank (reg mod N: one read per bank per cycle, except the duplicated collector's per-slot
 * copies) and their collector write port are free. A read that loses waits for a later cycle.
 * This greedy order is not a maximum matching: a younger read that a different grant order
 * would have let through waits too. */
#include "muon_collector_internal.h"

int smtlm_muon_coll_arbitrate(smtlm_muon_coll *c, uint64_t now)
{
    if (c->delivered != now + 1 || c->arbitrated > now)
        return SMTLM_EINPUT; /* after deliver(now), once per cycle */
    c->arbitrated = now + 1;

    const int contended = c->cfg.kind != SMTLM_MUON_COLL_DUPLICATED;
    const int caching = c->cfg.kind == SMTLM_MUON_COLL_CACHING;
    uint64_t banks = 0; /* PRF banks read this cycle */
    unsigned ports = 0; /* collector ports the grants will write next cycle */
    const uint64_t waits_before = c->st.conflict_waits;
    c->st.cycles++;
    c->st.occupancy_sum += c->n_valid;
    for (unsigned k = 0; k < c->n_valid; k++) {
        smtlm_muon_coll_entry *e = &c->entry[c->order[k]];
        for (uint8_t m = e->pending; m; m &= (uint8_t)(m - 1)) {
            const unsigned s = smtlm_ctz64(m);
            const uint8_t bit = (uint8_t)(1u << s);
            const unsigned b = coll_bank(c, e->reg[s]);
            const int p = coll_port(c, e, s);
            /* caching: a copy from another field of the bank needs the port but no PRF bank */
            const int copy = caching && smtlm_muon_coll_cached(c, s, e->warp, e->reg[s]);
            if ((contended && !copy && (banks >> b & 1)) || coll_port_taken(ports, p)) {
                c->st.conflict_waits++;
                continue;
            }
            e->pending &= (uint8_t)~bit;
            e->flight |= bit;
            ports |= coll_port_bit(p);
            if (copy) {
                e->flight_copy |= bit;
                c->st.cache_hits_copy++;
            } else {
                if (contended)
                    banks |= 1ull << b;
                c->st.prf_reads++;
                c->st.bank_reads[b]++;
            }
        }
    }
    if (c->st.conflict_waits != waits_before)
        c->st.conflict_cycles++;
    return SMTLM_OK;
}
