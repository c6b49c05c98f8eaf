/* Reader thread for one trace (trace_prefetch.c): thread blocks parsed ahead of the engine. */
#ifndef SMTLM_TRACE_PREFETCH_H
#define SMTLM_TRACE_PREFETCH_H

#include <stddef.h>

#include "smtlm/trace.h"

typedef struct trace_prefetch trace_prefetch;

/* Starts the thread; from now on only it reads `t` (its header stays readable). Blocks are parsed
 * ahead until 1024 blocks or 32 MiB of them wait; `max_objects` is how many block objects the
 * consumer may hold at once (its CTA slots). 0 or a negative SMTLM_TRACE_ERR_*. */
int trace_prefetch_start(trace_prefetch **out, smtlm_trace *t, unsigned max_objects);
/* The next block, as smtlm_trace_next_tb would return it: on 1 *tb is the new block and the
 * object *tb held before (NULL or a block the consumer is done with) goes back to the reader. */
int trace_prefetch_next(trace_prefetch *p, smtlm_trace_tb **tb, char *err, size_t errlen);
/* Stops and joins the thread, frees every block object it holds. NULL is a no-op. */
void trace_prefetch_stop(trace_prefetch *p);

#endif
