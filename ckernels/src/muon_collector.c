/* Muon operand collector: configuration, entry allocation (readReq), release (readData) and
 * the writebacks posted for the cycle. The egress and the arbitration are in
 * muon_collector_egress.c and muon_collector_arbiter.c. */
#include "smtlm/muon_collector.h"

#include <string.h>

#include "muon_collector_internal.h"

_Static_assert(SMTLM_MAX_SRC <= 8, "slot masks are uint8_t");
_Static_assert(SMTLM_MUON_COLL_MAX_FU_BANKS <= 8 && SMTLM_MAX_SRC <= 8, "collector ports fit a uint8_t mask");

int smtlm_muon_coll_init(smtlm_muon_coll *c, const smtlm_muon_coll_cfg *cfg)
{
    if (cfg->n_warps == 0)
        return smtlm_cfg_reject(&c->cfg_error, SMTLM_EINVAL, "muon collector: no warps");
    if (cfg->n_warps > SMTLM_MAX_WARPS)
        return smtlm_cfg_reject(&c->cfg_error, SMTLM_ERANGE, "muon collector: more warps than SMTLM_MAX_WARPS");
    if ((unsigned)cfg->kind > SMTLM_MUON_COLL_CACHING)
        return smtlm_cfg_reject(&c->cfg_error, SMTLM_EINVAL, "-smtlm_muon_collector: unknown strategy");
    if (cfg->prf_banks == 0 || cfg->prf_banks > SMTLM_MAX_BANKS)
        return smtlm_cfg_reject(&c->cfg_error, SMTLM_ERANGE, "-smtlm_muon_prf_banks: must be 1..64");
    if (cfg->entries == 0 || cfg->entries > SMTLM_MUON_COLL_MAX_ENTRIES)
        return smtlm_cfg_reject(&c->cfg_error, SMTLM_ERANGE, "-smtlm_muon_collector_entries: must be 1..64");
    switch (cfg->kind) {
    case SMTLM_MUON_COLL_MIN_BANKED:
        if (cfg->entries != 1)
            return smtlm_cfg_reject(&c->cfg_error, SMTLM_EINVAL,
                                    "-smtlm_muon_collector_entries: -smtlm_muon_collector min_banked has a single entry");
        break;
    case SMTLM_MUON_COLL_SRC_BANKED:
    case SMTLM_MUON_COLL_CACHING:
        if (cfg->collector_banks == 0 || cfg->collector_banks > SMTLM_MAX_SRC)
            return smtlm_cfg_reject(&c->cfg_error, SMTLM_ERANGE,
                                    "-smtlm_muon_collector src_banked/caching: collector banks (by source slot) "
                                    "must be 1..4");
        break;
    case SMTLM_MUON_COLL_INST_BANKED:
        if (cfg->collector_banks == 0 || cfg->collector_banks > SMTLM_MUON_COLL_MAX_FU_BANKS)
            return smtlm_cfg_reject(&c->cfg_error, SMTLM_ERANGE,
                                    "-smtlm_muon_collector inst_banked: FU collector banks must be 1..8");
        if (cfg->entries % cfg->collector_banks)
            return smtlm_cfg_reject(&c->cfg_error, SMTLM_EINVAL,
                                    "-smtlm_muon_collector_entries: inst_banked splits the entries evenly over "
                                    "its FU banks");
        break;
    default: break;
    }
    if (cfg->zero_reg < 0 || cfg->zero_reg > SMTLM_MUON_COLL_MAX_REG)
        return smtlm_cfg_reject(&c->cfg_error, SMTLM_ERANGE, "muon collector: zero register out of range");
    c->cfg = *cfg;
    c->cfg.forwarding = cfg->forwarding != 0;
    c->per_fu = cfg->kind == SMTLM_MUON_COLL_INST_BANKED ? cfg->entries / cfg->collector_banks : cfg->entries;
    c->cfg_error = NULL;
    smtlm_muon_coll_reset(c);
    return SMTLM_OK;
}

