/* The compiler's control bits of one instruction (Volta and later encode them in every
 * instruction word), and the facts of its opcode the silicon core needs: which pipe runs it and
 * how its source operands sit in the register file. The silicon core (-smtlm_core silicon)
 * follows them; the Accel-Sim compositions ignore them. An instruction without them carries
 * all zeros (flags without SMTLM_CTRL_VALID). */
#ifndef SMTLM_CTRL_H
#define SMTLM_CTRL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The pipes of a Hopper sub-core the silicon core models (docs/SILICON.md). */
typedef enum smtlm_pipe {
    SMTLM_PIPE_NONE = 0, /* not executed on a math pipe: EXIT, BAR, branches, NOP */
    SMTLM_PIPE_FMA,      /* FP32: FFMA, FADD, FMUL, FSETP, FMNMX, ... (either half of the FMA pipe) */
    SMTLM_PIPE_FMA_HEAVY, /* integer multiply-add: IMAD, IMUL, IDP (the FMA pipe's heavy half only) */
    SMTLM_PIPE_ALU,      /* integer and logic: IADD3, LOP3, SHF, ISETP, MOV, ... */
    SMTLM_PIPE_FP16,     /* HFMA2, HADD2, HMUL2 */
    SMTLM_PIPE_MMA16,    /* HFMA2.MMA: FP16 on the matrix pipe */
    SMTLM_PIPE_FP64,     /* DFMA, DADD, DMUL, DSETP */
    SMTLM_PIPE_MUFU,     /* MUFU.* */
    SMTLM_PIPE_LSU,      /* loads, stores, atomics (shared memory timed here; others by the memory) */
    SMTLM_PIPE_TENSOR,   /* HMMA, HGMMA, IMMA, DMMA, ... */
    SMTLM_PIPE_OTHER,    /* everything else (conversions, S2R, LDC, ...): variable latency */
    SMTLM_PIPE_COUNT
} smtlm_pipe;

enum {
    SMTLM_CTRL_VALID = 1u << 0,   /* the bits below were read from a listing or derived */
    SMTLM_CTRL_YIELD = 1u << 1,   /* the encoding's yield bit is 1 */
    SMTLM_CTRL_DERIVED = 1u << 2  /* derived from the trace (no listing) */
};

#define SMTLM_CTRL_NO_BAR 7u /* wbar / rbar: no barrier */

typedef struct smtlm_ctrl {
    uint8_t stall; /* 0..15: cycles from this instruction's issue to the warp's next */
    uint8_t flags; /* SMTLM_CTRL_* */
    uint8_t wbar;  /* dependency barrier (0..5) set until the result is written; 7: none */
    uint8_t rbar;  /* barrier (0..5) set until the sources are read; 7: none */
    uint8_t wait;  /* barriers waited on before issue: bit i = barrier i */
    uint8_t reuse; /* bit i: source i (trace order) is kept in its slot's reuse cache */
    uint8_t wide;  /* bit i: source i is a 64-bit register pair */
    uint8_t slots; /* bits 2i..2i+1: the operand slot of source i (0 = a, 1 = b, 2 = c, 3 = other) */
    uint8_t pipe;  /* smtlm_pipe */
    uint8_t pad_[3];
} smtlm_ctrl;

/* A kernel's control bits by PC (16-byte instructions): at[pc / 16], n entries; an entry
 * without SMTLM_CTRL_VALID is a PC the listing does not hold. */
typedef struct smtlm_code {
    const smtlm_ctrl *at;
    uint32_t n;
} smtlm_code;

static inline const smtlm_ctrl *smtlm_code_at(const smtlm_code *c, uint32_t pc)
{
    return c && (pc >> 4) < c->n && (c->at[pc >> 4].flags & SMTLM_CTRL_VALID) ? &c->at[pc >> 4] : 0;
}

static inline unsigned smtlm_ctrl_slot(const smtlm_ctrl *c, unsigned i) { return (unsigned)(c->slots >> (2 * i)) & 3u; }

#ifdef __cplusplus
}
#endif
#endif
