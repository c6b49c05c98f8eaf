/* Accel-Sim SASS trace front end: kernelslist.g, streaming .traceg / .traceg.xz reader, and the
 * expansion of one trace line into an smtlm_inst_desc (Accel-Sim's trace_parser and
 * trace_driven semantics).
 *
 * Usage:
 *   smtlm_trace *t; smtlm_trace_tb *tb = smtlm_trace_tb_new();
 *   if (smtlm_trace_open(path, NULL, &t, err, sizeof err) < 0) ...;
 *   while ((rc = smtlm_trace_next_tb(t, tb, err, sizeof err)) == 1)
 *       for each warp w, index i: smtlm_trace_tb_inst(tb, w, i, &desc);
 *   if (rc < 0) ...;   smtlm_trace_close(t); smtlm_trace_tb_free(tb);
 *
 * Errors: every function that can fail on input data returns a negative smtlm_trace_status and
 * writes ONE message "<file>:<line>: <what>" (or "<file>: <what>") into err[errlen]. Nothing is
 * printed; nothing aborts. err may be NULL. */
#ifndef SMTLM_TRACE_H
#define SMTLM_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "smtlm/inst.h"
#include "smtlm/inst_pool.h"
#include "smtlm/opcodes.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum smtlm_trace_status {
    SMTLM_TRACE_OK = 0,
    SMTLM_TRACE_ERR_IO = -1,          /* cannot open / read, truncated or corrupt xz stream */
    SMTLM_TRACE_ERR_FORMAT = -2,      /* malformed content */
    SMTLM_TRACE_ERR_UNSUPPORTED = -3, /* binary version without opcode map */
    SMTLM_TRACE_ERR_NOMEM = -4,
    SMTLM_TRACE_ERR_ARG = -5          /* bad argument from the caller (NULL, bad latency table) */
} smtlm_trace_status;

/* ---- latency table (-trace_opcode_latency_initiation_*) ---------------------------------- */

typedef struct smtlm_trace_lat_ii {
    unsigned latency; /* 1..511 */
    unsigned ii;      /* initiation interval, 1..latency */
} smtlm_trace_lat_ii;

typedef struct smtlm_trace_latency {
    smtlm_trace_lat_ii int_op; /* ALU, INTP, BRANCH, CALL, RET */
    smtlm_trace_lat_ii sp;
    smtlm_trace_lat_ii dp;
    smtlm_trace_lat_ii sfu;
    smtlm_trace_lat_ii tensor;
    smtlm_trace_lat_ii spec[SMTLM_MAX_SPEC_UNITS]; /* spec[k-1] = -..._spec_op_k */
} smtlm_trace_latency;

/* Accel-Sim's option defaults: "4,1" for int/sp/dp/sfu/tensor, "4,4" for spec_op_1..8. */
smtlm_trace_latency smtlm_trace_latency_defaults(void);

/* 0 when every entry is in range, else SMTLM_TRACE_ERR_ARG with a message naming the entry. */
int smtlm_trace_latency_check(const smtlm_trace_latency *lat, char *err, size_t errlen);

/* (latency, ii) Accel-Sim's trace_config::set_latency gives an opcode of category `cat` with
 * flags (SMTLM_OPF_*): FP16 ops get ii = max(1, ii/2); categories outside the table (LOAD, STORE,
 * BARRIER, MEMBAR, EXIT) get 1,1. */
void smtlm_trace_latency_apply(const smtlm_trace_latency *lat, smtlm_opcat cat, unsigned flags,
                               uint16_t *latency, uint16_t *ii);

/* ---- kernelslist.g ------------------------------------------------------------------------ */

typedef enum smtlm_trace_cmd_kind {
    SMTLM_TRACE_CMD_MEMCPY_HTOD = 0, /* MemcpyHtoD,0x<addr>,<bytes> */
    SMTLM_TRACE_CMD_KERNEL           /* a kernel trace file */
} smtlm_trace_cmd_kind;

typedef struct smtlm_trace_cmd {
    smtlm_trace_cmd_kind kind;
    uint64_t addr;      /* MEMCPY_HTOD: device address */
    uint64_t size;      /* MEMCPY_HTOD: bytes */
    char *path;         /* KERNEL: trace path (list directory + name); NULL otherwise */
    unsigned long line; /* line in the list (0 when the list is a single trace) */
} smtlm_trace_cmd;

typedef struct smtlm_kernelslist {
    smtlm_trace_cmd *cmds; /* in file order */
    size_t n;
    /* Lines Accel-Sim ignores that are neither blank, '#' comments nor MemcpyDtoH: how many,
     * and the first one (line number, text cut to fit), so a caller can warn about them. */
    unsigned long n_ignored, first_ignored_line;
    char first_ignored[96];
} smtlm_kernelslist;

