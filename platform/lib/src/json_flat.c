/* Recursive-descent JSON reader producing path-named leaves (see json_flat.h). */
#include "smtlm/json_flat.h"
#include "smtlm/file_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64

typedef struct parser {
    const char *p, *end, *start;
    smtlm_json_flat *out;
    char path[1024];
    size_t path_len;
    char *msg;
    size_t msg_size;
    int failed;
} parser;

static unsigned line_of(const parser *ps)
{
    unsigned line = 1;
    for (const char *q = ps->start; q < ps->p && q < ps->end; q++)
        line += *q == '\n';
    return line;
}

static int fail(parser *ps, const char *what)
{
    if (!ps->failed)
        snprintf(ps->msg, ps->msg_size, "line %u: %s", line_of(ps), what);
    ps->failed = 1;
    return -1;
}

static void skip_ws(parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
        ps->p++;
}

static char *dup_range(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

static int add_leaf(parser *ps, char *text, int is_number, double number)
{
    smtlm_json_flat *f = ps->out;
    if (f->n == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 64;
        smtlm_json_leaf *l = realloc(f->leaf, cap * sizeof *l);
        if (!l) {
            free(text);
            return fail(ps, "out of memory");
        }
        f->leaf = l;
        f->cap = cap;
    }
    char *path = dup_range(ps->path, ps->path_len);
    if (!path || !text) {
        free(path);
        free(text);
        return fail(ps, "out of memory");
    }
    smtlm_json_leaf *l = &f->leaf[f->n++];
    l->path = path;
    l->text = text;
    l->is_number = is_number;
    l->number = number;
    return 0;
}

/* A string's contents (escapes kept as written: the comparison needs equality only). */
static int read_string(parser *ps, const char **s, size_t *n)
{
    if (ps->p >= ps->end || *ps->p != '"')
        return fail(ps, "expected a string");
    const char *q = ++ps->p;
    while (ps->p < ps->end && *ps->p != '"') {
        if (*ps->p == '\n')
            return fail(ps, "line break inside a string");
        ps->p += *ps->p == '\\' && ps->p + 1 < ps->end ? 2 : 1;
    }
    if (ps->p >= ps->end)
        return fail(ps, "unterminated string");
    *s = q;
    *n = (size_t)(ps->p - q);
    ps->p++;
    return 0;
}

static int push_path(parser *ps, const char *fmt, const char *s, size_t n, size_t index, size_t *saved)
{
    *saved = ps->path_len;
    const size_t room = sizeof ps->path - ps->path_len;
    int w = s ? snprintf(ps->path + ps->path_len, room, fmt, (int)n, s)
              : snprintf(ps->path + ps->path_len, room, "[%zu]", index);
    if (w < 0 || (size_t)w >= room)
        return fail(ps, "member path too long");
    ps->path_len += (size_t)w;
    return 0;
}

static int value(parser *ps, int depth);

static int object(parser *ps, int depth)
{
    ps->p++; /* '{' */
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == '}') {
        ps->p++;
        return 0;
    }
    for (;;) {
        const char *key;
        size_t klen, saved;
        skip_ws(ps);
        if (read_string(ps, &key, &klen))
            return -1;
        skip_ws(ps);
        if (ps->p >= ps->end || *ps->p != ':')
            return fail(ps, "expected ':' after a member name");
        ps->p++;
        if (push_path(ps, ps->path_len ? ".%.*s" : "%.*s", key, klen, 0, &saved) || value(ps, depth + 1))
            return -1;
        ps->path_len = saved;
        skip_ws(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == '}') {
            ps->p++;
            return 0;
        }
        return fail(ps, "expected ',' or '}' in an object");
    }
}

