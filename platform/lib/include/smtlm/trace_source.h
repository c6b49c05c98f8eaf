/* Feeds a kernel trace to the C engine: an smtlm_inst_source plus an smtlm_cta_binder that
 * reads the next thread block from the trace whenever a CTA lands on an SM (Accel-Sim takes
 * TBs in file order) and binds its warps to the SM's hardware warps; binding the grid's last
 * one also reads on to the end of the file, which must hold no further block. Memory stays bounded by
 * the CTAs resident at once, and large thread blocks are streamed (smtlm_trace_set_stream_limit),
 * so it does not grow with the trace. The fetch path (the smtlm_inst_source) touches only the
 * state of the fetching (SM, CTA slot): SMs may fetch on different threads at once; cta_start
 * and cta_done must come from one thread at a time. */
#ifndef SMTLM_TRACE_SOURCE_H
#define SMTLM_TRACE_SOURCE_H

#include "smtlm/gpu.h"
#include "smtlm/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct smtlm_trace_source smtlm_trace_source;

/* Opens `path` with latency table `lat` for a GPU of n_sm SMs with max_warps warp slots each. */
int smtlm_trace_source_open(smtlm_trace_source **out, const char *path, const smtlm_trace_latency *lat,
                            unsigned n_sm, unsigned max_warps, char *err, size_t errlen);
void smtlm_trace_source_close(smtlm_trace_source *s);
/* Parses thread blocks on a second thread from now on, ahead of the engine (bounded: at most
 * 32 MiB of parsed blocks wait; CTAs finish in waves that take many at once). Blocks, their order, and the first error and its message are the same as without it.
 * Call before the first CTA starts. 0, or -1 with a message. */
int smtlm_trace_source_start_reader(smtlm_trace_source *s, char *err, size_t errlen);
/* The kernel's control bits for the silicon core: its function in `program` (a whole-program
 * `cuobjdump -sass` listing, -smtlm_sass) or, without one, in kernel-N.sass beside the trace.
 * Every instruction the source reads is then checked against that function (its PC, opcode
 * and sources), and smtlm_trace_source_iface carries the bits. 1 when attached, 0 when there is
 * no program listing and nothing beside the trace by that name (ENOENT), -1 with a message (a
 * bad listing, one beside the trace that exists but cannot be read: a directory, a symbolic
 * link loop or a dangling one, no permission; no function of the kernel's name). Call before
 * the reader thread starts and before the iface is taken. */
struct smtlm_sass_listing;
/* What a run says when a listing is given without the silicon core, and once when a kernel has
 * none (after "<trace path>: "). */
#define SMTLM_SASS_ONLY_SILICON "only the silicon core reads listings (-smtlm_core silicon)"
#define SMTLM_SASS_DERIVED_NOTE                                                                    \
    "no SASS listing (-smtlm_sass, or a .sass file beside the trace): the silicon core derives "  \
    "the control bits from the trace, as an ideal compiler would set them"
int smtlm_trace_source_use_listing(smtlm_trace_source *s, const struct smtlm_sass_listing *program, char *err,
                                   size_t errlen);
/* Where the kernel's listing came from after smtlm_trace_source_use_listing: "smtlm_sass" (the
 * program listing), "beside" (kernel-N.sass), or "none"; *path the listing's path ("" for none). */
const char *smtlm_trace_source_listing(const smtlm_trace_source *s, const char **path);
/* The listing beside a trace that smtlm_trace_source_use_listing reads without a program listing:
 * kernel-N.sass for kernel-N.traceg (and kernel-N.traceg.xz). malloc'd, or NULL. */
char *smtlm_trace_source_listing_path(const char *trace);
/* smtlm_trace_set_stream_limit on the source's trace; call before the reader thread starts. */
void smtlm_trace_source_set_stream_limit(smtlm_trace_source *s, size_t bytes);

const smtlm_trace_header *smtlm_trace_source_header(const smtlm_trace_source *s);
/* Grid, block, shared memory and registers of the kernel. */
smtlm_kernel_desc smtlm_trace_source_kernel(const smtlm_trace_source *s);
smtlm_inst_source smtlm_trace_source_iface(smtlm_trace_source *s);
smtlm_cta_binder smtlm_trace_source_binder(smtlm_trace_source *s);
/* The first error the source met (reader message with file:line), or NULL. */
const char *smtlm_trace_source_error(const smtlm_trace_source *s);
/* Path of the trace, for messages about its lines. */
const char *smtlm_trace_source_path(const smtlm_trace_source *s);
/* Thread blocks bound so far that the trace did not hold, run as empty blocks (smtlm_trace_next_tb). */
unsigned long long smtlm_trace_source_absent(const smtlm_trace_source *s);
/* Next instruction's pc of a bound warp (for deadlock reports); 0 if none. */
int smtlm_trace_source_peek_pc(const smtlm_trace_source *s, unsigned sm, unsigned warp, uint32_t *pc);

#ifdef __cplusplus
}
#endif
#endif
