/* Bulk memory (smtlm/bulk_mem.h): size classes of powers of two from 4 KiB to 16 MiB carved in
 * order from 64 MiB slabs, each class with a free list; larger requests get a mapping of their
 * own. Slabs and own mappings start on a 2 MiB boundary and are marked MADV_HUGEPAGE, so the
 * pages the buffers touch can be huge ones. Memory stays with the process until it ends (a freed
 * buffer waits for the next of its class), except own mappings, which go back at once.
 * Under AddressSanitizer a buffer's bytes past what was asked for, and a freed buffer, are
 * poisoned, so its checks see overruns and use after free here as in malloc's memory. */
#define _GNU_SOURCE
#include "smtlm/bulk_mem.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define HUGE_PAGE ((size_t)2 << 20)
#define SLAB ((size_t)64 << 20)
#define MIN_SHIFT 12 /* 4 KiB */
#define MAX_SHIFT 24 /* 16 MiB: larger ones are mapped alone */

static struct {
    pthread_mutex_t mu;
    char *bump, *end;                         /* the current slab's unused part */
    void *free_list[MAX_SHIFT - MIN_SHIFT + 1]; /* linked through each buffer's first word */
} B = {PTHREAD_MUTEX_INITIALIZER, NULL, NULL, {NULL}};

static size_t round_up(size_t v, size_t to) { return (v + to - 1) / to * to; }

/* The class of `bytes` (its size 1 << shift), or -1 when it is mapped alone. */
static int class_of(size_t bytes, size_t *size)
{
    unsigned shift = MIN_SHIFT;
    while (shift <= MAX_SHIFT && ((size_t)1 << shift) < bytes)
        shift++;
    *size = (size_t)1 << shift;
    return shift <= MAX_SHIFT ? (int)(shift - MIN_SHIFT) : -1;
}

/* A zeroed mapping of `bytes` (a multiple of HUGE_PAGE) starting on a HUGE_PAGE boundary. */
static void *map_aligned(size_t bytes)
{
    char *p = mmap(NULL, bytes + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    char *a = (char *)round_up((uintptr_t)p, HUGE_PAGE);
    if (a > p)
        munmap(p, (size_t)(a - p));
    if (p + HUGE_PAGE > a)
        munmap(a + bytes, (size_t)(p + HUGE_PAGE - a));
    madvise(a, bytes, MADV_HUGEPAGE); /* a request: without transparent huge pages, 4 KiB pages */
    return a;
}

/* p, of class size `size`, handed out for `bytes`: those usable, the rest poisoned. */
static void *handed_out(void *p, size_t bytes, size_t size)
{
    UNPOISON(p, bytes);
    POISON((char *)p + bytes, size - bytes);
    return p;
}

void *smtlm_bulk_alloc(size_t bytes)
{
    size_t size;
    const int c = class_of(bytes, &size);
    if (c < 0)
        return bytes <= SIZE_MAX - 2 * HUGE_PAGE ? map_aligned(round_up(bytes, HUGE_PAGE)) : NULL;
    pthread_mutex_lock(&B.mu);
    void *p = B.free_list[c];
    if (p) {
        UNPOISON(p, size);
        B.free_list[c] = *(void **)p;
        pthread_mutex_unlock(&B.mu);
        return handed_out(memset(p, 0, bytes), bytes, size);
    }
    if ((size_t)(B.end - B.bump) < size) { /* the rest of the slab stays untouched: no memory */
        char *slab = map_aligned(SLAB);
        if (!slab) {
            pthread_mutex_unlock(&B.mu);
            return NULL;
        }
        B.bump = slab;
        B.end = slab + SLAB;
        POISON(slab, SLAB);
    }
    p = B.bump; /* never touched: zero */
    B.bump += size;
    pthread_mutex_unlock(&B.mu);
    return handed_out(p, bytes, size);
}

void smtlm_bulk_free(void *p, size_t bytes)
{
    if (!p)
        return;
    size_t size;
    const int c = class_of(bytes, &size);
    if (c < 0) {
        munmap(p, round_up(bytes, HUGE_PAGE));
        return;
    }
    pthread_mutex_lock(&B.mu);
    UNPOISON(p, sizeof(void *));
    *(void **)p = B.free_list[c];
    POISON(p, size);
    B.free_list[c] = p;
    pthread_mutex_unlock(&B.mu);
}

void *smtlm_bulk_realloc(void *p, size_t old_bytes, size_t new_bytes)
{
    size_t old_size, new_size;
    const int old_c = class_of(old_bytes, &old_size), new_c = class_of(new_bytes, &new_size);
    if (p && old_c >= 0 && old_c == new_c)
        return handed_out(p, new_bytes, new_size); /* the class has the room */
    void *q = smtlm_bulk_alloc(new_bytes);
    if (!q)
        return NULL;
    if (p) {
        memcpy(q, p, old_bytes < new_bytes ? old_bytes : new_bytes);
        smtlm_bulk_free(p, old_bytes);
    }
    return q;
}
