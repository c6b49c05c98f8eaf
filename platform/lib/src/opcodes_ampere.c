/* Ampere (binary 80/86) map: Accel-Sim ISA_Def/ampere_opcode.h = Turing plus DMMA, HMNMX2, LDGSTS,
 * LDGDEPBAR, REDUX, UF2FP, F2FP/I2FP/F2IP, SUQUERY. KILL is SPEC_3 as in Turing. */
#include "smtlm/opcodes.h"

#define OP(n, c, m, f) {n, SMTLM_OPCAT_##c, SMTLM_OPMEM_##m, f}

/* Sorted by strcmp (smtlm_opcode_find does a binary search); the rows are shared with Hopper. */
static const smtlm_opcode ampere_ops[] = {
#define SMTLM_HOPPER_OP(n, c, m, f)
#include "opcodes_ampere_hopper.inc"
#undef SMTLM_HOPPER_OP
};

const smtlm_opcode_map smtlm_opcode_map_ampere = {"ampere", ampere_ops, sizeof ampere_ops / sizeof ampere_ops[0]};
