/* Muon's analytic bank-conflict model: P(>= 3 distinct banks among k uniform draws). */
#include "smtlm/muon_analytic.h"

#include "smtlm/common.h"

/* x^k by squaring; underflows quietly to 0 for x < 1 and large k. */
static double power(double x, unsigned k)
{
    double r = 1.0;
    while (k) {
        if (k & 1u)
            r *= x;
        x *= x;
        k >>= 1;
    }
    return r;
}

int smtlm_muon_p_distinct3(unsigned banks, unsigned draws, double *p)
{
    if (!p || banks == 0 || draws == 0)
        return SMTLM_EINVAL;
    if (draws > SMTLM_MUON_ANALYTIC_MAX_DRAWS)
        return SMTLM_ERANGE;
    if (banks < 3 || draws < 3) { /* three distinct banks cannot be reached */
        *p = 0.0;
        return SMTLM_OK;
    }
    /* 1 - [N + N(N-1)/2 (2^k - 2)] / N^k, rewritten with (1/N)^k and (2/N)^k so that N^k never
     * has to be formed (it overflows a double for e.g. N = 64, k = 192). N >= 3: 2/N < 1. */
    const double n = (double)banks;
    const double one = power(1.0 / n, draws), two = power(2.0 / n, draws);
    const double pairs = n * (n - 1.0) / 2.0;
    double q = n * one + pairs * (two - 2.0 * one); /* P(at most 2 banks used) */
    double r = 1.0 - q;
    *p = r < 0.0 ? 0.0 : r > 1.0 ? 1.0 : r;
    return SMTLM_OK;
}

int smtlm_muon_analytic_p(unsigned banks, unsigned entries, double *p)
{
    if (entries > SMTLM_MUON_ANALYTIC_MAX_DRAWS / SMTLM_MUON_MODEL_OPERANDS)
        return SMTLM_ERANGE;
    return smtlm_muon_p_distinct3(banks, entries * SMTLM_MUON_MODEL_OPERANDS, p);
}
