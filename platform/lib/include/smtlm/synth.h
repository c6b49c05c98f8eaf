/* Synthetic workload generator: a deterministic pseudo-random SASS-like instruction stream per
 * warp, served through the engine's smtlm_inst_source, with an smtlm_cta_binder that tells the
 * generator which CTA runs on which (SM, hardware warps).
 *
 * Every warp stream is a pure function of (cfg, seed, global warp index): global warp =
 * cta_id * warps_per_cta + warp within the CTA. It holds cfg.insts_per_warp body instructions
 * drawn from the op mix, then one EXIT. The PRNG is splitmix64 seeded per warp, two draws per
 * instruction, integer arithmetic only; nothing depends on the host, the time, rand() or globals.
 *
 * Instruction shapes (registers are simulator numbers: trace Rn + 1, never 0):
 *   sp   FFMA  Rd, Ra, Rb, Rc      SMTLM_OP_SP     latency table entry "sp"
 *   int  IADD3 Rd, Ra, Rb, Rc      SMTLM_OP_INTP   "int"
 *   sfu  MUFU  Rd, Ra              SMTLM_OP_SFU    "sfu"
 *   dp   DFMA  Rd, Ra, Rb, Rc      SMTLM_OP_DP     "dp"
 *   ldst LDS   Rd, [Ra]  or  STS [Ra], Rb (store_pct of them): shared memory, lane k at
 *        slot_base + k * smem_stride inside the CTA's shared memory (slot_base = one of
 *        shmem_per_cta / (32 * smem_stride) slots); a stride of 8 bytes gives 2-way conflicts
 *   ldg  LDG   Rd, [Ra]: global, lane k at global_base + gwarp * 4096 + (i % 32) * 128 + 4k
 *        (one coalesced 128-byte line)
 * Registers: R0 .. R(n_regs-1), R = floor(n_regs * u^reg_skew) for u uniform in [0, 1) (16-bit
 * resolution), so low registers are hot (reg_skew 2: P(R0) = sqrt(1/n_regs)). Dependencies:
 * with probability dep_pct the first source of instruction i is the destination of instruction
 * i - dep_distance (when that one wrote a register).
 *
 * Usage:
 *   smtlm_synth_cfg cfg; smtlm_synth_cfg_default(&cfg);
 *   smtlm_synth_parse_mix("sp=60,int=35,sfu=5", &cfg.mix, err, sizeof err);
 *   smtlm_synth s; if (smtlm_synth_init(&s, &cfg)) ...;
 *   smtlm_inst_source src = smtlm_synth_source(&s); smtlm_cta_binder b = smtlm_synth_binder(&s);
 *   smtlm_gpu_set_source(gpu, &src, &b); smtlm_kernel_desc k = smtlm_synth_kernel(&s);
 *   smtlm_gpu_launch(gpu, &k); smtlm_gpu_run(gpu); ... smtlm_synth_free(&s);
 * Error codes are smtlm_status values (SMTLM_EINVAL, SMTLM_ERANGE, ...). */
#ifndef SMTLM_SYNTH_H
#define SMTLM_SYNTH_H

#include <stddef.h>
#include <stdint.h>

#include "smtlm/gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Op classes of the mix, in the order of smtlm_synth_mix.pct and smtlm_synth_cfg.lat. */
typedef enum smtlm_synth_class {
    SMTLM_SYNTH_SP = 0, /* FFMA */
    SMTLM_SYNTH_INT,    /* IADD3 */
    SMTLM_SYNTH_SFU,    /* MUFU */
    SMTLM_SYNTH_DP,     /* DFMA */
    SMTLM_SYNTH_LDST,   /* LDS / STS */
    SMTLM_SYNTH_LDG,    /* LDG */
    SMTLM_SYNTH_CLASSES
} smtlm_synth_class;

#define SMTLM_SYNTH_MAX_DEP 64      /* largest dependency distance */
#define SMTLM_SYNTH_MAX_REGS 255    /* R0 .. R254 (R255 is RZ) */

/* Percent per class; they sum to 100. */
typedef struct smtlm_synth_mix {
    uint8_t pct[SMTLM_SYNTH_CLASSES];
} smtlm_synth_mix;

/* Latency and initiation interval of one class (trace.config -trace_opcode_latency_*). */
typedef struct smtlm_synth_lat {
    uint16_t latency; /* 1..511 */
    uint16_t ii;      /* 1..latency */
} smtlm_synth_lat;

