/* The GPGPU-Sim option reader: config text -> tokens (comments, whitespace, quotes) ->
 * argv-style "-name value" processing, with -config includes, for files, text and argv. */
#include "options_internal.h"

#include "smtlm/file_read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CMDLINE_ORIGIN "<command line>"

typedef struct token {
    const char *s; /* NUL-terminated: into the text copy, into argv, or == own */
    char *own;     /* allocated text of a glued quoted value, else NULL */
    int line;      /* line of the token's first character (argv index on the command line) */
} token;

typedef struct token_list {
    token *v;
    size_t n, cap;
} token_list;

static void tokens_free(token_list *t)
{
    size_t i;
    for (i = 0; i < t->n; i++)
        free(t->v[i].own);
    free(t->v);
    t->v = NULL;
    t->n = t->cap = 0;
}

static int tokens_push(token_list *t, const char *s, char *own, int line)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        token *grown = realloc(t->v, cap * sizeof *grown);
        if (!grown)
            return SMTLM_OPT_E_NOMEM;
        t->v = grown;
        t->cap = cap;
    }
    t->v[t->n].s = s;
    t->v[t->n].own = own;
    t->v[t->n].line = line;
    t->n++;
    return SMTLM_OPT_OK;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* Split buf (NUL-terminated, modified in place) into raw tokens: '#' to end of line is
 * dropped, tokens are runs of non-whitespace. */
static int split_raw(char *buf, token_list *out)
{
    char *p = buf;
    int line = 1;
    while (*p) {
        if (*p == '\n') {
            line++;
            p++;
        } else if (is_space(*p)) {
            p++;
        } else if (*p == '#') {
            while (*p && *p != '\n')
                p++;
        } else {
            char *start = p;
            char end;
            while (*p && !is_space(*p) && *p != '#')
                p++;
            end = *p;
            *p = '\0';
            if (tokens_push(out, start, NULL, line))
                return SMTLM_OPT_E_NOMEM;
            if (end == '#') { /* the terminator began a comment: skip the rest of the line */
                p++;
                while (*p && *p != '\n')
                    p++;
            } else if (end == '\n') {
                line++;
                p++;
            } else if (end) {
                p++;
            }
        }
    }
    return SMTLM_OPT_OK;
}

/* GPGPU-Sim's quote rule: a token starting with '"' is joined with single spaces to the
 * following tokens until one ends with '"'; then the first and last characters go. */
static int glue_quotes(const token_list *raw, token_list *out, const char *name, char *err,
                       size_t errlen)
{
    size_t i = 0;
    while (i < raw->n) {
        const token *first = &raw->v[i];
        size_t j = i, k, total = strlen(first->s);
        char *joined, *w;
        if (first->s[0] != '"') {
            if (tokens_push(out, first->s, NULL, first->line))
                return SMTLM_OPT_E_NOMEM;
            i++;
            continue;
        }
        /* the closing token: the first one (from i) ending with '"', the lone '"' excepted */
        while (!(total >= 2 && raw->v[j].s[strlen(raw->v[j].s) - 1] == '"')) {
            if (++j >= raw->n) {
                smtlm_opt_errf(err, errlen, "%s:%d: unterminated quote", name, first->line);
                return SMTLM_OPT_E_QUOTE;
            }
            total += 1 + strlen(raw->v[j].s);
        }
        joined = malloc(total + 1);
        if (!joined)
            return SMTLM_OPT_E_NOMEM;
        w = joined;
        for (k = i; k <= j; k++) {
            size_t l = strlen(raw->v[k].s);
            if (k > i)
                *w++ = ' ';
            memcpy(w, raw->v[k].s, l);
            w += l;
        }
        /* drop the opening and the closing quote */
        memmove(joined, joined + 1, total - 2);
        joined[total - 2] = '\0';
        if (tokens_push(out, joined, joined, first->line)) {
            free(joined);
            return SMTLM_OPT_E_NOMEM;
        }
        i = j + 1;
    }
    return SMTLM_OPT_OK;
}

