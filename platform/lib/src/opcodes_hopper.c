/* Hopper (binary 90: sm_90, sm_90a) map. Accel-Sim's releases have no Hopper map (they stop at
 * binary 86), so this is the Ampere map plus the SASS opcodes Hopper adds: warpgroup MMA
 * (HGMMA, IGMMA, QGMMA, BGMMA, WARPGROUP), TMA and bulk copies (UTMA*, UBLK*), the sync unit and
 * clusters (SYNCS, ARRIVES, FENCE, UCGABAR_*, STAS, REDAS, CGAERRBAR), ELECT, ENDCOLLECTIVE,
 * ACQBULK, PREEXIT, USETMAXREG, STSM, REDG and the DPX ops (VIADD, VIMNMX, VIADDMNMX, VHMNMX).
 * Categories: opcodes_ampere_hopper.inc. */
#include "smtlm/opcodes.h"

#define OP(n, c, m, f) {n, SMTLM_OPCAT_##c, SMTLM_OPMEM_##m, f}

/* Sorted by strcmp (smtlm_opcode_find does a binary search). */
static const smtlm_opcode hopper_ops[] = {
#define SMTLM_HOPPER_OP(n, c, m, f) OP(n, c, m, f),
#include "opcodes_ampere_hopper.inc"
#undef SMTLM_HOPPER_OP
};

const smtlm_opcode_map smtlm_opcode_map_hopper = {"hopper", hopper_ops, sizeof hopper_ops / sizeof hopper_ops[0]};
