/* Operand collector: CU sets, ports and dispatch units in GPGPU-Sim's construction order, CU
 * allocation (its rule: allocate_pair), operand collection and round-robin dispatch
 * (dispatch_ready_cu). */
#include "smtlm/opcoll.h"

#include <string.h>

#include "smtlm/port_calls.h"

#include "opcoll_step.h"

#define HOT static SMTLM_ALWAYS_INLINE /* per-instruction steps, inlined in their loops */

/* ID_OC -> OC_EX pair of each CU-set kind's own port (specialized-OC mode). */
static const uint8_t kind_in[SMTLM_CUS_KINDS] = {0, SMTLM_ID_OC_SP, SMTLM_ID_OC_DP,
    SMTLM_ID_OC_TENSOR_CORE, SMTLM_ID_OC_SFU, SMTLM_ID_OC_MEM, SMTLM_ID_OC_INT};

static int add_set(smtlm_opcoll *oc, unsigned kind)
{
    const smtlm_opcoll_cfg *cfg = &oc->cfg;
    const smtlm_sm_shape *shape = &oc->shape;
    unsigned n = cfg->num_units[kind];
    if (oc->n_cus + n > SMTLM_MAX_CUS || oc->n_du + cfg->num_out_ports[kind] > SMTLM_MAX_CUS)
        return smtlm_cfg_reject(&oc->cfg_error, SMTLM_ERANGE, "operand collector: num_units / num_out_ports "
                                "(-gpgpu_operand_collector_num_*) exceed SMTLM_MAX_CUS in all");
    if (n > 0 && cfg->num_out_ports[kind] == 0) /* nothing would ever dispatch from the set */
        return smtlm_cfg_reject(&oc->cfg_error, SMTLM_EINVAL, "operand collector: a set with collector units has no "
                                "out port (-gpgpu_operand_collector_num_out_ports_*)");
    if (shape->sub_core && n > 0 && n % shape->n_sched != 0) /* sub-core partitions every CU set by scheduler */
        return smtlm_cfg_reject(&oc->cfg_error, SMTLM_EINVAL, "operand collector: num_units of a set "
                                "(-gpgpu_operand_collector_num_units_*) must be a multiple of n_sched under the sub-core model");
    smtlm_cu_set *s = &oc->sets[oc->n_sets];
    s->kind = (uint8_t)kind;
    s->first = (uint8_t)oc->n_cus;
    s->count = (uint8_t)n;
    s->per_sched = (uint8_t)(shape->sub_core ? n / shape->n_sched : n);
    for (unsigned d = 0; d < cfg->num_out_ports[kind]; d++) {
        oc->du[oc->n_du].set = (uint8_t)oc->n_sets;
        oc->n_du++;
    }
    oc->n_cus += n;
    oc->n_sets++;
    return SMTLM_OK;
}

static int find_set(const smtlm_opcoll *oc, unsigned kind)
{
    for (unsigned i = 0; i < oc->n_sets; i++)
        if (oc->sets[i].kind == kind)
            return (int)i;
    return -1;
}

static int add_port(smtlm_opcoll *oc, const smtlm_port *p)
{
    if (oc->n_ports == SMTLM_MAX_PORTS)
        return smtlm_cfg_reject(&oc->cfg_error, SMTLM_ERANGE, "operand collector: num_in_ports "
                                "(-gpgpu_operand_collector_num_in_ports_*) exceed SMTLM_MAX_PORTS in all");
    oc->ports[oc->n_ports++] = *p;
    return SMTLM_OK;
}

static void add_pair(smtlm_port *p, unsigned in, unsigned out)
{
    p->in[p->n_pairs] = (uint8_t)in;
    p->out[p->n_pairs] = (uint8_t)out;
    p->n_pairs++;
}

