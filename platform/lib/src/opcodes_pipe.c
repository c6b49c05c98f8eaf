/* The Hopper sub-core pipe of a SASS instruction (smtlm_pipe, smtlm/ctrl.h), from its mnemonic.
 *
 * FMA: FP32 arithmetic, compares and min/max (FFMA, FADD, FMUL, FSETP, FMNMX, FSET, FSWZADD).
 * ALU: integer arithmetic (IMAD and IMUL too), logic, shifts, moves, selects (FSEL as SEL), bit
 * counts, predicate moves and the DPX integer ops. FP16: the packed half ops (HFMA2, HADD2, HMUL2,
 * HSET2, HSETP2, HMNMX2, VHMNMX), but an FP16 op with an MMA suffix (HFMA2.MMA) runs on the
 * matrix pipe: MMA16. FP64: DFMA, DADD, DMUL, DSETP. MUFU: MUFU. LSU: the loads, stores,
 * atomics and reductions that carry lane addresses (not LDC, a constant load). TENSOR: the MMAs
 * (HMMA, IMMA, DMMA, BMMA) and warpgroup MMAs (HGMMA, IGMMA, QGMMA, BGMMA). NONE: branches,
 * barriers, waits and EXIT, which no math pipe executes. OTHER: everything else - conversions,
 * S2R/CS2R, LDC, SHFL, VOTE, FCHK, FRND, memory fences, the sync unit, TMA and bulk copies, the
 * uniform datapath - whose latency is variable. */
#include "smtlm/opcodes.h"
#include "opcodes_internal.h"

typedef struct sass_pipe_row {
    const char *name; /* first '.'-token */
    uint8_t pipe;     /* smtlm_pipe */
} sass_pipe_row;

