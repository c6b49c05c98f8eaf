/* Instruction descriptor: what a front end (trace reader, synthetic generator) hands the SM
 * for one warp instruction at decode time. Register numbers are simulator numbers: the trace
 * front end has already applied Accel-Sim's +1 offset and RZ (R255) -> 256. */
#ifndef SMTLM_INST_H
#define SMTLM_INST_H

#include <stdint.h>

#include "smtlm/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SMTLM_WARP_SIZE 32
#define SMTLM_MAX_DST 4 /* Accel-Sim traces carry one; PTX-like front ends may carry more */
#define SMTLM_MAX_SRC 4 /* Accel-Sim's parser limit (MAX_SRC) */
#define SMTLM_MAX_SPEC_UNITS 8

/* Operation category, as Accel-Sim's opcode maps (trace_driven opcode tables) assign them. */
typedef enum smtlm_op {
    SMTLM_OP_SP = 0,      /* SP_OP: FFMA, FADD, ... -> SP unit */
    SMTLM_OP_DP,          /* DP_OP -> DP unit (SFU when there is none) */
    SMTLM_OP_SFU,         /* SFU_OP: MUFU -> SFU */
    SMTLM_OP_INTP,        /* INTP_OP: IADD3, IMAD, ... -> INT unit (SP without INT units) */
    SMTLM_OP_ALU,         /* ALU_OP: MOV, conversions, LDC, S2R, ... -> INT unit, int latency */
    SMTLM_OP_BRANCH,      /* BRANCH_OP / CALL_OPS / RET_OPS (Pascal: ordinary ALU ops) */
    SMTLM_OP_TENSOR_CORE, /* TENSOR_CORE_OP -> tensor-core unit */
    SMTLM_OP_LOAD,        /* LOAD_OP -> LDST */
    SMTLM_OP_STORE,       /* STORE_OP -> LDST */
    SMTLM_OP_MEMBAR,      /* MEMORY_BARRIER_OP -> LDST, warp waits for its own pending writes */
    SMTLM_OP_BARRIER,     /* BARRIER_OP (BAR): full-CTA sync, issued like an ALU op */
    SMTLM_OP_EXIT,        /* EXIT_OPS: retires the lanes in its mask at issue */
    SMTLM_OP_SPEC,        /* SPECIALIZED_UNIT_k (BRA, TEX, TENSOR, UDP): see smtlm_inst_desc.spec */
    SMTLM_OP_COUNT
} smtlm_op;

/* Memory space of a LOAD/STORE. */
typedef enum smtlm_mem_space {
    SMTLM_MEM_NONE = 0,
    SMTLM_MEM_SHARED,
    SMTLM_MEM_GLOBAL,
    SMTLM_MEM_LOCAL,
    SMTLM_MEM_CONST,
    SMTLM_MEM_TEX,
    SMTLM_MEM_COUNT
} smtlm_mem_space;

typedef struct smtlm_inst_desc {
    uint32_t pc;
    uint32_t mask;        /* active mask (trace: active AND guard predicate) */
    uint8_t op;           /* smtlm_op */
    uint8_t spec;         /* specialized unit 1..8 when op == SMTLM_OP_SPEC, else 0 */
    uint8_t n_dst;
    uint8_t n_src;
    int16_t dst[SMTLM_MAX_DST]; /* simulator register numbers, > 0 */
    int16_t src[SMTLM_MAX_SRC];
    uint16_t latency;     /* execution latency (trace.config), 1..511 */
    uint16_t ii;          /* initiation interval, 0..latency (smtlm_ii_fits) */
    uint8_t mem_space;    /* smtlm_mem_space; NONE for non-memory instructions */
    uint8_t mem_width;    /* bytes per lane (1..16) when mem_space != NONE */
    uint8_t atomic;       /* 1 for ATOM/ATOMS/ATOMG/RED */
    uint8_t reserved;
    uint32_t line;        /* source line of the trace (0 = unknown), for messages */
    uint64_t addr[SMTLM_WARP_SIZE]; /* per-lane addresses; valid for active lanes of memory ops */
} smtlm_inst_desc;

/* An initiation interval of 0 is Accel-Sim 2.0's (SM90_H100's tensor unit, "1,0"): the
 * dispatch register lets the instruction go in its first cycle, as with 1, and it enters the
 * stage `latency`, one past the stage an interval of 1 enters, so its result comes one cycle
 * later and the unit still takes one instruction a cycle (Accel-Sim 2.0 readies it `latency`
 * cycles after dispatch; GPGPU-Sim's start stage is latency - II either way). The stage before
 * it must lie in the pipeline as for an interval of 1, and the ring of cycles must hold the two
 * cycles it reaches past `latency` (it leaves at latency + 2). */
#define SMTLM_MAX_LATENCY_II0 (SMTLM_MAX_LATENCY - 3)
static inline int smtlm_ii_fits(unsigned latency, unsigned ii)
{
    return latency >= 1 && ii <= latency && latency < (ii ? SMTLM_MAX_LATENCY : SMTLM_MAX_LATENCY_II0 + 1);
}
/* The last stage an instruction passes that the unit's depth must hold: latency - max(II, 1). */
static inline unsigned smtlm_ii_deepest_stage(unsigned latency, unsigned ii)
{
    return latency - (ii ? ii : 1u);
}

#ifdef __cplusplus
}
#endif
#endif
