/* Register-file banks and the read-port arbiter (fifo and wavefront policies). */
#include "smtlm/regfile.h"

#include <string.h>

#include "smtlm/bankmap.h"
#include "smtlm/port_calls.h"

#define QMASK (SMTLM_RF_QUEUE_CAP - 1)

_Static_assert(SMTLM_MAX_REG + SMTLM_MAX_WARPS <= SMTLM_RF_BANK_LO_N &&
                   (SMTLM_RF_BANK_LO_N & (SMTLM_RF_BANK_LO_N - 1)) == 0,
               "bank_lo covers every valid reg + warp and is indexed by mask");

int smtlm_rf_init(smtlm_rf *rf, const smtlm_rf_cfg *cfg, const smtlm_sm_shape *shape, unsigned n_cus)
{
    const char **e = &rf->cfg_error;
    *e = 0;
    if (cfg->n_banks == 0)
        return smtlm_cfg_reject(e, SMTLM_EINVAL, "register file: n_banks (-gpgpu_num_reg_banks) must be at least 1");
    if (shape->n_sched == 0)
        return smtlm_cfg_reject(e, SMTLM_EINVAL, "register file: n_sched (-gpgpu_num_sched_per_core) must be at least 1");
    if (n_cus == 0)
        return smtlm_cfg_reject(e, SMTLM_EINVAL, "register file: n_cus (collector units) must be at least 1");
    if (cfg->n_banks > SMTLM_MAX_BANKS)
        return smtlm_cfg_reject(e, SMTLM_ERANGE, "register file: n_banks (-gpgpu_num_reg_banks) exceeds SMTLM_MAX_BANKS");
    if (n_cus > SMTLM_MAX_CUS)
        return smtlm_cfg_reject(e, SMTLM_ERANGE, "register file: n_cus (collector units) exceeds SMTLM_MAX_CUS");
    if (shape->sub_core && cfg->n_banks % shape->n_sched != 0) /* GPGPU-Sim asserts it */
        return smtlm_cfg_reject(e, SMTLM_EINVAL, "register file: n_banks (-gpgpu_num_reg_banks) must be a multiple of "
                                "n_sched (-gpgpu_num_sched_per_core) under the sub-core model");
    if (cfg->policy != SMTLM_ALLOC_FIFO && cfg->policy != SMTLM_ALLOC_WAVEFRONT)
        return smtlm_cfg_reject(e, SMTLM_EINVAL, "register file: policy (-smtlm_oc_allocator) is not fifo or wavefront");
    /* Every CU's reads must fit in one bank's queue in the worst case. */
    if (n_cus * 4u > SMTLM_RF_QUEUE_CAP)
        return smtlm_cfg_reject(e, SMTLM_ERANGE, "register file: n_cus (collector units) x 4 reads exceed a bank's read queue");
    rf->cfg = *cfg;
    rf->shape = *shape;
    rf->n_cus = n_cus;
    rf->bps = shape->sub_core ? cfg->n_banks / shape->n_sched : cfg->n_banks;
    for (unsigned x = 0; x < SMTLM_RF_BANK_LO_N; x++)
        rf->bank_lo[x] = (uint8_t)(x % rf->bps);
    for (unsigned d = 0; d < 2 * SMTLM_RF_QUEUE_CAP; d++)
        rf->depth_bin[d] = (uint8_t)(d < SMTLM_RF_DEPTH_BINS ? d : SMTLM_RF_DEPTH_BINS - 1);
    for (unsigned k = 0; k < SMTLM_MAX_SCHED; k++)
        rf->sched_base[k] = (uint8_t)(shape->sub_core && k < shape->n_sched ? k * rf->bps : 0);
    smtlm_rf_reset(rf);
    return SMTLM_OK;
}

