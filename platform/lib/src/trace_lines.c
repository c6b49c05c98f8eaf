/* Bounded-memory line source for traces and lists: a file or a memory block, plain or xz
 * (detected by the xz magic bytes, decoded with liblzma in fixed-size chunks), or a .tracez
 * (by its name; its text form, trace_tracez.c). Besides the
 * sequential reader of a trace, cursors start anywhere in it (trace_lines_open_at): a plain
 * one reads from the offset on, an xz one decodes from the start and drops what comes before. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "smtlm/file_read.h"

#include "trace_internal.h"

static const unsigned char xz_magic[6] = {0xFD, '7', 'z', 'X', 'Z', 0x00};

/* Next raw bytes into dst; sets raw_eof at the end. < 0 on a read error. */
static int raw_read(trace_lines *l, unsigned char *dst, size_t cap, size_t *got, char *err,
                    size_t errlen)
{
    const trace_input *in = l->in;
    *got = 0;
    if (l->raw_eof)
        return 0;
    if (in->fd >= 0) {
        ssize_t n;
        do /* pread on a regular file: the offset is this reader's own (cursors share the fd) */
            n = in->seekable ? pread(in->fd, dst, cap, (off_t)l->raw_pos) : read(in->fd, dst, cap);
        while (n < 0 && errno == EINTR);
        if (n < 0)
            return trace_fail(err, errlen, SMTLM_TRACE_ERR_IO, l->name, 0, "read error: %s",
                              strerror(errno));
        *got = (size_t)n;
        /* a regular file returns less than asked only at its end; a pipe may return less */
        if (n == 0 || (in->seekable && *got < cap))
            l->raw_eof = 1;
    } else {
        size_t left = l->raw_pos < in->mem_len ? in->mem_len - (size_t)l->raw_pos : 0;
        *got = left < cap ? left : cap;
        if (*got > 0)
            memcpy(dst, in->mem + l->raw_pos, *got);
        if (*got == left)
            l->raw_eof = 1;
    }
    l->raw_pos += *got;
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
        if (l->block_done) { /* a cursor going block by block: on to the next one */
            int rc = trace_xz_seek_next(l, err, errlen);
            l->block_done = 0;
            if (rc <= 0) {
                l->decoded_eof = rc == 0;
                return rc;
            }
        }
        if (l->xz.avail_in == 0 && !l->raw_eof) {
            size_t got;
            int rc = raw_read(l, l->raw, l->chunk, &got, err, errlen);
            if (rc < 0)
                return rc;
            l->xz.next_in = l->raw;
            l->xz.avail_in = got;
        }
        l->xz.next_out = l->buf;
        l->xz.avail_out = l->chunk;
        ret = lzma_code(&l->xz, l->raw_eof ? LZMA_FINISH : LZMA_RUN);
        produced = l->chunk - l->xz.avail_out;
        l->buf_len = produced;
        if (ret == LZMA_STREAM_END && l->seek != NULL) {
            l->block_done = 1;
            if (produced > 0)
                return 1;
            continue;
        }
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

/* An error once the decoded bytes pass the input's limit. */
static int over_limit(const trace_lines *l, char *err, size_t errlen)
{
    const trace_input *in = l->in;
    /* a regular plain file is as large as it says (a sparse one too): refused before reading */
    const uint64_t size = !in->is_xz && in->fd >= 0 && in->seekable && in->file_size > l->buf_off + l->buf_len
                              ? in->file_size
                              : l->buf_off + l->buf_len;
    if (in->max_bytes == 0 || size <= in->max_bytes)
        return 0;
    return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, l->name, 0, "larger than %llu bytes%s, the limit for a %s",
                      (unsigned long long)in->max_bytes, in->is_xz ? " decoded" : "", in->kind);
}

/* The next decoded chunk in buf[0..buf_len), the bytes a cursor skips dropped. 1 = bytes
 * available, 0 = end, < 0 = error. */
static int fill(trace_lines *l, char *err, size_t errlen)
{
    for (;;) {
        int rc;
        l->buf_off += l->buf_len;
        l->buf_len = 0;
        l->buf_pos = 0;
        if (l->decoded_eof)
            return 0;
        if (l->tz != NULL) {
            rc = trace_tz_fill(l, err, errlen);
            if (rc == 0)
                l->decoded_eof = 1;
        } else if (l->in->is_xz) {
            rc = xz_fill(l, err, errlen);
        } else {
            size_t got;
            rc = raw_read(l, l->buf, l->chunk, &got, err, errlen);
            l->buf_len = got;
            if (rc == 0 && got == 0)
                l->decoded_eof = 1;
            if (rc == 0)
                rc = got > 0;
        }
        if (rc > 0 && over_limit(l, err, errlen) < 0)
            return SMTLM_TRACE_ERR_FORMAT;
        if (rc <= 0 || l->skip == 0)
            return rc;
        if (l->skip < l->buf_len) {
            l->buf_pos = (size_t)l->skip;
            l->skip = 0;
            return 1;
        }
        l->skip -= l->buf_len;
    }
}

