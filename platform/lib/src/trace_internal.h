/* Private pieces shared by the trace_*.c files (not installed). */
#ifndef SMTLM_TRACE_INTERNAL_H
#define SMTLM_TRACE_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <lzma.h>

#include "smtlm/inst_pool.h"
#include "smtlm/opcodes.h"
#include "smtlm/trace.h"

#define TRACE_MAX_DST 1             /* Accel-Sim trace_parser.h MAX_DST */
#define TRACE_MAX_SRC SMTLM_MAX_SRC /* MAX_SRC = 4 */
#define TRACE_MAX_LINE (1u << 20)   /* longer lines are malformed (bounded memory) */
#define TRACE_MAX_HEADER_BYTES (1u << 20) /* a header (the lines before the body) longer than this is an error */
/* What a header may declare: CUDA's launch limits on every GPU whose binary version has an opcode
 * map (compute capability 6.0 to 9.0), so a larger value cannot come from a real launch. A kernel
 * within them may still not fit the configured SM: that is refused when it is launched. */
#define TRACE_MAX_BLOCK_THREADS 1024u      /* threads per block */
#define TRACE_MAX_BLOCK_X 1024u            /* block dimensions */
#define TRACE_MAX_BLOCK_Y 1024u
#define TRACE_MAX_BLOCK_Z 64u
#define TRACE_MAX_GRID_X 2147483647u       /* grid dimensions */
#define TRACE_MAX_GRID_Y 65535u
#define TRACE_MAX_GRID_Z 65535u
#define TRACE_MAX_REGS 255u                /* registers per thread */
#define TRACE_MAX_SHMEM (227u << 10)       /* shared memory per block in bytes (9.0: 227 KiB) */
/* The engine numbers a kernel's thread blocks in 32 bits. */
#define TRACE_MAX_GRID_TBS 4294967295ull
/* `insts = n`: a warp's instruction count is kept in 32 bits. */
#define TRACE_MAX_WARP_INSTS 4294967294u
#define TRACE_CHUNK 65536u
#define TRACE_XZ_MEMLIMIT (256u << 20)
/* Streaming (trace_stream.c): a cursor reads its warp's section TRACE_CURSOR_CHUNK bytes at a
 * time and parses up to TRACE_CURSOR_RECS records per refill. With the automatic limit a TB is
 * streamed once its records pass max(TRACE_STREAM_AUTO_KERNEL_BYTES / min(the grid's blocks,
 * TRACE_STREAM_AUTO_SHARES), its warps x a cursor's memory), or at least
 * TRACE_STREAM_AUTO_BYTES_XZ_ONE_BLOCK for an xz file in one block. */
#define TRACE_CURSOR_CHUNK 16384u
#define TRACE_CURSOR_RECS 128u
/* Holding a block is faster than streaming it at every size measured (its one parse runs on the
 * reader thread, where a cursor's second one runs on the engine's), so the limit bounds memory:
 * 16 MiB for a kernel of one block (1 Mi instructions of the 16-byte refs defined below, with
 * their shapes), shared among up to 4 blocks (4 MiB each), as blocks of a larger grid are live
 * at once; above it a run's memory and page faults stay flat in the trace's length. */
#define TRACE_STREAM_AUTO_KERNEL_BYTES ((size_t)16 << 20)
#define TRACE_STREAM_AUTO_SHARES 4u
/* 24 MiB at least for an xz file in one block: there each cursor decodes the file from its start,
 * which costs time as well as memory. */
#define TRACE_STREAM_AUTO_BYTES_XZ_ONE_BLOCK ((size_t)24 << 20)
/* GPGPU-Sim LOCAL_MEM_SIZE_MAX (abstract_hardware_model.h): local window of a generic LD/ST. */
#define TRACE_LOCAL_MEM_SIZE_MAX (1ull << 14)

