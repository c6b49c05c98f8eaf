/* Muon storage cost model (the derivation is in smtlm/muon_cost.h). */
#include "smtlm/muon_cost.h"

#include <string.h>

#include "smtlm/common.h"

unsigned smtlm_muon_index_bits(unsigned n)
{
    unsigned b = 0;
    while (b < 32 && (1ull << b) < (unsigned long long)n)
        b++;
    return b;
}

static int reject(const char **why, int code, const char *text)
{
    if (why)
        *why = text;
    return code;
}

/* Every count must be in 1..SMTLM_MUON_COST_MAX. */
static int count_ok(unsigned v, const char *name, const char **why, int *rc)
{
    if (v == 0) {
        *rc = reject(why, SMTLM_EINVAL, name);
        return 0;
    }
    if (v > SMTLM_MUON_COST_MAX) {
        *rc = reject(why, SMTLM_ERANGE, name);
        return 0;
    }
    return 1;
}

int smtlm_muon_cost_compute(const smtlm_muon_cost_cfg *c, smtlm_muon_cost *o, const char **why)
{
    int rc = SMTLM_OK;
    if (!c || !o)
        return reject(why, SMTLM_EINVAL, "muon cost: NULL argument");
    if (!count_ok(c->phys_regs, "muon cost: phys_regs must be in 1..16384", why, &rc) ||
        !count_ok(c->rs_entries, "muon cost: rs_entries must be in 1..16384", why, &rc) ||
        !count_ok(c->warps, "muon cost: warps must be in 1..16384", why, &rc) ||
        !count_ok(c->threads, "muon cost: threads must be in 1..16384", why, &rc) ||
        !count_ok(c->xlen, "muon cost: xlen must be in 1..16384", why, &rc) ||
        !count_ok(c->prf_banks, "muon cost: prf_banks must be in 1..16384", why, &rc) ||
        !count_ok(c->collector_entries, "muon cost: collector_entries must be in 1..16384", why, &rc))
        return rc;
    if (c->pending_read_bits == 0 || c->pending_read_bits > 16)
        return reject(why, SMTLM_EINVAL, "muon cost: pending_read_bits must be in 1..16");
    if (c->prf_copies == 0 || c->prf_copies > SMTLM_MUON_COST_OPERANDS)
        return reject(why, SMTLM_EINVAL, "muon cost: prf_copies must be in 1..3");

    memset(o, 0, sizeof *o);
    const uint64_t preg = c->phys_regs, nops = SMTLM_MUON_COST_OPERANDS;
    const uint64_t vec = (uint64_t)c->threads * c->xlen; /* one register of a warp: NT x XLEN */
    o->preg_bits = smtlm_muon_index_bits(c->phys_regs);
    o->warp_bits = smtlm_muon_index_bits(c->warps);
    o->seq_bits = c->in_order ? smtlm_muon_index_bits(c->rs_entries) + 1 : 0;

    o->scoreboard_bits = preg * (1u + c->pending_read_bits);
    o->scoreboard_epoch_bits = c->epochs ? preg * (c->pending_read_bits + 1u) : 0;
    o->scoreboard_fence_bits = c->fences ? preg : 0;
    o->scoreboard_total_bits = o->scoreboard_bits + o->scoreboard_epoch_bits + o->scoreboard_fence_bits;

    o->rs_meta_entry_bits = 1u + nops * (o->preg_bits + 1u + 1u) + o->seq_bits;
    o->rs_operand_data_bits = c->rs_data ? nops * vec : 0;
    o->rs_data_entry_bits = o->warp_bits + SMTLM_MUON_COST_PC_BITS + SMTLM_MUON_COST_OPCODE_BITS + c->threads +
                            o->rs_operand_data_bits;
    o->rs_entry_bits = o->rs_meta_entry_bits + o->rs_data_entry_bits;
    o->rs_meta_table_bits = c->rs_entries * o->rs_meta_entry_bits;
    o->rs_data_table_bits = c->rs_entries * o->rs_data_entry_bits;

    o->prf_bits = preg * vec * c->prf_copies;
    o->collector_data_bits = c->collector_entries * nops * vec;
    o->collector_tag_bits = c->collector_tags ? c->collector_entries * nops * (o->preg_bits + 1u) : 0;
    o->collector_bits = o->collector_data_bits + o->collector_tag_bits;
    o->crossbar_bits = (uint64_t)c->prf_banks * c->collector_entries * vec;
    return SMTLM_OK;
}
