/* `cuobjdump -sass` listings (sm_70 and later: two 64-bit words per instruction): every
 * function's instructions with their compiler control bits and the register sources an Accel-Sim
 * trace lists for them, so that a trace's instructions can be given the control bits of the
 * binary they were traced from.
 *
 * A listing: a preamble (`code for sm_90a`, `.target sm_90a`), then per function
 * `Function : <name>` and `.headerflags ...`, then per instruction two lines:
 *     /_*0100*_/   FFMA R6, R4, R11, R5 ;     /_* 0x0000000b04067223 *_/   (PC, text, low word)
 *                                             /_* 0x020fc80000000005 *_/   (high word)
 * (drawn with `_` so as not to end this comment). Whole-program listings hold many functions,
 * possibly for several `code for sm_XX` blocks; lines that are none of these (`Fatbin elf code:`,
 * `.section`, `.headerflags`, blank lines, other comments) are skipped.
 *
 * Errors: the readers return SMTLM_OK or a negative smtlm_trace_status (smtlm/trace.h) and write
 * one message "<file>:<line>: <what>" into err[errlen] (err may be NULL). On error *out holds
 * nothing (nothing to free). */
#ifndef SMTLM_SASS_LISTING_H
#define SMTLM_SASS_LISTING_H

#include <stddef.h>
#include <stdint.h>

#include "smtlm/ctrl.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SMTLM_SASS_MAX_SRC 8   /* register sources kept per instruction (more is an error) */
#define SMTLM_SASS_RZ 255u     /* RZ as Accel-Sim traces write it (R255) */
#define SMTLM_SASS_SLOT_OTHER 3u
/* The largest listing read: 512 MiB of text (decoded, for xz); more is an error. */
#define SMTLM_SASS_MAX_BYTES ((uint64_t)512 << 20)
/* The largest PC of an instruction (16 MiB of code in one function): beyond is an error at its
 * line, so that a kernel's control-bit table (sass_code.h, one entry per 16 bytes) stays within
 * 12 MiB. */
#define SMTLM_SASS_MAX_PC 0xFFFFF0u

/* One register source operand, in operand order. */
typedef struct smtlm_sass_src {
    uint16_t reg;  /* register number; RZ = SMTLM_SASS_RZ */
    uint8_t slot;  /* operand slot: 0 = a, 1 = b, 2 = c for the first three operands after the
                    * destinations (operand 0, then the predicates that follow it as in
                    * IADD3 R2, P0, R4 or ISETP P0, PT, R2, and the register after a predicate
                    * destination as in LOP3.LUT P0, RZ, R4), else SMTLM_SASS_SLOT_OTHER; so is
                    * operand 0 read as a source (a store's address) and a register destination
                    * after a predicate one (listed among the sources, as the traces do) */
    uint8_t reuse; /* 1: the operand carries .reuse */
} smtlm_sass_src;

typedef struct smtlm_sass_inst {
    uint32_t pc;
    uint32_t line;   /* line of the listing (the instruction's first line) */
    char op[32];     /* the full mnemonic without predicate ("HFMA2.MMA"); cut at 31 bytes */
    uint64_t lo, hi; /* the two instruction words */
    smtlm_ctrl ctrl; /* stall, flags (SMTLM_CTRL_VALID, SMTLM_CTRL_YIELD), wbar, rbar, wait;
                      * reuse, wide, slots and pipe 0 (the instruction's source list has them) */
    uint8_t n_src;   /* register sources as an Accel-Sim trace lists them: */
    smtlm_sass_src src[SMTLM_SASS_MAX_SRC];
    /* Operand 0, when a general register (R6, RZ), is the destination. Every other general
     * register operand (R4, RZ, |R11|, -R4, R2.64, R4.reuse) is a source, and so is the base
     * register of a memory operand ([R11], [R2.64+0x8000], desc[UR4][R2.64]), or RZ when it has
     * none ([UR4], [0x10]); duplicates kept. Immediates, constant banks, uniform registers,
     * predicates and special registers are not listed. Operand 0 when not a general register (a
     * store's address, a predicate) is read like the others. */
} smtlm_sass_inst;

typedef struct smtlm_sass_func {
    char *name;
    unsigned arch;        /* of its `code for sm_XX` block (90 for sm_90a); 0: the listing names none */
    unsigned char variant; /* the block's letter after the number: 'a' for sm_90a (arch-specific), 0 for
                            * sm_90 */
    unsigned line;        /* line of its `Function :` */
    smtlm_sass_inst *inst; /* sorted by pc (a listing's PCs increase) */
    size_t n;
} smtlm_sass_func;

typedef struct smtlm_sass_listing {
    char *path;
    smtlm_sass_func *func; /* in listing order; a name is unique within an architecture and variant
                            * (a fatbin's listing has a kernel once per `code for sm_XX` block) */
    size_t n;
    size_t *index;         /* func's indices sorted by name, architecture, variant (the lookup) */
    size_t compares;       /* comparisons of two functions made building the index: for tests, that
                            * reading takes O(n log n) in the number of functions, not O(n^2) */
} smtlm_sass_listing;

/* Reads the listing at path (plain or xz). */
int smtlm_sass_listing_read(const char *path, smtlm_sass_listing *out, char *err, size_t errlen);
/* The same from memory; name stands for the path in messages and in out->path. */
int smtlm_sass_listing_parse(const char *text, size_t len, const char *name, smtlm_sass_listing *out,
                             char *err, size_t errlen);
/* The function called name for architecture arch (a trace's binary version: 90 for sm_90 and
 * sm_90a): the one of the `code for sm_<arch>a` block (the arch-specific code, which a device of
 * exactly that architecture runs when the fatbin has it), else of `sm_<arch>`, else of another
 * variant of it, else one outside any block; for arch 0 one outside any block, else the first
 * listed. NULL if there is none. O(log n). */
const smtlm_sass_func *smtlm_sass_func_find(const smtlm_sass_listing *l, const char *name, unsigned arch);
/* The instruction at pc (binary search), or NULL. */
const smtlm_sass_inst *smtlm_sass_inst_at(const smtlm_sass_func *f, uint32_t pc);
/* Frees what l holds (not l); l is left empty. */
void smtlm_sass_listing_free(smtlm_sass_listing *l);

#ifdef __cplusplus
}
#endif
#endif
