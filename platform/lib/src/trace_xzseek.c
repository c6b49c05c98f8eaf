/* Random access into xz input written in several blocks (xz -T0, --block-size): the stream's
 * index says where each block starts in the file and in the decoded text, so a cursor decodes
 * from the start of the block holding its offset instead of from the start of the file. A
 * single-block file (plain `xz`) has no such points: its cursors decode from the start and
 * drop what comes before their offset (trace_lines.c). The index is read once when the trace is
 * opened and only read afterwards, by cursors on any thread, each with its own iterator. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace_internal.h"

struct trace_xz_seek {
    lzma_index_iter it;                        /* the block being decoded */
    lzma_block block;                          /* its header, kept while it decodes */
    lzma_filter filters[LZMA_FILTERS_MAX + 1];
    int has_filters;
};

/* Exactly n bytes of input at pos: 0, or -1 (a short read is an error here too). */
static int read_at(const trace_input *in, uint64_t pos, uint8_t *dst, size_t n)
{
    if (in->fd < 0) {
        if (pos > in->mem_len || n > in->mem_len - pos)
            return -1;
        memcpy(dst, in->mem + pos, n);
        return 0;
    }
    while (n > 0) {
        ssize_t got = pread(in->fd, dst, n, (off_t)pos);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        dst += got;
        pos += (uint64_t)got;
        n -= (size_t)got;
    }
    return 0;
}

lzma_index *trace_xz_index_load(const trace_input *in)
{
    lzma_stream s = LZMA_STREAM_INIT;
    lzma_index *idx = NULL;
    uint8_t buf[8192];
    uint64_t size, pos = 0;
    struct stat st;
    lzma_ret ret;
    if (!in->seekable || !in->is_xz)
        return NULL;
    if (in->fd >= 0)
        size = fstat(in->fd, &st) == 0 ? (uint64_t)st.st_size : 0;
    else
        size = in->mem_len;
    if (size == 0 || lzma_file_info_decoder(&s, &idx, TRACE_XZ_MEMLIMIT, size) != LZMA_OK)
        return NULL;
    do { /* the decoder reads the footers and indexes, asking for where it wants to read next */
        if (s.avail_in == 0) {
            size_t n = size - pos < sizeof buf ? (size_t)(size - pos) : sizeof buf;
            if (n == 0 || read_at(in, pos, buf, n) < 0)
                break;
            s.next_in = buf;
            s.avail_in = n;
            pos += n;
        }
        ret = lzma_code(&s, LZMA_RUN);
        if (ret == LZMA_SEEK_NEEDED) {
            pos = s.seek_pos;
            s.avail_in = 0;
            ret = LZMA_OK;
        }
    } while (ret == LZMA_OK);
    lzma_end(&s);
    if (ret != LZMA_STREAM_END || idx == NULL || lzma_index_block_count(idx) < 2) {
        lzma_index_end(idx, NULL); /* a damaged file is the sequential reader's to report */
        return NULL;
    }
    return idx;
}

static void free_filters(trace_xz_seek *z)
{
    if (z->has_filters)
        lzma_filters_free(z->filters, NULL);
    z->has_filters = 0;
}

/* Decoder for the block the iterator is at; the raw input continues after its header. */
static int start_block(trace_lines *l, char *err, size_t errlen)
{
    trace_xz_seek *z = l->seek;
    uint8_t hdr[LZMA_BLOCK_HEADER_SIZE_MAX];
    const uint64_t at = z->it.block.compressed_file_offset;
    free_filters(z);
    memset(&z->block, 0, sizeof z->block);
    z->block.version = 1;
    z->block.check = z->it.stream.flags->check;
    z->block.filters = z->filters;
    if (read_at(l->in, at, hdr, 1) < 0)
        goto corrupt;
    z->block.header_size = lzma_block_header_size_decode(hdr[0]);
    if (hdr[0] == 0 || read_at(l->in, at + 1, hdr + 1, z->block.header_size - 1) < 0 ||
        lzma_block_header_decode(&z->block, NULL, hdr) != LZMA_OK)
        goto corrupt;
    z->has_filters = 1;
    if (lzma_block_decoder(&l->xz, &z->block) != LZMA_OK)
        goto corrupt;
    l->xz_live = 1;
    l->raw_pos = at + z->block.header_size;
    l->raw_eof = 0;
    l->xz.avail_in = 0; /* what was read past the previous block is not this one's */
    return 0;
corrupt:
    return trace_fail(err, errlen, SMTLM_TRACE_ERR_IO, l->name, l->lineno + 1, "corrupt xz stream");
}

int trace_xz_seek_open(trace_lines *l, uint64_t off, char *err, size_t errlen)
{
    trace_xz_seek *z = calloc(1, sizeof *z);
    if (z == NULL)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_NOMEM, l->name, 0, "out of memory");
    l->seek = z;
    lzma_index_iter_init(&z->it, l->in->xz_index);
    if (lzma_index_iter_locate(&z->it, off)) { /* past the end: nothing left to decode */
        l->decoded_eof = 1;
        return 0;
    }
    l->skip = off - z->it.block.uncompressed_file_offset;
    l->buf_off = z->it.block.uncompressed_file_offset;
    return start_block(l, err, errlen);
}

int trace_xz_seek_next(trace_lines *l, char *err, size_t errlen)
{
    int rc;
    if (lzma_index_iter_next(&l->seek->it, LZMA_INDEX_ITER_NONEMPTY_BLOCK))
        return 0;
    rc = start_block(l, err, errlen);
    return rc < 0 ? rc : 1;
}

void trace_xz_seek_close(trace_lines *l)
{
    if (l->seek == NULL)
        return;
    free_filters(l->seek);
    free(l->seek);
    l->seek = NULL;
}
