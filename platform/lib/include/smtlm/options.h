/* Typed option registry and the GPGPU-Sim option-file / command-line reader.
 *
 * Every option smtlm accepts is one row of a static table (name, type, GPGPU-Sim default,
 * description, "modelled" flag). An smtlm_options object holds one value per row, each
 * with the file and line it came from. Values are read with GPGPU-Sim's syntax (its
 * option_parser ParseFile / ParseCommandLine):
 *   - '#' starts a comment that runs to the end of the line;
 *   - the text is split on whitespace; a token starting with '"' is glued (with single
 *     spaces) to the following tokens, across lines, until a token ending with '"'; the
 *     two quotes are stripped;
 *   - tokens are processed like argv: "-name value"; later values win;
 *   - "-config <file>" reads another file in place. A relative path is tried relative to
 *     the current working directory first (as GPGPU-Sim does) and, if that file does not
 *     exist, relative to the directory of the file that holds the -config;
 *   - integers parse like a C++ stream in GPGPU-Sim: "0x.." is hex, any other number with a
 *     leading 0 is octal ("010" = 8); unsigned options reject a sign; the whole token must
 *     be a number (GPGPU-Sim silently ignores trailing characters; smtlm reports them);
 *   - a bool option takes 0 or 1; a bare "-flag" followed by another option (or nothing)
 *     means 1; any other value is an error;
 *   - a non-bool option whose next token is another option name is "missing a value"
 *     (GPGPU-Sim would take the option name as the value).
 * Nothing here prints unless asked to, exits or aborts: errors come back as a code plus a
 * one-line message "<file>:<line>: ..." in a caller buffer. No global mutable state. */
#ifndef SMTLM_OPTIONS_H
#define SMTLM_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Result codes (0 = success). */
typedef enum smtlm_opt_status {
    SMTLM_OPT_OK = 0,
    SMTLM_OPT_E_NOMEM = 1,         /* allocation failed */
    SMTLM_OPT_E_ARG = 2,           /* NULL or otherwise invalid API argument */
    SMTLM_OPT_E_UNKNOWN = 3,       /* unknown option (or a stray token where an option was due) */
    SMTLM_OPT_E_MISSING_VALUE = 4, /* option at the end of input, or followed by another option */
    SMTLM_OPT_E_BAD_VALUE = 5,     /* value does not parse as the option's type / allowed set */
    SMTLM_OPT_E_RANGE = 6,         /* number does not fit the option's type, or list too long */
    SMTLM_OPT_E_QUOTE = 7,         /* a '"' token never closed */
    SMTLM_OPT_E_OPEN = 8,          /* a config file could not be opened or read */
    SMTLM_OPT_E_DEPTH = 9,         /* -config nested deeper than SMTLM_OPT_MAX_INCLUDE_DEPTH */
    SMTLM_OPT_E_NO_INCLUDE = 10,   /* -config used while includes are disabled */
    SMTLM_OPT_E_TYPE = 11,         /* typed getter used on an option of another type */
    SMTLM_OPT_E_SYNTAX = 12,       /* NUL byte inside config text */
    SMTLM_OPT_E_LIMIT = 13         /* a config file over SMTLM_OPT_MAX_FILE_BYTES, or one file more
                                    * than SMTLM_OPT_MAX_CONFIG_FILES */
} smtlm_opt_status;

/* -config files may nest this deep; one more level is reported as a probable cycle. */
#define SMTLM_OPT_MAX_INCLUDE_DEPTH 32
/* The largest config file read (1 MiB; real machine configs are a few KB): reading stops
 * there, so /dev/zero or a huge file cannot exhaust memory. */
#define SMTLM_OPT_MAX_FILE_BYTES (1 << 20)
/* Config files one smtlm_options object reads in all (top-level files and every -config,
 * nested or not): includes that multiply (each file including the next level twice) end
 * here rather than after 2^depth files. */
#define SMTLM_OPT_MAX_CONFIG_FILES 1024

typedef enum smtlm_opt_type {
    SMTLM_OPT_BOOL = 0,
    SMTLM_OPT_INT32,
    SMTLM_OPT_UINT32,
    SMTLM_OPT_INT64,
    SMTLM_OPT_UINT64,
    SMTLM_OPT_DOUBLE,
    SMTLM_OPT_STRING
} smtlm_opt_type;