/* "-name" that is an option (not a negative number): decides whether a bool has a value. */
static int looks_like_option(const char *s)
{
    return s[0] == '-' && !((s[1] >= '0' && s[1] <= '9') || s[1] == '.' || s[1] == '+');
}

static int parse_text_at(smtlm_options *opts, const char *text, size_t len, const char *name,
                         int depth, char *err, size_t errlen);

/* Directory part of a path ("" when none), in buf. */
static void dir_of(const char *path, char *buf, size_t n)
{
    const char *slash = strrchr(path, '/');
    size_t len = slash ? (size_t)(slash - path) + 1 : 0;
    if (len >= n)
        len = 0;
    memcpy(buf, path, len);
    buf[len] = '\0';
}

/* Reads a whole config file (smtlm_read_bounded): at most SMTLM_OPT_MAX_FILE_BYTES, stopping
 * after a chunk that holds a NUL byte (not config text: parse_text_at reports its line). */
static int read_all(const char *path, char **text, size_t *len, int *err_no)
{
    return smtlm_read_bounded(path, SMTLM_OPT_MAX_FILE_BYTES, text, len, err_no);
}

/* "<path>: <what>", with the -config that asked for the file (from NULL for a top-level file)
 * and the other path tried for it (alt, or NULL). */
static void file_errf(char *err, size_t errlen, const char *path, const char *what, const char *from, int from_line,
                      const char *alt)
{
    if (from && alt)
        smtlm_opt_errf(err, errlen, "%s: %s (-config at %s:%d; also tried %s)", path, what, from, from_line, alt);
    else if (from)
        smtlm_opt_errf(err, errlen, "%s: %s (-config at %s:%d)", path, what, from, from_line);
    else
        smtlm_opt_errf(err, errlen, "%s: %s", path, what);
}

/* Open and parse one file. from/from_line name the -config that asked for it (from NULL for a
 * top-level file); with try_dir, a relative path missing from the working directory is tried
 * relative to the directory of from. Every file counts towards SMTLM_OPT_MAX_CONFIG_FILES. */
static int parse_file_at(smtlm_options *opts, const char *path, const char *from, int from_line,
                         int try_dir, int depth, char *err, size_t errlen)
{
    char *text = NULL, *alt = NULL, what[192];
    const char *used = path, *name;
    size_t len = 0;
    int err_no = 0, rc, got;

    if (opts->config_reads >= SMTLM_OPT_MAX_CONFIG_FILES) {
        snprintf(what, sizeof what, "more than %d config files in one run (an include loop, or includes that multiply?)",
                 SMTLM_OPT_MAX_CONFIG_FILES);
        if (from)
            smtlm_opt_errf(err, errlen, "%s:%d: -config %s: %s", from, from_line, path, what);
        else
            smtlm_opt_errf(err, errlen, "%s: %s", path, what);
        return SMTLM_OPT_E_LIMIT;
    }
    opts->config_reads++;
    got = read_all(path, &text, &len, &err_no);
    if (got == SMTLM_READ_ERRNO && err_no == ENOENT && from && try_dir && path[0] != '/') {
        char dir[4096];
        dir_of(from, dir, sizeof dir);
        if (dir[0]) {
            int alt_errno = 0, alt_got;
            alt = malloc(strlen(dir) + strlen(path) + 1);
            if (!alt) {
                smtlm_opt_errf(err, errlen, "%s: out of memory", path);
                return SMTLM_OPT_E_NOMEM;
            }
            strcpy(alt, dir);
            strcat(alt, path);
            alt_got = read_all(alt, &text, &len, &alt_errno);
            if (alt_got != SMTLM_READ_ERRNO || alt_errno != ENOENT) { /* the file is there: its own outcome */
                got = alt_got;
                err_no = alt_errno;
                used = alt;
            }
        }
    }
    if (got != SMTLM_READ_OK) {
        smtlm_read_problem(got, err_no, SMTLM_OPT_MAX_FILE_BYTES, "config file", what, sizeof what);
        file_errf(err, errlen, used, what, from, from_line, used == path ? alt : NULL);
        free(alt);
        return got == SMTLM_READ_TOO_BIG ? SMTLM_OPT_E_LIMIT
               : got == SMTLM_READ_ERRNO && err_no == ENOMEM ? SMTLM_OPT_E_NOMEM
                                                       : SMTLM_OPT_E_OPEN;
    }
    name = smtlm_opt_intern(opts, used);
    free(alt);
    if (!name || smtlm_opt_note_file(opts, name)) {
        free(text);
        smtlm_opt_errf(err, errlen, "%s: out of memory", path);
        return SMTLM_OPT_E_NOMEM;
    }
    rc = parse_text_at(opts, text, len, name, depth, err, errlen);
    free(text);
    return rc;
}

