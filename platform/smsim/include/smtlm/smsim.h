/* smsim: Accel-Sim's command line over the C engine.
 *   smsim -trace <kernelslist.g|kernel.traceg> -config <gpgpusim.config> -config <trace.config>
 *         [-<option> <value>]...
 * Without -trace it runs the built-in synthetic workload (QV100-like). Returns the process exit
 * status: 0 success (a -gpgpu_max_* limit is not an error), 1 the watchdog stopped the run,
 * 2 bad input or an output that could not be written (one message with file:line on `err`),
 * 128 + the signal when SIGINT or SIGTERM stopped it. For the duration of a simulation it
 * handles SIGINT and SIGTERM (the previous handlers are restored before it returns): the first
 * stops the run after the current cycle step, the second ends the process at once. */
#ifndef SMTLM_SMSIM_H
#define SMTLM_SMSIM_H

#include <stdio.h>

#include "smtlm/engine.h"

#ifdef __cplusplus
extern "C" {
#endif

int smtlm_smsim(int argc, const char *const *argv, FILE *out, FILE *err);
/* The same with a choice of engines: -smtlm_engine names one; without it the first is used. */
int smtlm_smsim_engines(int argc, const char *const *argv, FILE *out, FILE *err, const smtlm_engine *const *engines,
                        unsigned n_engines);

#ifdef __cplusplus
}
#endif
#endif