/* One row of the option table. */
typedef struct smtlm_option_def {
    const char *name;    /* without the leading '-' */
    smtlm_opt_type type;
    const char *def;     /* default value as text (GPGPU-Sim's default where it has one) */
    const char *desc;    /* one line */
    int modelled;        /* 1 = the smtlm model uses the value */
    const char *choices; /* strings only: "a|b|c" allowed values, or NULL for any */
} smtlm_option_def;

/* The static table of every option (platform/lib/src/options_table.c). */
const smtlm_option_def *smtlm_option_table(size_t *count);
/* The table row for a name (without '-'), or NULL. */
const smtlm_option_def *smtlm_option_lookup(const char *name);
const char *smtlm_opt_type_name(smtlm_opt_type type); /* "bool", "int32", ... */

typedef struct smtlm_options smtlm_options;

/* A fresh object holding every option at its default; NULL when out of memory.
 * Defaults: the built-in QV100 machine (configs/qv100.config, compiled in) for the options it
 * sets, GPGPU-Sim's default (the table's) for the rest, so the defaults alone form a valid
 * machine and a file or command line that sets a few options sits on top of it.
 * Exception, for Accel-Sim compatibility: a config FILE that sets
 * -gpgpu_ptx_force_max_capability (every Accel-Sim/GPGPU-Sim machine config does) is written
 * against GPGPU-Sim's defaults, so from that point every option not set so far takes GPGPU-Sim's
 * default, exactly as in Accel-Sim. */
smtlm_options *smtlm_options_new(void);
void smtlm_options_free(smtlm_options *opts); /* NULL is fine */

/* Allow (1, the default) or refuse (0) "-config" inside parsed text and files; refusing
 * keeps untrusted input (the fuzzer) from opening files. */
void smtlm_options_set_include_allowed(smtlm_options *opts, int allowed);

/* Parse a config file. On error the values read before the error stay set. A file (the one
 * named and each it includes) may hold at most SMTLM_OPT_MAX_FILE_BYTES and no NUL byte, and
 * one object reads at most SMTLM_OPT_MAX_CONFIG_FILES files; FIFOs and devices are read like
 * files, but opening one never waits for a writer (a FIFO nothing was written to is an error). */
int smtlm_options_parse_file(smtlm_options *opts, const char *path, char *err, size_t errlen);
/* Parse config text of len bytes (need not be NUL-terminated); name is used in messages
 * and origins, and its directory is the fallback for relative -config paths. */
int smtlm_options_parse_text(smtlm_options *opts, const char *text, size_t len,
                             const char *name, char *err, size_t errlen);
/* Parse a command line (argv[0] is skipped). Tokens are taken verbatim (the shell already
 * removed quotes); origins are "<command line>:<argv index>". */
int smtlm_options_parse_argv(smtlm_options *opts, int argc, const char *const *argv,
                             char *err, size_t errlen);
/* Set one option from program code (origin "<api>:0"); same validation as the reader. */
int smtlm_options_set(smtlm_options *opts, const char *name, const char *value, char *err,
                      size_t errlen);
/* The same, as a setting made at where:line (a parameter file's line, a position on a program's
 * own command line): messages and smtlm_options_origin name it. Like the command line, it is
 * not a machine config file (-gpgpu_ptx_force_max_capability keeps every other value). */
int smtlm_options_set_at(smtlm_options *opts, const char *name, const char *value, const char *where, int line,
                         char *err, size_t errlen);

/* Typed getters, by name without '-'. They return SMTLM_OPT_E_UNKNOWN for an unknown name
 * and SMTLM_OPT_E_TYPE when the option's type does not convert:
 *   get_bool: bool options;
 *   get_i64 / get_i32: any integer type (and bool) whose value fits, else SMTLM_OPT_E_RANGE;
 *   get_u64 / get_u32: any integer type (and bool) whose value is >= 0 and fits;
 *   get_double: any numeric type;
 *   get_str: any type; the value text as given (strings exactly; the default text when the
 *            option was never set); valid until the option is set again or opts is freed. */
int smtlm_options_get_bool(const smtlm_options *opts, const char *name, int *out);
int smtlm_options_get_i64(const smtlm_options *opts, const char *name, int64_t *out);
int smtlm_options_get_u64(const smtlm_options *opts, const char *name, uint64_t *out);
int smtlm_options_get_i32(const smtlm_options *opts, const char *name, int32_t *out);
int smtlm_options_get_u32(const smtlm_options *opts, const char *name, uint32_t *out);
int smtlm_options_get_double(const smtlm_options *opts, const char *name, double *out);
int smtlm_options_get_str(const smtlm_options *opts, const char *name, const char **out);

