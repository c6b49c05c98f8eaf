/* kernelslist.g: the command list of a traced application (Accel-Sim
 * trace_parser::parse_commandlist_file / parse_memcpy_info). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

#include "smtlm/file_read.h"

#include "trace_internal.h"

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s);
    char *d = malloc(n + 1);
    if (d != NULL)
        memcpy(d, s, n + 1);
    return d;
}

/* Directory of the list, joined with a name from it ("dir/name"; "name" for a bare list). */
static char *join_dir(const char *list, const char *name)
{
    const char *slash = strrchr(list, '/');
    size_t dn = slash != NULL ? (size_t)(slash - list) + 1 : 0, nn = strlen(name);
    char *p = malloc(dn + nn + 1);
    if (p == NULL)
        return NULL;
    memcpy(p, list, dn);
    memcpy(p + dn, name, nn + 1);
    return p;
}

/* Whether path opens for reading (without waiting for a FIFO's writer). */
static int readable(const char *path, int *errnum)
{
    struct stat st;
    const int fd = smtlm_open_nowait(path, &st);
    if (fd < 0) {
        *errnum = errno;
        return 0;
    }
    close(fd);
    return 1;
}

static int push(smtlm_kernelslist *l, size_t *cap, const smtlm_trace_cmd *c)
{
    if (l->n == *cap) {
        size_t nc = *cap ? *cap * 2 : 8;
        smtlm_trace_cmd *p = realloc(l->cmds, nc * sizeof *p);
        if (p == NULL)
            return SMTLM_TRACE_ERR_NOMEM;
        l->cmds = p;
        *cap = nc;
    }
    l->cmds[l->n++] = *c;
    return 0;
}

/* "MemcpyHtoD,0x<hex>,<dec>" */
static int parse_memcpy(const char *line, uint64_t *addr, uint64_t *size)
{
    const char *a = strchr(line, ','), *b;
    trace_tok ta, tb;
    if (a == NULL || (b = strchr(a + 1, ',')) == NULL || strchr(b + 1, ',') != NULL)
        return -1;
    ta.s = a + 1;
    ta.n = (size_t)(b - ta.s);
    tb.s = b + 1;
    tb.n = strlen(tb.s);
    if (trace_parse_hex(ta, UINT64_MAX, addr) < 0 || trace_parse_dec(tb, UINT64_MAX, size) < 0)
        return -1;
    return 0;
}

/* Trims blanks in place; returns the first non-blank character. */
static char *trim(char *s)
{
    size_t n;
    while (*s == ' ' || *s == '\t')
        s++;
    n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    return s;
}

static int single_trace(const char *path, smtlm_kernelslist *out, char *err, size_t errlen)
{
    smtlm_trace_cmd c;
    size_t cap = 0;
    int e;
    if (!readable(path, &e))
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_IO, path, 0, "cannot open: %s",
                          strerror(e));
    memset(&c, 0, sizeof c);
    c.kind = SMTLM_TRACE_CMD_KERNEL;
    c.path = dup_str(path);
    if (c.path == NULL || push(out, &cap, &c) < 0) {
        free(c.path);
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_NOMEM, path, 0, "out of memory");
    }
    return 0;
}

static int list_line(const char *list, unsigned long ln, char *line, smtlm_kernelslist *out,
                     size_t *cap, char *err, size_t errlen)
{
    smtlm_trace_cmd c;
    int e;
    memset(&c, 0, sizeof c);
    c.line = ln;
    line = trim(line);
    if (starts_with(line, "MemcpyHtoD")) {
        c.kind = SMTLM_TRACE_CMD_MEMCPY_HTOD;
        if (parse_memcpy(line, &c.addr, &c.size) < 0)
            return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, list, ln,
                              "malformed line: expected MemcpyHtoD,0x<address>,<bytes>");
    } else if (starts_with(line, "kernel")) {
        c.kind = SMTLM_TRACE_CMD_KERNEL;
        c.path = join_dir(list, line);
        if (c.path == NULL)
            return trace_fail(err, errlen, SMTLM_TRACE_ERR_NOMEM, list, ln, "out of memory");
        if (!readable(c.path, &e)) {
            int rc = trace_fail(err, errlen, SMTLM_TRACE_ERR_IO, list, ln,
                                "cannot open %s: %s", c.path, strerror(e));
            free(c.path);
            return rc;
        }
    } else {
        /* MemcpyDtoH and anything else: ignored, as in Accel-Sim; others are counted so the
         * caller can say so (a misnamed trace must not vanish silently) */
        if (*line && *line != '#' && !starts_with(line, "MemcpyDtoH") && out->n_ignored++ == 0) {
            out->first_ignored_line = ln;
            snprintf(out->first_ignored, sizeof out->first_ignored, "%s", line);
        }
        return 0;
    }
    if (push(out, cap, &c) < 0) {
        free(c.path);
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_NOMEM, list, ln, "out of memory");
    }
    return 0;
}

static int has_kernel(const smtlm_kernelslist *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->cmds[i].kind == SMTLM_TRACE_CMD_KERNEL)
            return 1;
    return 0;
}

static int no_kernel(const char *path, const smtlm_kernelslist *l, char *err, size_t errlen)
{
    if (l->n_ignored)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, path, l->first_ignored_line,
                          "the list names no kernel: '%s' does not start with 'kernel' and is ignored, as in "
                          "Accel-Sim (%lu such line%s); kernel traces are listed as kernel-<N>.traceg[.xz] or kernel-<N>.tracez",
                          l->first_ignored, l->n_ignored, l->n_ignored == 1 ? "" : "s");
    return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, path, 0,
                      "the list names no kernel (no line starting with 'kernel'; %zu MemcpyHtoD line%s)",
                      l->n, l->n == 1 ? "" : "s");
}

int smtlm_kernelslist_load(const char *path, smtlm_kernelslist *out, char *err, size_t errlen)
{
    trace_lines l;
    size_t cap = 0;
    int rc;
    if (out == NULL || path == NULL)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_ARG, "smtlm_kernelslist_load", 0,
                          "NULL argument");
    memset(out, 0, sizeof *out);
    if (ends_with(path, ".traceg") || ends_with(path, ".xz") || ends_with(path, ".tracez"))
        rc = single_trace(path, out, err, errlen);
    else if ((rc = trace_lines_open_file_limited(&l, path, SMTLM_KERNELSLIST_MAX_BYTES, "kernel list", err, errlen)) ==
             0) {
        while ((rc = trace_lines_next(&l, err, errlen)) == 1)
            if ((rc = list_line(path, l.lineno, l.line, out, &cap, err, errlen)) < 0)
                break;
        trace_lines_close(&l);
        if (rc == 0 && !has_kernel(out))
            rc = no_kernel(path, out, err, errlen);
    }
    if (rc < 0) {
        smtlm_kernelslist_free(out);
        return rc;
    }
    return 0;
}

void smtlm_kernelslist_free(smtlm_kernelslist *list)
{
    size_t i;
    if (list == NULL)
        return;
    for (i = 0; i < list->n; i++)
        free(list->cmds[i].path);
    free(list->cmds);
    list->cmds = NULL;
    list->n = 0;
}