/* argv-style processing of the tokens of one source (a file, a text, or the command line,
 * which has no directory for relative -config paths to fall back to). */
static int process(smtlm_options *opts, const token_list *t, const char *origin, int is_cmdline,
                   int depth, char *err, size_t errlen)
{
    size_t i = 0;
    char show[SMTLM_OPT_SHOWN + 8];
    while (i < t->n) {
        const token *tk = &t->v[i];
        const char *name = tk->s + 1, *value;
        long idx;
        int rc;
        if (tk->s[0] != '-' || tk->s[1] == '\0') {
            snprintf(show, sizeof show, "%.*s", SMTLM_OPT_SHOWN, tk->s);
            smtlm_opt_errf(err, errlen, "%s:%d: unexpected '%s' where an option (-name) was expected",
                           origin, tk->line, show);
            return SMTLM_OPT_E_UNKNOWN;
        }
        if (strcmp(name, "config") == 0) {
            if (i + 1 >= t->n) {
                smtlm_opt_errf(err, errlen, "%s:%d: missing value for -config (a file name)", origin,
                               tk->line);
                return SMTLM_OPT_E_MISSING_VALUE;
            }
            if (!opts->include_allowed) {
                smtlm_opt_errf(err, errlen, "%s:%d: -config is not allowed here", origin, tk->line);
                return SMTLM_OPT_E_NO_INCLUDE;
            }
            if (depth + 1 > SMTLM_OPT_MAX_INCLUDE_DEPTH) {
                smtlm_opt_errf(err, errlen,
                               "%s:%d: -config %s: nested deeper than %d files (include cycle?)",
                               origin, tk->line, t->v[i + 1].s, SMTLM_OPT_MAX_INCLUDE_DEPTH);
                return SMTLM_OPT_E_DEPTH;
            }
            rc = parse_file_at(opts, t->v[i + 1].s, origin, tk->line, !is_cmdline, depth + 1, err,
                               errlen);
            if (rc)
                return rc;
            i += 2;
            continue;
        }
        idx = smtlm_opt_find(opts, name);
        if (idx < 0) {
            const char *near = smtlm_opt_nearest(opts, name);
            snprintf(show, sizeof show, "%.*s", SMTLM_OPT_SHOWN, name);
            if (near)
                smtlm_opt_errf(err, errlen, "%s:%d: unknown option -%s (did you mean -%s?)", origin, tk->line, show, near);
            else
                smtlm_opt_errf(err, errlen, "%s:%d: unknown option -%s (smsim -smtlm_list_options 1 lists them)",
                               origin, tk->line, show);
            return SMTLM_OPT_E_UNKNOWN;
        }
        if (opts->defs[idx].type == SMTLM_OPT_BOOL) {
            /* a bare flag means 1; a following option (or the end) is not its value */
            if (i + 1 < t->n && !looks_like_option(t->v[i + 1].s)) {
                value = t->v[i + 1].s;
                i += 2;
            } else {
                value = "1";
                i += 1;
            }
        } else {
            const char *next;
            if (i + 1 >= t->n) {
                smtlm_opt_errf(err, errlen, "%s:%d: missing value for -%s", origin, tk->line, name);
                return SMTLM_OPT_E_MISSING_VALUE;
            }
            next = t->v[i + 1].s;
            if (next[0] == '-' && (strcmp(next + 1, "config") == 0 || smtlm_opt_find(opts, next + 1) >= 0)) {
                smtlm_opt_errf(err, errlen, "%s:%d: missing value for -%s (next is the option %s)",
                               origin, tk->line, name, next);
                return SMTLM_OPT_E_MISSING_VALUE;
            }
            value = next;
            i += 2;
        }
        rc = smtlm_opt_assign(opts, (size_t)idx, value, origin, tk->line, err, errlen);
        if (rc)
            return rc;
    }
    return SMTLM_OPT_OK;
}

