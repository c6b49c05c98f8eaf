/* Bounded-memory line source for traces and lists: a file or a memory block, plain or xz
 * (detected by the xz magic bytes, decoded with liblzma in fixed-size chunks). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace_internal.h"

static const unsigned char xz_magic[6] = {0xFD, '7', 'z', 'X', 'Z', 0x00};

/* Next raw bytes into dst; sets raw_eof at the end. < 0 on a read error. */
static int raw_read(trace_lines *l, unsigned char *dst, size_t cap, size_t *got, char *err,
                    size_t errlen)
{
    *got = 0;
    if (l->raw_eof)
        return 0;
    if (l->fp != NULL) {
        *got = fread(dst, 1, cap, l->fp);
        if (*got < cap) {
            if (ferror(l->fp))
                return trace_fail(err, errlen, SMTLM_TRACE_ERR_IO, l->name, 0,
                                  "read error: %s", strerror(errno));
            l->raw_eof = 1;
        }
    } else {
        size_t left = l->mem_len - l->mem_pos;
        *got = left < cap ? left : cap;
        if (*got > 0)
            memcpy(dst, l->mem + l->mem_pos, *got);
        l->mem_pos += *got;
        if (l->mem_pos == l->mem_len)
            l->raw_eof = 1;
    }
    return 0;
}

static int xz_error(trace_lines *l, lzma_ret ret, char *err, size_t errlen)
{
    const char *what;
    int code = SMTLM_TRACE_ERR_IO;
    switch (ret) {
    case LZMA_BUF_ERROR: what = "truncated xz stream"; break;
    case LZMA_MEM_ERROR: what = "out of memory in the xz decoder"; code = SMTLM_TRACE_ERR_NOMEM; break;
    case LZMA_MEMLIMIT_ERROR: what = "xz stream needs more than 256 MiB to decode"; break;
    case LZMA_FORMAT_ERROR: what = "not an xz stream"; break;
    case LZMA_OPTIONS_ERROR: what = "unsupported xz options"; break;
    case LZMA_DATA_ERROR: what = "corrupt xz stream"; break;
    default: what = "xz decoding error"; break;
    }
    /* Point at the line being assembled when the damage is met (0 = before any line). */
    return trace_fail(err, errlen, code, l->name, l->lineno + (l->own_len > 0 || l->lineno > 0),
                      "%s", what);
}

/* Decodes the next chunk into buf. 1 = bytes available, 0 = end, < 0 = error. */
static int xz_fill(trace_lines *l, char *err, size_t errlen)
{
    int idle = 0;
    for (;;) {
        lzma_ret ret;
        size_t produced;
        if (l->xz.avail_in == 0 && !l->raw_eof) {
            size_t got;
            int rc = raw_read(l, l->raw, TRACE_CHUNK, &got, err, errlen);
            if (rc < 0)
                return rc;
            l->xz.next_in = l->raw;
            l->xz.avail_in = got;
        }
        l->xz.next_out = l->buf;
        l->xz.avail_out = TRACE_CHUNK;
        ret = lzma_code(&l->xz, l->raw_eof ? LZMA_FINISH : LZMA_RUN);
        produced = TRACE_CHUNK - l->xz.avail_out;
        l->buf_len = produced;
        l->buf_pos = 0;
        if (ret == LZMA_STREAM_END) {
            l->decoded_eof = 1;
            return produced > 0;
        }
        if (ret != LZMA_OK)
            return xz_error(l, ret, err, errlen);
        if (produced > 0)
            return 1;
        /* liblzma reports LZMA_BUF_ERROR on a repeated no-progress call; this is a backstop. */
        if (l->raw_eof && l->xz.avail_in == 0 && ++idle > 2)
            return xz_error(l, LZMA_BUF_ERROR, err, errlen);
    }
}

static int fill(trace_lines *l, char *err, size_t errlen)
{
    if (l->decoded_eof)
        return 0;
    if (l->is_xz)
        return xz_fill(l, err, errlen);
    {
        size_t got;
        int rc = raw_read(l, l->buf, TRACE_CHUNK, &got, err, errlen);
        if (rc < 0)
            return rc;
        l->buf_len = got;
        l->buf_pos = 0;
        if (got == 0)
            l->decoded_eof = 1;
        return got > 0;
    }
}

