/* Muon scoreboard: pendingWrite bits, epoched pendingReads counters, admission and writeback
 * gates, the past-WAW walk. */
#include "smtlm/muon_sb.h"

#include <string.h>

_Static_assert(SMTLM_MUON_REGS % 64 == 0, "register bitsets are whole words");
_Static_assert(SMTLM_MUON_MAX_TAGS % 64 == 0, "the live-tag bitset is whole words");
_Static_assert(SMTLM_MAX_SRC <= 8 && SMTLM_MAX_DST <= 8, "slot masks are uint8_t");

int smtlm_muon_sb_init(smtlm_muon_sb *sb, const smtlm_muon_sb_cfg *cfg)
{
    if (cfg->n_warps == 0)
        return smtlm_cfg_reject(&sb->cfg_error, SMTLM_EINVAL, "muon scoreboard: no warps");
    if (cfg->n_warps > SMTLM_MAX_WARPS)
        return smtlm_cfg_reject(&sb->cfg_error, SMTLM_ERANGE, "muon scoreboard: more warps than SMTLM_MAX_WARPS");
    if ((unsigned)cfg->war > SMTLM_MUON_WAR_OPTION2_EPOCH)
        return smtlm_cfg_reject(&sb->cfg_error, SMTLM_EINVAL, "-smtlm_muon_war: unknown option");
    if (cfg->pending_read_bits < 1 || cfg->pending_read_bits > SMTLM_MUON_MAX_READ_BITS)
        return smtlm_cfg_reject(&sb->cfg_error, SMTLM_ERANGE, "-smtlm_muon_pending_read_bits: must be 1..7");
    if (cfg->war == SMTLM_MUON_WAR_OPTION2_FWD && !cfg->forwarding)
        return smtlm_cfg_reject(&sb->cfg_error, SMTLM_EINVAL,
                                "-smtlm_muon_war option2_fwd needs -smtlm_muon_forwarding 1 (uncounted readers "
                                "must receive the forwarded value)");
    if (cfg->zero_reg < 0 || cfg->zero_reg > SMTLM_MAX_REG)
        return smtlm_cfg_reject(&sb->cfg_error, SMTLM_ERANGE, "muon scoreboard: zero register out of range");
    sb->cfg = *cfg;
    sb->cfg.past_waw = cfg->past_waw != 0;
    sb->cfg.forwarding = cfg->forwarding != 0;
    sb->max_reads = (1u << cfg->pending_read_bits) - 1;
    sb->cfg_error = NULL;
    smtlm_muon_sb_reset(sb);
    return SMTLM_OK;
}

void smtlm_muon_sb_reset(smtlm_muon_sb *sb)
{
    memset(sb->write, 0, sizeof sb->write);
    memset(sb->epoch, 0, sizeof sb->epoch);
    memset(sb->reads, 0, sizeof sb->reads);
    memset(sb->live, 0, sizeof sb->live);
}

static inline int tracked(const smtlm_muon_sb *sb, int reg) { return reg > 0 && reg != sb->cfg.zero_reg; }

static inline int bit_of(const uint64_t *set, int reg) { return (int)(set[reg >> 6] >> (reg & 63) & 1); }

/* The epoch a new reader of (w, reg) counts in. */
static inline unsigned cur_epoch(const smtlm_muon_sb *sb, unsigned w, int reg)
{
    return sb->cfg.war == SMTLM_MUON_WAR_OPTION2_EPOCH ? (unsigned)bit_of(sb->epoch[w], reg) : 0u;
}

/* Whether a source read takes a pendingReads count. A read from the register file always does;
 * a busy one (its value comes with a pending writer's writeback) does unless that value is
 * forwarded and nothing needs the count: option2_fwd, and option1 with forwarding (the next
 * writer waits for this writer's writeback anyway). option2 counts it (hence its deadlock);
 * option2_epoch counts it in the epoch after the writer. */
static inline int counts(const smtlm_muon_sb *sb, int busy)
{
    if (!busy)
        return 1;
    switch (sb->cfg.war) {
    case SMTLM_MUON_WAR_OPTION1: return !sb->cfg.forwarding;
    case SMTLM_MUON_WAR_OPTION2_FWD: return 0;
    default: return 1;
    }
}

