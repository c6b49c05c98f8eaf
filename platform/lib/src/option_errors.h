/* Messages about option values, prefixed with where the value was set (file:line, the command
 * line or <default>), shared by the option checks of engine_config.c and muon_machine.c. */
#ifndef SMTLM_OPTION_ERRORS_H
#define SMTLM_OPTION_ERRORS_H

#include <stddef.h>

#include "smtlm/options.h"

/* "<where>: -<name>: <message>" into err; returns -1. */
int smtlm_opt_fail(const smtlm_options *o, const char *name, char *err, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* A conflict between options names the one set last (the setting that broke a machine that was
 * consistent before), so a value given on the command line is blamed there and never a file
 * line or a default the user did not touch. `names` ends with NULL. Returns -1. */
int smtlm_opt_fail_conflict(const smtlm_options *o, const char *const *names, char *err, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#endif