int smtlm_opcoll_init(smtlm_opcoll *oc, const smtlm_opcoll_cfg *cfg, const smtlm_sm_shape *shape,
                      const smtlm_units_cfg *units)
{
    memset(oc, 0, sizeof *oc);
    oc->cfg = *cfg;
    oc->shape = *shape;
    if (shape->n_sched == 0 || shape->n_sched > SMTLM_MAX_SCHED)
        return smtlm_cfg_reject(&oc->cfg_error, SMTLM_EINVAL, "operand collector: n_sched (-gpgpu_num_sched_per_core) out of 1..SMTLM_MAX_SCHED");
    int rc = add_set(oc, SMTLM_CUS_GEN);
    if (rc)
        return rc;
    if (cfg->enable_specialized) {
        static const unsigned order[] = {SMTLM_CUS_SP, SMTLM_CUS_DP, SMTLM_CUS_TENSOR_CORE,
                                         SMTLM_CUS_SFU, SMTLM_CUS_MEM, SMTLM_CUS_INT};
        for (unsigned i = 0; i < 6; i++)
            if ((rc = add_set(oc, order[i])) != SMTLM_OK)
                return rc;
    }
    if (oc->n_cus == 0) /* nothing could ever issue */
        return smtlm_cfg_reject(&oc->cfg_error, SMTLM_EINVAL, "operand collector: no collector unit at all "
                                "(-gpgpu_operand_collector_num_units_gen)");
    if (shape->sub_core && oc->n_cus % shape->n_sched != 0)
        return smtlm_cfg_reject(&oc->cfg_error, SMTLM_EINVAL, "operand collector: collector units must split evenly "
                                "over n_sched under the sub-core model");

    /* Generic ports: every pipeline's pair, in GPGPU-Sim's order; they search GEN only. */
    smtlm_port gen;
    memset(&gen, 0, sizeof gen);
    add_pair(&gen, SMTLM_ID_OC_SP, SMTLM_OC_EX_SP);
    add_pair(&gen, SMTLM_ID_OC_SFU, SMTLM_OC_EX_SFU);
    add_pair(&gen, SMTLM_ID_OC_MEM, SMTLM_OC_EX_MEM);
    if (units->tensor_core_avail)
        add_pair(&gen, SMTLM_ID_OC_TENSOR_CORE, SMTLM_OC_EX_TENSOR_CORE);
    if (units->n_dp > 0)
        add_pair(&gen, SMTLM_ID_OC_DP, SMTLM_OC_EX_DP);
    if (units->n_int > 0)
        add_pair(&gen, SMTLM_ID_OC_INT, SMTLM_OC_EX_INT);
    for (unsigned k = 0; k < SMTLM_MAX_SPEC_UNITS; k++) /* the specialized units, in config order */
        if (units->spec[k].num_units > 0)
            add_pair(&gen, SMTLM_ID_OC_SPEC(k), SMTLM_OC_EX_SPEC(k));
    gen.n_sets = 1;
    gen.sets[0] = 0;
    for (unsigned i = 0; i < cfg->num_in_ports[SMTLM_CUS_GEN]; i++)
        if ((rc = add_port(oc, &gen)) != SMTLM_OK)
            return rc;
    oc->n_generic_ports = (uint8_t)oc->n_ports;
    /* dispatch_in_cu_order's conditions (one CU set: every dispatch unit scans all CUs) */
    oc->cu_order_dispatch = shape->sub_core && oc->n_sets == 1 && oc->n_du >= oc->n_cus;
    oc->generic_fast = oc->n_ports > 0 && !cfg->fix_optype_priority && !(shape->sub_core && cfg->fix_subcore_hol);
    if (cfg->enable_specialized) {
        for (unsigned kind = SMTLM_CUS_SP; kind < SMTLM_CUS_KINDS; kind++) {
            smtlm_port p;
            memset(&p, 0, sizeof p);
            add_pair(&p, kind_in[kind], kind_in[kind] + (SMTLM_OC_EX_SP - SMTLM_ID_OC_SP));
            if (kind == SMTLM_CUS_TENSOR_CORE) {
                p.in[0] = SMTLM_ID_OC_TENSOR_CORE;
                p.out[0] = SMTLM_OC_EX_TENSOR_CORE;
            }
            int own = find_set(oc, kind);
            if (own >= 0 && oc->sets[own].count > 0)
                p.sets[p.n_sets++] = (uint8_t)own;
            p.sets[p.n_sets++] = 0;
            for (unsigned i = 0; i < cfg->num_in_ports[kind]; i++)
                if ((rc = add_port(oc, &p)) != SMTLM_OK)
                    return rc;
        }
    }
    oc->walk_always = !oc->generic_fast || oc->n_ports != oc->n_generic_ports;
    for (unsigned p = 0; p < oc->n_ports; p++)
        for (unsigned i = 0; i < oc->ports[p].n_pairs; i++) {
            unsigned k = 0;
            while (k < oc->n_in_sets && oc->in_sets[k] != oc->ports[p].in[i])
                k++;
            if (k == oc->n_in_sets)
                oc->in_sets[oc->n_in_sets++] = oc->ports[p].in[i];
        }
    smtlm_opcoll_reset(oc);
    return SMTLM_OK;
}