static int array(parser *ps, int depth)
{
    ps->p++; /* '[' */
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == ']') {
        ps->p++;
        return 0;
    }
    for (size_t i = 0;; i++) {
        size_t saved;
        if (push_path(ps, NULL, NULL, 0, i, &saved) || value(ps, depth + 1))
            return -1;
        ps->path_len = saved;
        skip_ws(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == ']') {
            ps->p++;
            return 0;
        }
        return fail(ps, "expected ',' or ']' in an array");
    }
}

static int scalar(parser *ps)
{
    if (*ps->p == '"') {
        const char *s;
        size_t n;
        if (read_string(ps, &s, &n))
            return -1;
        return add_leaf(ps, dup_range(s, n), 0, 0);
    }
    static const char *const words[] = {"true", "false", "null"};
    for (unsigned k = 0; k < 3; k++) {
        const size_t n = strlen(words[k]);
        if ((size_t)(ps->end - ps->p) >= n && !memcmp(ps->p, words[k], n)) {
            ps->p += n;
            return add_leaf(ps, dup_range(words[k], n), 0, 0);
        }
    }
    /* a number: strtod on a bounded copy (the text need not be NUL-terminated) */
    const char *q = ps->p;
    while (q < ps->end && q - ps->p < 63 && strchr("+-0123456789.eE", *q))
        q++;
    char buf[64];
    memcpy(buf, ps->p, (size_t)(q - ps->p));
    buf[q - ps->p] = 0;
    char *stop;
    errno = 0;
    const double v = strtod(buf, &stop);
    if (q == ps->p || *stop || errno == ERANGE)
        return fail(ps, "expected a value");
    ps->p = q;
    return add_leaf(ps, dup_range(buf, strlen(buf)), 1, v);
}

static int value(parser *ps, int depth)
{
    if (depth > MAX_DEPTH)
        return fail(ps, "nested too deeply");
    skip_ws(ps);
    if (ps->p >= ps->end)
        return fail(ps, "unexpected end of the document");
    if (*ps->p == '\0')
        return fail(ps, "NUL byte (not JSON text)");
    if (*ps->p == '{')
        return object(ps, depth);
    if (*ps->p == '[')
        return array(ps, depth);
    return scalar(ps);
}

int smtlm_json_flatten(const char *text, size_t len, smtlm_json_flat *out, char *msg, size_t msg_size)
{
    memset(out, 0, sizeof *out);
    parser ps;
    memset(&ps, 0, sizeof ps);
    ps.p = ps.start = text;
    ps.end = text + len;
    ps.out = out;
    ps.msg = msg;
    ps.msg_size = msg_size;
    if (value(&ps, 0) == 0) {
        skip_ws(&ps);
        if (ps.p < ps.end)
            fail(&ps, "text after the document");
    }
    if (ps.failed) {
        smtlm_json_flat_free(out);
        return -1;
    }
    return 0;
}

int smtlm_json_flatten_file(const char *path, smtlm_json_flat *out, char *msg, size_t msg_size)
{
    memset(out, 0, sizeof *out);
    char *text = NULL, what[160];
    size_t len = 0;
    int err_no = 0;
    const int got = smtlm_read_bounded(path, SMTLM_JSON_MAX_BYTES, &text, &len, &err_no);
    if (got != SMTLM_READ_OK) {
        snprintf(msg, msg_size, "%s: %s", path,
                 smtlm_read_problem(got, err_no, SMTLM_JSON_MAX_BYTES, "JSON file", what, sizeof what));
        return -1;
    }
    char why[512];
    const int rc = smtlm_json_flatten(text, len, out, why, sizeof why);
    free(text);
    if (rc) {
        /* why is "line L: what": the file name goes in front as file:line */
        snprintf(msg, msg_size, "%s:%s", path, why + 5);
        return -1;
    }
    return 0;
}

void smtlm_json_flat_free(smtlm_json_flat *f)
{
    for (size_t i = 0; i < f->n; i++) {
        free(f->leaf[i].path);
        free(f->leaf[i].text);
    }
    free(f->leaf);
    memset(f, 0, sizeof *f);
}