/* ---- messages (trace_error.c) ---- */
#if defined(__GNUC__)
#define TRACE_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define TRACE_PRINTF(a, b)
#endif
/* Writes "<file>:<line>: <what>" ("<file>: <what>" when line == 0); returns code. */
int trace_fail(char *err, size_t errlen, int code, const char *file, unsigned long line,
               const char *fmt, ...) TRACE_PRINTF(6, 7);
int trace_vfail(char *err, size_t errlen, int code, const char *file, unsigned long line,
                const char *fmt, va_list ap) TRACE_PRINTF(6, 0);
void trace_copy_msg(char *err, size_t errlen, const char *msg);

/* ---- line source: plain or xz, from a file or memory (trace_lines.c) ---- */

/* Where a trace's bytes come from. Written only when it is opened, read-only afterwards, so the
 * reader and any number of cursors may read through it at once, on any threads: a file is read
 * with pread, which neither uses nor moves the descriptor's offset. */
typedef struct trace_input {
    const char *name;              /* for messages (not owned) */
    int fd;                        /* -1 for memory input */
    int own_fd;                    /* closed with the trace_lines that opened it */
    const unsigned char *mem;      /* memory input */
    size_t mem_len;
    int seekable;                  /* a regular file or memory: a cursor may start anywhere */
    int is_xz;
    uint64_t file_size;            /* a regular file's size (0 for anything else) */
    int is_fifo;                   /* a FIFO or pipe: its end before any byte means no writer */
    lzma_index *xz_index;          /* xz in several blocks: where each starts (trace_xzseek.c) */
    uint64_t max_bytes;            /* more decoded bytes than this are an error (0: no limit) */
    const char *kind;              /* what the input is, for that error ("SASS listing") */
    struct trace_tz_file *tz;      /* a .tracez: what its readers share (trace_tracez.c) */
} trace_input;

typedef struct trace_xz_seek trace_xz_seek;

typedef struct trace_lines {
    trace_input src;               /* own input (open_file / open_mem); unused by cursors */
    const trace_input *in;         /* &src, or the reader's input for a cursor */
    uint64_t raw_pos;              /* next raw byte to read */
    int raw_eof;                   /* no more raw bytes */
    lzma_stream xz;
    int xz_live;                   /* xz initialised (lzma_end due) */
    trace_xz_seek *seek;           /* a cursor decoding block by block from its own block */
    int block_done;                /* seek: the current block ended */
    size_t chunk;                  /* bytes per read and per decoded chunk */
    unsigned char *raw;            /* raw input chunk (xz only) */
    unsigned char *buf;            /* decoded bytes */
    size_t buf_len, buf_pos;
    uint64_t buf_off;              /* decoded offset of buf[0] */
    uint64_t skip;                 /* decoded bytes still to drop (a cursor starting mid-stream) */
    int decoded_eof;               /* no more decoded bytes */
    char *line;                    /* current line, NUL-terminated, no '\n' / '\r': in buf
                                    * itself (its '\n' overwritten) or, when it spans two
                                    * chunks, assembled in own */
    size_t line_len;
    char *own;                     /* assembly buffer for lines that span chunks */
    size_t own_len, own_cap;
    char empty[1];                 /* the line after the end: "" */
    unsigned long lineno;          /* number of the current line (1-based) */
    const char *name;              /* in->name */
    struct trace_tz_dec *tz;       /* a .tracez: this reader's decoder (trace_tracez.c) */
} trace_lines;

int trace_lines_open_file(trace_lines *l, const char *path, char *err, size_t errlen);
/* The same with a limit: more than max_bytes (decoded) is "<path>: larger than <max_bytes>
 * bytes, the limit for a <kind>" (a regular plain file is refused before reading). */
int trace_lines_open_file_limited(trace_lines *l, const char *path, uint64_t max_bytes, const char *kind, char *err,
                                  size_t errlen);
int trace_lines_open_mem(trace_lines *l, const void *data, size_t len, const char *name,
                         char *err, size_t errlen);
