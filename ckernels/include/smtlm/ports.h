/* The calls that cross from one block to another, as ops tables bound once at init (QEMU's
 * MemoryRegionOps style). A block never touches another block's state: what it needs from a
 * neighbour goes through one of these tables. The C engine (smtlm_sm) binds the neighbour's C
 * functions; the SystemC model binds socket calls. Every call is synchronous and returns before
 * the caller goes on, so the order of events is the same either way. */
#ifndef SMTLM_PORTS_H
#define SMTLM_PORTS_H

#include "smtlm/inst_pool.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What an ALU register write did (smtlm_rf_write_ops.try_write). */
typedef enum smtlm_rf_write_result {
    SMTLM_RF_WRITTEN = 0,  /* the bank took the write in this step */
    SMTLM_RF_DROPPED = 1,  /* the bank already took one: GPGPU-Sim loses it, no stall */
    SMTLM_RF_BUFFERED = 2  /* -smtlm_fix_wb_bank_conflict: queued in the register file, which
                            * releases the register (smtlm_rf_ops.release) when it lands */
} smtlm_rf_write_result;

/* The register file's write port, used by writeback and by the LDST. */
typedef struct smtlm_rf_write_ops {
    void *ctx;
    /* ALU result: never stalls the caller. */
    smtlm_rf_write_result (*try_write)(void *ctx, unsigned warp, unsigned sched, unsigned reg);
    /* 1 if the register's bank has taken no write in this step (the LDST waits otherwise). */
    int (*can_write)(void *ctx, unsigned warp, unsigned sched, unsigned reg);
    /* Memory result, after can_write said yes for every destination. */
    void (*write)(void *ctx, unsigned warp, unsigned sched, unsigned reg);
} smtlm_rf_write_ops;

/* What the register file reports outside itself: a buffered write has landed. */
typedef struct smtlm_rf_ops {
    void *ctx;
    void (*release)(void *ctx, unsigned warp, unsigned reg); /* scoreboard release */
} smtlm_rf_ops;

/* Warp bookkeeping the back end reports to the issue stage (which owns warps and scoreboard). */
typedef struct smtlm_warp_ops {
    void *ctx;
    void (*release)(void *ctx, unsigned warp, unsigned reg);  /* scoreboard: register written */
    void (*completed)(void *ctx, const smtlm_inst *in);       /* an instruction finished executing */
    void (*retired)(void *ctx, unsigned warp);                /* it left the pipeline (in flight - 1) */
    void (*store_sent)(void *ctx, unsigned warp);             /* a store request left for memory */
    void (*store_acked)(void *ctx, unsigned warp);            /* and its acknowledgement came back */
    void (*atomic_done)(void *ctx, unsigned warp, unsigned lanes);
} smtlm_warp_ops;

/* Releases every destination of `in` (register 0 is never tracked). */
static inline void smtlm_warp_release_dsts(const smtlm_warp_ops *w, const smtlm_inst *in)
{
    for (unsigned i = 0; i < in->n_dst; i++)
        if (in->dst[i] > 0)
            w->release(w->ctx, in->warp, (unsigned)in->dst[i]);
}

#ifdef __cplusplus
}
#endif
#endif