static int well_formed(const smtlm_muon_sb *sb, const smtlm_inst *in)
{
    if (in->warp >= sb->cfg.n_warps || in->n_src > SMTLM_MAX_SRC || in->n_dst > SMTLM_MAX_DST)
        return 0;
    for (unsigned i = 0; i < in->n_src; i++)
        if (in->src[i] > SMTLM_MAX_REG)
            return 0;
    for (unsigned i = 0; i < in->n_dst; i++)
        if (in->dst[i] > SMTLM_MAX_REG)
            return 0;
    return 1;
}

int smtlm_muon_sb_check(const smtlm_muon_sb *sb, const smtlm_inst *in)
{
    if (!well_formed(sb, in))
        return SMTLM_EINPUT;
    const unsigned w = in->warp;
    for (unsigned i = 0; i < in->n_dst; i++)
        if (tracked(sb, in->dst[i]) && bit_of(sb->write[w], in->dst[i]))
            return SMTLM_MUON_STALL_WAW;
    if (sb->cfg.war == SMTLM_MUON_WAR_OPTION1)
        for (unsigned i = 0; i < in->n_dst; i++)
            if (tracked(sb, in->dst[i]) && sb->reads[0][w][in->dst[i]] != 0)
                return SMTLM_MUON_STALL_WAR;
    /* Saturation: every counted slot naming a register adds one to its counter. */
    for (unsigned i = 0; i < in->n_src; i++) {
        const int r = in->src[i];
        if (!tracked(sb, r) || !counts(sb, bit_of(sb->write[w], r)))
            continue;
        unsigned inc = 0;
        for (unsigned j = 0; j < in->n_src; j++)
            inc += in->src[j] == r;
        if (sb->reads[cur_epoch(sb, w, r)][w][r] + inc > sb->max_reads)
            return SMTLM_MUON_STALL_SATURATED;
    }
    return SMTLM_MUON_ADMIT;
}

/* Registers of the instructions a past-WAW walk skipped: their destinations may be neither read
 * nor written by a younger instruction (RAW, WAW), their sources not written (WAR). */
typedef struct fence {
    uint64_t written[SMTLM_MUON_SB_WORDS];
    uint64_t read[SMTLM_MUON_SB_WORDS];
} fence;

static void fence_add(const smtlm_muon_sb *sb, fence *f, const smtlm_inst *in)
{
    for (unsigned i = 0; i < in->n_dst; i++)
        if (tracked(sb, in->dst[i]))
            f->written[in->dst[i] >> 6] |= 1ull << (in->dst[i] & 63);
    for (unsigned i = 0; i < in->n_src; i++)
        if (tracked(sb, in->src[i]))
            f->read[in->src[i] >> 6] |= 1ull << (in->src[i] & 63);
}

static int fenced(const smtlm_muon_sb *sb, const fence *f, const smtlm_inst *in)
{
    for (unsigned i = 0; i < in->n_src; i++)
        if (tracked(sb, in->src[i]) && bit_of(f->written, in->src[i]))
            return 1;
    for (unsigned i = 0; i < in->n_dst; i++)
        if (tracked(sb, in->dst[i]) && (bit_of(f->written, in->dst[i]) || bit_of(f->read, in->dst[i])))
            return 1;
    return 0;
}

int smtlm_muon_sb_select(const smtlm_muon_sb *sb, const smtlm_inst *const *window, unsigned n,
                         unsigned *pick, int *head_verdict)
{
    fence f = {{0}, {0}};
    int skipped = 0;
    if (head_verdict)
        *head_verdict = SMTLM_MUON_ADMIT;
    for (unsigned i = 0; i < n; i++) {
        const smtlm_inst *in = window[i];
        if (in->warp != window[0]->warp)
            return SMTLM_EINPUT;
        int v = skipped && fenced(sb, &f, in) ? (int)SMTLM_MUON_STALL_FENCE : smtlm_muon_sb_check(sb, in);
        if (v < 0)
            return v;
        if (i == 0 && head_verdict)
            *head_verdict = v;
        if (v == SMTLM_MUON_ADMIT) {
            *pick = i;
            return 1;
        }
        if (!sb->cfg.past_waw || (v != SMTLM_MUON_STALL_WAW && v != SMTLM_MUON_STALL_FENCE))
            return 0;
        skipped = 1;
        fence_add(sb, &f, in);
    }
    return 0;
}