/* Canonical value text: integers in decimal, bools 0/1, doubles "%.17g", strings verbatim.
 * Truncated to fit n (always NUL-terminated when n > 0). */
int smtlm_options_value_text(const smtlm_options *opts, const char *name, char *buf, size_t n);
/* 1 when the option was set by a file, the command line or smtlm_options_set; else 0. */
int smtlm_options_is_set(const smtlm_options *opts, const char *name);
/* 1 when `name` is set to a value other than its default (numbers compared as numbers). */
int smtlm_options_non_default(const smtlm_options *opts, const char *name);
/* When the value was set, as a rank: later settings give larger numbers; 0 = at the default
 * (or an unknown name). Used to blame the most recent of several conflicting options. */
unsigned long smtlm_options_set_order(const smtlm_options *opts, const char *name);
/* Where the value was set: "file:line", "<command line>:<argv index>", "<api>:0", or
 * "<default>" when never set. */
int smtlm_options_origin(const smtlm_options *opts, const char *name, char *buf, size_t n);
/* The config files read (every -config, nested ones too), each once, as opened, in reading
 * order; *n of them. */
const char *const *smtlm_options_files(const smtlm_options *opts, size_t *n);

/* Print every option as GPGPU-Sim does at start-up, "-name<pad> value # description", with
 * a "[modelled]" / "[not modelled]" marker after the '#'. Values holding whitespace (or
 * empty) are quoted so the listing parses back as a config file; a string never set whose
 * default is empty is a comment ("# -trace ..."), so read back it stays unset. */
void smtlm_options_list(const smtlm_options *opts, FILE *out);
/* Warn about not-modelled options set to a value other than GPGPU-Sim's default (numbers
 * compared numerically): one short line with their count and where to see them, or, with
 * verbose, one line naming them all. Prints nothing when there is none. Returns the count. */
int smtlm_options_warn_unmodelled(const smtlm_options *opts, int verbose, FILE *out);

/* A parsed number: i for signed types and bool, u for unsigned types, d for double. */
typedef union smtlm_opt_number {
    int64_t i;
    uint64_t u;
    double d;
} smtlm_opt_number;

/* Parse text as the given numeric type (bool, ints, double) with the reader's rules:
 * "0x" hex, leading-0 octal, whole token, range of the type, bool only 0/1.
 * SMTLM_OPT_E_BAD_VALUE, SMTLM_OPT_E_RANGE, or SMTLM_OPT_E_TYPE for SMTLM_OPT_STRING. */
int smtlm_parse_number(smtlm_opt_type type, const char *text, smtlm_opt_number *out);

/* ---- value-list helpers for the option strings the model decodes ---- */

/* Comma-separated decimal unsigned list: "4,4,4,4,4,4,4,4,4,4,8,4,4", "2,2". Blanks around
 * elements are allowed. *n receives the count. SMTLM_OPT_E_BAD_VALUE for an empty element
 * or a non-number, SMTLM_OPT_E_RANGE for more than max elements or a value > UINT_MAX. */
int smtlm_parse_uint_list(const char *s, unsigned *out, int max, int *n);
/* Same with another separator, e.g. ':' for "2048:32". */
int smtlm_parse_uint_list_sep(const char *s, char sep, unsigned *out, int max, int *n);
/* Separator-separated decimal numbers, e.g. "1132.0:1132.0:1132.0:850.0" with ':'. */
int smtlm_parse_double_list_sep(const char *s, char sep, double *out, int max, int *n);
/* "<latency>,<initiation interval>" (trace_opcode_latency_initiation_*): exactly two. */
int smtlm_parse_lat_ii(const char *s, unsigned *latency, unsigned *ii);

/* -specialized_unit_N "<enabled>,<num_units>,<max_latency>,<ID_OC width>,<OC_EX width>,<NAME>"
 * (GPGPU-Sim reads it with sscanf("%u,%u,%u,%u,%u,%s")). */
#define SMTLM_SPEC_UNIT_NAME_MAX 16
typedef struct smtlm_spec_unit_cfg {
    unsigned enabled;     /* 0 or 1 */
    unsigned num_units;
    unsigned max_latency; /* pipeline depth */
    unsigned id_oc_width;
    unsigned oc_ex_width;
    char name[SMTLM_SPEC_UNIT_NAME_MAX]; /* e.g. "BRA", "TEX", "TENSOR", "UDP" */
} smtlm_spec_unit_cfg;
int smtlm_parse_specialized_unit(const char *s, smtlm_spec_unit_cfg *out);

#ifdef __cplusplus
}
#endif
#endif
