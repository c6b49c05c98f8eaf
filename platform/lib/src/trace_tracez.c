/* .tracez (Accel-Sim 2.0's zstd trace) as a line source: its bytes are turned back into the text
 * form a .traceg holds, so every parsing rule of the text reader (trace_reader.c, trace_inst.c)
 * applies to it unchanged. The text form is: the kernel header; per thread block of the index,
 * in index order, "#BEGIN_TB", "thread block = x,y,z", "cluster id = x,y,z", "cluster cta =
 * x,y,z", "cluster rank = r", then per warp "warp = j", "insts = n" and its instruction lines
 * (the sub-chunks' frames, one line per '\n', a last line without one ended), then "#END_TB".
 * Line numbers in messages count the lines of that text.
 *
 * Layout (little-endian): the header text up to a NUL; u32 dictionary size, u32 sub-chunk size;
 * the zstd dictionary (none when its size is 0); per warp, at its offset, u32 instruction count,
 * u32 sub-chunk count, and each sub-chunk as u32 compressed size + one zstd frame; the index
 * (u32 block count; per block u32 block x/y/z, cluster id x/y/z, cluster cta x/y/z, cluster rank,
 * warp count; per warp u32 instruction count, u32 sub-chunk count, u64 offset, u32 instructions
 * per sub-chunk); the last 8 bytes the index's offset.
 *
 * Memory stays bounded: the index is read as the blocks come (a small cache, nothing held per
 * block), and a frame is decoded in streaming, one output chunk at a time. Every count, size and
 * offset is checked against the others and against the file: a disagreement is an error naming
 * the block, warp and sub-chunk.
 *
 * A cursor (trace_lines_open_at) over a .tracez starts at a warp's data (the offset the reader
 * notes after its "insts =" line, trace_lines_resume) and yields that warp's instruction lines
 * only. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "trace_internal.h"

#define TZ_MAX_DICT ((uint64_t)64 << 20) /* a larger dictionary is refused (zstd's are ~100 KiB) */
#define TZ_CACHE 4096u                   /* index bytes read at a time */
#define TZ_FRAME_HEADER_MAX 18           /* zstd's ZSTD_FRAMEHEADERSIZE_MAX (a static-only name) */

/* What every reader of one .tracez shares, read-only after open. */
struct trace_tz_file {
    uint64_t size;       /* file size */
    uint64_t data_start; /* end of the dictionary: warp data begins here */
    uint64_t index_off;  /* the index; warp data ends here */
    uint64_t header_len; /* bytes of header text (the NUL excluded) */
    uint32_t n_tbs;
    ZSTD_DDict *ddict;   /* NULL: no dictionary */
};

enum {
    TZ_HEADER = 0, /* header text still to emit */
    TZ_TB,         /* next: a block's opening lines, or the end of the index */
    TZ_WARP,       /* next: the warp's "warp =" / "insts =" lines */
    TZ_FRAME,      /* inside the warp's sub-chunks */
    TZ_END_TB,     /* next: "#END_TB" */
    TZ_DONE
};

struct trace_tz_dec {
    const trace_tz_file *f;
    int cursor;            /* one warp's lines only (no index) */
    int state;
    uint64_t hdr_pos;      /* header bytes emitted */
    /* the index */
    uint64_t ipos;         /* next index byte */
    uint32_t tbs_left;
    unsigned tb[3];        /* current block (messages) */
    uint32_t warps, warp;  /* warps of the current block, current warp */
    uint64_t sc_ipos;      /* the current warp's next per-sub-chunk count in the index */
    unsigned char cache[TZ_CACHE];
    uint64_t cache_off;
    size_t cache_len;
    /* the current warp's data */
    uint64_t warp_off;     /* its offset (what a cursor starts from) */
    uint32_t insts, n_sc, sc;   /* instruction count, sub-chunks, current sub-chunk */
    uint64_t sum;          /* instructions of its sub-chunks so far (index) */
    uint64_t dpos;         /* next byte of its data */
    /* the current frame */
    int in_frame;
    uint64_t comp_left;    /* compressed bytes not yet read */
    uint32_t want_lines;   /* instructions the index gives the sub-chunk */
    uint64_t lines;        /* lines ended in it */
    int mid_line;          /* its last byte emitted is not '\n' */
    int line_checked;      /* the current line's first non-blank byte was checked */
    int frame_done;        /* the frame ended: the count is checked at the next fill */
    ZSTD_DCtx *dctx;
    ZSTD_inBuffer zin;
    char *err;             /* where the current fill writes its message */
    size_t errlen;
};

