/* Bulk memory: the large, long-lived buffers of a run (the C engine's SM states, the trace
 * reader's records and addresses) in mappings aligned to 2 MiB that the kernel is asked to back
 * with huge pages (madvise MADV_HUGEPAGE; honoured where transparent huge pages are `always` or
 * `madvise`), so touching them costs one page fault per 2 MiB rather than per 4 KiB. Freed buffers
 * are kept for the next request of their size class (powers of two from 4 KiB), so a run that
 * reads block after block reuses the pages of the blocks before instead of faulting in new ones.
 * Thread-safe (the reader thread allocates, the engine's thread frees). Not for per-cycle code. */
#ifndef SMTLM_BULK_MEM_H
#define SMTLM_BULK_MEM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* `bytes` zeroed, or NULL when the memory cannot be had. */
void *smtlm_bulk_alloc(size_t bytes);
/* p (from smtlm_bulk_alloc/realloc with old_bytes, or NULL) resized to new_bytes, its first
 * min(old, new) bytes kept; the rest is not zeroed. NULL (p untouched) when the memory cannot be
 * had. */
void *smtlm_bulk_realloc(void *p, size_t old_bytes, size_t new_bytes);
/* Gives back p, allocated with `bytes` (NULL is fine). */
void smtlm_bulk_free(void *p, size_t bytes);

#ifdef __cplusplus
}
#endif
#endif