/* Round robin restarts after `last`; under the sub-core model at the first CU of the next
 * sub-core group (as GPGPU-Sim 4.x does), so within a pair the even CU is always tried first. */
static unsigned rr_start_after(const smtlm_opcoll *oc, const smtlm_cu_set *set, unsigned last)
{
    if (set->count == 0) /* a set without CUs never dispatches */
        return 0;
    unsigned start = oc->shape.sub_core ? last - last % set->per_sched + set->per_sched : last + 1;
    return start >= set->count ? start - set->count : start;
}

/* Has each generic pair's ID_OC set mark gen_live on every put (smtlm_regset watch), so the
 * walk visits only pairs that may hold work. Again on reset: re-initialising a set drops its
 * watch. All pairs start live (a superset is always safe). */
static void watch_gen_sets(smtlm_opcoll *oc)
{
    const unsigned n = oc->n_generic_ports ? oc->ports[0].n_pairs : 0u;
    oc->gen_live = 0;
    for (unsigned i = 0; i < n && oc->gen_in[i]; i++)
        oc->gen_in[i]->watch_bits = 0;
    for (unsigned i = 0; i < n && oc->gen_in[i]; i++) {
        oc->gen_in[i]->watch = &oc->gen_live;
        oc->gen_in[i]->watch_bits |= 1ull << i;
        oc->gen_live |= 1ull << i;
    }
}

void smtlm_opcoll_reset(smtlm_opcoll *oc)
{
    const unsigned per_sched = oc->shape.sub_core ? oc->n_cus / oc->shape.n_sched : 0;
    oc->free_cus = 0;
    for (unsigned s = 0; s < oc->n_sets; s++) {
        const smtlm_cu_set *set = &oc->sets[s];
        oc->set_cus[s] = 0;
        for (unsigned k = 0; k < SMTLM_MAX_SCHED; k++)
            oc->sched_cus[s][k] = 0;
        for (unsigned k = 0; k < set->count; k++) {
            unsigned j = set->first + k;
            smtlm_cu *cu = &oc->cu[j];
            cu->set = (uint8_t)s;
            /* GPGPU-Sim derives the slot from the CU's global index (latent bug with >1 set). */
            cu->oc_ex_slot = (uint8_t)(per_sched ? j / per_sched : 0);
            cu->out = 0;
            cu->inst = SMTLM_NO_INST;
            cu->out_rs = NULL;
            oc->set_cus[s] |= 1ull << j;
            /* Sub-core: scheduler `sched` allocates only from its own group of the set. */
            for (unsigned sched = 0; sched < SMTLM_MAX_SCHED; sched++)
                if (!oc->shape.sub_core || k / set->per_sched == sched)
                    oc->sched_cus[s][sched] |= 1ull << j;
        }
        oc->free_cus |= oc->set_cus[s];
    }
    for (unsigned s = 0; s < oc->n_sets; s++) {
        const smtlm_cu_set *set = &oc->sets[s];
        for (unsigned k = 0; k < set->count; k++)
            oc->rr_from[set->first + k] = oc->set_cus[s] & ~0ull << (set->first + rr_start_after(oc, set, k));
    }
    for (unsigned d = 0; d < oc->n_du; d++) {
        smtlm_dispatch_unit *du = &oc->du[d];
        const smtlm_cu_set *set = &oc->sets[du->set];
        du->last = set->first;
        du->cus = oc->set_cus[du->set];
        du->from = set->count ? du->cus & ~0ull << (set->first + rr_start_after(oc, set, 0)) : 0;
    }
    oc->busy = 0;
    oc->collected = 0;
    memset(oc->not_ready, 0, sizeof oc->not_ready);
    memset(oc->cu_in, 0, sizeof oc->cu_in);
    oc->blocked = 0;
    oc->blocked_at = UINT64_MAX;
    oc->settled_at = UINT64_MAX;
    oc->settled_free = 0;
    oc->occupancy_sum = 0;
    memset(oc->occupancy_hist, 0, sizeof oc->occupancy_hist);
    memset(oc->collect_lat_hist, 0, sizeof oc->collect_lat_hist);
    memset(oc->cu_allocations, 0, sizeof oc->cu_allocations);
    memset(oc->cu_held, 0, sizeof oc->cu_held);
    watch_gen_sets(oc);
}

/* CU j's instruction moves into slot `slot` of its OC_EX set (C engine's row, `rows`) or is
 * handed through `out` (rows NULL; room was checked); CU j is free again. */
