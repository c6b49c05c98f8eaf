/* Private layout of smtlm_options, shared by the options_*.c files only. */
#ifndef SMTLM_OPTIONS_INTERNAL_H
#define SMTLM_OPTIONS_INTERNAL_H

#include "smtlm/options.h"

/* The current value of one option. */
typedef struct smtlm_opt_value {
    char *text;           /* owned; the value as given (strings verbatim) */
    smtlm_opt_number num; /* parsed value for numeric types */
    const char *file;     /* interned origin name, NULL while at the default */
    int line;             /* line (or argv index) of the option-name token */
    unsigned long seq;    /* order of setting (1, 2, ...); 0 while at the default */
} smtlm_opt_value;

struct smtlm_options {
    const smtlm_option_def *defs;
    size_t n;
    smtlm_opt_value *vals;
    const smtlm_option_def **by_name; /* rows of defs sorted by name, for binary search */
    char **names;    /* interned origin names (files, "<command line>", "<api>") */
    size_t n_names, cap_names;
    const char **files; /* the config files read, as opened (interned names), in reading order */
    size_t n_files, cap_files;
    int include_allowed;
    unsigned long next_seq;
    int config_reads; /* config files read so far, each -config once (SMTLM_OPT_MAX_CONFIG_FILES) */
};

/* Index of an option by name (without '-'), or -1. */
long smtlm_opt_find(const smtlm_options *opts, const char *name);

/* Validate value for option idx and store it with its origin. On failure writes
 * "<origin_file>:<line>: bad value ..." into err. */
int smtlm_opt_assign(smtlm_options *opts, size_t idx, const char *value, const char *file,
                     int line, char *err, size_t errlen);

/* Canonical value text of option i (see smtlm_options_value_text). */
void smtlm_opt_value_text_at(const smtlm_options *opts, size_t i, char *buf, size_t n);

/* Intern an origin name; returns the stored copy or NULL when out of memory. */
const char *smtlm_opt_intern(smtlm_options *opts, const char *name);

/* Records that the file interned as name was read (once per file). 0, or -1 when out of memory. */
int smtlm_opt_note_file(smtlm_options *opts, const char *name);

/* Nearest registered option name to name (Levenshtein, case-insensitive), or NULL. */
const char *smtlm_opt_nearest(const smtlm_options *opts, const char *name);

/* snprintf into err when err is non-NULL; never fails. */
void smtlm_opt_errf(char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The value text shown in messages: at most 64 characters, then "...". */
#define SMTLM_OPT_SHOWN 64

#endif