int smtlm_muon_sb_admit(smtlm_muon_sb *sb, smtlm_iref tag, const smtlm_inst *in, smtlm_muon_sb_operands *ops)
{
    const int v = smtlm_muon_sb_check(sb, in);
    if (v != SMTLM_MUON_ADMIT)
        return v;
    if (tag >= SMTLM_MUON_MAX_TAGS || smtlm_muon_sb_live(sb, tag))
        return SMTLM_EINPUT;
    const unsigned w = in->warp;
    smtlm_muon_sb_ticket *t = &sb->ticket[tag];
    memset(t, 0, sizeof *t);
    t->pc = in->pc;
    t->warp = (uint16_t)w;
    t->n_src = in->n_src;
    t->n_dst = in->n_dst;
    memcpy(t->src, in->src, sizeof t->src);
    memcpy(t->dst, in->dst, sizeof t->dst);
    ops->busy = ops->none = 0;
    /* Sources first: a reader of its own destination reads the old value (the older epoch). */
    for (unsigned i = 0; i < in->n_src; i++) {
        const int r = in->src[i];
        const uint8_t b = (uint8_t)(1u << i);
        if (!tracked(sb, r)) {
            ops->none |= b;
            continue;
        }
        const int busy = bit_of(sb->write[w], r);
        if (busy)
            ops->busy |= b;
        if (counts(sb, busy)) {
            const unsigned e = cur_epoch(sb, w, r);
            sb->reads[e][w][r]++;
            t->reads |= b;
            if (e)
                t->read_epoch |= b;
        }
    }
    for (unsigned i = 0; i < in->n_dst; i++) {
        const int r = in->dst[i];
        if (!tracked(sb, r) || bit_of(sb->write[w], r))
            continue; /* untracked, or named twice by this instruction */
        sb->write[w][r >> 6] |= 1ull << (r & 63);
        t->writes |= (uint8_t)(1u << i);
        if (sb->cfg.war == SMTLM_MUON_WAR_OPTION2_EPOCH) {
            if (bit_of(sb->epoch[w], r))
                t->wait_epoch |= (uint8_t)(1u << i);
            sb->epoch[w][r >> 6] ^= 1ull << (r & 63); /* younger readers count in the other epoch */
        }
    }
    if (t->reads | t->writes)
        sb->live[tag >> 6] |= 1ull << (tag & 63);
    return SMTLM_MUON_ADMIT;
}

static void settle(smtlm_muon_sb *sb, smtlm_iref tag)
{
    const smtlm_muon_sb_ticket *t = &sb->ticket[tag];
    if ((t->reads | t->writes) == 0)
        sb->live[tag >> 6] &= ~(1ull << (tag & 63));
}

void smtlm_muon_sb_read_done(smtlm_muon_sb *sb, smtlm_iref tag, unsigned slots)
{
    if (!smtlm_muon_sb_live(sb, tag))
        return;
    smtlm_muon_sb_ticket *t = &sb->ticket[tag];
    const unsigned m = slots & t->reads;
    for (unsigned i = 0; i < t->n_src; i++)
        if (m >> i & 1)
            sb->reads[t->read_epoch >> i & 1][t->warp][t->src[i]]--;
    t->reads &= (uint8_t)~m;
    settle(sb, tag);
}

/* The counter destination slot i of t waits on at writeback. */
static inline unsigned waited_count(const smtlm_muon_sb *sb, const smtlm_muon_sb_ticket *t, unsigned i)
{
    return sb->reads[t->wait_epoch >> i & 1][t->warp][t->dst[i]];
}