HOT void dispatch_cu(smtlm_opcoll *oc, unsigned j, smtlm_regset *rows, int slot, uint64_t now)
{
    smtlm_cu *cu = &oc->cu[j];
    const smtlm_iref r = cu->inst;
    smtlm_inst *in = oc->cu_in[j];
    if (rows)
        smtlm_regset_put(cu->out_rs, (unsigned)slot, r, in->uid);
    else
        smtlm_stage_put(&oc->out, cu->out, oc->shape.sub_core, cu->oc_ex_slot, r, in->uid);
    in->ev[SMTLM_EV_OC_EX] = now;
    oc->cu_held[j] += now - in->ev[SMTLM_EV_CU_ALLOC];
    cu->inst = SMTLM_NO_INST;
    oc->collected &= ~(1ull << j);
    oc->free_cus |= 1ull << j;
    oc->busy--;
}

/* The OC_EX slot CU j's instruction would take, or -1 if its set has no room for it
 * (smtlm_stage_has_free; without a call when the collector sees the sets). */
static inline int room_slot(const smtlm_opcoll *oc, const smtlm_cu *cu)
{
    const int sub_core = oc->shape.sub_core;
    if (oc->out_row) {
        const smtlm_regset *rs = &oc->out_row[cu->out];
        if (sub_core)
            return cu->oc_ex_slot < rs->width && !(rs->occ >> cu->oc_ex_slot & 1) ? (int)cu->oc_ex_slot : -1;
        return smtlm_regset_first_free(rs);
    }
    return smtlm_stage_has_free(&oc->out, cu->out, sub_core, cu->oc_ex_slot) ? 0 : -1;
}

/* The dispatch units in order, each taking the first candidate with room in its round robin. */
#if defined(__GNUC__)
__attribute__((noinline)) /* out of the scan, whose calls mostly find nothing to do */
#endif
static void dispatch_round_robin(smtlm_opcoll *oc, uint64_t cand_all, uint64_t now)
{
    smtlm_regset *rows = oc->out_direct;
    smtlm_dispatch_unit *du = oc->du, *end = oc->du + oc->n_du;
    for (; du < end && cand_all; du++) {
        uint64_t cand = cand_all & du->cus;
        /* Round robin: the first candidate in du->from, else the first. */
        while (cand) {
            const uint64_t after = cand & du->from;
            const unsigned j = smtlm_ctz64(after ? after : cand);
            const uint64_t bit = 1ull << j;
            cand &= ~bit;
            cand_all &= ~bit;
            const int slot = room_slot(oc, &oc->cu[j]); /* a look at the row in both engines */
            if (slot >= 0) {
                dispatch_cu(oc, j, rows, slot, now);
                du->last = (uint8_t)j;
                du->from = oc->rr_from[j];
                break;
            }
            oc->blocked |= bit;
        }
    }
}

/* The same result when every dispatch unit scans every CU, there are at least as many units as
 * CUs, and under the sub-core model (dispatch_in_cu_order): every candidate is looked at by some
 * unit, and a unit's scan starts at the first CU of a scheduler's group, so of the CUs that
 * compete for one OC_EX slot (a group's) the lowest is always looked at first. Looking at the
 * candidates in CU order therefore dispatches the same CUs into the same slots; which unit took
 * which CU is seen nowhere else, so the units' round-robin state is not kept. */
#if defined(__GNUC__)
__attribute__((noinline)) /* as dispatch_round_robin */
#endif
static void dispatch_in_cu_order(smtlm_opcoll *oc, uint64_t cand, uint64_t now)
{
    smtlm_regset *rows = oc->out_direct;
    const smtlm_regset *seen = oc->out_row;
    if (rows && seen == rows) { /* the C engine's row: the CU names its set (no index arithmetic) */
        for (; cand; cand &= cand - 1) {
            const unsigned j = smtlm_ctz64(cand);
            const smtlm_cu *cu = &oc->cu[j];
            const smtlm_regset *rs = cu->out_rs;
            if (cu->oc_ex_slot < rs->width && !(rs->occ >> cu->oc_ex_slot & 1))
                dispatch_cu(oc, j, rows, cu->oc_ex_slot, now);
            else
                oc->blocked |= 1ull << j;
        }
        return;
    }
    if (seen) { /* the sub-core room test of room_slot, without its branches */
        for (; cand; cand &= cand - 1) {
            const unsigned j = smtlm_ctz64(cand);
            const smtlm_cu *cu = &oc->cu[j];
            const smtlm_regset *rs = &seen[cu->out];
            if (cu->oc_ex_slot < rs->width && !(rs->occ >> cu->oc_ex_slot & 1))
                dispatch_cu(oc, j, rows, cu->oc_ex_slot, now);
            else
                oc->blocked |= 1ull << j;
        }
        return;
    }
    for (; cand; cand &= cand - 1) {
        const unsigned j = smtlm_ctz64(cand);
        const int slot = room_slot(oc, &oc->cu[j]);
        if (slot >= 0)
            dispatch_cu(oc, j, rows, slot, now);
        else
            oc->blocked |= 1ull << j;
    }
}