/* "<file>: thread block x,y,z, warp w[, sub-chunk k]: <what>" */
static int tz_fail(trace_lines *l, int at_sc, const char *fmt, ...) TRACE_PRINTF(3, 4);
static int tz_fail(trace_lines *l, int at_sc, const char *fmt, ...)
{
    const trace_tz_dec *d = l->tz;
    char *err = d->err;
    const size_t errlen = d->errlen;
    char what[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (d->cursor)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, l->name, 0,
                          "the warp data at offset %llu%s%u: %s (the file changed after it was checked?)",
                          (unsigned long long)d->warp_off, at_sc ? ", sub-chunk " : "", at_sc ? d->sc : 0u, what);
    if (d->state == TZ_TB || d->state == TZ_DONE)
        return trace_fail(l->tz->err, l->tz->errlen, SMTLM_TRACE_ERR_FORMAT, l->name, 0, "index: %s", what);
    if (!at_sc)
        return trace_fail(l->tz->err, l->tz->errlen, SMTLM_TRACE_ERR_FORMAT, l->name, 0, "thread block %u,%u,%u, warp %u: %s",
                          d->tb[0], d->tb[1], d->tb[2], d->warp, what);
    return trace_fail(l->tz->err, l->tz->errlen, SMTLM_TRACE_ERR_FORMAT, l->name, 0,
                      "thread block %u,%u,%u, warp %u, sub-chunk %u: %s", d->tb[0], d->tb[1], d->tb[2], d->warp, d->sc,
                      what);
}

/* Exactly n bytes at off (within the file's size). 0, or < 0 with a message. */
static int read_at(const trace_input *in, uint64_t off, void *dst, size_t n, char *err, size_t errlen)
{
    size_t got = 0;
    if (in->fd < 0) {
        if (off > in->mem_len || n > in->mem_len - off)
            return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, in->name, 0, "cut short: %zu bytes at offset %llu "
                              "lie past its end", n, (unsigned long long)off);
        memcpy(dst, in->mem + off, n);
        return 0;
    }
    while (got < n) {
        ssize_t r = pread(in->fd, (char *)dst + got, n - got, (off_t)(off + got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return trace_fail(err, errlen, SMTLM_TRACE_ERR_IO, in->name, 0, "read error: %s", strerror(errno));
        if (r == 0)
            return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, in->name, 0, "cut short: %zu bytes at offset %llu "
                              "lie past its end", n, (unsigned long long)off);
        got += (size_t)r;
    }
    return 0;
}

