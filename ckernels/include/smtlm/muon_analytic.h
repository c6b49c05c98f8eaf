/* Muon's analytic bank-conflict model.
 *
 * The collector allocator of the Muon design looks at the operands of the C instructions held
 * in the collector entries (3 source operands each) and tries to read operands from as many
 * different register-file banks as it can in one cycle; the PRF bank of a register is
 * reg mod N. If every operand's bank is an independent, uniform draw from the N banks, the
 * probability that the 3C operands cover at least 3 distinct banks (so that 3 reads can
 * proceed in one cycle without a bank conflict) is
 *
 *   P(>= 3 distinct banks among k = 3C draws)
 *     = 1 - P(the draws use at most 2 banks)
 *     = 1 - [ N * 1^k + C(N,2) * (2^k - 2) ] / N^k
 *
 * (N ways to use a single bank; C(N,2) pairs of banks, each covered by 2^k - 2 sequences
 * that use both). Pure functions: no state, no I/O. docs/MUON-MODELS.md compares the formula
 * with a measurement through the register-file arbiter (smtlm/muon_bank_probe.h). */
#ifndef SMTLM_MUON_ANALYTIC_H
#define SMTLM_MUON_ANALYTIC_H

#ifdef __cplusplus
extern "C" {
#endif

/* Source operands per instruction in the model (rs1, rs2, rs3). */
#define SMTLM_MUON_MODEL_OPERANDS 3u

/* Largest number of draws the functions accept (keeps the arithmetic trivially bounded). */
#define SMTLM_MUON_ANALYTIC_MAX_DRAWS 65536u

/* P(>= 3 distinct banks among `draws` independent uniform draws from `banks` banks), in
 * [0, 1], into *p. SMTLM_EINVAL when banks or draws is 0 or p is NULL; SMTLM_ERANGE when
 * draws exceeds SMTLM_MUON_ANALYTIC_MAX_DRAWS. Fewer than 3 banks or 3 draws give 0. */
int smtlm_muon_p_distinct3(unsigned banks, unsigned draws, double *p);

/* The same for `entries` collector entries of SMTLM_MUON_MODEL_OPERANDS operands each
 * (draws = 3 x entries). */
int smtlm_muon_analytic_p(unsigned banks, unsigned entries, double *p);

#ifdef __cplusplus
}
#endif
#endif