/* The decoded-text buffer, and the raw one unless this is a cursor over plain text. */
static int buffers(trace_lines *l, int raw, char *err, size_t errlen)
{
    l->raw = raw ? malloc(l->chunk) : NULL;
    l->buf = malloc(l->chunk);
    if ((raw && l->raw == NULL) || l->buf == NULL)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_NOMEM, l->name, 0, "out of memory");
    return 0;
}

static int xz_start(trace_lines *l, char *err, size_t errlen)
{
    lzma_stream init = LZMA_STREAM_INIT;
    lzma_ret ret;
    l->xz = init;
    ret = lzma_stream_decoder(&l->xz, TRACE_XZ_MEMLIMIT, LZMA_CONCATENATED);
    if (ret != LZMA_OK)
        return xz_error(l, ret, err, errlen);
    l->xz_live = 1;
    return 0;
}

static int ends_with(const char *s, const char *suffix)
{
    const size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* A compressed file of a format other than xz (its first bytes), or one named .xz without the xz
 * magic bytes: an error naming what it is, rather than a NUL byte on line 1. */
static int other_format(const trace_lines *l, size_t got, char *err, size_t errlen)
{
    static const struct {
        unsigned char magic[4];
        size_t n;
        const char *what;
    } formats[] = {
        {{0x1F, 0x8B}, 2, "a gzip file"},
        {{0x28, 0xB5, 0x2F, 0xFD}, 4, "a zstd file"},
        /* LZMA-alone (.lzma, xz --format=lzma): properties byte 0x5D (lc=3 lp=0 pb=2, what every
         * encoder writes by default), then a 32-bit dictionary size whose low bytes are 0 */
        {{0x5D, 0x00, 0x00}, 3, "an LZMA-alone (.lzma) file, not an xz file"},
    };
    const unsigned char *b = l->raw;
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (got >= formats[i].n && memcmp(b, formats[i].magic, formats[i].n) == 0)
            return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, l->name, 0,
                              "%s: smtlm reads plain text and xz (decompress it, or recompress it with xz)",
                              formats[i].what);
    if (ends_with(l->name, ".xz") && (got < sizeof xz_magic || memcmp(b, xz_magic, sizeof xz_magic) != 0))
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, l->name, 0,
                          "named .xz but not an xz file (it does not start with the xz magic bytes FD 37 7A 58 5A 00)");
    return 0;
}

/* Start of a whole input: allocate buffers, look at the first bytes, set up the decoder. */
static int start(trace_lines *l, char *err, size_t errlen)
{
    size_t got;
    int rc;
    l->in = &l->src;
    l->name = l->src.name;
    l->chunk = TRACE_CHUNK;
    if ((rc = buffers(l, 1, err, errlen)) < 0)
        return rc;
    if (ends_with(l->name, ".tracez")) { /* no magic bytes: it starts with its header text */
        if ((rc = trace_tz_open_input(&l->src, err, errlen)) < 0)
            return rc;
        return trace_tz_start(l, 0, 0, err, errlen);
    }
    if ((rc = raw_read(l, l->raw, l->chunk, &got, err, errlen)) < 0)
        return rc;
    if (got == 0 && l->src.is_fifo)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_IO, l->name, 0,
                          "a FIFO or pipe that nothing was written to (no writer?)");
    if ((rc = other_format(l, got, err, errlen)) < 0)
        return rc;
    if (got >= sizeof xz_magic && memcmp(l->raw, xz_magic, sizeof xz_magic) == 0) {
        l->src.is_xz = 1;
        l->src.xz_index = trace_xz_index_load(&l->src); /* for cursors: NULL is fine */
        if ((rc = xz_start(l, err, errlen)) < 0)
            return rc;
        l->xz.next_in = l->raw;
        l->xz.avail_in = got;
    } else {
        /* Plain text: the first chunk is already decoded data. */
        unsigned char *tmp = l->buf;
        l->buf = l->raw;
        l->raw = tmp;
        l->buf_len = got;
        if (got == 0)
            l->decoded_eof = 1;
        if (over_limit(l, err, errlen) < 0)
            return SMTLM_TRACE_ERR_FORMAT;
    }
    return 0;
}

