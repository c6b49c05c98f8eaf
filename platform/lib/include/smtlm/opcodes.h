/* SASS opcode maps of Accel-Sim's trace front end (ISA_Def/{pascal,volta,turing,ampere}_opcode.h,
 * and a Hopper map: Ampere's plus Hopper's new opcodes):
 * first '.'-token of a SASS mnemonic -> Accel-Sim operation category, plus the few per-opcode
 * facts trace_driven.cc adds (memory space, atomics, FP16 half initiation interval).
 * The tables are static const, sorted by name, looked up by binary search. */
#ifndef SMTLM_OPCODES_H
#define SMTLM_OPCODES_H

#include <stddef.h>
#include <stdint.h>

#include "smtlm/ctrl.h"
#include "smtlm/inst.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Accel-Sim's op_type categories as the SASS maps use them. */
typedef enum smtlm_opcat {
    SMTLM_OPCAT_ALU = 0,     /* ALU_OP */
    SMTLM_OPCAT_SP,          /* SP_OP */
    SMTLM_OPCAT_DP,          /* DP_OP */
    SMTLM_OPCAT_SFU,         /* SFU_OP */
    SMTLM_OPCAT_INTP,        /* INTP_OP */
    SMTLM_OPCAT_TENSOR_CORE, /* TENSOR_CORE_OP (no SASS map produces it) */
    SMTLM_OPCAT_LOAD,        /* LOAD_OP */
    SMTLM_OPCAT_STORE,       /* STORE_OP */
    SMTLM_OPCAT_BRANCH,      /* BRANCH_OP */
    SMTLM_OPCAT_CALL,        /* CALL_OPS */
    SMTLM_OPCAT_RET,         /* RET_OPS */
    SMTLM_OPCAT_BARRIER,     /* BARRIER_OP */
    SMTLM_OPCAT_MEMBAR,      /* MEMORY_BARRIER_OP */
    SMTLM_OPCAT_EXIT,        /* EXIT_OPS */
    SMTLM_OPCAT_SPEC_1,      /* SPECIALIZED_UNIT_1_OP .. _8_OP, consecutive */
    SMTLM_OPCAT_SPEC_2,
    SMTLM_OPCAT_SPEC_3,
    SMTLM_OPCAT_SPEC_4,
    SMTLM_OPCAT_SPEC_5,
    SMTLM_OPCAT_SPEC_6,
    SMTLM_OPCAT_SPEC_7,
    SMTLM_OPCAT_SPEC_8,
    SMTLM_OPCAT_COUNT
} smtlm_opcat;

/* Memory space trace_driven.cc gives an opcode. LDC is deliberately NONE: Accel-Sim maps it
 * to ALU_OP ("we ignore constant loads"), so it never reaches the LDST unit. */
typedef enum smtlm_opmem {
    SMTLM_OPMEM_NONE = 0,
    SMTLM_OPMEM_SHARED,  /* LDS, STS, ATOMS, LDSM */
    SMTLM_OPMEM_GLOBAL,  /* LDG, LDGSTS, STG, ATOM, ATOMG, RED */
    SMTLM_OPMEM_LOCAL,   /* LDL, STL */
    SMTLM_OPMEM_GENERIC  /* LD, ST: resolved per instruction from the kernel's base addresses */
} smtlm_opmem;

/* Per-opcode flags (bit set). */
enum {
    SMTLM_OPF_ATOMIC = 1u << 0,      /* ATOM, ATOMG, RED, ATOMS */
    SMTLM_OPF_ATOM_AS_LOAD = 1u << 1, /* ATOM, ATOMG, RED: category becomes LOAD_OP */
    SMTLM_OPF_FP16_HALF_II = 1u << 2, /* HADD2(_32I), HFMA2(_32I), HMUL2_32I, HSET2, HSETP2 */
    SMTLM_OPF_TMA_LIST = 1u << 3      /* Hopper TMA and bulk copies: a transfer list after mem_width */
};

typedef struct smtlm_opcode {
    const char *name; /* first '.'-token, e.g. "LDG" */
    uint8_t cat;      /* smtlm_opcat */
    uint8_t mem;      /* smtlm_opmem */
    uint8_t flags;    /* SMTLM_OPF_* */
} smtlm_opcode;

typedef struct smtlm_opcode_map {
    const char *arch;         /* "pascal", "volta", "turing", "ampere", "hopper" */
    const smtlm_opcode *ops;  /* sorted by strcmp(name) */
    size_t n;
} smtlm_opcode_map;

extern const smtlm_opcode_map smtlm_opcode_map_pascal; /* binary 60, 61 */
extern const smtlm_opcode_map smtlm_opcode_map_volta;  /* binary 70 */
extern const smtlm_opcode_map smtlm_opcode_map_turing; /* binary 75 */
extern const smtlm_opcode_map smtlm_opcode_map_ampere; /* binary 80, 86 */
extern const smtlm_opcode_map smtlm_opcode_map_hopper; /* binary 90 */

/* Map Accel-Sim selects for a `-binary version`; NULL when it has none. */
const smtlm_opcode_map *smtlm_opcode_map_for_binary(unsigned binary_version);

/* Exact lookup of one name of `len` bytes (need not be NUL-terminated); NULL if absent. */
const smtlm_opcode *smtlm_opcode_find(const smtlm_opcode_map *map, const char *name, size_t len);

/* Lookup of a full SASS mnemonic ("LDG.E.128.SYS") by its first non-empty '.'-token. */
const smtlm_opcode *smtlm_opcode_find_sass(const smtlm_opcode_map *map, const char *sass);

/* Length and start of the first non-empty '.'-token of `sass` (len bytes); 0 when none. */
size_t smtlm_opcode_first_token(const char *sass, size_t len, const char **start);

/* Descriptor category (smtlm_op) of an Accel-Sim category; *spec gets 1..8 for SPEC_k, else 0.
 * BRANCH/CALL/RET all become SMTLM_OP_BRANCH. */
smtlm_op smtlm_opcat_to_op(smtlm_opcat cat, uint8_t *spec);

/* The Hopper pipe (smtlm_pipe) of a full SASS mnemonic without its predicate, len bytes (need not
 * be NUL-terminated): "FFMA", "HFMA2.MMA" (MMA16), "MUFU.EX2", "IMAD.WIDE.U32", "LDS.64".
 * SMTLM_PIPE_OTHER for a mnemonic it does not know. Pure. */
smtlm_pipe smtlm_sass_pipe(const char *mnemonic, size_t len);

/* 1 when the instruction's register sources are 64-bit register pairs (DFMA, DADD, DMUL, DSETP,
 * with any suffix), else 0. Pure. */
unsigned smtlm_sass_wide_sources(const char *mnemonic, size_t len);

/* Nonzero when the table is strictly sorted (names unique) - a self-check for tests. */
int smtlm_opcode_map_is_sorted(const smtlm_opcode_map *map);

#ifdef __cplusplus
}
#endif
#endif
