/* The Muon machine from the -smtlm_muon_* options, validated (see smtlm/muon_machine.h). */
#include "smtlm/muon_machine.h"

#include <stdio.h>
#include <string.h>

#include "option_errors.h"

#include "smtlm/common.h"
#include "smtlm/muon_collector.h"

static const char *const k_war[] = {"option1", "option2", "option2_fwd", "option2_epoch"};
static const char *const k_policy[] = {"rr", "oldest", "gto"};
static const char *const k_collector[] = {"duplicated", "src_banked", "inst_banked", "min_banked", "caching"};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

const char *smtlm_muon_opt_war_name(smtlm_muon_opt_war w) { return (unsigned)w < COUNT(k_war) ? k_war[w] : "?"; }
const char *smtlm_muon_policy_name(smtlm_muon_opt_policy p)
{
    return (unsigned)p < COUNT(k_policy) ? k_policy[p] : "?";
}
const char *smtlm_muon_collector_name(smtlm_muon_opt_collector c)
{
    return (unsigned)c < COUNT(k_collector) ? k_collector[c] : "?";
}


/* An unsigned option in lo..hi. */
static int ranged(const smtlm_options *o, const char *name, unsigned lo, unsigned hi, unsigned *out, char *err, size_t n)
{
    uint32_t v = 0;
    if (smtlm_options_get_u32(o, name, &v) != SMTLM_OPT_OK)
        return smtlm_opt_fail(o, name, err, n, "expects an unsigned 32-bit integer");
    if (v < lo || v > hi)
        return smtlm_opt_fail(o, name, err, n, "%u is outside %u..%u", (unsigned)v, lo, hi);
    *out = v;
    return 0;
}

static int flag(const smtlm_options *o, const char *name, int *out, char *err, size_t n)
{
    int v = 0;
    if (smtlm_options_get_bool(o, name, &v) != SMTLM_OPT_OK)
        return smtlm_opt_fail(o, name, err, n, "expects 0 or 1");
    *out = v;
    return 0;
}

/* A string option among names[0..count-1]; its index into *out. */
static int choice(const smtlm_options *o, const char *name, const char *const *names, unsigned count, int *out,
                  char *err, size_t n)
{
    const char *s = "";
    smtlm_options_get_str(o, name, &s);
    for (unsigned i = 0; i < count; i++)
        if (s && !strcmp(s, names[i])) {
            *out = (int)i;
            return 0;
        }
    return smtlm_opt_fail(o, name, err, n, "'%s' is not one of the allowed values (docs/OPTIONS.md)", s ? s : "");
}

/* Warp slots of the SM: threads per SM / 32, as the GPGPU-Sim front end counts them. */
static int warp_slots(const smtlm_options *o, unsigned *warps, char *err, size_t n)
{
    const char *s = "";
    unsigned pipe[2];
    int k = 0;
    smtlm_options_get_str(o, "gpgpu_shader_core_pipeline", &s);
    if (!s || smtlm_parse_uint_list_sep(s, ':', pipe, 2, &k) != SMTLM_OPT_OK || k != 2 || pipe[1] == 0 ||
        pipe[0] == 0 || pipe[0] % pipe[1])
        return smtlm_opt_fail(o, "gpgpu_shader_core_pipeline", err, n, "'%s' is not <threads per SM>:<warp size>", s ? s : "");
    *warps = pipe[0] / pipe[1];
    return 0;
}

/* -smtlm_muon_collector_banks: source-slot banks for src_banked and caching (1..4), FU banks that
 * split the entries evenly for inst_banked (1..8); the other strategies have none. */
static int collector_banks_check(const smtlm_options *o, const smtlm_muon_machine *m, char *err, size_t n)
{
    static const char *const which[] = {"smtlm_muon_collector_banks", "smtlm_muon_collector", NULL};
    static const char *const split[] = {"smtlm_muon_collector_banks", "smtlm_muon_collector_entries", NULL};
    const unsigned b = m->collector_banks;
    if (!b)
        return 0;
    switch (m->collector) {
    case SMTLM_MUON_OPT_COLL_SRC_BANKED:
    case SMTLM_MUON_OPT_COLL_CACHING:
        if (b > SMTLM_MAX_SRC)
            return smtlm_opt_fail_conflict(o, which, err, n, "%u banks: %s banks by source slot, 1..%d banks", b,
                                           smtlm_muon_collector_name(m->collector), SMTLM_MAX_SRC);
        return 0;
    case SMTLM_MUON_OPT_COLL_INST_BANKED:
        if (m->collector_entries % b)
            return smtlm_opt_fail_conflict(o, split, err, n, "inst_banked splits its %u entries evenly over its FU banks: not over %u",
                                           m->collector_entries, b);
        return 0;
    default:
        return smtlm_opt_fail_conflict(o, which, err, n, "%s has no collector banks (they apply to src_banked, inst_banked and caching)",
                                       smtlm_muon_collector_name(m->collector));
    }
}