void smtlm_opcoll_dispatch_scan(smtlm_opcoll *oc, uint64_t now)
{
    /* Collected CUs that may still dispatch in this call. A CU whose OC_EX slot is full stays
     * blocked for the rest of the cycle: dispatching only fills OC_EX slots. */
    if (now != oc->blocked_at) {
        oc->blocked = 0;
        oc->blocked_at = now;
    }
    const uint64_t cand = oc->collected & ~oc->blocked;
    if (!cand)
        return;
    if (oc->cu_order_dispatch)
        dispatch_in_cu_order(oc, cand, now);
    else
        dispatch_round_robin(oc, cand, now);
}

/* The operand bits a grant of slot `op` keeps: the low byte of ~(1 << (op % 32)), as a 32-bit
 * rotation gives it (a table load is cheaper per grant than working the rotation out). */
#define KEEP_(op) (uint8_t)(((op) & 31) < 8 ? ~(1u << ((op) & 7)) : 0xffu)
#define KEEP8_(b) KEEP_(b), KEEP_(b + 1), KEEP_(b + 2), KEEP_(b + 3), KEEP_(b + 4), KEEP_(b + 5), KEEP_(b + 6), KEEP_(b + 7)
#define KEEP64_(b) KEEP8_(b), KEEP8_(b + 8), KEEP8_(b + 16), KEEP8_(b + 24), KEEP8_(b + 32), KEEP8_(b + 40), \
                   KEEP8_(b + 48), KEEP8_(b + 56)
const uint8_t smtlm_opcoll_keep_of[256] = {KEEP64_(0), KEEP64_(64), KEEP64_(128), KEEP64_(192)};

void smtlm_opcoll_collect(smtlm_opcoll *oc, uint64_t now, const smtlm_read_grant *g, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        smtlm_opcoll_collect_one_(oc, g[i].cu, g[i].operand, now);
}

#if defined(__GNUC__)
__attribute__((noinline)) /* its grant buffer stays off the fifo path of the inline step */
#endif
void smtlm_opcoll_arbitrate_listed_(smtlm_opcoll *oc, smtlm_rf *rf, uint64_t now)
{
    smtlm_read_grant g[SMTLM_MAX_BANKS];
    const unsigned n = smtlm_rf_arbitrate(rf, g);
    smtlm_opcoll_collect(oc, now, g, n);
}

void smtlm_opcoll_arbitrate_collect(smtlm_opcoll *oc, smtlm_rf *rf, uint64_t now)
{
    smtlm_opcoll_arbitrate_collect_(oc, rf, now);
}

void smtlm_opcoll_arbitrate_through_port(smtlm_opcoll *oc, uint64_t now)
{
    smtlm_read_grant g[SMTLM_MAX_BANKS];
    const unsigned n = oc->rf.arbitrate(oc->rf.ctx, g);
    if (n)
        smtlm_opcoll_collect(oc, now, g, n);
}

/* Operand slots of `in` to read: one per distinct source register, as Accel-Sim's GPGPU-Sim
 * reads a register named twice by one instruction only once (the first slot naming it). */
static unsigned distinct_sources(const smtlm_inst *in)
{
    const int16_t *s = in->src;
    switch (in->n_src) {
    case 0: return 0;
    case 1: return 1;
    case 2: return 1u | (unsigned)(s[1] != s[0]) << 1;
    case 3: return 1u | (unsigned)(s[1] != s[0]) << 1 | (unsigned)(s[2] != s[0] && s[2] != s[1]) << 2;
    default: break;
    }
    unsigned ops = 0;
    for (unsigned op = 0; op < in->n_src; op++) {
        int dup = 0;
        for (unsigned q = 0; q < op; q++)
            dup |= s[q] == s[op];
        ops |= (unsigned)!dup << op;
    }
    return ops;
}

/* Queues the reads of operand slots `ops` of CU j's instruction through the read port (the C
 * engine's own register file: queue_distinct_direct); *queued as smtlm_rf_request_reads. */