int trace_lines_open_file_limited(trace_lines *l, const char *path, uint64_t max_bytes, const char *kind, char *err,
                                  size_t errlen)
{
    struct stat st;
    int rc;
    memset(l, 0, sizeof *l);
    l->src.name = path;
    l->src.max_bytes = max_bytes;
    l->src.kind = kind;
    l->src.fd = smtlm_open_nowait(path, &st); /* a FIFO's writer is not waited for */
    if (l->src.fd < 0)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_IO, path, 0, "cannot open: %s",
                          strerror(errno));
    l->src.own_fd = 1;
    l->src.seekable = S_ISREG(st.st_mode);
    l->src.file_size = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
    l->src.is_fifo = S_ISFIFO(st.st_mode);
    rc = start(l, err, errlen);
    if (rc < 0)
        trace_lines_close(l);
    return rc;
}

int trace_lines_open_file(trace_lines *l, const char *path, char *err, size_t errlen)
{
    return trace_lines_open_file_limited(l, path, 0, NULL, err, errlen);
}

int trace_lines_open_mem(trace_lines *l, const void *data, size_t len, const char *name,
                         char *err, size_t errlen)
{
    int rc;
    memset(l, 0, sizeof *l);
    l->src.name = name;
    l->src.fd = -1;
    l->src.mem = data;
    l->src.mem_len = data != NULL ? len : 0;
    l->src.seekable = 1;
    rc = start(l, err, errlen);
    if (rc < 0)
        trace_lines_close(l);
    return rc;
}

int trace_lines_open_at(trace_lines *l, const trace_input *in, uint64_t off, unsigned long lineno,
                        size_t chunk, char *err, size_t errlen)
{
    int rc;
    memset(l, 0, sizeof *l);
    l->src.fd = -1;
    l->in = in;
    l->name = in->name;
    l->chunk = chunk;
    l->lineno = lineno;
    if ((rc = buffers(l, in->is_xz || in->tz != NULL, err, errlen)) == 0) {
        if (in->tz != NULL) {
            rc = trace_tz_start(l, 1, off, err, errlen); /* off: the warp's data */
        } else if (in->is_xz && in->xz_index != NULL) {
            rc = trace_xz_seek_open(l, off, err, errlen); /* from the block holding off */
        } else if (in->is_xz) {
            l->skip = off; /* xz cannot seek: decode from the start, drop what comes before */
            rc = xz_start(l, err, errlen);
        } else {
            l->raw_pos = l->buf_off = off;
        }
    }
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
static int finish_line(trace_lines *l, char *s, size_t n)
{
    l->lineno++;
    while (n > 0 && s[n - 1] == '\r')
        n--;
    s[n] = '\0';
    l->line = s;
    l->line_len = n;
    return 1;
}

/* Ends a line assembled in own. */
static int finish_own(trace_lines *l, char *err, size_t errlen)
{
    int rc = append(l, (const unsigned char *)"", 0, err, errlen); /* room for the NUL */
    return rc < 0 ? rc : finish_line(l, l->own, l->own_len);
}

int trace_lines_check_nul(const trace_lines *l, char *err, size_t errlen)
{
    if (memchr(l->line, '\0', l->line_len) != NULL)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, l->name, l->lineno,
                          "malformed line: NUL byte");
    return 0;
}

int trace_lines_next_raw(trace_lines *l, char *err, size_t errlen)
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
            return finish_line(l, (char *)start, (size_t)(nl - start));
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

int trace_lines_next(trace_lines *l, char *err, size_t errlen)
{
    int rc = trace_lines_next_raw(l, err, errlen);
    if (rc == 1 && trace_lines_check_nul(l, err, errlen) < 0)
        return SMTLM_TRACE_ERR_FORMAT;
    return rc;
}

size_t trace_lines_footprint(const trace_lines *l)
{
    return (l->raw != NULL ? 2 : 1) * l->chunk + l->own_cap + (l->xz_live ? (size_t)lzma_memusage(&l->xz) : 0) +
           (l->seek != NULL ? 4096 : 0) /* about what a block seek holds (iterator, filter options) */
           + trace_tz_footprint(l);
}

uint64_t trace_lines_resume(const trace_lines *l) { return l->tz != NULL ? trace_tz_resume(l) : trace_lines_tell(l); }

void trace_lines_close(trace_lines *l)
{
    if (l->src.own_fd && l->src.fd >= 0)
        close(l->src.fd);
    if (l->xz_live)
        lzma_end(&l->xz);
    trace_xz_seek_close(l);
    trace_tz_close(l);
    lzma_index_end(l->src.xz_index, NULL); /* the input's own index (NULL for cursors) */
    trace_tz_input_free(&l->src);          /* likewise */
    free(l->raw);
    free(l->buf);
    free(l->own);
    memset(l, 0, sizeof *l);
    l->src.fd = -1;
}