int smtlm_muon_machine_read(const smtlm_options *o, smtlm_muon_machine *m, char *err, size_t n)
{
    int war = 0, policy = 0, coll = 0;
    memset(m, 0, sizeof *m);
    if (choice(o, "smtlm_muon_war", k_war, COUNT(k_war), &war, err, n) ||
        choice(o, "smtlm_muon_rs_policy", k_policy, COUNT(k_policy), &policy, err, n) ||
        choice(o, "smtlm_muon_collector", k_collector, COUNT(k_collector), &coll, err, n) ||
        ranged(o, "smtlm_muon_pending_read_bits", 1, SMTLM_MUON_MAX_PENDING_READ_BITS, &m->pending_read_bits, err, n) ||
        flag(o, "smtlm_muon_past_waw", &m->past_waw, err, n) ||
        ranged(o, "smtlm_muon_rs_entries", 1, SMTLM_MUON_MAX_RS_ENTRIES, &m->rs_entries, err, n) ||
        ranged(o, "smtlm_muon_rs_per_warp", 0, SMTLM_MUON_MAX_RS_ENTRIES, &m->rs_per_warp, err, n) ||
        flag(o, "smtlm_muon_in_order", &m->in_order, err, n) || flag(o, "smtlm_muon_forwarding", &m->forwarding, err, n) ||
        ranged(o, "smtlm_muon_phys_regs", 1, SMTLM_MUON_MAX_PHYS_REGS, &m->phys_regs, err, n) ||
        ranged(o, "smtlm_muon_threads", 1, SMTLM_MUON_MAX_THREADS, &m->threads, err, n) ||
        ranged(o, "smtlm_muon_xlen", 1, 64, &m->xlen, err, n) ||
        ranged(o, "smtlm_muon_prf_banks", 1, SMTLM_MAX_BANKS, &m->prf_banks, err, n) ||
        ranged(o, "smtlm_muon_collector_entries", 1, SMTLM_MUON_MAX_COLLECTOR_ENTRIES, &m->collector_entries, err, n) ||
        ranged(o, "smtlm_muon_collector_banks", 0, SMTLM_MUON_COLL_MAX_FU_BANKS, &m->collector_banks, err, n) ||
        warp_slots(o, &m->warps, err, n))
        return -1;
    m->war = (smtlm_muon_opt_war)war;
    m->rs_policy = (smtlm_muon_opt_policy)policy;
    m->collector = (smtlm_muon_opt_collector)coll;
    if (m->xlen != 32 && m->xlen != 64)
        return smtlm_opt_fail(o, "smtlm_muon_xlen", err, n, "%u: the register width is 32 or 64 bits", m->xlen);

    static const char *const per_warp[] = {"smtlm_muon_rs_per_warp", "smtlm_muon_rs_entries", NULL};
    if (m->rs_per_warp > m->rs_entries)
        return smtlm_opt_fail_conflict(o, per_warp, err, n, "%u RS entries per warp exceed the %u entries of the RS", m->rs_per_warp,
                             m->rs_entries);
    static const char *const in_order[] = {"smtlm_muon_in_order", "smtlm_muon_rs_entries", "gpgpu_shader_core_pipeline", NULL};
    if (m->in_order && m->rs_entries < m->warps)
        return smtlm_opt_fail_conflict(o, in_order, err, n, "in-order issue per warp needs an RS entry per warp: %u entries for %u warps",
                             m->rs_entries, m->warps);
    static const char *const banks[] = {"smtlm_muon_prf_banks", "smtlm_muon_phys_regs", NULL};
    if (m->phys_regs % m->prf_banks)
        return smtlm_opt_fail_conflict(o, banks, err, n, "%u banks do not split %u registers evenly (bank = reg mod banks)",
                             m->prf_banks, m->phys_regs);
    if (collector_banks_check(o, m, err, n))
        return -1;
    static const char *const must_forward[] = {"smtlm_muon_war", "smtlm_muon_forwarding", NULL};
    if (m->war == SMTLM_MUON_OPT_WAR_OPTION2_FWD && !m->forwarding)
        return smtlm_opt_fail_conflict(o, must_forward, err, n,
                             "option2_fwd relies on every RAW operand being forwarded: it needs -smtlm_muon_forwarding 1");
    return 0;
}

void smtlm_muon_machine_cost_cfg(const smtlm_muon_machine *m, smtlm_muon_cost_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->phys_regs = m->phys_regs;
    c->pending_read_bits = m->pending_read_bits;
    c->epochs = m->war == SMTLM_MUON_OPT_WAR_OPTION2_EPOCH;
    c->fences = m->past_waw;
    c->rs_entries = m->rs_entries;
    c->warps = m->warps;
    c->in_order = m->in_order;
    c->rs_data = m->forwarding; /* forwarded results land in the RS's operand data fields */
    c->threads = m->threads;
    c->xlen = m->xlen;
    c->prf_banks = m->prf_banks;
    c->prf_copies = m->collector == SMTLM_MUON_OPT_COLL_DUPLICATED ? SMTLM_MUON_COST_OPERANDS : 1;
    c->collector_entries = m->collector_entries;
    c->collector_tags = m->collector == SMTLM_MUON_OPT_COLL_CACHING;
}
