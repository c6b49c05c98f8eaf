/* Load/store unit: shared-memory pipeline, sector coalescer, memory port, writeback arbiter. */
#include "smtlm/ldst.h"

#include <string.h>

#include "smtlm/port_calls.h"

enum { WB_SHARED = 0, WB_TEXTURE, WB_CONST, WB_GLOBAL, WB_L1D, WB_CLIENTS };

static void clear(smtlm_ldst *u);

int smtlm_ldst_init(smtlm_ldst *u, const smtlm_ldst_cfg *cfg)
{
    const char **e = &u->cfg_error;
    *e = 0;
    if (cfg->smem_latency < 2) /* GPGPU-Sim asserts it */
        return smtlm_cfg_reject(e, SMTLM_EINVAL, "LDST: smem_latency (-gpgpu_smem_latency) must be at least 2");
    if (cfg->shmem_banks == 0)
        return smtlm_cfg_reject(e, SMTLM_EINVAL, "LDST: shmem_banks (-gpgpu_shmem_num_banks) must be at least 1");
    if (cfg->ports == 0)
        return smtlm_cfg_reject(e, SMTLM_EINVAL, "LDST: ports (-gpgpu_mem_unit_ports) must be at least 1");
    if (cfg->shmem_warp_parts == 0 || SMTLM_WARP_SIZE % cfg->shmem_warp_parts != 0)
        return smtlm_cfg_reject(e, SMTLM_EINVAL, "LDST: shmem_warp_parts (-gpgpu_shmem_warp_parts) must divide 32");
    if (cfg->smem_latency >= SMTLM_MAX_LATENCY)
        return smtlm_cfg_reject(e, SMTLM_ERANGE, "LDST: smem_latency (-gpgpu_smem_latency) exceeds SMTLM_MAX_LATENCY");
    u->cfg = *cfg;
    clear(u);
    u->live = 1;
    return SMTLM_OK;
}

/* OC_EX_MEM's puts mark the unit live (again after a reset: re-initialising the set drops its
 * watch). */
static void watch_input(smtlm_ldst *u)
{
    u->live = 1;
    if (u->in) {
        u->in->watch = &u->live;
        u->in->watch_bits = 1;
    }
}

void smtlm_ldst_bind(smtlm_ldst *u, smtlm_regset *oc_ex_mem, smtlm_inst_pool *pool, const smtlm_write_port *rf,
                     const smtlm_warp_port *warps)
{
    u->in = oc_ex_mem;
    u->pool = pool;
    u->rf = *rf;
    u->warps = *warps;
    watch_input(u);
}

static void clear(smtlm_ldst *u)
{
    u->dispatch = SMTLM_NO_INST;
    u->disp_cycles = 0;
    u->n_acc = u->acc_next = 0;
    for (unsigned i = 0; i < SMTLM_MAX_LATENCY; i++)
        u->pipe[i] = SMTLM_NO_INST;
    u->pipe_count = 0;
    u->next_wb = SMTLM_NO_INST;
    u->wb_arb = 0;
    u->resp_head = u->resp_len = 0;
    u->next_global = SMTLM_NO_INST;
    u->out_head = u->out_len = 0;
    u->shmem_accesses = u->shmem_bank_conflicts = u->mem_requests = u->mem_responses = 0;
    u->wb_bank_stalls = u->busy_cycles = u->issued = 0;
}

void smtlm_ldst_reset(smtlm_ldst *u)
{
    clear(u);
    watch_input(u);
}

unsigned smtlm_shmem_conflict_degree(const uint64_t *addr, uint32_t mask, unsigned banks, unsigned warp_parts)
{
    const unsigned sub = SMTLM_WARP_SIZE / warp_parts;
    unsigned total = 0;
    for (unsigned part = 0; part < warp_parts; part++) {
        /* Distinct words chained per bank (bank mod 64 picks the chain; entries keep their
         * bank, so chains shared by two banks still count each bank apart). */
        int8_t head[64], next[SMTLM_WARP_SIZE];
        uint64_t word[SMTLM_WARP_SIZE];
        unsigned bank[SMTLM_WARP_SIZE], n = 0, worst = 0;
        memset(head, -1, sizeof head);
        for (unsigned l = part * sub; l < (part + 1) * sub; l++) {
            if (!(mask >> l & 1))
                continue;
            const uint64_t w = addr[l] / 4;
            const unsigned b = (unsigned)(w % banks);
            unsigned same_bank = 1;
            int seen = 0;
            for (int e = head[b & 63]; e >= 0; e = next[e]) {
                if (word[e] == w) { seen = 1; break; } /* broadcast */
                same_bank += bank[e] == b;
            }
            if (seen)
                continue;
            word[n] = w;
            bank[n] = b;
            next[n] = head[b & 63];
            head[b & 63] = (int8_t)n;
            n++;
            if (same_bank > worst)
                worst = same_bank;
        }
        total += worst;
    }
    return total;
}

