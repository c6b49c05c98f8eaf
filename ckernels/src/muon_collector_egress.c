/* Muon collector, bank egress of one cycle: the writebacks' forwards take their PRF bank's
 * egress (the 2:1 mux at the bank read port prefers writeback data) and their collector port
 * first; the reads granted last cycle land unless a forward took their bank egress or port,
 * in which case they are re-scheduled; entries with every operand in answer readResp. */
#include <string.h>

#include "muon_collector_internal.h"

static int written_now(const smtlm_muon_coll *c, unsigned warp, int reg)
{
    for (unsigned i = 0; i < c->n_wb; i++)
        if (c->wb[i].warp == warp && c->wb[i].reg == reg)
            return 1;
    return 0;
}

/* Writeback i of the cycle reaches the operands waiting for it, oldest request first. With
 * forwarding each takes the value through its register's bank egress (shared by every operand
 * this writeback feeds, refused to a second writeback of that bank) and its collector port;
 * refused ones, and every one without forwarding, read the PRF from the next cycle. */
static void forward(smtlm_muon_coll *c, unsigned i, uint8_t *fwd_owner, unsigned *ports)
{
    const unsigned warp = c->wb[i].warp;
    const int reg = c->wb[i].reg;
    const unsigned b = coll_bank(c, reg);
    const int caching = c->cfg.kind == SMTLM_MUON_COLL_CACHING;
    const int contended = c->cfg.kind != SMTLM_MUON_COLL_DUPLICATED;
    if (caching)
        smtlm_muon_coll_invalidate(c, warp, reg);
    for (unsigned k = 0; k < c->n_valid; k++) {
        smtlm_muon_coll_entry *e = &c->entry[c->order[k]];
        if (e->warp != warp || !e->wait)
            continue;
        for (unsigned s = 0; s < SMTLM_MAX_SRC; s++) {
            const uint8_t bit = (uint8_t)(1u << s);
            if (!(e->wait & bit) || e->reg[s] != reg)
                continue;
            e->wait &= (uint8_t)~bit;
            if (!c->cfg.forwarding) {
                e->woke |= bit; /* the PRF write of this cycle is read from the next one */
                continue;
            }
            const int p = contended ? coll_port(c, e, s) : COLL_NO_PORT;
            if ((contended && fwd_owner[b] && fwd_owner[b] != i + 1) || coll_port_taken(*ports, p)) {
                e->woke |= bit;
                e->dropped |= bit;
                c->st.forward_drops++;
                continue;
            }
            if (contended)
                fwd_owner[b] = (uint8_t)(i + 1);
            *ports |= coll_port_bit(p);
            e->have |= bit;
            e->forwarded |= bit;
            smtlm_muon_coll_fill(e, s, warp, reg, caching);
            c->st.forwards++;
        }
    }
}

int smtlm_muon_coll_deliver(smtlm_muon_coll *c, uint64_t now, smtlm_muon_coll_resp *out)
{
    if (now + 1 <= c->delivered || (c->n_wb && c->wb_cycle != now))
        return SMTLM_EINPUT;
    if (smtlm_muon_coll_busy(c) && c->arbitrated != now)
        return SMTLM_EINPUT; /* the previous cycle was skipped while a read was in progress */
    c->delivered = now + 1;

    /* Operands written back last cycle without a forward now read the PRF. */
    for (unsigned k = 0; k < c->n_valid; k++) {
        smtlm_muon_coll_entry *e = &c->entry[c->order[k]];
        e->pending |= e->woke;
        e->woke = 0;
    }

    uint8_t fwd_owner[SMTLM_MAX_BANKS]; /* the writeback (index + 1) using each bank's egress */
    memset(fwd_owner, 0, sizeof fwd_owner);
    unsigned ports = 0;
    for (unsigned i = 0; i < c->n_wb; i++)
        forward(c, i, fwd_owner, &ports);

    const int caching = c->cfg.kind == SMTLM_MUON_COLL_CACHING;
    const int contended = c->cfg.kind != SMTLM_MUON_COLL_DUPLICATED;
    for (unsigned k = 0; k < c->n_valid; k++) {
        smtlm_muon_coll_entry *e = &c->entry[c->order[k]];
        for (uint8_t m = e->flight; m; m &= (uint8_t)(m - 1)) {
            const unsigned s = smtlm_ctz64(m);
            const uint8_t bit = (uint8_t)(1u << s);
            const int p = coll_port(c, e, s);
            const int copy = (e->flight_copy & bit) != 0;
            if ((contended && !copy && fwd_owner[coll_bank(c, e->reg[s])]) || coll_port_taken(ports, p)) {
                e->pending |= bit; /* lost to the writeback data: arbitrated again this cycle */
                c->st.lost_to_forward++;
                continue;
            }
            ports |= coll_port_bit(p);
            e->have |= bit;
            /* A value read before this cycle's write of the register is stale for later readers. */
            smtlm_muon_coll_fill(e, s, e->warp, e->reg[s], caching && !written_now(c, e->warp, e->reg[s]));
        }
        e->flight = e->flight_copy = 0;
    }
    c->n_wb = 0;

    int n = 0;
    for (unsigned k = 0; k < c->n_valid; k++) {
        const unsigned i = c->order[k];
        smtlm_muon_coll_entry *e = &c->entry[i];
        if (e->responded || e->req_cycle >= now || (e->slots & ~e->have))
            continue;
        e->responded = 1;
        e->resp_cycle = now;
        out[n++] = (smtlm_muon_coll_resp){(uint8_t)i, e->slots, e->forwarded, e->dropped, e->tag, e->warp, e->req_cycle};
        c->st.responses++;
    }
    return n;
}