void smtlm_muon_coll_reset(smtlm_muon_coll *c)
{
    memset(c->entry, 0, sizeof c->entry);
    c->valid = 0;
    c->n_valid = 0;
    c->next_seq = 0;
    c->n_wb = 0;
    c->wb_cycle = 0;
    c->delivered = c->arbitrated = 0;
    memset(&c->st, 0, sizeof c->st);
}

static inline int nothing_to_read(const smtlm_muon_coll *c, int reg) { return reg == 0 || reg == c->cfg.zero_reg; }

/* The entries request `fu` may be given (inst_banked: its FU bank's share). */
static uint64_t partition(const smtlm_muon_coll *c, unsigned fu)
{
    const unsigned first = c->cfg.kind == SMTLM_MUON_COLL_INST_BANKED ? fu * c->per_fu : 0;
    const uint64_t m = c->per_fu == 64 ? ~0ull : (1ull << c->per_fu) - 1;
    return m << first;
}

int smtlm_muon_coll_can_accept(const smtlm_muon_coll *c, unsigned fu)
{
    if (c->cfg.kind == SMTLM_MUON_COLL_INST_BANKED && fu >= c->cfg.collector_banks)
        return 0;
    return (partition(c, fu) & ~c->valid) != 0;
}

int smtlm_muon_coll_busy(const smtlm_muon_coll *c)
{
    for (uint64_t m = c->valid; m; m &= m - 1) {
        const smtlm_muon_coll_entry *e = &c->entry[smtlm_ctz64(m)];
        if (e->responded)
            continue;
        const uint8_t missing = (uint8_t)(e->slots & ~e->have);
        if (missing == 0 || (missing & ~e->wait))
            return 1;
    }
    return 0;
}

/* The free entry a request goes to: the lowest; caching prefers the one whose fields already
 * hold the most of its operands (lowest on ties). */
static int choose_entry(const smtlm_muon_coll *c, const smtlm_muon_coll_req *req, unsigned readable)
{
    const uint64_t free = partition(c, req->fu) & ~c->valid;
    if (free == 0)
        return -1;
    int best = (int)smtlm_ctz64(free);
    if (c->cfg.kind != SMTLM_MUON_COLL_CACHING)
        return best;
    unsigned best_hits = 0;
    for (uint64_t m = free; m; m &= m - 1) {
        const unsigned i = smtlm_ctz64(m);
        const unsigned hits = smtlm_muon_coll_in_place(c, &c->entry[i], req, readable);
        if (hits > best_hits) {
            best = (int)i;
            best_hits = hits;
        }
    }
    return best;
}

