/* The load/store unit (GPGPU-Sim ldst_unit), shared by all sub-cores, stallable (no result bus).
 *
 * Shared memory is inside the SM: an access takes `bank conflict degree` cycles in the dispatch
 * register (32 four-byte banks, distinct words per bank, broadcast of equal words), then walks a
 * pipeline of depth -gpgpu_smem_latency that only advances into empty stages.
 * Global/local/const/texture accesses leave the SM: the coalescer turns the active lanes'
 * addresses into 32-byte sector requests (grouped by 128-byte line order), sent one per cycle
 * through the memory port (the `out` queue); responses come back through smtlm_ldst_respond.
 * The unit does not know what memory is behind the port.
 *
 * Writeback: at most one memory result per cycle, chosen round-robin among GPGPU-Sim's five
 * clients (shared pipeline, texture, constant, global, L1D; here shared and global are live). It
 * stalls (retries next cycle) when its register bank already took a write this cycle.
 *
 * Ports (smtlm_ldst_bind): its input register set OC_EX_MEM (it takes the oldest instruction
 * when its dispatch register is free), the instruction pool, the register-file write port and
 * the warp events of the issue stage. */
#ifndef SMTLM_LDST_H
#define SMTLM_LDST_H

#include "smtlm/common.h"
#include "smtlm/inst_pool.h"
#include "smtlm/ports.h"
#include "smtlm/regset.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SMTLM_LDST_OUT_CAP 256   /* request queue towards memory (power of two) */
#define SMTLM_LDST_RESP_CAP 8    /* response FIFO from memory (GPGPU-Sim response queue) */
#define SMTLM_SECTOR_BYTES 32
#define SMTLM_LINE_BYTES 128

typedef struct smtlm_mem_req {
    uint64_t addr;       /* sector-aligned address */
    uint32_t lanes;      /* lanes served by this sector */
    uint32_t bytes;      /* bytes of the sector the active lanes touch (bit b = byte b): byte enables */
    uint16_t size;       /* bytes (32) */
    uint16_t warp;
    uint32_t pc;
    uint32_t line;       /* the instruction's trace line (0 = unknown), for messages */
    smtlm_iref inst;     /* owning instruction (loads) */
    uint8_t is_write, space, atomic, sm_pad;
    uint64_t sent_cycle;
} smtlm_mem_req;

typedef struct smtlm_ldst_cfg {
    unsigned smem_latency;   /* -gpgpu_smem_latency: shared pipeline depth (> 1) */
    unsigned shmem_banks;    /* -gpgpu_shmem_num_banks (32) */
    unsigned shmem_warp_parts; /* -gpgpu_shmem_warp_parts: sub-warps counted separately */
    unsigned ports;          /* -gpgpu_mem_unit_ports: cycle() calls per core cycle */
} smtlm_ldst_cfg;

typedef struct smtlm_ldst {
    smtlm_ldst_cfg cfg;
    smtlm_iref dispatch;
    uint16_t disp_cycles;               /* shared-memory replay countdown */
    uint16_t n_acc, acc_next;           /* access queue of the dispatch-register instruction */
    smtlm_mem_req acc[SMTLM_WARP_SIZE * 2];
    smtlm_iref pipe[SMTLM_MAX_LATENCY];
    unsigned pipe_count;
    smtlm_iref next_wb;
    unsigned wb_arb;
    smtlm_mem_req resp[SMTLM_LDST_RESP_CAP];
    unsigned resp_head, resp_len;
    smtlm_iref next_global;
    smtlm_mem_req out[SMTLM_LDST_OUT_CAP];
    unsigned out_head, out_len;
    /* statistics */
    uint64_t shmem_accesses, shmem_bank_conflicts, mem_requests, mem_responses;
    uint64_t wb_bank_stalls, busy_cycles, issued;
    /* ports */
    smtlm_regset *in;
    smtlm_inst_pool *pool;
    smtlm_write_port rf;
    smtlm_warp_port warps;
    uint64_t now;
    /* Nonzero when the unit may have work (smtlm_ldst_has_work, a superset): OC_EX_MEM's puts
     * (its watch), a response and an issue set it, a cycle that leaves nothing clears it. */
    uint64_t live;
    const char *cfg_error;               /* why init rejected the configuration */
} smtlm_ldst;