/* A cursor over `in` (another trace_lines' input, which must outlive it): its first line is the
 * one starting at decoded offset `off`, numbered lineno + 1. Reads `chunk` bytes at a time. */
int trace_lines_open_at(trace_lines *l, const trace_input *in, uint64_t off, unsigned long lineno,
                        size_t chunk, char *err, size_t errlen);
/* 1 = a line in l->line, 0 = end of input, < 0 = error (message written). */
int trace_lines_next(trace_lines *l, char *err, size_t errlen);
/* The same without the check for NUL bytes inside the line: the caller makes it
 * (trace_lines_check_nul) unless its parse consumed every byte up to line_len. */
int trace_lines_next_raw(trace_lines *l, char *err, size_t errlen);
int trace_lines_check_nul(const trace_lines *l, char *err, size_t errlen);
/* trace_lines_next_raw with its common case inline: the whole line is in the current chunk. */
static inline int trace_lines_take(trace_lines *l, char *err, size_t errlen)
{
    unsigned char *start = l->buf + l->buf_pos, *nl;
    size_t n;
    if (l->buf_pos == l->buf_len || (nl = (unsigned char *)memchr(start, '\n', l->buf_len - l->buf_pos)) == NULL)
        return trace_lines_next_raw(l, err, errlen);
    n = (size_t)(nl - start);
    l->buf_pos += n + 1;
    l->own_len = 0;
    l->lineno++;
    while (n > 0 && start[n - 1] == '\r')
        n--;
    start[n] = '\0';
    l->line = (char *)start;
    l->line_len = n;
    return 1;
}
/* Decoded offset of the next line (the byte after the current line's '\n'). */
static inline uint64_t trace_lines_tell(const trace_lines *l) { return l->buf_off + l->buf_pos; }
/* Where a cursor (trace_lines_open_at) starts to read what follows an `insts =` line just taken:
 * its decoded offset, or for a .tracez the offset of that warp's data. */
uint64_t trace_lines_resume(const trace_lines *l);
/* Heap bytes a trace_lines holds (buffers and, for xz, the decoder). */
size_t trace_lines_footprint(const trace_lines *l);
void trace_lines_close(trace_lines *l);

/* ---- xz in several blocks (trace_xzseek.c): a cursor starts at the block holding its offset ---- */
/* The index of an xz input in more than one block, or NULL (one block, not seekable, unreadable:
 * then a cursor decodes from the start). */
lzma_index *trace_xz_index_load(const trace_input *in);
/* Positions cursor l (xz_index set) at the block holding decoded offset off; l->skip is what
 * comes before off in it. 0 or < 0 with a message. */
int trace_xz_seek_open(trace_lines *l, uint64_t off, char *err, size_t errlen);
/* After a block's end: starts the next one. 1, 0 = no more, < 0 = error. */
int trace_xz_seek_next(trace_lines *l, char *err, size_t errlen);
void trace_xz_seek_close(trace_lines *l);

/* ---- .tracez (trace_tracez.c): its text form, decoded sub-chunk by sub-chunk ---- */
typedef struct trace_tz_file trace_tz_file;
typedef struct trace_tz_dec trace_tz_dec;
/* Reads the header's end, the dictionary and where the index is into in->tz. 0 or < 0. */
int trace_tz_open_input(trace_input *in, char *err, size_t errlen);
void trace_tz_input_free(trace_input *in);
/* The decoder of l (l->in a .tracez): the whole text form, or (cursor) the instruction lines of
 * the warp whose data is at warp_off. */
int trace_tz_start(trace_lines *l, int cursor, uint64_t warp_off, char *err, size_t errlen);
/* The next text into l->buf[0..buf_len): 1, 0 at the end, < 0 with a message. */
int trace_tz_fill(trace_lines *l, char *err, size_t errlen);
uint64_t trace_tz_resume(const trace_lines *l);
size_t trace_tz_footprint(const trace_lines *l);
/* About what a cursor's decoder holds (the automatic stream limit counts it). */
size_t trace_tz_cursor_bytes(void);
void trace_tz_close(trace_lines *l);