static uint32_t le32(const unsigned char *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint64_t le64(const unsigned char *b) { return (uint64_t)le32(b) | (uint64_t)le32(b + 4) << 32; }

/* ---- the shared part: header end, dictionary, where the index is ---- */

int trace_tz_open_input(trace_input *in, char *err, size_t errlen)
{
    unsigned char buf[4096], b8[8];
    uint64_t pos = 0;
    const uint64_t size = in->fd < 0 ? in->mem_len : in->file_size;
    trace_tz_file *f;
    void *dict = NULL;
    int rc;
    if (!in->seekable)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, in->name, 0,
                          "a .tracez is read from its index at its end: give a regular file, not a pipe");
    /* the header text ends at the first NUL */
    for (;;) {
        size_t n = size - pos < sizeof buf ? (size_t)(size - pos) : sizeof buf;
        const unsigned char *z;
        if (n == 0)
            return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, in->name, 0,
                              "cut short: no NUL byte ends the kernel header (%llu bytes)", (unsigned long long)size);
        if ((rc = read_at(in, pos, buf, n, err, errlen)) < 0)
            return rc;
        if ((z = memchr(buf, 0, n)) != NULL) {
            pos += (uint64_t)(z - buf);
            break;
        }
        pos += n;
        if (pos > TRACE_MAX_HEADER_BYTES)
            return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, in->name, 0,
                              "the kernel header is longer than %u bytes (no NUL byte ends it)", TRACE_MAX_HEADER_BYTES);
    }
    if ((f = calloc(1, sizeof *f)) == NULL)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_NOMEM, in->name, 0, "out of memory");
    in->tz = f;
    f->size = size;
    f->header_len = pos;
    if (size - pos - 1 < 8)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, in->name, 0,
                          "cut short: the dictionary and sub-chunk sizes after the header are missing");
    if ((rc = read_at(in, pos + 1, b8, 8, err, errlen)) < 0)
        return rc;
    const uint32_t dict_size = le32(b8);
    f->data_start = pos + 1 + 8 + dict_size;
    if (size < 8 || f->data_start > size - 8)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, in->name, 0,
                          "cut short: a dictionary of %u bytes at offset %llu goes past the index offset at the end",
                          dict_size, (unsigned long long)(pos + 9));
    if (dict_size > TZ_MAX_DICT)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, in->name, 0,
                          "a dictionary of %u bytes, more than the %llu allowed", dict_size,
                          (unsigned long long)TZ_MAX_DICT);
    if (dict_size > 0) {
        if ((dict = malloc(dict_size)) == NULL)
            return trace_fail(err, errlen, SMTLM_TRACE_ERR_NOMEM, in->name, 0, "out of memory for the dictionary");
        if ((rc = read_at(in, pos + 9, dict, dict_size, err, errlen)) == 0 &&
            (f->ddict = ZSTD_createDDict(dict, dict_size)) == NULL)
            rc = trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, in->name, 0, "the zstd dictionary (%u bytes) is invalid",
                            dict_size);
        free(dict);
        if (rc < 0)
            return rc;
    }
    if ((rc = read_at(in, size - 8, b8, 8, err, errlen)) < 0)
        return rc;
    f->index_off = le64(b8);
    if (f->index_off < f->data_start || f->index_off > size - 8 || size - 8 - f->index_off < 4)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, in->name, 0,
                          "the index offset in the last 8 bytes, %llu, is not between the end of the dictionary "
                          "(%llu) and the file's last 12 bytes (size %llu)",
                          (unsigned long long)f->index_off, (unsigned long long)f->data_start,
                          (unsigned long long)size);
    if ((rc = read_at(in, f->index_off, b8, 4, err, errlen)) < 0)
        return rc;
    f->n_tbs = le32(b8);
    return 0;
}

void trace_tz_input_free(trace_input *in)
{
    if (in->tz == NULL)
        return;
    ZSTD_freeDDict(in->tz->ddict);
    free(in->tz);
    in->tz = NULL;
}

uint32_t trace_tz_blocks(const trace_input *in) { return in->tz != NULL ? in->tz->n_tbs : 0; }

/* ---- one reader's decoder ---- */

int trace_tz_start(trace_lines *l, int cursor, uint64_t warp_off, char *err, size_t errlen)
{
    trace_tz_dec *d = calloc(1, sizeof *d);
    if (d == NULL || (d->dctx = ZSTD_createDCtx()) == NULL) {
        free(d);
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_NOMEM, l->name, 0, "out of memory for the zstd decoder");
    }
    d->f = l->in->tz;
    if (d->f->ddict != NULL)
        ZSTD_DCtx_refDDict(d->dctx, d->f->ddict);
    l->tz = d;
    d->cursor = cursor;
    if (cursor) {
        d->state = TZ_WARP;
        d->warp_off = warp_off;
    } else {
        d->state = TZ_HEADER;
        d->ipos = d->f->index_off + 4;
        d->tbs_left = d->f->n_tbs;
    }
    return 0;
}

void trace_tz_close(trace_lines *l)
{
    if (l->tz == NULL)
        return;
    ZSTD_freeDCtx(l->tz->dctx);
    free(l->tz);
    l->tz = NULL;
}

uint64_t trace_tz_resume(const trace_lines *l) { return l->tz->warp_off; }

size_t trace_tz_footprint(const trace_lines *l)
{
    return l->tz != NULL ? sizeof *l->tz + ZSTD_sizeof_DCtx(l->tz->dctx) : 0;
}

