/* Muon reservation station: rows, wake-up, collection choice, eligibility and dispatch. */
#include "smtlm/muon_rs.h"

#include <string.h>

int smtlm_muon_rs_init(smtlm_muon_rs *rs, const smtlm_muon_rs_cfg *cfg)
{
    if (cfg->n_warps == 0)
        return smtlm_cfg_reject(&rs->cfg_error, SMTLM_EINVAL, "muon reservation station: no warps");
    if (cfg->n_warps > SMTLM_MAX_WARPS)
        return smtlm_cfg_reject(&rs->cfg_error, SMTLM_ERANGE,
                                "muon reservation station: more warps than SMTLM_MAX_WARPS");
    if (cfg->rs_entries == 0 || cfg->rs_entries > SMTLM_MUON_RS_MAX)
        return smtlm_cfg_reject(&rs->cfg_error, SMTLM_ERANGE, "-smtlm_muon_rs_entries: must be 1..64");
    if (cfg->rs_per_warp > cfg->rs_entries)
        return smtlm_cfg_reject(&rs->cfg_error, SMTLM_EINVAL,
                                "-smtlm_muon_rs_per_warp: more than -smtlm_muon_rs_entries");
    if ((unsigned)cfg->rs_policy > SMTLM_MUON_RS_GTO)
        return smtlm_cfg_reject(&rs->cfg_error, SMTLM_EINVAL, "-smtlm_muon_rs_policy: unknown policy");
    rs->cfg = *cfg;
    rs->cfg.in_order = cfg->in_order != 0;
    rs->cfg.forwarding = cfg->forwarding != 0;
    rs->per_warp = cfg->rs_per_warp ? cfg->rs_per_warp : cfg->rs_entries;
    rs->cfg_error = NULL;
    smtlm_muon_rs_reset(rs);
    return SMTLM_OK;
}

void smtlm_muon_rs_reset(smtlm_muon_rs *rs)
{
    rs->valid = rs->complete = 0;
    memset(rs->warp_rows, 0, sizeof rs->warp_rows);
    memset(rs->n_warp_rows, 0, sizeof rs->n_warp_rows);
    rs->n_valid = 0;
    rs->next_seq = 0;
    /* Round-robin pointers start at the last index, so the first grant is the lowest one. */
    rs->last_row = rs->cfg.rs_entries - 1;
    rs->last_admit = rs->cfg.n_warps - 1;
    rs->last_warp = 0;
    rs->has_last_warp = 0;
    rs->admitted = rs->dispatched = rs->occupancy_sum = rs->cycles_eligible = 0;
}

/* Chisel RRArbiter order: the first set bit above `last`, else the lowest set bit. */
static int rr_first(uint64_t m, unsigned last)
{
    if (m == 0)
        return -1;
    const uint64_t above = last >= 63 ? 0 : m & (~0ull << (last + 1));
    return (int)smtlm_ctz64(above ? above : m);
}

static unsigned oldest_of(const smtlm_muon_rs *rs, uint64_t m)
{
    unsigned best = smtlm_ctz64(m);
    for (m &= m - 1; m; m &= m - 1) {
        const unsigned r = smtlm_ctz64(m);
        if (rs->row[r].seq < rs->row[best].seq)
            best = r;
    }
    return best;
}

static inline uint8_t full_mask(const smtlm_muon_rs_row *r) { return (uint8_t)((1u << r->n_src) - 1); }

static inline void update_complete(smtlm_muon_rs *rs, unsigned r)
{
    const uint8_t full = full_mask(&rs->row[r]);
    if ((rs->row[r].ready & full) == full)
        rs->complete |= 1ull << r;
    else
        rs->complete &= ~(1ull << r);
}

int smtlm_muon_rs_admit_pick(const smtlm_muon_rs *rs, uint64_t candidates)
{
    uint64_t m = 0;
    for (uint64_t c = candidates; c; c &= c - 1) {
        const unsigned w = smtlm_ctz64(c);
        if (w < rs->cfg.n_warps && smtlm_muon_rs_room(rs, w))
            m |= 1ull << w;
    }
    return rr_first(m, rs->last_admit);
}

int smtlm_muon_rs_admit(smtlm_muon_rs *rs, smtlm_iref tag, const smtlm_inst *in, unsigned busy, unsigned none)
{
    const unsigned w = in->warp;
    if (w >= rs->cfg.n_warps || in->n_src > SMTLM_MAX_SRC)
        return SMTLM_EINPUT;
    if (!smtlm_muon_rs_room(rs, w))
        return SMTLM_EFULL;
    const uint64_t rows = rs->cfg.rs_entries == 64 ? ~0ull : (1ull << rs->cfg.rs_entries) - 1;
    const unsigned r = smtlm_ctz64(~rs->valid & rows); /* lowest free row, as the RTL */
    smtlm_muon_rs_row *row = &rs->row[r];
    row->seq = rs->next_seq++;
    row->pc = in->pc;
    row->tag = tag;
    row->warp = (uint16_t)w;
    row->n_src = in->n_src;
    memcpy(row->src, in->src, sizeof row->src);
    const uint8_t full = full_mask(row);
    row->ready = (uint8_t)(none & full);
    row->busy = (uint8_t)(busy & full & ~row->ready);
    row->requested = 0;
    rs->valid |= 1ull << r;
    rs->warp_rows[w] |= 1ull << r;
    rs->n_warp_rows[w]++;
    rs->n_valid++;
    update_complete(rs, r);
    rs->last_admit = w;
    rs->admitted++;
    return (int)r;
}