unsigned smtlm_coalesce_sectors(const uint64_t *addr, uint32_t mask, unsigned width, smtlm_mem_req *out)
{
    unsigned n = 0;
    if (width == 0)
        width = 4;
    for (unsigned l = 0; l < SMTLM_WARP_SIZE; l++) {
        if (!(mask >> l & 1))
            continue;
        /* A lane touches one sector, or two when its access straddles a sector boundary. */
        uint64_t first = addr[l] & ~(uint64_t)(SMTLM_SECTOR_BYTES - 1);
        uint64_t last = (addr[l] + width - 1) & ~(uint64_t)(SMTLM_SECTOR_BYTES - 1);
        for (uint64_t s = first;; s += SMTLM_SECTOR_BYTES) {
            unsigned k = 0;
            while (k < n && out[k].addr < s)
                k++;
            if (!(k < n && out[k].addr == s)) {
                memmove(&out[k + 1], &out[k], (n - k) * sizeof *out);
                memset(&out[k], 0, sizeof *out);
                out[k].addr = s;
                out[k].size = SMTLM_SECTOR_BYTES;
                n++;
            }
            out[k].lanes |= 1u << l;
            /* the lane's bytes inside this sector */
            const uint64_t lo = addr[l] > s ? addr[l] : s, end = addr[l] + width;
            const uint64_t hi = end < s + SMTLM_SECTOR_BYTES ? end : s + SMTLM_SECTOR_BYTES;
            for (uint64_t b = lo; b < hi; b++)
                out[k].bytes |= 1u << (b - s);
            if (s == last || n == 2 * SMTLM_WARP_SIZE)
                break;
        }
    }
    return n;
}

static int is_load(const smtlm_inst *in)
{
    return in->op == SMTLM_OP_LOAD || (in->atomic && in->n_dst > 0);
}

void smtlm_ldst_issue(smtlm_ldst *u, smtlm_iref r)
{
    smtlm_inst *in = smtlm_pool_get(u->pool, r);
    u->dispatch = r;
    u->live = 1;
    u->issued++;
    u->n_acc = u->acc_next = 0;
    u->disp_cycles = 0;
    const uint64_t *addr = in->mem != SMTLM_NO_INST ? u->pool->mem[in->mem].addr : 0;
    if (in->op == SMTLM_OP_MEMBAR || addr == 0 || in->mask == 0)
        return;
    if (in->mem_space == SMTLM_MEM_SHARED) {
        unsigned deg = smtlm_shmem_conflict_degree(addr, in->mask, u->cfg.shmem_banks, u->cfg.shmem_warp_parts);
        u->disp_cycles = (uint16_t)deg;
        u->shmem_accesses++;
        u->shmem_bank_conflicts += deg > 1 ? deg - 1 : 0;
    } else {
        u->n_acc = (uint16_t)smtlm_coalesce_sectors(addr, in->mask, in->mem_width, u->acc);
        for (unsigned i = 0; i < u->n_acc; i++) {
            u->acc[i].warp = in->warp;
            u->acc[i].pc = in->pc;
            u->acc[i].line = in->line;
            u->acc[i].inst = r;
            u->acc[i].is_write = !is_load(in);
            u->acc[i].space = in->mem_space;
            u->acc[i].atomic = in->atomic;
        }
        if (is_load(in))
            in->pending = u->n_acc; /* GPGPU-Sim m_pending_writes += accesses */
    }
    smtlm_pool_drop_payload(u->pool, r); /* addresses are no longer needed */
}