/* ---- tokens and numbers (trace_tokens.c) ---- */
typedef struct trace_tok {
    const char *s;
    size_t n;
} trace_tok;

/* Next whitespace-separated token after *p; 0 when none left. */
int trace_next_tok(const char **p, trace_tok *t);
int trace_tok_is(trace_tok t, const char *word);
/* Digits only: 0, -1 when t is not a decimal number, -2 when it is one above max. */
int trace_parse_dec(trace_tok t, uint64_t max, uint64_t *v);
int trace_parse_sdec(trace_tok t, int64_t *v);                /* optional sign */
int trace_parse_hex(trace_tok t, uint64_t max, uint64_t *v);  /* optional 0x */
int trace_parse_reg(trace_tok t, int16_t *sim_reg);           /* R<n> -> n+1 (RZ=R255 -> 256) */
/* printf arguments for "%.*s" of a token (a number's text), cut to a readable length. */
#define TRACE_TOK_ARG(t) (int)((t).n > 40 ? 40 : (t).n), (t).s
/* "<tok>" quoted for messages, cut to a readable length. */
const char *trace_tok_show(trace_tok t, char *buf, size_t len);

/* ---- one instruction record (what the parser makes of a line): the pool's record layout
 * (smtlm_inst_rec, inst_pool.h), so the issue stage can take it straight from a window; a TB
 * stores it as a shape and a ref (smtlm_inst_ref). Its register summary is worked out by the
 * parser (the reader thread), the commit copies it ---- */
typedef smtlm_inst_rec trace_rec;
typedef smtlm_inst_ref trace_ref;
#define TRACE_NO_ADDR SMTLM_REC_NO_ADDR

/* Sets r's register summary from its registers, as smtlm_pool_reg_summary does on the entry, and
 * its fields_ok mark (the trace source marks_fields_ok). Again once r's memory space is set. */
static inline void trace_rec_summarize(trace_rec *r)
{
    smtlm_reg_summary(r->dst, r->n_dst, r->src, r->n_src, &r->sb_regs, &r->sb_dsts);
    r->rd_ops = smtlm_read_ops(r->src, r->n_src);
    r->fields_ok = smtlm_fields_ok(r->dst, r->n_dst, r->src, r->n_src, r->mem_space) ? SMTLM_FIELDS_OK : 0;
}

typedef struct trace_warp {
    trace_ref *refs;   /* whole TB: its instructions; streamed TB: none */
    uint32_t n, cap;   /* instruction lines read (refs stored, when whole), capacity */
    uint32_t declared; /* `insts = n` */
    uint32_t last_shape; /* its last ref's shape (UINT32_MAX: none yet) */
    unsigned long insts_line;
    uint64_t off;      /* decoded offset of the line after `insts =` (where a cursor starts) */
    uint8_t seen;      /* `warp = w` met */
    uint8_t has_insts; /* `insts =` met */
} trace_warp;

struct smtlm_trace_tb {
    trace_warp *warps;
    unsigned n_warps, warps_cap;
    trace_rec *shapes;      /* the distinct shapes of its instructions' records, in the order met */
    uint32_t n_shapes, shapes_cap;
    uint32_t *shape_slots;  /* hash table of the shapes: index + 1, 0 = empty */
    uint32_t slots_cap;     /* a power of two above twice n_shapes, or 0 */
    int one_shape_each;     /* a cursor's buffer: each ref its own shape, no table (it holds a
                             * few records for a short while; a lookup would cost more) */
    uint64_t *pool; /* addresses of active lanes of memory instructions */
    size_t pool_len, pool_cap;
    size_t heap;    /* bytes of refs, shapes, their table and addresses allocated */
    size_t limit;   /* more than this: the reader streams the TB (SIZE_MAX: never) */
    int streamed;   /* records not held: read through cursors (trace_stream.c) */
    const smtlm_trace *from; /* reader that filled it */
    unsigned label[3];
    unsigned long long index;
    unsigned cluster_id[3], cluster_cta[3], cluster_rank; /* Accel-Sim 2.0's cluster lines */
    int has_cluster;  /* any of them met */
    int absent;       /* a grid block the file did not hold: every warp empty */
};

