/* Limits, error codes and small helpers shared by every C kernel. */
#ifndef SMTLM_COMMON_H
#define SMTLM_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Compile-time limits: every kernel state is a fixed-size struct (no allocation). */
#define SMTLM_MAX_WARPS 64         /* hardware warp slots per SM (GPGPU-Sim: 2048 threads) */
#define SMTLM_MAX_SCHED 8          /* warp schedulers (sub-cores) per SM */
#define SMTLM_MAX_BANKS 64         /* register-file banks */
#define SMTLM_MAX_CUS 64           /* collector units over all CU sets */
#define SMTLM_MAX_CU_SETS 7        /* GEN + SP, DP, TENSOR_CORE, SFU, MEM, INT */
#define SMTLM_MAX_PORTS 64         /* operand-collector input ports */
#define SMTLM_MAX_REGSET_WIDTH 32  /* slots of one pipeline register set */
#define SMTLM_MAX_FUS 96           /* function units per SM (excluding LDST) */
#define SMTLM_MAX_LATENCY 512      /* GPGPU-Sim MAX_ALU_LATENCY: latencies are < 512 */
#define SMTLM_MAX_REG 511          /* highest register number (RZ is 256 in trace mode) */
#define SMTLM_MAX_RESULT_BUSES 32
#define SMTLM_POOL_SIZE 1024       /* instructions alive per SM (decoded .. retired) */
#define SMTLM_MEM_POOL_SIZE 256    /* memory instructions alive between decode and LDST */
#define SMTLM_MAX_CTAS 32          /* GPGPU-Sim MAX_CTA_PER_SHADER */
/* For a per-cycle or per-instruction step that must be inlined into its loop (left to itself,
 * the compiler may keep such a step out of line, and the call costs more than the step). */
#if defined(__GNUC__)
#define SMTLM_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define SMTLM_ALWAYS_INLINE inline
#endif
#define SMTLM_NO_INST 0xFFFFu

/* Error codes: every kernel returns SMTLM_OK or a negative code; never aborts. */
typedef enum smtlm_status {
    SMTLM_OK = 0,
    SMTLM_EINVAL = -1,    /* invalid configuration value */
    SMTLM_ERANGE = -2,    /* a value exceeds a compile-time limit */
    SMTLM_EFULL = -3,     /* no free slot / pool exhausted */
    SMTLM_EINPUT = -4,    /* malformed instruction from the front end */
    SMTLM_ESOURCE = -5,   /* the instruction source reported an error */
    SMTLM_EMEMORY = -6    /* the memory port reported an error response */
} smtlm_status;

const char *smtlm_status_str(int status);

/* Every init that rejects its configuration records why in its block's `cfg_error`: a static
 * string naming the field (and the GPGPU-Sim option it comes from), for a caller to print. */
static inline int smtlm_cfg_reject(const char **cfg_error, int code, const char *why)
{
    *cfg_error = why;
    return code;
}

typedef uint16_t smtlm_iref; /* index into the SM's instruction pool */

/* Bit count without a libgcc call (the x86-64 baseline has no POPCNT instruction); the usual
 * full warp mask answered at once. Always inline: it counts every completed instruction's
 * threads, and a call costs as much as the count. */
static SMTLM_ALWAYS_INLINE unsigned smtlm_popcount32(uint32_t x)
{
    if (x == 0xFFFFFFFFu)
        return 32;
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (unsigned)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}
static inline unsigned smtlm_ctz64(uint64_t x) { return (unsigned)__builtin_ctzll(x); }

#ifdef __cplusplus
}
#endif
#endif