unsigned smtlm_muon_rs_wakeup(smtlm_muon_rs *rs, unsigned w, int reg, smtlm_muon_rs_fwd *fwd)
{
    if (w >= rs->cfg.n_warps || reg <= 0)
        return 0;
    unsigned n = 0;
    for (uint64_t m = rs->warp_rows[w]; m; m &= m - 1) {
        const unsigned r = smtlm_ctz64(m);
        smtlm_muon_rs_row *row = &rs->row[r];
        uint8_t hit = 0;
        for (unsigned i = 0; i < row->n_src; i++)
            if ((row->busy >> i & 1) && row->src[i] == reg)
                hit |= (uint8_t)(1u << i);
        if (!hit)
            continue;
        row->busy &= (uint8_t)~hit;
        if (rs->cfg.forwarding) {
            row->ready |= hit;
            update_complete(rs, r);
            if (fwd)
                fwd[n] = (smtlm_muon_rs_fwd){(uint8_t)r, hit, row->tag};
            n++;
        }
    }
    return n;
}

/* Slots of a row not ready and not yet requested (busy ones included). */
static inline uint8_t to_request(const smtlm_muon_rs_row *row)
{
    return (uint8_t)(full_mask(row) & ~row->ready & ~row->requested);
}

/* in_order: no older row of the same warp still has slots to request. */
static int oldest_to_request(const smtlm_muon_rs *rs, unsigned r)
{
    const smtlm_muon_rs_row *row = &rs->row[r];
    for (uint64_t m = rs->warp_rows[row->warp] & ~(1ull << r); m; m &= m - 1) {
        const smtlm_muon_rs_row *o = &rs->row[smtlm_ctz64(m)];
        if (o->seq < row->seq && to_request(o))
            return 0;
    }
    return 1;
}

int smtlm_muon_rs_collect_pick(smtlm_muon_rs *rs, smtlm_muon_rs_pick *out)
{
    return smtlm_muon_rs_collect_pick_among(rs, ~0ull, out);
}

int smtlm_muon_rs_collect_pick_among(smtlm_muon_rs *rs, uint64_t allowed, smtlm_muon_rs_pick *out)
{
    for (uint64_t m = rs->valid & ~rs->complete & allowed; m; m &= m - 1) {
        const unsigned r = smtlm_ctz64(m);
        smtlm_muon_rs_row *row = &rs->row[r];
        const uint8_t need = (uint8_t)(to_request(row) & ~row->busy);
        /* All missing slots at once, none waiting on a writer (no partial collection). */
        if (need == 0 || need != (uint8_t)(full_mask(row) & ~row->ready))
            continue;
        if (rs->cfg.in_order && !oldest_to_request(rs, r))
            continue;
        row->requested |= need;
        *out = (smtlm_muon_rs_pick){(uint8_t)r, need, row->tag, row->warp, row->pc};
        return 1;
    }
    return 0;
}

void smtlm_muon_rs_collected(smtlm_muon_rs *rs, unsigned row, unsigned slots)
{
    if (row >= SMTLM_MUON_RS_MAX || !(rs->valid >> row & 1))
        return;
    smtlm_muon_rs_row *r = &rs->row[row];
    const uint8_t m = (uint8_t)(slots & full_mask(r));
    r->ready |= m;
    r->requested &= (uint8_t)~m;
    update_complete(rs, row);
}

uint64_t smtlm_muon_rs_eligible(const smtlm_muon_rs *rs)
{
    uint64_t e = rs->complete;
    if (!rs->cfg.in_order)
        return e;
    for (uint64_t m = e; m; m &= m - 1) {
        const unsigned r = smtlm_ctz64(m);
        const uint64_t warp = rs->warp_rows[rs->row[r].warp];
        if (oldest_of(rs, warp) != r)
            e &= ~(1ull << r);
    }
    return e;
}

int smtlm_muon_rs_dispatch(smtlm_muon_rs *rs, uint64_t allowed, smtlm_muon_rs_pick *out)
{
    const uint64_t e = smtlm_muon_rs_eligible(rs) & allowed;
    if (e == 0)
        return 0;
    unsigned r;
    switch (rs->cfg.rs_policy) {
    case SMTLM_MUON_RS_OLDEST: r = oldest_of(rs, e); break;
    case SMTLM_MUON_RS_GTO: {
        const uint64_t greedy = rs->has_last_warp ? e & rs->warp_rows[rs->last_warp] : 0;
        r = oldest_of(rs, greedy ? greedy : e);
        break;
    }
    default: r = (unsigned)rr_first(e, rs->last_row); break;
    }
    const smtlm_muon_rs_row *row = &rs->row[r];
    *out = (smtlm_muon_rs_pick){(uint8_t)r, 0, row->tag, row->warp, row->pc};
    rs->valid &= ~(1ull << r);
    rs->complete &= ~(1ull << r);
    rs->warp_rows[row->warp] &= ~(1ull << r);
    rs->n_warp_rows[row->warp]--;
    rs->n_valid--;
    rs->last_row = r;
    rs->last_warp = row->warp;
    rs->has_last_warp = 1;
    rs->dispatched++;
    return 1;
}

void smtlm_muon_rs_sample(smtlm_muon_rs *rs)
{
    rs->occupancy_sum += rs->n_valid;
    rs->cycles_eligible += smtlm_muon_rs_eligible(rs) != 0;
}

const char *smtlm_muon_rs_policy_name(smtlm_muon_rs_policy p)
{
    switch (p) {
    case SMTLM_MUON_RS_RR: return "rr";
    case SMTLM_MUON_RS_OLDEST: return "oldest";
    case SMTLM_MUON_RS_GTO: return "gto";
    }
    return "unknown";
}