HOT int queue_reads(smtlm_opcoll *oc, unsigned j, const smtlm_inst *in, unsigned ops, unsigned *queued)
{
    return smtlm_read_request_reads(&oc->rf, j, in->warp, in->sched, in->src, ops, queued);
}

/* queue_reads into the C engine's register file of CU j's reads `ops` (in->rd_ops, nonzero: the
 * distinct_sources of an instruction of one to three sources, worked out at decode), unrolled,
 * in operand order. None can overflow (regfile.h), and every instruction given a CU has a
 * valid scheduler (smtlm_opcoll_bind). */
HOT void queue_distinct_direct(smtlm_rf *rf, unsigned j, const smtlm_inst *in, unsigned ops)
{
    const int16_t *s = in->src;
    const unsigned warp = in->warp, base = rf->sched_base[in->sched];
    uint64_t banks = smtlm_rf_queue_read(rf, j, 0, (unsigned)s[0], warp, base);
    if (ops & 2)
        banks |= smtlm_rf_queue_read(rf, j, 1, (unsigned)s[1], warp, base);
    if (ops & 4)
        banks |= smtlm_rf_queue_read(rf, j, 2, (unsigned)s[2], warp, base);
    rf->nonempty |= banks;
}

/* The reads of CU j's instruction when they are not one to three into the C engine's register
 * file: none (collected at once), four or more, or through the ports. Out of line so that the
 * common path of allocate_cu saves registers only once its checks passed. */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static int queue_other(smtlm_opcoll *oc, unsigned j, smtlm_inst *in)
{
    unsigned not_ready = 0;
    int rc = SMTLM_OK;
    const unsigned ops = distinct_sources(in);
    if (ops && oc->rf_direct) {
        smtlm_rf_queue_reads(oc->rf_direct, j, in->warp, in->sched, in->src, ops);
        not_ready = ops;
    } else if (ops) {
        rc = queue_reads(oc, j, in, ops, &not_ready);
    }
    oc->not_ready[j] = (uint8_t)not_ready;
    if (rc)
        return rc;
    if (not_ready == 0)
        smtlm_opcoll_operands_done_(oc, j, in, oc->now);
    return SMTLM_OK;
}

/* CU j takes instruction r (`in`, just taken from its ID_OC set) and queues its distinct reads.
 * Five arguments: all in registers, none on the stack. */
static int allocate_cu(smtlm_opcoll *oc, unsigned j, smtlm_iref r, smtlm_inst *in, unsigned out_set)
{
    in->ev[SMTLM_EV_CU_ALLOC] = oc->now;
    oc->free_cus &= ~(1ull << j);
    oc->busy++;
    oc->cu_allocations[j]++;
    smtlm_cu *cu = &oc->cu[j];
    cu->inst = r;
    oc->cu_in[j] = in;
    cu->out = (uint8_t)out_set;
    cu->out_rs = oc->out_rs_of[out_set];
    smtlm_rf *rf = oc->rf_direct;
    const unsigned ops = in->rd_ops;
    if (!rf || !ops)
        return queue_other(oc, j, in);
    oc->not_ready[j] = (uint8_t)ops;
    queue_distinct_direct(rf, j, in, ops);
    return SMTLM_OK;
}

/* Slots of a register set ordered oldest first; returns their count. */
static unsigned slots_by_age(const smtlm_regset *rs, uint8_t *out)
{
    unsigned n = 0;
    for (unsigned i = 0; i < rs->width; i++) {
        if (rs->slot[i] == SMTLM_NO_INST)
            continue;
        unsigned k = n++;
        while (k > 0 && rs->uid[out[k - 1]] > rs->uid[i]) {
            out[k] = out[k - 1];
            k--;
        }
        out[k] = (uint8_t)i;
    }
    return n;
}

/* The allocation rule, the one body both walks (allocate_port, allocate_generic) call: a port's
 * pair, whose ID_OC set in_rs holds at least one instruction, allocates at most one CU, handing
 * into OC_EX set `out`. GPGPU-Sim considers only the oldest instruction of the set; it takes the
 * first free CU its scheduler may use (sched_cus: under the sub-core model its own group) of the
 * first of the port's CU sets `sets` (own set, then GEN) that has one, and if none is free
 * nothing of this set is allocated by this port, even when a younger instruction's scheduler
 * has a free CU. `hol` (fix_subcore_hol under the sub-core model) tries the instructions oldest
 * first instead, so that each sub-core's own oldest can get its CU. The generic ports' walk
 * passes constants (GEN only, no fix), which leave it only the default path. Returns 1 if
 * allocated, 0 if no CU was free, or a negative error. */