/* n index bytes (u32s and a u64) at the index position, through the cache. */
static int index_read(trace_lines *l, uint64_t at, unsigned char *dst, size_t n)
{
    trace_tz_dec *d = l->tz;
    if (at < d->f->index_off || at > d->f->size - 8 || n > d->f->size - 8 - at)
        return tz_fail(l, 0, "the index ends before its last thread block (at byte %llu of the index)",
                       (unsigned long long)(at - d->f->index_off));
    if (at < d->cache_off || at + n > d->cache_off + d->cache_len) {
        uint64_t len = d->f->size - 8 - at;
        int rc;
        d->cache_off = at;
        d->cache_len = len < TZ_CACHE ? (size_t)len : TZ_CACHE;
        if ((rc = read_at(l->in, at, d->cache, d->cache_len, l->tz->err, l->tz->errlen)) < 0)
            return rc;
    }
    memcpy(dst, d->cache + (at - d->cache_off), n);
    return 0;
}

/* Bytes written into l->buf by one emit. */
static int emit(trace_lines *l, const char *fmt, ...) TRACE_PRINTF(2, 3);
static int emit(trace_lines *l, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf((char *)l->buf + l->buf_len, l->chunk - l->buf_len, fmt, ap);
    va_end(ap);
    l->buf_len += (size_t)n; /* every emit fits: the longest is well under a chunk */
    return 1;
}

/* A block's opening lines, or the end of the index (0). */
static int next_tb(trace_lines *l)
{
    trace_tz_dec *d = l->tz;
    unsigned char b[44];
    int rc;
    if (d->tbs_left == 0) {
        if (d->ipos != d->f->size - 8)
            return tz_fail(l, 0, "%llu bytes follow its last thread block before the index offset",
                           (unsigned long long)(d->f->size - 8 - d->ipos));
        d->state = TZ_DONE;
        return 0;
    }
    if ((rc = index_read(l, d->ipos, b, sizeof b)) < 0)
        return rc;
    d->ipos += sizeof b;
    d->tbs_left--;
    for (int k = 0; k < 3; k++)
        d->tb[k] = le32(b + 4 * k);
    d->warps = le32(b + 40);
    d->warp = 0;
    d->state = d->warps > 0 ? TZ_WARP : TZ_END_TB;
    return emit(l, "#BEGIN_TB\nthread block = %u,%u,%u\ncluster id = %u,%u,%u\ncluster cta = %u,%u,%u\n"
                   "cluster rank = %u\n",
                d->tb[0], d->tb[1], d->tb[2], le32(b + 12), le32(b + 16), le32(b + 20), le32(b + 24), le32(b + 28),
                le32(b + 32), le32(b + 36));
}

/* A warp's lines "warp =" / "insts =" (the reader), and its data's own header checked. */
static int next_warp(trace_lines *l)
{
    trace_tz_dec *d = l->tz;
    const trace_tz_file *f = d->f;
    unsigned char b[16], h[8];
    int rc;
    if (!d->cursor) {
        if ((rc = index_read(l, d->ipos, b, sizeof b)) < 0)
            return rc;
        d->insts = le32(b);
        d->n_sc = le32(b + 4);
        d->warp_off = le64(b + 8);
        d->sc_ipos = d->ipos + 16;
        if ((uint64_t)d->n_sc * 4 > f->size - 8 - d->sc_ipos)
            return tz_fail(l, 0, "%u sub-chunk counts go past the end of the index", d->n_sc);
        d->ipos = d->sc_ipos + (uint64_t)d->n_sc * 4;
    }
    if (d->warp_off < f->data_start || d->warp_off > f->index_off || f->index_off - d->warp_off < 8)
        return tz_fail(l, 0, "its data offset %llu lies outside the warp data (%llu to %llu)",
                       (unsigned long long)d->warp_off, (unsigned long long)f->data_start,
                       (unsigned long long)f->index_off);
    if ((rc = read_at(l->in, d->warp_off, h, 8, l->tz->err, l->tz->errlen)) < 0)
        return rc;
    if (d->cursor) {
        d->insts = le32(h);
        d->n_sc = le32(h + 4);
    } else if (le32(h) != d->insts || le32(h + 4) != d->n_sc) {
        return tz_fail(l, 0, "the index gives %u instructions in %u sub-chunks, its data at offset %llu %u in %u",
                       d->insts, d->n_sc, (unsigned long long)d->warp_off, le32(h), le32(h + 4));
    }
    d->dpos = d->warp_off + 8;
    d->sc = 0;
    d->sum = 0;
    d->state = TZ_FRAME;
    if (d->cursor)
        return 0;
    return emit(l, "warp = %u\ninsts = %u\n", d->warp, d->insts);
}