/* Common start: allocate buffers, look at the first bytes, set up the decoder. */
static int start(trace_lines *l, char *err, size_t errlen)
{
    size_t got;
    int rc;
    l->raw = malloc(TRACE_CHUNK);
    l->buf = malloc(TRACE_CHUNK);
    if (l->raw == NULL || l->buf == NULL)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_NOMEM, l->name, 0, "out of memory");
    rc = raw_read(l, l->raw, TRACE_CHUNK, &got, err, errlen);
    if (rc < 0)
        return rc;
    if (got >= sizeof xz_magic && memcmp(l->raw, xz_magic, sizeof xz_magic) == 0) {
        lzma_stream init = LZMA_STREAM_INIT;
        lzma_ret ret;
        l->xz = init;
        ret = lzma_stream_decoder(&l->xz, TRACE_XZ_MEMLIMIT, LZMA_CONCATENATED);
        if (ret != LZMA_OK)
            return xz_error(l, ret, err, errlen);
        l->is_xz = 1;
        l->xz.next_in = l->raw;
        l->xz.avail_in = got;
    } else {
        /* Plain text: the first chunk is already decoded data. */
        unsigned char *tmp = l->buf;
        l->buf = l->raw;
        l->raw = tmp;
        l->buf_len = got;
        l->buf_pos = 0;
        if (got == 0)
            l->decoded_eof = 1;
    }
    return 0;
}

int trace_lines_open_file(trace_lines *l, const char *path, char *err, size_t errlen)
{
    int rc;
    memset(l, 0, sizeof *l);
    l->name = path;
    l->fp = fopen(path, "rb");
    if (l->fp == NULL)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_IO, path, 0, "cannot open: %s",
                          strerror(errno));
    rc = start(l, err, errlen);
    if (rc < 0)
        trace_lines_close(l);
    return rc;
}

int trace_lines_open_mem(trace_lines *l, const void *data, size_t len, const char *name,
                         char *err, size_t errlen)
{
    int rc;
    memset(l, 0, sizeof *l);
    l->name = name;
    l->mem = data;
    l->mem_len = data != NULL ? len : 0;
    if (l->mem_len == 0)
        l->raw_eof = 1;
    rc = start(l, err, errlen);
    if (rc < 0)
        trace_lines_close(l);
    return rc;
}

static int append(trace_lines *l, const unsigned char *s, size_t n, char *err, size_t errlen)
{
    if (l->own_len + n + 1 > l->own_cap) {
        size_t cap = l->own_cap ? l->own_cap : 256;
        char *p;
        if (l->own_len + n + 1 > TRACE_MAX_LINE)
            return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, l->name, l->lineno + 1,
                              "line longer than %u bytes", TRACE_MAX_LINE);
        while (cap < l->own_len + n + 1)
            cap *= 2;
        p = realloc(l->own, cap);
        if (p == NULL)
            return trace_fail(err, errlen, SMTLM_TRACE_ERR_NOMEM, l->name, l->lineno + 1,
                              "out of memory");
        l->own = p;
        l->own_cap = cap;
    }
    memcpy(l->own + l->own_len, s, n);
    l->own_len += n;
    return 0;
}

/* Ends the line s[0..n) (s writable, s[n] available for the terminator). */
static int finish_line(trace_lines *l, char *s, size_t n, char *err, size_t errlen)
{
    l->lineno++;
    while (n > 0 && s[n - 1] == '\r')
        n--;
    s[n] = '\0';
    l->line = s;
    l->line_len = n;
    if (memchr(s, '\0', n) != NULL)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, l->name, l->lineno,
                          "malformed line: NUL byte");
    return 1;
}

/* Ends a line assembled in own. */
static int finish_own(trace_lines *l, char *err, size_t errlen)
{
    int rc = append(l, (const unsigned char *)"", 0, err, errlen); /* room for the NUL */
    return rc < 0 ? rc : finish_line(l, l->own, l->own_len, err, errlen);
}

int trace_lines_next(trace_lines *l, char *err, size_t errlen)
{
    int have = 0; /* bytes of this line were copied into own */
    l->own_len = 0;
    for (;;) {
        unsigned char *start, *nl;
        size_t n;
        int rc;
        if (l->buf_pos == l->buf_len) {
            rc = fill(l, err, errlen);
            if (rc < 0)
                return rc;
            if (rc == 0) {
                if (have)
                    return finish_own(l, err, errlen);
                l->empty[0] = '\0';
                l->line = l->empty; /* no stale text after the end */
                l->line_len = 0;
                return 0;
            }
            continue;
        }
        start = l->buf + l->buf_pos;
        n = l->buf_len - l->buf_pos;
        nl = memchr(start, '\n', n);
        if (nl != NULL && !have) { /* the common case: the whole line is in this chunk */
            l->buf_pos += (size_t)(nl - start) + 1;
            return finish_line(l, (char *)start, (size_t)(nl - start), err, errlen);
        }
        if (nl != NULL)
            n = (size_t)(nl - start);
        rc = append(l, start, n, err, errlen);
        if (rc < 0)
            return rc;
        have = 1;
        l->buf_pos += n;
        if (nl != NULL) {
            l->buf_pos++;
            return finish_own(l, err, errlen);
        }
    }
}

void trace_lines_close(trace_lines *l)
{
    if (l->fp != NULL)
        fclose(l->fp);
    if (l->is_xz)
        lzma_end(&l->xz);
    free(l->raw);
    free(l->buf);
    free(l->own);
    memset(l, 0, sizeof *l);
}