typedef struct smtlm_synth_cfg {
    uint32_t n_ctas;           /* CTAs in the grid (default 1) */
    uint32_t warps_per_cta;    /* default 32 (1024 threads) */
    uint32_t threads_per_cta;  /* 0 = 32 * warps_per_cta; else wins (warps_per_cta must be 0 or
                                  ceil(threads / 32)); a partial last warp has fewer lanes */
    uint32_t insts_per_warp;   /* body instructions per warp, EXIT excluded (default 2000) */
    smtlm_synth_mix mix;       /* default sp=60,int=30,sfu=5,ldst=5 */
    unsigned dep_distance;     /* 0 = none, 1..SMTLM_SYNTH_MAX_DEP (default 4) */
    unsigned dep_pct;          /* percent of instructions that take the dependency (default 50) */
    unsigned n_regs;           /* distinct architectural registers, 1..255 (default 32) */
    unsigned reg_skew;         /* register = n_regs * u^reg_skew: 1 = flat .. 8 (default 2) */
    unsigned smem_stride;      /* bytes between lanes of LDS/STS, multiple of 4, 4..4096 (8) */
    unsigned store_pct;        /* percent of ldst that are STS (default 25) */
    uint32_t shmem_per_cta;    /* bytes; 0 = 4 slots of 32 * smem_stride when ldst > 0 */
    uint64_t global_base;      /* LDG address base (default 0x10000000) */
    smtlm_synth_lat lat[SMTLM_SYNTH_CLASSES]; /* QV100 trace.config defaults */
    uint64_t seed;             /* default 1 */
} smtlm_synth_cfg;

/* One warp's generator state. */
typedef struct smtlm_synth_stream {
    uint64_t rng;
    uint32_t pos;              /* index of the next instruction */
    uint32_t gwarp;            /* global warp index */
    uint32_t mask;             /* lanes of this warp inside its CTA */
    uint8_t bound;             /* 1 while a CTA is bound to this slot */
    int16_t hist[SMTLM_SYNTH_MAX_DEP]; /* destination of instruction pos - k (0 = none) */
} smtlm_synth_stream;

typedef struct smtlm_synth {
    smtlm_synth_cfg cfg;
    uint32_t threads_per_cta, warps_per_cta, shmem_per_cta, smem_slots;
    uint8_t class_of[100];     /* percentile -> class (the mix as a table) */
    uint8_t op_of[SMTLM_SYNTH_CLASSES], n_src_of[SMTLM_SYNTH_CLASSES];
    smtlm_synth_stream *slot;  /* [sm * SMTLM_MAX_WARPS + hw warp], grown by the binder */
    unsigned n_sm_slots;
} smtlm_synth;

/* QV100 defaults (see the field comments); lat = sp 2,2 int 2,2 sfu 20,8 dp 8,4 ldst/ldg 1,1. */
void smtlm_synth_cfg_default(smtlm_synth_cfg *cfg);

/* Parses "sp=60,int=30,sfu=5,ldst=5" (keys sp int sfu dp ldst ldg; integer percents 0..100;
 * absent keys are 0; the sum must be 100; blanks around tokens are allowed). Returns SMTLM_OK
 * or SMTLM_EINVAL with one message in err[errlen] (err may be NULL); *out untouched on error. */
int smtlm_synth_parse_mix(const char *s, smtlm_synth_mix *out, char *err, size_t errlen);
/* Writes the canonical "sp=60,int=30,..." form (non-zero classes only). */
void smtlm_synth_mix_str(const smtlm_synth_mix *mix, char *buf, size_t len);

/* SMTLM_OK, or SMTLM_EINVAL / SMTLM_ERANGE with a message naming the field. */
int smtlm_synth_check(const smtlm_synth_cfg *cfg, char *err, size_t errlen);
/* Validates cfg and sets s up (no streams bound yet). */
int smtlm_synth_init(smtlm_synth *s, const smtlm_synth_cfg *cfg);
/* Releases the slot table; s can be initialised again. */
void smtlm_synth_free(smtlm_synth *s);

/* The interfaces for smtlm_gpu_set_source. They point at s, which must outlive the run. */
smtlm_inst_source smtlm_synth_source(smtlm_synth *s);
smtlm_cta_binder smtlm_synth_binder(smtlm_synth *s);
/* Kernel: n_ctas, threads_per_cta, shmem_per_cta, regs_per_thread = n_regs. */
smtlm_kernel_desc smtlm_synth_kernel(const smtlm_synth *s);

/* Binds CTA cta_id to hardware warps first_warp .. first_warp + n_warps - 1 of SM `sm` (what
 * the binder's cta_start does). n_warps must equal warps_per_cta. SMTLM_EFULL on allocation
 * failure (the slot table grows with the highest SM index seen). */
int smtlm_synth_bind(smtlm_synth *s, unsigned sm, unsigned first_warp, unsigned n_warps, uint32_t cta_id);

/* Totals of the whole grid, known up front. */
uint64_t smtlm_synth_total_warp_insts(const smtlm_synth *s);   /* incl. one EXIT per warp */
uint64_t smtlm_synth_total_thread_insts(const smtlm_synth *s); /* active lanes summed */

/* Direct access to one warp's stream (tests, tools): init then next until it returns 0.
 * next returns 1 with *out filled, 0 once the EXIT has been delivered. */
void smtlm_synth_stream_init(const smtlm_synth *s, smtlm_synth_stream *st, uint32_t global_warp);
int smtlm_synth_stream_next(const smtlm_synth *s, smtlm_synth_stream *st, smtlm_inst_desc *out);
static inline int smtlm_synth_stream_more(const smtlm_synth *s, const smtlm_synth_stream *st)
{
    return st->pos <= s->cfg.insts_per_warp;
}

#ifdef __cplusplus
}
#endif
#endif