int smtlm_ldst_init(smtlm_ldst *u, const smtlm_ldst_cfg *cfg);
void smtlm_ldst_bind(smtlm_ldst *u, smtlm_regset *oc_ex_mem, smtlm_inst_pool *pool, const smtlm_write_port *rf,
                     const smtlm_warp_port *warps);
void smtlm_ldst_reset(smtlm_ldst *u);

static inline int smtlm_ldst_can_issue(const smtlm_ldst *u) { return u->dispatch == SMTLM_NO_INST; }
/* Accepts a memory instruction (or MEMBAR) into the dispatch register and generates its
 * accesses (smtlm_ldst_cycle does this from OC_EX_MEM; exposed for tests). */
void smtlm_ldst_issue(smtlm_ldst *u, smtlm_iref r);
/* One core cycle at `now`: cfg.ports internal cycles, then the intake from OC_EX_MEM (the LDST
 * is not partitioned by sub-core: the oldest instruction of the set). */
int smtlm_ldst_cycle(smtlm_ldst *u, uint64_t now);
/* The cycle as an SM runs it (both engines): only while `live` says it could change something
 * (puts into OC_EX_MEM, responses and issues set it). */
static inline int smtlm_ldst_step(smtlm_ldst *u, uint64_t now) { return u->live ? smtlm_ldst_cycle(u, now) : SMTLM_OK; }

/* Memory port. */
static inline unsigned smtlm_ldst_pending_requests(const smtlm_ldst *u) { return u->out_len; }
/* Removes the oldest outgoing request into *req; 0 if none. */
int smtlm_ldst_pop_request(smtlm_ldst *u, smtlm_mem_req *req);
static inline const smtlm_mem_req *smtlm_ldst_peek_request(const smtlm_ldst *u)
{
    return u->out_len ? &u->out[u->out_head] : 0;
}
static inline int smtlm_ldst_can_respond(const smtlm_ldst *u) { return u->resp_len < SMTLM_LDST_RESP_CAP; }
/* Delivers a response (load data or store acknowledgement). SMTLM_EFULL if the FIFO is full. */
int smtlm_ldst_respond(smtlm_ldst *u, const smtlm_mem_req *req);
/* 1 while the unit holds work (dispatch, pipeline, writeback, queues). */
int smtlm_ldst_busy(const smtlm_ldst *u);
/* The same inline: a cycle of a unit neither busy nor fed by OC_EX_MEM changes nothing, so
 * the SM skips it (smtlm_ldst_cycle's time stamp is only read inside busy cycles). */
static inline int smtlm_ldst_has_work(const smtlm_ldst *u)
{
    return u->in->count || u->dispatch != SMTLM_NO_INST || u->pipe_count || u->next_wb != SMTLM_NO_INST ||
           u->resp_len || u->next_global != SMTLM_NO_INST || u->out_len;
}
/* 1 when the unit holds no work and OC_EX_MEM is empty (nothing to skip: an idle LDST counts
 * nothing). */
static inline int smtlm_ldst_idle(const smtlm_ldst *u) { return u->in->count == 0 && !smtlm_ldst_busy(u); }

/* Shared-memory bank-conflict degree of one warp access: max distinct 4-byte words over banks,
 * summed over sub-warps. Exposed for tests. */
unsigned smtlm_shmem_conflict_degree(const uint64_t *addr, uint32_t mask, unsigned banks, unsigned warp_parts);
/* Sector coalescer: fills out[] (room for 64) with one request per distinct 32-byte sector
 * touched by the active lanes (lane address .. address + width - 1), in address order. */
unsigned smtlm_coalesce_sectors(const uint64_t *addr, uint32_t mask, unsigned width, smtlm_mem_req *out);

#ifdef __cplusplus
}
#endif
#endif