/* Opens sub-chunk d->sc: its size, and a frame header that declares its content size. */
static int open_frame(trace_lines *l)
{
    trace_tz_dec *d = l->tz;
    const trace_tz_file *f = d->f;
    unsigned char b[4], fh[TZ_FRAME_HEADER_MAX];
    int rc;
    if (!d->cursor) {
        if ((rc = index_read(l, d->sc_ipos + 4ull * d->sc, b, 4)) < 0)
            return rc;
        d->want_lines = le32(b);
        d->sum += d->want_lines;
    }
    if (d->dpos > f->index_off || f->index_off - d->dpos < 4)
        return tz_fail(l, 1, "its size at offset %llu lies past the warp data (the index is at %llu)",
                       (unsigned long long)d->dpos, (unsigned long long)f->index_off);
    if ((rc = read_at(l->in, d->dpos, b, 4, l->tz->err, l->tz->errlen)) < 0)
        return rc;
    d->comp_left = le32(b);
    d->dpos += 4;
    if (d->comp_left > f->index_off - d->dpos)
        return tz_fail(l, 1, "its %llu compressed bytes at offset %llu go past the warp data (the index is at %llu)",
                       (unsigned long long)d->comp_left, (unsigned long long)d->dpos,
                       (unsigned long long)f->index_off);
    const size_t nh = d->comp_left < sizeof fh ? (size_t)d->comp_left : sizeof fh;
    if ((rc = read_at(l->in, d->dpos, fh, nh, l->tz->err, l->tz->errlen)) < 0)
        return rc;
    const unsigned long long cs = ZSTD_getFrameContentSize(fh, nh);
    if (cs == ZSTD_CONTENTSIZE_ERROR)
        return tz_fail(l, 1, "not a zstd frame (%llu bytes at offset %llu)", (unsigned long long)d->comp_left,
                       (unsigned long long)d->dpos);
    if (cs == ZSTD_CONTENTSIZE_UNKNOWN)
        return tz_fail(l, 1, "its zstd frame does not declare its content size");
    ZSTD_DCtx_reset(d->dctx, ZSTD_reset_session_only);
    d->zin.src = l->raw;
    d->zin.size = d->zin.pos = 0;
    d->in_frame = 1;
    d->frame_done = 0;
    d->lines = 0;
    d->mid_line = 0;
    d->line_checked = 0;
    return 0;
}

/* Checks the lines of out[0..n) (each starts, after blanks, with a hex digit: an instruction
 * line, never a keyword the text parser would take for structure) and counts the ended ones. */
static int scan_lines(trace_lines *l, const unsigned char *p, size_t n)
{
    trace_tz_dec *d = l->tz;
    const unsigned char *end = p + n;
    while (p < end) {
        if (!d->line_checked) {
            if (*p == ' ' || *p == '\t' || *p == '\r') {
                p++;
                continue;
            }
            /* a `cluster` line would pass for a hex digit: its "cl" is no instruction's start (one
             * split across chunks is caught by the text parser's count instead) */
            if (trace_hex_plus1[*p] == 0 || (*p == 'c' && p + 1 < end && p[1] == 'l'))
                return tz_fail(l, 1, "line %llu of its frame is %s", (unsigned long long)d->lines + 1,
                               *p == '\n' ? "empty" : "not an instruction line");
            d->line_checked = 1;
        }
        const unsigned char *nl = memchr(p, '\n', (size_t)(end - p));
        if (nl == NULL)
            break;
        d->lines++;
        d->line_checked = 0;
        p = nl + 1;
    }
    d->mid_line = n > 0 ? end[-1] != '\n' : d->mid_line;
    return 0;
}

