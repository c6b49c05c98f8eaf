/* The ports that cross from one block to another. Each port is bound once, when the blocks are
 * put together, to one of two targets: the neighbour block's own state (a typed pointer: the
 * direct target, as the C engine binds every port and a SystemC socket whose target grants
 * direct access), or an ops table (QEMU's MemoryRegionOps style; the SystemC model's socket
 * calls, a probe, a block of the user's own) with the direct target NULL. A block never touches
 * another block's state except through a port, and calls a port only through the inline
 * functions of port_calls.h, which branch on the target (as a TLM-2.0 initiator socket decides
 * between DMI and a transaction). Every call is synchronous and returns before the caller goes
 * on, so the order of events is the same either way. */
#ifndef SMTLM_PORTS_H
#define SMTLM_PORTS_H

#include "smtlm/inst_pool.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What an ALU register write did (smtlm_write_port.try_write). */
typedef enum smtlm_rf_write_result {
    SMTLM_RF_WRITTEN = 0,  /* the bank took the write in this step */
    SMTLM_RF_DROPPED = 1,  /* the bank already took one: GPGPU-Sim loses it, no stall */
    SMTLM_RF_BUFFERED = 2  /* -smtlm_fix_wb_bank_conflict: queued in the register file, which
                            * releases the register (smtlm_release_port.release) when it lands */
} smtlm_rf_write_result;

struct smtlm_rf;
struct smtlm_regset;

/* The register file's write port, used by writeback and by the LDST. */
typedef struct smtlm_write_port {
    struct smtlm_rf *rf; /* direct target, else NULL: the ops below */
    void *ctx;
    /* ALU result: never stalls the caller. */
    smtlm_rf_write_result (*try_write)(void *ctx, unsigned warp, unsigned sched, unsigned reg);
    /* 1 if the register's bank has taken no write in this step (the LDST waits otherwise). */
    int (*can_write)(void *ctx, unsigned warp, unsigned sched, unsigned reg);
    /* Memory result, after can_write said yes for every destination. */
    void (*write)(void *ctx, unsigned warp, unsigned sched, unsigned reg);
} smtlm_write_port;

struct smtlm_issue;

/* What the register file reports outside itself: a buffered write has landed. */
typedef struct smtlm_release_port {
    struct smtlm_issue *issue; /* direct target (its scoreboard release), else NULL: the ops */
    void *ctx;
    void (*release)(void *ctx, unsigned warp, unsigned reg); /* scoreboard release */
} smtlm_release_port;

/* Warp bookkeeping the back end reports to the issue stage (which owns warps and scoreboard):
 * the events of issue_events.h. */
typedef struct smtlm_warp_port {
    struct smtlm_issue *issue; /* direct target, else NULL: the ops below */
    void *ctx;
    void (*release)(void *ctx, unsigned warp, unsigned reg);  /* scoreboard: register written */
    void (*completed)(void *ctx, const smtlm_inst *in);       /* an instruction finished executing */
    void (*retired)(void *ctx, unsigned warp);                /* it left the pipeline (in flight - 1) */
    void (*store_sent)(void *ctx, unsigned warp);             /* a store request left for memory */
    void (*store_acked)(void *ctx, unsigned warp);            /* and its acknowledgement came back */
    void (*atomic_done)(void *ctx, unsigned warp, unsigned lanes);
    /* An ALU instruction's whole writeback as one event: release the destinations whose bit is
     * set in release_mask (bit i = dst[i]), then completed, then retired (one transaction). */
    void (*written_back)(void *ctx, const smtlm_inst *in, unsigned release_mask);
} smtlm_warp_port;

/* A pipeline register set seen from its producer. The set belongs to the block that reads it;
 * the producer asks for room and hands an instruction in. A refused hand-off (no room) is
 * back-pressure: the producer keeps the instruction and tries again in a later cycle. */
typedef struct smtlm_stage_port {
    struct smtlm_regset *sets; /* direct target: the reader's sets (a put moves in), else NULL */
    void *ctx;
    /* 1 if set `set` has room: slot `s` under the sub-core model, any slot otherwise. */
    int (*has_free)(void *ctx, unsigned set, int sub_core, unsigned s);
    /* Hands r (age `uid`) into set `set`; returns the slot taken or -1 when refused. */
    int (*put)(void *ctx, unsigned set, int sub_core, unsigned s, smtlm_iref r, uint64_t uid);
    /* The sets themselves when a producer may look at their room directly (like
     * sc_fifo::num_free): the room check then reads them without a call. NULL: ask has_free. */
    const struct smtlm_regset *row;
} smtlm_stage_port;

/* A read request of a collector unit: operand `operand` of the instruction in CU `cu`. */
typedef struct smtlm_read_req {
    uint8_t cu;
    uint8_t operand;
    uint16_t reg;
} smtlm_read_req;

/* One read granted in an arbitration step: the register file's answer to the collector. */
typedef struct smtlm_read_grant {
    uint8_t cu;
    uint8_t operand;
    uint8_t bank;
} smtlm_read_grant;

/* The register file's read side, used by the operand collector. */
typedef struct smtlm_read_port {
    struct smtlm_rf *rf; /* direct target, else NULL: the ops below */
    void *ctx;
    /* Bank of register `reg` of warp `warp` issued by scheduler `sched`. */
    unsigned (*bank)(void *ctx, unsigned reg, unsigned warp, unsigned sched);
    /* Queues a read at the tail of `bank`'s FIFO; SMTLM_EFULL when the queue is full. */
    int (*request)(void *ctx, unsigned bank, smtlm_read_req req);
    /* Optional (NULL: one request per read): queues the reads of operand slots `ops` (a mask)
     * of CU `cu`'s instruction as smtlm_rf_request_reads does, in one call; *queued = the
     * slots queued (all unless it failed). */
    int (*request_reads)(void *ctx, unsigned cu, unsigned warp, unsigned sched, const int16_t *src, unsigned ops,
                         unsigned *queued);
    /* One arbitration step (smtlm_rf_arbitrate): the grants into g (room for one per bank),
     * returns their number. */
    unsigned (*arbitrate)(void *ctx, smtlm_read_grant *g);
} smtlm_read_port;

#ifdef __cplusplus
}
#endif
#endif