void smtlm_rf_reset(smtlm_rf *rf)
{
    memset(rf->q_tail, 0, sizeof rf->q_tail);
    rf->nonempty = 0;
    rf->write_alloc = 0;
    rf->blocked = 0;
    memset(rf->wbuf_head, 0, sizeof rf->wbuf_head);
    memset(rf->wbuf_len, 0, sizeof rf->wbuf_len);
    rf->dropped_writes = rf->buffered_writes = 0;
    rf->priority = 0;
    memset(rf->reads, 0, sizeof rf->reads);
    memset(rf->writes, 0, sizeof rf->writes);
    memset(rf->wait_steps, 0, sizeof rf->wait_steps);
    rf->steps_with_wait = 0;
    memset(rf->queue_depth_hist, 0, sizeof rf->queue_depth_hist);
}

void smtlm_rf_bind(smtlm_rf *rf, const smtlm_release_port *ops) { rf->ops = *ops; }

unsigned smtlm_rf_cfg_bank(const smtlm_rf_cfg *cfg, const smtlm_sm_shape *shape, unsigned reg, unsigned wid,
                           unsigned sched)
{
    return shape->sub_core ? smtlm_bank_subcore(reg, wid, cfg->n_banks / shape->n_sched, sched)
                         : smtlm_bank_flat(reg, wid, cfg->n_banks);
}

/* Grants entry i (0 = head) of bank b's queue, keeping the order of the others. */
static void remove_at(smtlm_rf *rf, unsigned b, unsigned i)
{
    const uint64_t head = rf->reads[b];
    for (unsigned k = i; k > 0; k--)
        rf->q[b][(head + k) & QMASK] = rf->q[b][(head + k - 1) & QMASK];
    rf->reads[b] = head + 1;
    if (rf->reads[b] == rf->q_tail[b])
        rf->nonempty &= ~(1ull << b);
}

/* fifo: every bank not write-allocated grants its queue head. */
static unsigned arbitrate_fifo(smtlm_rf *rf, uint64_t eligible, smtlm_read_grant *out)
{
    unsigned n = 0;
    uint64_t emptied = 0;
    while (eligible) {
        const unsigned b = smtlm_ctz64(eligible);
        eligible &= eligible - 1;
        const smtlm_read_req r = smtlm_rf_fifo_grant(rf, b, &emptied);
        const smtlm_read_grant grant = {r.cu, r.operand, (uint8_t)b};
        out[n++] = grant;
    }
    rf->nonempty &= ~emptied;
    return n;
}

/* wavefront: booksim's diagonal sweep with one grant per bank and per collector unit. */
static unsigned arbitrate_wavefront(smtlm_rf *rf, uint64_t eligible, smtlm_read_grant *out)
{
    const unsigned nb = rf->cfg.n_banks, nc = rf->n_cus;
    uint64_t req[SMTLM_MAX_BANKS]; /* bit c set: bank b has a queued read for CU c */
    for (unsigned b = 0; b < nb; b++) {
        req[b] = 0;
        if (!(eligible >> b & 1))
            continue;
        for (unsigned i = 0, n = smtlm_rf_queued(rf, b); i < n; i++)
            req[b] |= 1ull << smtlm_rf_entry(rf, b, i)->cu;
    }
    int inmatch[SMTLM_MAX_BANKS];
    uint64_t out_taken = 0;
    for (unsigned b = 0; b < nb; b++)
        inmatch[b] = -1;
    const unsigned square = nb > nc ? nb : nc;
    for (unsigned p = 0; p < square; p++) {
        unsigned cu = (rf->priority + p) % nc;
        for (unsigned b = 0; b < nb; b++) {
            if (inmatch[b] < 0 && !(out_taken >> cu & 1) && (req[b] >> cu & 1)) {
                inmatch[b] = (int)cu;
                out_taken |= 1ull << cu;
            }
            cu = (cu + 1) % nc;
        }
    }
    rf->priority = (rf->priority + 1) % nc;
    unsigned n = 0;
    for (unsigned b = 0; b < nb; b++) {
        if (inmatch[b] < 0)
            continue;
        for (unsigned i = 0, nq = smtlm_rf_queued(rf, b); i < nq; i++) { /* oldest read of that CU in the bank */
            const smtlm_read_req r = *smtlm_rf_entry(rf, b, i);
            if (r.cu == (unsigned)inmatch[b]) {
                remove_at(rf, b, i);
                out[n].cu = r.cu;
                out[n].operand = r.operand;
                out[n].bank = (uint8_t)b;
                n++;
                break;
            }
        }
    }
    return n;
}