int smtlm_muon_sb_wb_allowed(const smtlm_muon_sb *sb, smtlm_iref tag)
{
    if (sb->cfg.war == SMTLM_MUON_WAR_OPTION1 || !smtlm_muon_sb_live(sb, tag))
        return 1; /* option1 resolved WAR at admission */
    const smtlm_muon_sb_ticket *t = &sb->ticket[tag];
    for (unsigned i = 0; i < t->n_dst; i++)
        if ((t->writes >> i & 1) && waited_count(sb, t, i) != 0)
            return 0;
    return 1;
}

int smtlm_muon_sb_writeback(smtlm_muon_sb *sb, smtlm_iref tag)
{
    if (!smtlm_muon_sb_wb_allowed(sb, tag))
        return 0;
    if (!smtlm_muon_sb_live(sb, tag))
        return 1;
    smtlm_muon_sb_ticket *t = &sb->ticket[tag];
    for (unsigned i = 0; i < t->n_dst; i++)
        if (t->writes >> i & 1)
            sb->write[t->warp][t->dst[i] >> 6] &= ~(1ull << (t->dst[i] & 63));
    t->writes = 0;
    settle(sb, tag);
    return 1;
}

/* Appends the live source slots of warp w reading `reg` (in `epoch`, or either when epoch < 0). */
static unsigned collect_holders(const smtlm_muon_sb *sb, unsigned w, int reg, int epoch, smtlm_muon_sb_holder *out,
                                unsigned max, unsigned n)
{
    for (unsigned word = 0; word < SMTLM_MUON_MAX_TAGS / 64; word++) {
        for (uint64_t m = sb->live[word]; m; m &= m - 1) {
            const unsigned tag = word * 64 + smtlm_ctz64(m);
            const smtlm_muon_sb_ticket *t = &sb->ticket[tag];
            if (t->warp != w)
                continue;
            for (unsigned i = 0; i < t->n_src; i++) {
                const unsigned e = t->read_epoch >> i & 1;
                if (!(t->reads >> i & 1) || t->src[i] != reg || (epoch >= 0 && e != (unsigned)epoch))
                    continue;
                if (n < max)
                    out[n] = (smtlm_muon_sb_holder){(uint16_t)tag, (uint16_t)w, t->pc, (uint8_t)i, (uint8_t)e,
                                                    (int16_t)reg};
                n++;
            }
        }
    }
    return n;
}

unsigned smtlm_muon_sb_holders(const smtlm_muon_sb *sb, unsigned w, unsigned reg, smtlm_muon_sb_holder *out,
                               unsigned max)
{
    if (w >= sb->cfg.n_warps || reg > SMTLM_MAX_REG)
        return 0;
    return collect_holders(sb, w, (int)reg, -1, out, max, 0);
}

unsigned smtlm_muon_sb_wb_blockers(const smtlm_muon_sb *sb, smtlm_iref tag, smtlm_muon_sb_holder *out,
                                   unsigned max)
{
    if (smtlm_muon_sb_wb_allowed(sb, tag))
        return 0;
    const smtlm_muon_sb_ticket *t = &sb->ticket[tag];
    unsigned n = 0;
    for (unsigned i = 0; i < t->n_dst; i++)
        if ((t->writes >> i & 1) && waited_count(sb, t, i) != 0)
            n = collect_holders(sb, t->warp, t->dst[i], (int)(t->wait_epoch >> i & 1), out, max, n);
    return n;
}

const char *smtlm_muon_war_name(smtlm_muon_war war)
{
    switch (war) {
    case SMTLM_MUON_WAR_OPTION1: return "option1";
    case SMTLM_MUON_WAR_OPTION2: return "option2";
    case SMTLM_MUON_WAR_OPTION2_FWD: return "option2_fwd";
    case SMTLM_MUON_WAR_OPTION2_EPOCH: return "option2_epoch";
    }
    return "unknown";
}

const char *smtlm_muon_verdict_name(int verdict)
{
    switch (verdict) {
    case SMTLM_MUON_ADMIT: return "admit";
    case SMTLM_MUON_STALL_WAW: return "waw";
    case SMTLM_MUON_STALL_WAR: return "war";
    case SMTLM_MUON_STALL_SATURATED: return "saturated";
    case SMTLM_MUON_STALL_FENCE: return "fence";
    default: return verdict < 0 ? "error" : "unknown";
    }
}