int smtlm_muon_coll_request(smtlm_muon_coll *c, uint64_t now, const smtlm_muon_coll_req *req)
{
    if (c->delivered != now + 1 || c->arbitrated > now)
        return SMTLM_EINPUT; /* after deliver(now), before arbitrate(now) */
    const unsigned all = (1u << SMTLM_MAX_SRC) - 1;
    if (req->warp >= c->cfg.n_warps || req->slots == 0 || (req->slots & ~all) || (req->wait & ~req->slots))
        return SMTLM_EINPUT;
    if (c->cfg.kind == SMTLM_MUON_COLL_INST_BANKED && req->fu >= c->cfg.collector_banks)
        return SMTLM_EINPUT;
    unsigned readable = 0; /* slots with a register to read */
    for (unsigned s = 0; s < SMTLM_MAX_SRC; s++) {
        if (!(req->slots >> s & 1))
            continue;
        if (req->reg[s] < 0 || req->reg[s] > SMTLM_MUON_COLL_MAX_REG)
            return SMTLM_EINPUT;
        if (!nothing_to_read(c, req->reg[s]))
            readable |= 1u << s;
    }
    const int i = choose_entry(c, req, readable);
    if (i < 0)
        return SMTLM_EFULL;

    smtlm_muon_coll_entry *e = &c->entry[i];
    const unsigned in_place = c->cfg.kind == SMTLM_MUON_COLL_CACHING ? smtlm_muon_coll_in_place(c, e, req, readable) : 0;
    e->seq = c->next_seq++;
    e->req_cycle = now;
    e->resp_cycle = 0;
    e->tag = req->tag;
    e->warp = req->warp;
    e->fu = c->cfg.kind == SMTLM_MUON_COLL_INST_BANKED ? req->fu : 0;
    e->slots = req->slots;
    e->wait = e->woke = e->pending = e->flight = e->flight_copy = e->have = 0;
    e->forwarded = e->dropped = 0;
    e->responded = 0;
    for (unsigned s = 0; s < SMTLM_MAX_SRC; s++) {
        e->reg[s] = req->slots >> s & 1 ? req->reg[s] : 0;
        const uint8_t bit = (uint8_t)(1u << s);
        if (!(req->slots & bit))
            continue;
        if (!(readable & bit)) {
            e->have |= bit; /* never read from the PRF */
            c->st.zero_reads++;
        } else if (req->wait & bit) {
            e->wait |= bit;
        } else if (in_place && (e->field_ok & bit) && e->field_warp[s] == req->warp && e->field_reg[s] == req->reg[s]) {
            e->have |= bit; /* the field already holds the value */
            c->st.cache_hits_in_place++;
        } else {
            e->pending |= bit;
        }
    }
    c->valid |= 1ull << i;
    c->order[c->n_valid++] = (uint8_t)i;
    c->st.requests++;
    return i;
}

int smtlm_muon_coll_release(smtlm_muon_coll *c, uint64_t now, unsigned entry)
{
    if (entry >= c->cfg.entries || !(c->valid >> entry & 1))
        return SMTLM_EINPUT;
    const smtlm_muon_coll_entry *e = &c->entry[entry];
    if (!e->responded || now <= e->resp_cycle)
        return SMTLM_EINPUT; /* readData is valid from the cycle after readResp */
    c->valid &= ~(1ull << entry);
    unsigned k = 0;
    while (c->order[k] != entry)
        k++;
    memmove(&c->order[k], &c->order[k + 1], (c->n_valid - k - 1) * sizeof c->order[0]);
    c->n_valid--;
    return SMTLM_OK;
}

int smtlm_muon_coll_writeback(smtlm_muon_coll *c, uint64_t now, unsigned warp, int reg)
{
    if (now + 1 <= c->delivered || (c->n_wb && c->wb_cycle != now))
        return SMTLM_EINPUT; /* before deliver(now); one cycle's writebacks at a time */
    if (warp >= c->cfg.n_warps || reg < 0 || reg > SMTLM_MUON_COLL_MAX_REG)
        return SMTLM_EINPUT;
    if (nothing_to_read(c, reg))
        return SMTLM_OK; /* writes nothing anyone reads */
    if (c->n_wb == SMTLM_MUON_COLL_MAX_WB)
        return SMTLM_EFULL;
    c->wb[c->n_wb].warp = (uint16_t)warp;
    c->wb[c->n_wb].reg = reg;
    c->n_wb++;
    c->wb_cycle = now;
    return SMTLM_OK;
}

const char *smtlm_muon_coll_kind_name(smtlm_muon_coll_kind k)
{
    switch (k) {
    case SMTLM_MUON_COLL_DUPLICATED: return "duplicated";
    case SMTLM_MUON_COLL_SRC_BANKED: return "src_banked";
    case SMTLM_MUON_COLL_INST_BANKED: return "inst_banked";
    case SMTLM_MUON_COLL_MIN_BANKED: return "min_banked";
    case SMTLM_MUON_COLL_CACHING: return "caching";
    }
    return "unknown";
}