int smtlm_ldst_pop_request(smtlm_ldst *u, smtlm_mem_req *req)
{
    if (u->out_len == 0)
        return 0;
    *req = u->out[u->out_head];
    u->out_head = (u->out_head + 1) & (SMTLM_LDST_OUT_CAP - 1);
    u->out_len--;
    return 1;
}

int smtlm_ldst_respond(smtlm_ldst *u, const smtlm_mem_req *req)
{
    if (u->resp_len == SMTLM_LDST_RESP_CAP)
        return SMTLM_EFULL;
    u->resp[(u->resp_head + u->resp_len) % SMTLM_LDST_RESP_CAP] = *req;
    u->resp_len++;
    u->live = 1;
    return SMTLM_OK;
}

int smtlm_ldst_busy(const smtlm_ldst *u)
{
    return u->dispatch != SMTLM_NO_INST || u->pipe_count || u->next_wb != SMTLM_NO_INST ||
           u->resp_len || u->next_global != SMTLM_NO_INST || u->out_len;
}

/* Retires a load whose results are all written and which has left the dispatch register. */
static void maybe_free(smtlm_ldst *u, smtlm_iref r)
{
    smtlm_inst *in = smtlm_pool_get(u->pool, r);
    if (in->pending == 0 && in->left_ldst)
        smtlm_pool_free(u->pool, r);
}

/* An instruction finished: its writeback cycle, then the issue stage counts it. */
static void complete(smtlm_ldst *u, smtlm_inst *in)
{
    in->ev[SMTLM_EV_WRITEBACK] = u->now;
    smtlm_warp_completed(&u->warps, in);
}

/* Writes next_wb's destinations; 1 on success, 0 if a bank already took a write this cycle. */
static int write_banks(smtlm_ldst *u, const smtlm_inst *in)
{
    for (unsigned i = 0; i < in->n_dst; i++)
        if (!smtlm_write_can(&u->rf, in->warp, in->sched, (unsigned)in->dst[i]))
            return 0;
    for (unsigned i = 0; i < in->n_dst; i++)
        smtlm_write_reg(&u->rf, in->warp, in->sched, (unsigned)in->dst[i]);
    return 1;
}

static void writeback(smtlm_ldst *u)
{
    if (u->next_wb != SMTLM_NO_INST) {
        smtlm_inst *in = smtlm_pool_get(u->pool, u->next_wb);
        if (!write_banks(u, in)) {
            u->wb_bank_stalls++;
        } else {
            if (in->mem_space == SMTLM_MEM_SHARED) {
                smtlm_warp_release_dsts(&u->warps, in);
                if (in->n_dst)
                    complete(u, in);
                smtlm_pool_free(u->pool, u->next_wb);
            } else if (in->pending > 0 && --in->pending == 0) {
                smtlm_warp_release_dsts(&u->warps, in);
                complete(u, in);
                maybe_free(u, u->next_wb);
            }
            u->next_wb = SMTLM_NO_INST;
        }
    }
    int served = -1;
    for (unsigned c = 0; u->next_wb == SMTLM_NO_INST && c < WB_CLIENTS; c++) {
        unsigned client = (c + u->wb_arb) % WB_CLIENTS;
        if (client == WB_SHARED && u->pipe[0] != SMTLM_NO_INST) {
            smtlm_inst *in = smtlm_pool_get(u->pool, u->pipe[0]);
            u->next_wb = u->pipe[0];
            u->pipe[0] = SMTLM_NO_INST;
            u->pipe_count--;
            if (in->atomic)
                smtlm_warp_atomic_done(&u->warps, in->warp, smtlm_popcount32(in->mask));
            smtlm_warp_retired(&u->warps, in->warp);
            served = (int)client;
        } else if (client == WB_GLOBAL && u->next_global != SMTLM_NO_INST) {
            u->next_wb = u->next_global;
            u->next_global = SMTLM_NO_INST;
            served = (int)client;
        }
    }
    if (served >= 0)
        u->wb_arb = (unsigned)(served + 1) % WB_CLIENTS;
}

