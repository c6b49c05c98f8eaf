/* Shared by the Muon collector's files: which PRF bank and collector port an operand uses, and
 * the caching fields' bookkeeping (muon_collector_cache.c). */
#ifndef SMTLM_MUON_COLLECTOR_INTERNAL_H
#define SMTLM_MUON_COLLECTOR_INTERNAL_H

#include "smtlm/muon_collector.h"

#define COLL_NO_PORT (-1)

static inline unsigned coll_bank(const smtlm_muon_coll *c, int reg) { return (unsigned)reg % c->cfg.prf_banks; }

/* The collector write port an operand of entry e in slot s needs in the cycle its value lands:
 * src_banked / caching, the slot's bank; inst_banked, the entry's FU bank; none otherwise
 * (duplicated and min_banked write flip-flops per slot). */
static inline int coll_port(const smtlm_muon_coll *c, const smtlm_muon_coll_entry *e, unsigned s)
{
    switch (c->cfg.kind) {
    case SMTLM_MUON_COLL_SRC_BANKED:
    case SMTLM_MUON_COLL_CACHING: return (int)(s % c->cfg.collector_banks);
    case SMTLM_MUON_COLL_INST_BANKED: return e->fu;
    default: return COLL_NO_PORT;
    }
}

static inline int coll_port_taken(unsigned ports, int p) { return p != COLL_NO_PORT && (ports >> p & 1); }
static inline unsigned coll_port_bit(int p) { return p == COLL_NO_PORT ? 0u : 1u << p; }

/* caching: the number of `req`'s readable, non-waiting slots that entry e's fields already hold. */
unsigned smtlm_muon_coll_in_place(const smtlm_muon_coll *c, const smtlm_muon_coll_entry *e,
                                  const smtlm_muon_coll_req *req, unsigned readable);
/* caching: 1 if a re-usable field in slot s's collector bank holds (warp, reg). */
int smtlm_muon_coll_cached(const smtlm_muon_coll *c, unsigned s, unsigned warp, int reg);
/* A value of (warp, reg) landed in field s of entry e; `ok` whether later instructions may reuse it. */
void smtlm_muon_coll_fill(smtlm_muon_coll_entry *e, unsigned s, unsigned warp, int reg, int ok);
/* caching: a write of (warp, reg) makes every field holding it stale. */
void smtlm_muon_coll_invalidate(smtlm_muon_coll *c, unsigned warp, int reg);

#endif