/* trace_stream.c: a warp's instructions ready to hand out without a look at the cursor: [cur, lim)
 * with their shapes and address pool (a whole TB: all of them; a streamed TB: what its cursor's
 * buffer holds). Unbinding the feed empties every window. */
typedef smtlm_rec_window trace_feed_warp;
/* The window of a bound feed's warp (NULL if not bound): the trace source takes from it directly
 * while it holds instructions and asks the feed (smtlm_trace_feed_next_into) only when it is empty.
 * Valid until the feed is bound again. */
trace_feed_warp *trace_feed_warp_of(smtlm_trace_feed *f, unsigned warp);
/* Fills window fw's next instruction into entry `in` and, for a memory instruction, all 32 lanes
 * of addr (inactive ones 0), and moves past it: what trace_rec_expand and smtlm_pool_alloc would
 * write, with no descriptor in between, and the register summary. Inline: once per instruction
 * the engine decodes (the caller counts it in fw->pos). */
static inline void trace_rec_fill(trace_feed_warp *fw, smtlm_inst *in, uint64_t *addr)
{
    const trace_ref *ref = fw->cur++;
    smtlm_rec_fill(fw->shapes + ref->shape, ref, fw->pool, in, addr);
}

/* trace_tb.c */
#define TRACE_TB_FULL 1 /* storing would take the TB past its limit */
int trace_tb_reset(smtlm_trace_tb *tb, unsigned n_warps);
void trace_tb_release(smtlm_trace_tb *tb); /* frees what tb holds, not tb */
/* Stores record r (its addr: where its addresses start in tb's pool, or TRACE_NO_ADDR) as the
 * next instruction of `warp`: its shape (r with mask, line and addr cleared) found among tb's or
 * added, and its ref. 0, TRACE_TB_FULL or SMTLM_TRACE_ERR_NOMEM. */
int trace_tb_push(smtlm_trace_tb *tb, unsigned warp, const trace_rec *r);
/* 0, TRACE_TB_FULL, SMTLM_TRACE_ERR_NOMEM or SMTLM_TRACE_ERR_FORMAT (> 4G addresses). */
int trace_tb_pool_add(smtlm_trace_tb *tb, const uint64_t *addrs, unsigned n, uint32_t *first);
/* Drops the records and addresses (the TB goes on as a streamed one). */
void trace_tb_drop_records(smtlm_trace_tb *tb);
/* The whole record of ref (of shape shapes[ref->shape]): what the parser made of its line. */
static inline trace_rec trace_ref_record(const trace_rec *shapes, const trace_ref *ref)
{
    trace_rec r = shapes[ref->shape];
    r.mask = ref->mask;
    r.line = ref->line;
    if (r.addr != TRACE_NO_ADDR)
        r.addr = ref->addr;
    return r;
}
/* Expands record r (addresses in pool) into out. */
void trace_rec_expand(const trace_rec *r, const uint64_t *pool, smtlm_inst_desc *out);

/* trace_opindex.c: the opcode map as a hash table on the name's length and first 8 bytes, built
 * once per trace, so a lookup is one hash and (almost always) one probe instead of a binary
 * search of strlen+memcmp steps. */