HOT int allocate_pair(smtlm_opcoll *oc, smtlm_regset *in_rs, const uint8_t *sets, unsigned n_sets, unsigned out,
                      int hol)
{
    uint8_t by_age[SMTLM_MAX_REGSET_WIDTH];
    const unsigned n = hol ? slots_by_age(in_rs, by_age) : 1;
    for (unsigned k = 0; k < n; k++) {
        const unsigned slot = hol ? by_age[k] : smtlm_regset_oldest_occupied(in_rs);
        smtlm_inst *in = smtlm_pool_get(oc->pool, in_rs->slot[slot]);
        for (unsigned s = 0; s < n_sets; s++) {
            const uint64_t avail = oc->free_cus & oc->sched_cus[sets[s]][in->sched];
            if (avail) {
                const int rc = allocate_cu(oc, smtlm_ctz64(avail), smtlm_regset_take_occupied(in_rs, slot), in, out);
                return rc ? rc : 1;
            }
        }
    }
    return 0;
}

/* The general walk of one port (the quirk fixes, the specialized ports): its pairs in order (by
 * age under fix_optype_priority), each through allocate_pair. Returns the number of CUs
 * allocated, or a negative error. Pairs set in *dead failed on an identical earlier port in this
 * step and are skipped; new failures are added. */
static int allocate_port(smtlm_opcoll *oc, const smtlm_port *p, uint32_t *dead)
{
    uint8_t order[SMTLM_PORT_MAX_PAIRS];
    for (unsigned i = 0; i < p->n_pairs; i++)
        order[i] = (uint8_t)i;
    if (oc->cfg.fix_optype_priority) { /* oldest instruction across unit types first */
        uint64_t age[SMTLM_PORT_MAX_PAIRS];
        for (unsigned i = 0; i < p->n_pairs; i++) {
            int s = smtlm_regset_oldest(oc->in[p->in[i]]);
            age[i] = s < 0 ? UINT64_MAX : oc->in[p->in[i]]->uid[s];
        }
        for (unsigned i = 1; i < p->n_pairs; i++)
            for (unsigned k = i; k > 0 && age[order[k - 1]] > age[order[k]]; k--) {
                uint8_t t = order[k];
                order[k] = order[k - 1];
                order[k - 1] = t;
            }
    }
    const int hol = oc->shape.sub_core && oc->cfg.fix_subcore_hol;
    int got = 0;
    for (unsigned i = 0; i < p->n_pairs; i++) {
        unsigned pair = order[i];
        smtlm_regset *in_rs = oc->in[p->in[pair]];
        if (in_rs->count == 0 || (*dead >> pair & 1))
            continue;
        const int rc = allocate_pair(oc, in_rs, p->sets, p->n_sets, p->out[pair], hol);
        if (rc < 0)
            return rc;
        got += rc;
        if (rc == 0)
            *dead |= 1u << pair;
    }
    return got;
}

/* The identical generic ports in GPGPU-Sim's default mode (the only CU set they search is GEN).
 * Each port visits its pairs in order (the first only those in gen_live). After the first port, `pending` holds the pairs still
 * worth a visit: a pair whose set is empty stays empty, and one that found no free CU fails on
 * every later port of the step (its oldest instruction stays the same and free CUs only get
 * fewer). A port that allocates nothing leaves `pending` empty, which ends the walk as
 * GPGPU-Sim's later ports would allocate nothing either; so does a GEN set with no free CU.
 * Returns 0 when another walk would allocate nothing (until a CU is freed or an instruction
 * arrives), 1 when the ports ran out first, or a negative error. */