static int parse_text_at(smtlm_options *opts, const char *text, size_t len, const char *name,
                         int depth, char *err, size_t errlen)
{
    token_list raw = {0}, glued = {0};
    const char *nul = memchr(text, '\0', len);
    char *buf;
    int rc;

    if (nul) {
        int line = 1;
        const char *p;
        for (p = text; p < nul; p++)
            line += (*p == '\n');
        smtlm_opt_errf(err, errlen, "%s:%d: NUL byte in config text", name, line);
        return SMTLM_OPT_E_SYNTAX;
    }
    buf = malloc(len + 1);
    if (!buf) {
        smtlm_opt_errf(err, errlen, "%s: out of memory", name);
        return SMTLM_OPT_E_NOMEM;
    }
    memcpy(buf, text, len);
    buf[len] = '\0';
    rc = split_raw(buf, &raw);
    if (!rc)
        rc = glue_quotes(&raw, &glued, name, err, errlen);
    if (rc == SMTLM_OPT_E_NOMEM)
        smtlm_opt_errf(err, errlen, "%s: out of memory", name);
    if (!rc)
        rc = process(opts, &glued, name, 0, depth, err, errlen);
    /* glued tokens own the joined strings; raw ones point into buf */
    tokens_free(&glued);
    free(raw.v);
    free(buf);
    return rc;
}

int smtlm_options_parse_file(smtlm_options *opts, const char *path, char *err, size_t errlen)
{
    if (!opts || !path) {
        smtlm_opt_errf(err, errlen, "smtlm_options_parse_file: NULL argument");
        return SMTLM_OPT_E_ARG;
    }
    return parse_file_at(opts, path, NULL, 0, 0, 0, err, errlen);
}

int smtlm_options_parse_text(smtlm_options *opts, const char *text, size_t len,
                             const char *name, char *err, size_t errlen)
{
    const char *interned;
    if (!opts || (!text && len)) {
        smtlm_opt_errf(err, errlen, "smtlm_options_parse_text: NULL argument");
        return SMTLM_OPT_E_ARG;
    }
    interned = smtlm_opt_intern(opts, name ? name : "<text>");
    if (!interned) {
        smtlm_opt_errf(err, errlen, "%s: out of memory", name ? name : "<text>");
        return SMTLM_OPT_E_NOMEM;
    }
    return parse_text_at(opts, text ? text : "", len, interned, 0, err, errlen);
}

int smtlm_options_parse_argv(smtlm_options *opts, int argc, const char *const *argv, char *err,
                             size_t errlen)
{
    token_list t = {0};
    const char *origin;
    int i, rc;
    if (!opts || argc < 0 || (argc > 0 && !argv)) {
        smtlm_opt_errf(err, errlen, "smtlm_options_parse_argv: bad argument");
        return SMTLM_OPT_E_ARG;
    }
    origin = smtlm_opt_intern(opts, CMDLINE_ORIGIN);
    if (!origin) {
        smtlm_opt_errf(err, errlen, CMDLINE_ORIGIN ": out of memory");
        return SMTLM_OPT_E_NOMEM;
    }
    for (i = 1; i < argc; i++) {
        if (!argv[i]) {
            smtlm_opt_errf(err, errlen, CMDLINE_ORIGIN ":%d: NULL argument", i);
            tokens_free(&t);
            return SMTLM_OPT_E_ARG;
        }
        if (tokens_push(&t, argv[i], NULL, i)) {
            smtlm_opt_errf(err, errlen, CMDLINE_ORIGIN ": out of memory");
            tokens_free(&t);
            return SMTLM_OPT_E_NOMEM;
        }
    }
    rc = process(opts, &t, origin, 1, 0, err, errlen);
    tokens_free(&t);
    return rc;
}