#define TRACE_OPINDEX_SLOTS 1024u /* a power of two, at least twice the largest map */
typedef struct trace_opindex {
    const smtlm_opcode_map *map; /* NULL: no index (no map, or a map too large): binary search */
    uint64_t key[TRACE_OPINDEX_SLOTS];
    uint16_t len[TRACE_OPINDEX_SLOTS]; /* 0 = empty slot */
    uint16_t op[TRACE_OPINDEX_SLOTS];
} trace_opindex;
void trace_opindex_build(trace_opindex *ix, const smtlm_opcode_map *map);
/* The opcode named by name[0..len) (the first '.'-token), or NULL. */
const smtlm_opcode *trace_opindex_find(const trace_opindex *ix, const smtlm_opcode_map *map, const char *name,
                                       size_t len);
/* The same with the key already made: name's first min(len, 8) bytes, little-endian. */
const smtlm_opcode *trace_opindex_find_key(const trace_opindex *ix, const smtlm_opcode_map *map, const char *name,
                                           size_t len, uint64_t key);

/* What a record takes from its opcode alone, worked out once per opcode of the map. */
typedef struct trace_opinfo {
    uint16_t latency, ii;
    uint8_t op, spec, atomic;
} trace_opinfo;
#define TRACE_OPINFO_MAX (TRACE_OPINDEX_SLOTS / 2u) /* opcodes of the largest indexed map */
void trace_opinfo_of(const smtlm_opcode *o, const smtlm_trace_latency *lat, trace_opinfo *out);

/* ---- parsing context and per-line parsers ---- */
typedef struct trace_ctx {
    const char *file;
    const smtlm_trace_header *hdr;
    const smtlm_opcode_map *map;
    const trace_opindex *ops;  /* map's index */
    const smtlm_trace_latency *lat;
    const trace_opinfo *info;  /* per opcode of map (NULL: worked out per line) */
    int plain_fields;          /* lines start with the PC (tracer >= 3, no line numbers) */
    const struct smtlm_sass_listing *listing; /* every line is checked against func, or NULL */
    const struct smtlm_sass_func *func;
} trace_ctx;

/* trace_listing.c: the line's instruction is the listing's at its PC (same opcode, same
 * sources): 0, or a format error naming the trace line and the listing's. */
int trace_listing_check(const trace_ctx *c, const char *line, size_t len, unsigned long lineno, const trace_rec *r,
                        char *err, size_t errlen);

/* Byte tables shared by the tokenizer and the instruction fast path (trace_tokens.c). */
enum { TRACE_C_TOKEN = 0, TRACE_C_SPACE = 1, TRACE_C_END = 2 };
extern const unsigned char trace_byte_class[256];
extern const unsigned char trace_hex_plus1[256]; /* hex digit value + 1; 0 = not a digit */
/* An instruction line's first non-blank byte p: a hex digit, and not the 'c' of a `cluster`
 * line (Accel-Sim 2.0), the one keyword that starts with one. */
static inline int trace_starts_inst(const char *p)
{
    return trace_hex_plus1[(unsigned char)*p] != 0 && (*p != 'c' || strncmp(p, "cluster", 7) != 0);
}

/* trace_tbset.c: the thread blocks met so far, one bit per linear id below the grid's count. */
#define TRACE_TBSET_PAGE_BITS 4096u /* ids per page (512 bytes) */
typedef struct trace_tbset {
    uint64_t **pages; /* NULL until the first block; then n_pages entries, each NULL until touched */
    size_t n_pages;
} trace_tbset;
/* Adds id (< n_ids, the same n_ids every call): 1 when it is new, 0 when it was already there,
 * SMTLM_TRACE_ERR_NOMEM. */
int trace_tbset_add(trace_tbset *s, uint64_t id, uint64_t n_ids);
/* 1 when id was added. */
int trace_tbset_has(const trace_tbset *s, uint64_t id);
void trace_tbset_free(trace_tbset *s);

/* trace_reader.c: what cursors of a reader's TBs read through; both read-only after open. */
const trace_ctx *trace_reader_ctx(const smtlm_trace *t);
const trace_input *trace_reader_input(const smtlm_trace *t);
/* The number of the last line the reader took (the file's last once it returned 0). */
unsigned long trace_reader_line(const smtlm_trace *t);

