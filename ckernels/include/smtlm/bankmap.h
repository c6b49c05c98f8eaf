/* Register -> bank mapping (GPGPU-Sim register_bank). The warp id is always added, unshifted
 * (GPGPU-Sim's bank_warp_shift is dead code). Trace-mode +1 and RZ -> 256 are the trace front end's job. */
#ifndef SMTLM_BANKMAP_H
#define SMTLM_BANKMAP_H

#ifdef __cplusplus
extern "C" {
#endif

/* Flat model: (reg + wid) mod banks. */
static inline unsigned smtlm_bank_flat(unsigned reg, unsigned wid, unsigned banks)
{
    return (reg + wid) % banks;
}

/* Sub-core model: ((reg + wid) mod bps) + sched * bps, bps = banks per scheduler. */
static inline unsigned smtlm_bank_subcore(unsigned reg, unsigned wid, unsigned bps, unsigned sched)
{
    return (reg + wid) % bps + sched * bps;
}

#ifdef __cplusplus
}
#endif
#endif