/* The next decoded bytes of the current frame into l->buf. 1, or < 0. Sets frame_done at its end. */
static int frame_bytes(trace_lines *l)
{
    trace_tz_dec *d = l->tz;
    ZSTD_outBuffer out = {l->buf, l->chunk, 0};
    for (;;) {
        if (d->zin.pos == d->zin.size && d->comp_left > 0) {
            const size_t n = d->comp_left < l->chunk ? (size_t)d->comp_left : l->chunk;
            int rc = read_at(l->in, d->dpos, l->raw, n, l->tz->err, l->tz->errlen);
            if (rc < 0)
                return rc;
            d->zin.size = n;
            d->zin.pos = 0;
            d->dpos += n;
            d->comp_left -= n;
        }
        const size_t ret = ZSTD_decompressStream(d->dctx, &out, &d->zin);
        if (ZSTD_isError(ret))
            return tz_fail(l, 1, "corrupt zstd frame (%s)", ZSTD_getErrorName(ret));
        if (ret == 0) {
            if (d->zin.pos != d->zin.size || d->comp_left > 0)
                return tz_fail(l, 1, "%llu bytes follow its zstd frame inside its compressed size",
                               (unsigned long long)(d->zin.size - d->zin.pos + d->comp_left));
            d->frame_done = 1;
            break;
        }
        if (out.pos == out.size)
            break;
        if (d->zin.pos == d->zin.size && d->comp_left == 0) {
            if (out.pos > 0)
                break; /* hand these over; the next call finds the frame cut */
            return tz_fail(l, 1, "its zstd frame is cut short");
        }
    }
    l->buf_len = out.pos;
    return scan_lines(l, l->buf, out.pos) < 0 ? SMTLM_TRACE_ERR_FORMAT : 1;
}

/* After a frame's last bytes: its last line ended, its line count checked. 1 = a '\n' emitted,
 * 0 = nothing to emit, < 0. */
static int end_frame(trace_lines *l)
{
    trace_tz_dec *d = l->tz;
    int nl = 0;
    if (d->mid_line) {
        d->lines++;
        d->mid_line = 0;
        d->line_checked = 0;
        nl = emit(l, "\n");
    }
    if (!d->cursor && d->lines != d->want_lines)
        return tz_fail(l, 1, "its frame holds %llu instruction lines, the index says %u", (unsigned long long)d->lines,
                       d->want_lines);
    d->in_frame = 0;
    d->sc++;
    return nl;
}

/* The warp's last sub-chunk is done: the counts agree. */
static int end_warp(trace_lines *l)
{
    trace_tz_dec *d = l->tz;
    if (!d->cursor && d->sum != d->insts)
        return tz_fail(l, 0, "its sub-chunks hold %llu instructions, the index says %u", (unsigned long long)d->sum,
                       d->insts);
    d->warp++;
    if (d->cursor)
        d->state = TZ_DONE;
    else
        d->state = d->warp < d->warps ? TZ_WARP : TZ_END_TB;
    return 0;
}

int trace_tz_fill(trace_lines *l, char *err, size_t errlen)
{
    trace_tz_dec *d = l->tz;
    int rc;
    d->err = err;
    d->errlen = errlen;
    l->buf_len = 0;
    for (;;) {
        switch (d->state) {
        case TZ_HEADER: {
            const uint64_t left = d->f->header_len - d->hdr_pos;
            const size_t n = left < l->chunk - 1 ? (size_t)left : l->chunk - 1;
            if ((rc = read_at(l->in, d->hdr_pos, l->buf, n, err, errlen)) < 0)
                return rc;
            d->hdr_pos += n;
            l->buf_len = n;
            if (d->hdr_pos == d->f->header_len) {
                if (n > 0 && l->buf[n - 1] != '\n')
                    l->buf[l->buf_len++] = '\n';
                d->state = TZ_TB;
            }
            if (l->buf_len > 0)
                return 1;
            continue;
        }
        case TZ_TB:
            return next_tb(l);
        case TZ_WARP:
            /* alone in its chunk: the reader notes trace_tz_resume just after "insts =" */
            if ((rc = next_warp(l)) != 0)
                return rc;
            continue;
        case TZ_FRAME:
            if (d->in_frame && d->frame_done) {
                if ((rc = end_frame(l)) != 0)
                    return rc;
                continue;
            }
            if (d->in_frame) {
                if ((rc = frame_bytes(l)) < 0 || l->buf_len > 0)
                    return rc;
                continue; /* an empty frame */
            }
            if (d->sc == d->n_sc) {
                if ((rc = end_warp(l)) < 0)
                    return rc;
                continue;
            }
            if ((rc = open_frame(l)) < 0)
                return rc;
            continue;
        case TZ_END_TB:
            d->state = TZ_TB;
            return emit(l, "#END_TB\n");
        default:
            return 0;
        }
    }
}

size_t trace_tz_cursor_bytes(void)
{
    /* its context (about 160 KiB), and a window as large as a sub-chunk of a few thousand
     * instructions */
    return ((size_t)160 << 10) + ((size_t)1 << 20);
}
