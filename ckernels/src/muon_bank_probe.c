/* Muon bank-conflict probe over the register-file arbiter (see smtlm/muon_bank_probe.h). */
#include "smtlm/muon_bank_probe.h"

#include "smtlm/common.h"
#include "smtlm/muon_analytic.h"

#define OPS SMTLM_MUON_MODEL_OPERANDS

/* splitmix64: a small, well-mixed generator; the state is the caller's. */
static uint64_t next_u64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in 0 .. n-1 without modulo bias (rejects the top partial range). */
static unsigned uniform(uint64_t *s, unsigned n)
{
    const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t r;
    do
        r = next_u64(s);
    while (r >= limit);
    return (unsigned)(r % n);
}

static int reject(const char **why, int code, const char *text)
{
    if (why)
        *why = text;
    return code;
}

static int check(const smtlm_muon_probe_cfg *c, const char **why)
{
    if (c->banks == 0 || c->banks > SMTLM_MAX_BANKS)
        return reject(why, SMTLM_EINVAL, "muon bank probe: banks must be in 1..64");
    if (c->entries == 0 || c->entries > SMTLM_MUON_PROBE_MAX_ENTRIES)
        return reject(why, SMTLM_EINVAL, "muon bank probe: entries must be in 1..64");
    if (c->phys_regs > SMTLM_MUON_PROBE_MAX_REGS)
        return reject(why, SMTLM_ERANGE, "muon bank probe: phys_regs must be at most 65536");
    if (c->first_reg > 1)
        return reject(why, SMTLM_EINVAL, "muon bank probe: first_reg must be 0 or 1");
    if (c->phys_regs <= c->first_reg || (c->distinct_regs && c->phys_regs - c->first_reg < OPS))
        return reject(why, SMTLM_EINVAL, "muon bank probe: too few registers to draw from");
    return SMTLM_OK;
}

/* Puts a new instruction into entry e: 3 register draws, 3 reads queued. */
static int fill(smtlm_rf *rf, const smtlm_muon_probe_cfg *c, uint64_t *rng, unsigned e)
{
    const unsigned span = c->phys_regs - c->first_reg;
    unsigned reg[OPS];
    for (unsigned k = 0; k < OPS; k++) {
        unsigned again;
        do {
            reg[k] = c->first_reg + uniform(rng, span);
            again = 0;
            for (unsigned j = 0; c->distinct_regs && j < k; j++)
                again |= reg[j] == reg[k];
        } while (again);
        /* bank = (reg + warp 0) mod N: the arbiter's flat bank map is Muon's reg mod N */
        smtlm_read_req q = {(uint8_t)e, (uint8_t)k, (uint16_t)reg[k]};
        int rc = smtlm_rf_request(rf, smtlm_rf_bank(rf, reg[k], 0, 0), q);
        if (rc != SMTLM_OK)
            return rc;
    }
    return SMTLM_OK;
}

/* Empties every read queue through the arbiter itself. */
static void drain(smtlm_rf *rf)
{
    smtlm_read_grant g[SMTLM_MAX_BANKS];
    while (!smtlm_rf_idle(rf))
        smtlm_rf_arbitrate(rf, g);
}

int smtlm_muon_probe_run(smtlm_rf *rf, const smtlm_muon_probe_cfg *c, uint64_t cycles,
                         smtlm_muon_probe_result *out, const char **why)
{
    if (!rf || !c || !out)
        return reject(why, SMTLM_EINVAL, "muon bank probe: NULL argument");
    int rc = check(c, why);
    if (rc != SMTLM_OK)
        return rc;
    const smtlm_rf_cfg rc_cfg = {c->banks, SMTLM_ALLOC_FIFO, 0};
    const smtlm_sm_shape one = {1, 0};
    if ((rc = smtlm_rf_init(rf, &rc_cfg, &one, c->entries)) != SMTLM_OK)
        return reject(why, rc, rf->cfg_error);
    out->cycles = out->hits = out->grants = 0;
    uint64_t rng = c->seed;
    uint8_t pending[SMTLM_MUON_PROBE_MAX_ENTRIES] = {0}; /* steady mode: operands not yet read */
    smtlm_read_grant g[SMTLM_MAX_BANKS];
    const uint64_t warmup = c->steady ? SMTLM_MUON_PROBE_WARMUP : 0;
    for (uint64_t t = 0; t < warmup + cycles; t++) {
        for (unsigned e = 0; e < c->entries; e++) {
            if (pending[e])
                continue;
            if ((rc = fill(rf, c, &rng, e)) != SMTLM_OK) /* cannot happen: C x 3 <= queue */
                return reject(why, rc, "muon bank probe: a read queue overflowed");
            pending[e] = (1u << OPS) - 1u;
        }
        const unsigned n = smtlm_rf_arbitrate(rf, g);
        smtlm_rf_end_step(rf);
        if (t >= warmup) {
            out->cycles++;
            out->hits += n >= 3;
            out->grants += n;
        }
        if (c->steady) {
            for (unsigned i = 0; i < n; i++)
                pending[g[i].cu] &= (uint8_t)~(1u << g[i].operand);
        } else {
            drain(rf); /* the next cycle starts with C new instructions */
            for (unsigned e = 0; e < c->entries; e++)
                pending[e] = 0;
        }
    }
    return SMTLM_OK;
}