/* Reads a kernelslist.g; a path ending in ".traceg", ".traceg.xz" or ".xz" is taken as a
 * single kernel (a one-command list). As in Accel-Sim, a line is a kernel when it starts with
 * "kernel" (a trace file relative to the list's directory), MemcpyHtoD lines are copies, and
 * any other line is ignored (counted in n_ignored). Every named trace must be readable
 * (checked here), and a list that names no kernel at all is an error. A list holds at most
 * SMTLM_KERNELSLIST_MAX_BYTES (16 MiB, decoded; a list of 100,000 kernels and their copies is about 5 MiB); more is an error. On error *out is left empty. */
#define SMTLM_KERNELSLIST_MAX_BYTES ((uint64_t)16 << 20)
int smtlm_kernelslist_load(const char *path, smtlm_kernelslist *out, char *err, size_t errlen);
void smtlm_kernelslist_free(smtlm_kernelslist *list);

/* ---- kernel trace (.traceg, .traceg.xz) --------------------------------------------------- */

typedef struct smtlm_trace_header {
    const char *kernel_name;   /* "" when absent */
    unsigned kernel_id;
    unsigned grid[3];
    unsigned block[3];
    unsigned shmem;
    unsigned nregs;
    unsigned long long cuda_stream_id;
    unsigned binary_version;
    unsigned tracer_version;   /* 0 when the line is absent: old format with TB/warp prefix */
    unsigned lineinfo;         /* -enable lineinfo: each line starts with a source line number */
    const char *nvbit_version; /* "" when absent */
    uint64_t shmem_base;       /* -shmem base_addr (0 when absent) */
    uint64_t local_base;       /* -local mem base_addr (0 when absent) */
    unsigned warps_per_tb;     /* ceil(block threads / 32) */
    unsigned long long n_tbs;  /* grid x*y*z: what the kernel launches, and the most TBs the file holds */
    const char *arch;          /* opcode map used: "pascal", "volta", "turing", "ampere", "hopper" */
} smtlm_trace_header;

typedef struct smtlm_trace smtlm_trace;       /* reader: one open kernel trace */
typedef struct smtlm_trace_tb smtlm_trace_tb; /* one thread block's instructions */

/* Opens a trace (xz detected by its magic bytes, a .tracez by its name: Accel-Sim 2.0's zstd
 * sub-chunks, read as the text it holds), parses the header up to the first '#' line and
 * selects the opcode map. lat == NULL means smtlm_trace_latency_defaults(). A header value above
 * CUDA's launch limits (threads and dimensions of a block, grid dimensions, registers per thread,
 * shared memory per block: docs/OPTIONS.md) is an error at its line; grid and block products
 * then fit 32 bits. */
int smtlm_trace_open(const char *path, const smtlm_trace_latency *lat, smtlm_trace **out,
                     char *err, size_t errlen);

/* Same over bytes in memory (plain text, xz, or .tracez when name ends with it); `data` must stay valid until close.
 * `name` is used in messages. */
int smtlm_trace_open_mem(const void *data, size_t len, const char *name,
                         const smtlm_trace_latency *lat, smtlm_trace **out, char *err,
                         size_t errlen);

const smtlm_trace_header *smtlm_trace_info(const smtlm_trace *t);

/* Reads the next #BEGIN_TB..#END_TB block into tb, reusing its storage. Every line of the block
 * is parsed and the block checked whole, so an error anywhere in it is reported here: it must end
 * with #END_TB (the end of the file inside a block is an error), name one block of the grid with
 * `thread block = x,y,z` that no earlier block named, and list each of its warps.
 * After the file's last block, each grid block the file did not hold (the tracer omits a block
 * that traced nothing) comes as an empty one, every warp without instructions, labelled with
 * the lowest such block's id (smtlm_trace_tb_absent), as Accel-Sim runs the grid's remaining
 * blocks once the file is read.
 * Returns 1 = got a TB, 0 = no more, < 0 = error (sticky: later calls repeat it). */
int smtlm_trace_next_tb(smtlm_trace *t, smtlm_trace_tb *tb, char *err, size_t errlen);

void smtlm_trace_close(smtlm_trace *t);

/* Streaming: a TB whose records would take more than `bytes` of memory keeps only where each
 * of its warps starts in the trace (smtlm_trace_tb_streamed); an smtlm_trace_feed then reads
 * its instructions through one cursor per warp, with memory that does not grow with the TB.
 * SMTLM_TRACE_STREAM_AUTO (the default): more than max(16 MiB / min(the grid's blocks, 4), warps x
 * a cursor's memory), at least 24 MiB for an xz file in one block (each cursor decodes it from
 * its start);
 * 0: every TB; SIZE_MAX: none. Input that cannot be re-read at an offset (a pipe) is never
 * streamed. Call before reading TBs. */
#define SMTLM_TRACE_STREAM_AUTO ((size_t)-2)
void smtlm_trace_set_stream_limit(smtlm_trace *t, size_t bytes);
/* Checks every instruction line read from now on against function f of listing l (both must
 * outlive the reader): its PC is in f, with the same opcode and the same register sources;
 * else the line is an error naming both. NULL f: no check. Call before reading TBs. */
struct smtlm_sass_listing;
struct smtlm_sass_func;
void smtlm_trace_check_listing(smtlm_trace *t, const struct smtlm_sass_listing *l, const struct smtlm_sass_func *f);