static int allocate_generic(smtlm_opcoll *oc)
{
    static const uint8_t gen_only[1] = {0}; /* the generic ports' CU sets: GEN, created first */
    const uint64_t gen = oc->set_cus[0];
    if (!(oc->free_cus & gen) || oc->n_generic_ports == 0)
        return 0;
    const smtlm_port *gp = &oc->ports[0];
    uint32_t pending = 0;
    for (uint64_t live = oc->gen_live; live; live &= live - 1) { /* the first port */
        const unsigned i = smtlm_ctz64(live);
        if (oc->gen_in[i]->count == 0) {
            oc->gen_live &= ~(1ull << i);
            continue;
        }
        int rc = allocate_pair(oc, oc->gen_in[i], gen_only, 1, gp->out[i], 0);
        if (rc < 0)
            return rc;
        if (rc == 0)
            continue;
        if (oc->gen_in[i]->count)
            pending |= 1u << i;
        else /* emptied: off until its next put (spares the walk that would find it so) */
            oc->gen_live &= ~(1ull << i);
        if (!(oc->free_cus & gen))
            return 0;
    }
    for (unsigned port = 1; port < oc->n_generic_ports && pending; port++) {
        uint32_t todo = pending;
        while (todo) {
            const unsigned i = smtlm_ctz64(todo);
            todo &= todo - 1;
            int rc = allocate_pair(oc, oc->gen_in[i], gen_only, 1, gp->out[i], 0);
            if (rc < 0)
                return rc;
            if (rc == 0) {
                pending &= ~(1u << i);
                continue;
            }
            if (oc->gen_in[i]->count == 0) {
                pending &= ~(1u << i);
                oc->gen_live &= ~(1ull << i);
            }
            if (!(oc->free_cus & gen))
                return 0;
        }
    }
    return pending != 0;
}

/* Ports from `p` on, each with its own walk (the quirk fixes, the specialized ports). Kept out
 * of line: its sort buffers would otherwise weigh on every call of the generic ports' walk. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int allocate_ports(smtlm_opcoll *oc, unsigned p)
{
    uint32_t dead = 0;
    for (; p < oc->n_ports; p++) {
        uint32_t own = 0;
        int rc = allocate_port(oc, &oc->ports[p], p < oc->n_generic_ports ? &dead : &own);
        if (rc < 0)
            return rc;
        /* The generic ports are identical: once one allocates nothing, so do the others. */
        if (rc == 0 && p < oc->n_generic_ports)
            p = oc->n_generic_ports - 1;
    }
    return SMTLM_OK;
}

int smtlm_opcoll_allocate_walk(smtlm_opcoll *oc, uint64_t now)
{
    oc->now = now;
    oc->settled_at = UINT64_MAX;
    if (!oc->generic_fast)
        return allocate_ports(oc, 0);
    int rc = allocate_generic(oc);
    if (rc < 0)
        return rc;
    if (oc->n_ports != oc->n_generic_ports)
        return allocate_ports(oc, oc->n_generic_ports);
    if (rc == 0) {
        oc->settled_at = now;
        oc->settled_free = oc->free_cus;
    }
    return SMTLM_OK;
}

void smtlm_opcoll_bind(smtlm_opcoll *oc, smtlm_regset *sets, const smtlm_stage_port *out, smtlm_inst_pool *pool,
                       const smtlm_read_port *rf)
{
    memset(oc->in, 0, sizeof oc->in);
    for (unsigned i = 0; i < oc->n_in_sets; i++)
        oc->in[oc->in_sets[i]] = &sets[oc->in_sets[i]];
    for (unsigned i = 0; i < (oc->n_generic_ports ? oc->ports[0].n_pairs : 0u); i++)
        oc->gen_in[i] = oc->in[oc->ports[0].in[i]];
    watch_gen_sets(oc);
    oc->out = *out;
    oc->out_direct = out->sets;
    for (unsigned s = 0; s < SMTLM_NUM_REGSETS; s++)
        oc->out_rs_of[s] = oc->out_direct ? &oc->out_direct[s] : NULL;
    oc->out_row = out->row ? out->row : oc->out_direct;
    oc->pool = pool;
    oc->rf = *rf;
    /* port_calls.h: the C engine's register file is reached without the indirect calls, and
     * without its checks where they cannot fail: a CU goes only to an instruction of one of the
     * collector's schedulers (sched_cus), which has banks when both split them alike, and every
     * CU index has room for its reads in each queue (smtlm_rf_queue_reads). */
    smtlm_rf *direct = rf->rf;
    const int same_split = direct && (!direct->shape.sub_core || (oc->shape.sub_core && direct->shape.n_sched == oc->shape.n_sched));
    oc->rf_direct = same_split && oc->n_cus <= direct->n_cus ? direct : NULL;
}

uint64_t smtlm_opcoll_allocations(const smtlm_opcoll *oc)
{
    uint64_t n = 0;
    for (unsigned j = 0; j < oc->n_cus; j++)
        n += oc->cu_allocations[j];
    return n;
}

int smtlm_opcoll_idle(const smtlm_opcoll *oc)
{
    if (oc->busy)
        return 0;
    for (unsigned i = 0; i < oc->n_in_sets; i++)
        if (oc->in[oc->in_sets[i]]->count)
            return 0;
    return 1;
}