/* Sorted by strcmp (smtlm_sorted_name_find). */
static const sass_pipe_row pipe_rows[] = {
    {"ACQBULK", SMTLM_PIPE_NONE},
    {"ATOM", SMTLM_PIPE_LSU},
    {"ATOMG", SMTLM_PIPE_LSU},
    {"ATOMS", SMTLM_PIPE_LSU},
    {"BAR", SMTLM_PIPE_NONE},
    {"BGMMA", SMTLM_PIPE_TENSOR},
    {"BMMA", SMTLM_PIPE_TENSOR},
    {"BMOV", SMTLM_PIPE_NONE},
    {"BMSK", SMTLM_PIPE_ALU},
    {"BPT", SMTLM_PIPE_NONE},
    {"BRA", SMTLM_PIPE_NONE},
    {"BREAK", SMTLM_PIPE_NONE},
    {"BREV", SMTLM_PIPE_ALU},
    {"BRX", SMTLM_PIPE_NONE},
    {"BRXU", SMTLM_PIPE_NONE},
    {"BSSY", SMTLM_PIPE_NONE},
    {"BSYNC", SMTLM_PIPE_NONE},
    {"CALL", SMTLM_PIPE_NONE},
    {"DADD", SMTLM_PIPE_FP64},
    {"DEPBAR", SMTLM_PIPE_NONE},
    {"DFMA", SMTLM_PIPE_FP64},
    {"DMMA", SMTLM_PIPE_TENSOR},
    {"DMUL", SMTLM_PIPE_FP64},
    {"DSETP", SMTLM_PIPE_FP64},
    {"ENDCOLLECTIVE", SMTLM_PIPE_NONE},
    {"EXIT", SMTLM_PIPE_NONE},
    {"FADD", SMTLM_PIPE_FMA},
    {"FADD32I", SMTLM_PIPE_FMA},
    {"FFMA", SMTLM_PIPE_FMA},
    {"FFMA32I", SMTLM_PIPE_FMA},
    {"FLO", SMTLM_PIPE_ALU},
    {"FMNMX", SMTLM_PIPE_FMA},
    {"FMUL", SMTLM_PIPE_FMA},
    {"FMUL32I", SMTLM_PIPE_FMA},
    {"FSEL", SMTLM_PIPE_ALU},
    {"FSET", SMTLM_PIPE_FMA},
    {"FSETP", SMTLM_PIPE_FMA},
    {"FSWZADD", SMTLM_PIPE_FMA},
    {"HADD2", SMTLM_PIPE_FP16},
    {"HADD2_32I", SMTLM_PIPE_FP16},
    {"HFMA2", SMTLM_PIPE_FP16},
    {"HFMA2_32I", SMTLM_PIPE_FP16},
    {"HGMMA", SMTLM_PIPE_TENSOR},
    {"HMMA", SMTLM_PIPE_TENSOR},
    {"HMNMX2", SMTLM_PIPE_FP16},
    {"HMUL2", SMTLM_PIPE_FP16},
    {"HMUL2_32I", SMTLM_PIPE_FP16},
    {"HSET2", SMTLM_PIPE_FP16},
    {"HSETP2", SMTLM_PIPE_FP16},
    {"IABS", SMTLM_PIPE_ALU},
    {"IADD", SMTLM_PIPE_ALU},
    {"IADD3", SMTLM_PIPE_ALU},
    {"IADD32I", SMTLM_PIPE_ALU},
    {"IDP", SMTLM_PIPE_FMA_HEAVY},
    {"IDP4A", SMTLM_PIPE_FMA_HEAVY},
    {"IGMMA", SMTLM_PIPE_TENSOR},
    {"IMAD", SMTLM_PIPE_FMA_HEAVY},
    {"IMMA", SMTLM_PIPE_TENSOR},
    {"IMNMX", SMTLM_PIPE_ALU},
    {"IMUL", SMTLM_PIPE_FMA_HEAVY},
    {"IMUL32I", SMTLM_PIPE_FMA_HEAVY},
    {"ISCADD", SMTLM_PIPE_ALU},
    {"ISCADD32I", SMTLM_PIPE_ALU},
    {"ISETP", SMTLM_PIPE_ALU},
    {"JMP", SMTLM_PIPE_NONE},
    {"JMX", SMTLM_PIPE_NONE},
    {"JMXU", SMTLM_PIPE_NONE},
    {"KILL", SMTLM_PIPE_NONE},
    {"LD", SMTLM_PIPE_LSU},
    {"LDG", SMTLM_PIPE_LSU},
    {"LDGSTS", SMTLM_PIPE_LSU},
    {"LDL", SMTLM_PIPE_LSU},
    {"LDS", SMTLM_PIPE_LSU},
    {"LDSM", SMTLM_PIPE_LSU},
    {"LEA", SMTLM_PIPE_ALU},
    {"LOP", SMTLM_PIPE_ALU},
    {"LOP3", SMTLM_PIPE_ALU},
    {"LOP32I", SMTLM_PIPE_ALU},
    {"MOV", SMTLM_PIPE_ALU},
    {"MOV32I", SMTLM_PIPE_ALU},
    {"MUFU", SMTLM_PIPE_MUFU},
    {"NANOSLEEP", SMTLM_PIPE_NONE},
    {"NOP", SMTLM_PIPE_NONE},
    {"P2R", SMTLM_PIPE_ALU},
    {"PLOP3", SMTLM_PIPE_ALU},
    {"POPC", SMTLM_PIPE_ALU},
    {"PREEXIT", SMTLM_PIPE_NONE},
    {"PRMT", SMTLM_PIPE_ALU},
    {"PSETP", SMTLM_PIPE_ALU},
    {"QGMMA", SMTLM_PIPE_TENSOR},
    {"R2P", SMTLM_PIPE_ALU},
    {"RED", SMTLM_PIPE_LSU},
    {"REDAS", SMTLM_PIPE_LSU},
    {"REDG", SMTLM_PIPE_LSU},
    {"RET", SMTLM_PIPE_NONE},
    {"RTT", SMTLM_PIPE_NONE},
    {"SEL", SMTLM_PIPE_ALU},
    {"SGXT", SMTLM_PIPE_ALU},
    {"SHF", SMTLM_PIPE_ALU},
    {"SHL", SMTLM_PIPE_ALU},
    {"SHR", SMTLM_PIPE_ALU},
    {"ST", SMTLM_PIPE_LSU},
    {"STAS", SMTLM_PIPE_LSU},
    {"STG", SMTLM_PIPE_LSU},
    {"STL", SMTLM_PIPE_LSU},
    {"STS", SMTLM_PIPE_LSU},
    {"STSM", SMTLM_PIPE_LSU},
    {"VABSDIFF", SMTLM_PIPE_ALU},
    {"VABSDIFF4", SMTLM_PIPE_ALU},
    {"VHMNMX", SMTLM_PIPE_FP16},
    {"VIADD", SMTLM_PIPE_ALU},
    {"VIADDMNMX", SMTLM_PIPE_ALU},
    {"VIMNMX", SMTLM_PIPE_ALU},
    {"WARPGROUP", SMTLM_PIPE_NONE},
    {"WARPSYNC", SMTLM_PIPE_NONE},
    {"YIELD", SMTLM_PIPE_NONE},
};

#define N_PIPE_ROWS (sizeof pipe_rows / sizeof pipe_rows[0])

/* Nonzero when a '.'-token after the first one of s[0..len) is "MMA". */
static int has_mma_suffix(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        size_t j = i;
        while (j < len && s[j] != '.')
            j++;
        if (i > 0 && j - i == 3 && s[i] == 'M' && s[i + 1] == 'M' && s[i + 2] == 'A')
            return 1;
        i = j + 1;
    }
    return 0;
}

smtlm_pipe smtlm_sass_pipe(const char *mnemonic, size_t len)
{
    const char *tok;
    size_t n, i;
    if (mnemonic == NULL)
        return SMTLM_PIPE_OTHER;
    n = smtlm_opcode_first_token(mnemonic, len, &tok);
    i = n == 0 ? N_PIPE_ROWS : smtlm_sorted_name_find(pipe_rows, N_PIPE_ROWS, sizeof pipe_rows[0], tok, n);
    if (i == N_PIPE_ROWS)
        return SMTLM_PIPE_OTHER;
    if (pipe_rows[i].pipe == SMTLM_PIPE_FP16 && has_mma_suffix(tok, len - (size_t)(tok - mnemonic)))
        return SMTLM_PIPE_MMA16;
    return (smtlm_pipe)pipe_rows[i].pipe;
}

unsigned smtlm_sass_wide_sources(const char *mnemonic, size_t len)
{
    return smtlm_sass_pipe(mnemonic, len) == SMTLM_PIPE_FP64; /* the FP64 pipe's sources are pairs */
}
