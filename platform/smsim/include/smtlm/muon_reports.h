/* smsim's Muon reports: the analytic bank-conflict model next to its measurement through the
 * register-file arbiter (-smtlm_analytic_banks), and the storage cost of the configured Muon
 * machine (-smtlm_cost_report). They print and return without simulating, whatever
 * -smtlm_mode says (docs/MUON-MODELS.md). */
#ifndef SMTLM_MUON_REPORTS_H
#define SMTLM_MUON_REPORTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "smtlm/options.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Cycles measured per (N, C) point: the 95% interval of a fraction is then within +-0.1 pp. */
#define SMTLM_MUON_ANALYTIC_CYCLES 1000000u
#define SMTLM_MUON_ANALYTIC_SEED 1u

/* 1 when the options ask for a report (-smtlm_analytic_banks > 0 or -smtlm_cost_report 1). */
int smtlm_muon_report_requested(const smtlm_options *opts);

/* Prints the requested reports on out (analytic first). Returns 0, or -1 with one message
 * "<file>:<line>: -<option>: ..." in err. */
int smtlm_muon_reports(const smtlm_options *opts, FILE *out, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