/* Takes the oldest response: store acks complete at once; load data waits in next_global. */
static void accept_response(smtlm_ldst *u)
{
    if (u->resp_len == 0)
        return;
    const smtlm_mem_req *rq = &u->resp[u->resp_head];
    if (rq->is_write) {
        smtlm_warp_store_acked(&u->warps, rq->warp);
    } else {
        if (u->next_global != SMTLM_NO_INST)
            return;
        u->next_global = rq->inst;
        if (rq->atomic)
            smtlm_warp_atomic_done(&u->warps, rq->warp, smtlm_popcount32(rq->lanes));
    }
    u->mem_responses++;
    u->resp_head = (u->resp_head + 1) % SMTLM_LDST_RESP_CAP;
    u->resp_len--;
}

/* Processes the dispatch register; returns 1 when the instruction is done with it. */
static int dispatch_stage(smtlm_ldst *u, smtlm_inst *in)
{
    if (in->mem_space == SMTLM_MEM_SHARED && in->mask != 0) {
        if (u->disp_cycles > 0)
            u->disp_cycles--;
        return u->disp_cycles == 0; /* bank-conflict replays hold the dispatch register */
    }
    if (u->acc_next < u->n_acc) { /* one request per cycle towards memory */
        if (u->out_len == SMTLM_LDST_OUT_CAP)
            return 0;
        smtlm_mem_req *rq = &u->acc[u->acc_next++];
        rq->sent_cycle = u->now;
        u->out[(u->out_head + u->out_len) & (SMTLM_LDST_OUT_CAP - 1)] = *rq;
        u->out_len++;
        u->mem_requests++;
        if (rq->is_write)
            smtlm_warp_store_sent(&u->warps, rq->warp);
    }
    return u->acc_next == u->n_acc;
}

static void one_cycle(smtlm_ldst *u)
{
    writeback(u);
    /* The shared pipeline advances only into empty stages (ldst_unit::cycle). */
    if (u->pipe_count)
        for (unsigned s = 0; s + 1 < u->cfg.smem_latency; s++)
            if (u->pipe[s] == SMTLM_NO_INST && u->pipe[s + 1] != SMTLM_NO_INST) {
                u->pipe[s] = u->pipe[s + 1];
                u->pipe[s + 1] = SMTLM_NO_INST;
            }
    accept_response(u);
    if (u->dispatch == SMTLM_NO_INST)
        return;
    smtlm_iref r = u->dispatch;
    smtlm_inst *in = smtlm_pool_get(u->pool, r);
    if (!dispatch_stage(u, in))
        return;
    if (in->op == SMTLM_OP_MEMBAR || !is_load(in)) { /* stores and MEMBAR leave here */
        smtlm_warp_retired(&u->warps, in->warp);
        complete(u, in);
        smtlm_pool_free(u->pool, r);
        u->dispatch = SMTLM_NO_INST;
    } else if (in->mem_space == SMTLM_MEM_SHARED) {
        unsigned top = u->cfg.smem_latency - 1;
        if (u->pipe[top] == SMTLM_NO_INST) {
            u->pipe[top] = r;
            u->pipe_count++;
            u->dispatch = SMTLM_NO_INST;
        }
    } else { /* global/local load: all requests sent */
        in->left_ldst = 1;
        if (in->pending == 0) { /* no active lane: done at once */
            smtlm_warp_release_dsts(&u->warps, in);
            complete(u, in);
        }
        smtlm_warp_retired(&u->warps, in->warp);
        u->dispatch = SMTLM_NO_INST;
        maybe_free(u, r);
    }
}

int smtlm_ldst_cycle(smtlm_ldst *u, uint64_t now)
{
    u->now = now;
    if (smtlm_ldst_busy(u)) { /* an idle unit's cycle would change nothing */
        u->busy_cycles++;
        for (unsigned p = 0; p < u->cfg.ports; p++)
            one_cycle(u);
    }
    smtlm_regset *in = u->in;
    if (in->count && smtlm_ldst_can_issue(u)) {
        const smtlm_iref r = smtlm_regset_take(in, (unsigned)smtlm_regset_oldest(in));
        u->pool->inst[r].ev[SMTLM_EV_FU_ISSUE] = now;
        smtlm_ldst_issue(u, r);
    } else if (!in->count && !smtlm_ldst_busy(u)) {
        u->live = 0; /* the next cycles change nothing until a put, an issue or a response */
    }
    return SMTLM_OK;
}