/* ---- write port ------------------------------------------------------------------------- */

smtlm_rf_write_result smtlm_rf_write_conflict(smtlm_rf *rf, unsigned warp, unsigned bank, unsigned reg)
{
    if (!rf->cfg.fix_wb_bank_conflict || rf->wbuf_len[bank] == SMTLM_RF_WBUF_CAP) {
        rf->dropped_writes++;
        return SMTLM_RF_DROPPED;
    }
    rf->wbuf[bank][(rf->wbuf_head[bank] + rf->wbuf_len[bank]) % SMTLM_RF_WBUF_CAP] =
        (smtlm_rf_wentry){(uint16_t)warp, (uint16_t)reg};
    rf->wbuf_len[bank]++;
    rf->buffered_writes++;
    rf->blocked |= 1ull << bank;
    return SMTLM_RF_BUFFERED;
}

int smtlm_rf_can_write(const smtlm_rf *rf, unsigned warp, unsigned sched, unsigned reg)
{
    return !(rf->write_alloc >> smtlm_rf_bank(rf, reg, warp, sched) & 1);
}

void smtlm_rf_write_reg(smtlm_rf *rf, unsigned warp, unsigned sched, unsigned reg)
{
    smtlm_rf_write(rf, smtlm_rf_bank(rf, reg, warp, sched));
}

void smtlm_rf_drain_writes(smtlm_rf *rf)
{
    uint64_t blocked = rf->blocked;
    while (blocked) {
        const unsigned b = smtlm_ctz64(blocked);
        blocked &= blocked - 1;
        const smtlm_rf_wentry e = rf->wbuf[b][rf->wbuf_head[b]];
        rf->wbuf_head[b] = (uint16_t)((rf->wbuf_head[b] + 1) % SMTLM_RF_WBUF_CAP);
        rf->wbuf_len[b]--;
        smtlm_rf_write(rf, b);
        smtlm_rf_out_release(&rf->ops, e.warp, e.reg);
        if (rf->wbuf_len[b] == 0)
            rf->blocked &= ~(1ull << b);
    }
}

smtlm_write_port smtlm_rf_write_port(smtlm_rf *rf)
{
    const smtlm_write_port direct = {rf, NULL, NULL, NULL, NULL};
    return direct;
}

/* A write port whose writes never conflict: the register file of a composition that models no
 * write conflicts (Muon's PRF writes use their own port; the silicon core's writes take no read
 * slot). */
static smtlm_rf_write_result free_try_write(void *ctx, unsigned w, unsigned s, unsigned r)
{
    (void)ctx, (void)w, (void)s, (void)r;
    return SMTLM_RF_WRITTEN;
}
static int free_can_write(void *ctx, unsigned w, unsigned s, unsigned r)
{
    (void)ctx, (void)w, (void)s, (void)r;
    return 1;
}
static void free_write(void *ctx, unsigned w, unsigned s, unsigned r) { (void)ctx, (void)w, (void)s, (void)r; }

smtlm_write_port smtlm_rf_free_write_port(void)
{
    const smtlm_write_port p = {NULL, NULL, free_try_write, free_can_write, free_write};
    return p;
}

smtlm_read_port smtlm_rf_read_port(smtlm_rf *rf)
{
    const smtlm_read_port direct = {rf, NULL, NULL, NULL, NULL, NULL};
    return direct;
}

/* ---- read arbitration -------------------------------------------------------------------- */

unsigned smtlm_rf_arbitrate(smtlm_rf *rf, smtlm_read_grant *out)
{
    const uint64_t refused = rf->write_alloc | rf->blocked;
    const uint64_t eligible = rf->nonempty & ~refused;
    unsigned n = rf->cfg.policy == SMTLM_ALLOC_WAVEFRONT ? arbitrate_wavefront(rf, eligible, out)
                                                         : arbitrate_fifo(rf, eligible, out);
    smtlm_rf_count_waits(rf);
    return n;
}