/* trace_header.c: header lines up to (and consuming) the first '#' line. */
typedef struct trace_header_store {
    smtlm_trace_header h;
    char *kernel_name;
    char *nvbit_version;
    int begin_consumed; /* the header ended at "#BEGIN_TB" itself (no "#traces format" line) */
} trace_header_store;
int trace_header_read(trace_lines *l, trace_header_store *hs, char *err, size_t errlen);
void trace_header_free(trace_header_store *hs);

/* trace_inst.c: a memo of recent line tails (what follows the mask) that the fast path turned
 * into plain non-memory records; one per parser (the reader, each cursor), never shared. */
#define TRACE_MEMO_SLOTS 64u
#define TRACE_MEMO_TAIL 48u
typedef struct trace_memo_entry {
    trace_rec rec;     /* pc, mask and line are the line's own */
    uint64_t w[3];     /* the tail's first, middle and last 8 bytes */
    uint8_t len;       /* 0: empty */
    char tail[TRACE_MEMO_TAIL - 16]; /* bytes 8 .. len-8 of a tail longer than 24 */
} trace_memo_entry;
typedef struct trace_memo {
    trace_memo_entry e[TRACE_MEMO_SLOTS];
    int credit;        /* + on a hit, - on a miss: below 0 the memo rests (it does not pay) */
    unsigned resting;  /* lines left before it tries again */
} trace_memo;
void trace_memo_reset(trace_memo *m);

/* One instruction line (len bytes, NUL-terminated, maybe holding NUL bytes: those are an
 * error) into a record (its addr field left unset) and, for a memory instruction, its active
 * lanes' addresses in addrs[0..popcount(mask)). m may be NULL. */
int trace_inst_parse(const trace_ctx *c, trace_memo *m, const char *line, size_t len, unsigned long lineno,
                     trace_rec *r, uint64_t addrs[SMTLM_WARP_SIZE], char *err, size_t errlen);
/* Stores a parsed record as the next instruction of tb's warp (addresses into tb's pool).
 * 0, TRACE_TB_FULL (nothing stored) or an error with its message. */
int trace_inst_store(const trace_ctx *c, smtlm_trace_tb *tb, unsigned warp, trace_rec *r,
                     const uint64_t *addrs, unsigned long lineno, char *err, size_t errlen);

/* trace_addr.c: per-lane addresses of a memory instruction. */
int trace_addr_parse(const trace_ctx *c, const char **p, unsigned long lineno, uint32_t mask,
                     uint64_t lanes[SMTLM_WARP_SIZE], char *err, size_t errlen);
unsigned trace_width_from_opcode(const char *op, size_t len);

/* The transfer list Accel-Sim 2.0's tracer writes after mem_width for a TMA or bulk copy
 * (UTMALDG, UTMASTG, UTMAPF, UTMAREDG, UBLKCP, UBLKPF, UBLKRED), in either address mode:
 *   <mbarrier hex> <multicast 0|1> [<CTA mask hex>] <bytes> <out-of-bounds bytes>
 *   3 <count> <count hex addresses>                      (list all)
 *   4 <base hex> <count> <count - 1 decimal deltas>      (base + delta, each from the previous) */
#define TRACE_TMA_LIST_ALL 3u
#define TRACE_TMA_BASE_DELTA 4u
typedef struct trace_tma {
    uint32_t mbarrier;       /* shared-memory address of the mbarrier the copy signals */
    uint16_t cta_mask;       /* multicast: the cluster's CTAs that receive it */
    uint8_t multicast, mode;
    uint64_t bytes, oob_bytes;
    uint64_t count;          /* transfers listed */
} trace_tma;
/* Reads the list from *p; the first min(count, max) addresses go to addrs (may be NULL). */
int trace_tma_parse(const trace_ctx *c, const char **p, unsigned long lineno, trace_tma *out,
                    uint64_t *addrs, size_t max, char *err, size_t errlen);

#endif