/* ---- thread block ------------------------------------------------------------------------- */

/* A TB owns its data: it stays valid after the reader moves on or is closed, except that a
 * streamed TB is read through its reader (keep the reader open while a feed reads it). */
smtlm_trace_tb *smtlm_trace_tb_new(void);
void smtlm_trace_tb_free(smtlm_trace_tb *tb);

unsigned smtlm_trace_tb_n_warps(const smtlm_trace_tb *tb);             /* warps_per_tb */
unsigned smtlm_trace_tb_warp_count(const smtlm_trace_tb *tb, unsigned warp); /* insts of a warp */
unsigned long long smtlm_trace_tb_index(const smtlm_trace_tb *tb);     /* 0-based file order */
/* The `thread block = x,y,z` label (informational: Accel-Sim takes TBs in file order). */
void smtlm_trace_tb_label(const smtlm_trace_tb *tb, unsigned xyz[3]);

/* The Accel-Sim 2.0 cluster lines of the block (`cluster id = x,y,z`, `cluster cta = x,y,z`,
 * `cluster rank = r`, or a .tracez block's same fields): 1 when the block had any (a field it
 * did not give is 0), 0 when none (all 0). Kept with the block; the model does not use them. */
int smtlm_trace_tb_cluster(const smtlm_trace_tb *tb, unsigned id[3], unsigned cta[3], unsigned *rank);
/* 1 when the block is one the trace did not hold, run as an empty block (smtlm_trace_next_tb). */
int smtlm_trace_tb_absent(const smtlm_trace_tb *tb);

/* 1 when tb holds no records but where its warps start (read it with an smtlm_trace_feed). */
int smtlm_trace_tb_streamed(const smtlm_trace_tb *tb);

/* Expands instruction `index` of `warp`: 0 on success, SMTLM_TRACE_ERR_ARG when out of range
 * or when tb is streamed.
 * addr[] is written (inactive lanes 0) only for memory instructions, the only ones that have
 * addresses; for the others it is left as it was. */
int smtlm_trace_tb_inst(const smtlm_trace_tb *tb, unsigned warp, unsigned index,
                        smtlm_inst_desc *out);

/* Active mask of one instruction without the full expansion (0 when out of range). */
uint32_t smtlm_trace_tb_mask(const smtlm_trace_tb *tb, unsigned warp, unsigned index);

/* Bytes of heap the TB holds (capacity, not use): for memory-bound checks. */
size_t smtlm_trace_tb_footprint(const smtlm_trace_tb *tb);

/* ---- instruction feed: the warps of one TB, instruction by instruction --------------------- */

/* A feed hands out the instructions of each warp of the TB it is bound to, in order, whether
 * the TB holds its records or is streamed (then each warp has a cursor: its own position in the
 * trace, a buffer of parsed records refilled when it runs out, and for xz its own decoder).
 * A feed touches nothing but itself, its TB and its reader's read-only parts, so feeds of
 * different TBs may run on different threads at once while the reader reads on. */
typedef struct smtlm_trace_feed smtlm_trace_feed;

smtlm_trace_feed *smtlm_trace_feed_new(void);
void smtlm_trace_feed_free(smtlm_trace_feed *f);
/* Binds f to tb, read from t (which must stay open while f reads a streamed tb); every warp
 * starts at its first instruction. Keeps f's buffers for reuse. 0 or < 0 with a message. */
int smtlm_trace_feed_bind(smtlm_trace_feed *f, const smtlm_trace *t, const smtlm_trace_tb *tb, char *err,
                          size_t errlen);
/* Unbinds (releases cursors' decoders; buffers stay for the next bind). */
void smtlm_trace_feed_unbind(smtlm_trace_feed *f);
/* The next instruction of `warp`: 1, 0 at its end, < 0 on an error (a streamed trace that
 * cannot be read again or changed since it was checked; smtlm_trace_feed_error says which). */
int smtlm_trace_feed_next(smtlm_trace_feed *f, unsigned warp, smtlm_inst_desc *out);
/* The same decoded in place into a pool entry's descriptor fields and, for a memory
 * instruction, addr[0..31] (smtlm_inst_source.next_into). */
int smtlm_trace_feed_next_into(smtlm_trace_feed *f, unsigned warp, smtlm_inst *in, uint64_t *addr);
/* 1 when `warp` has an instruction left. */
int smtlm_trace_feed_has_more(const smtlm_trace_feed *f, unsigned warp);
/* pc of `warp`'s next instruction without taking it: 1, or 0 when none (or on an error). */
int smtlm_trace_feed_peek_pc(smtlm_trace_feed *f, unsigned warp, uint32_t *pc);
/* The feed's first error ("<file>:<line>: <what>"), or NULL. */
const char *smtlm_trace_feed_error(const smtlm_trace_feed *f);
/* Heap bytes the feed holds (cursors, buffers, decoders). */
size_t smtlm_trace_feed_footprint(const smtlm_trace_feed *f);

#ifdef __cplusplus
}
#endif
#endif
