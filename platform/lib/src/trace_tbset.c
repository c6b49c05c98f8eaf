/* The thread blocks a trace has held so far, by linear id (x + gx * (y + gy * z)): one bit
 * each, in pages allocated when first touched, so memory follows the blocks read (a trace
 * in file order fills one page after another) and never the grid alone. */
#include <stdlib.h>

#include "trace_internal.h"

int trace_tbset_add(trace_tbset *s, uint64_t id, uint64_t n_ids)
{
    const uint64_t page = id / TRACE_TBSET_PAGE_BITS, bit = id % TRACE_TBSET_PAGE_BITS;
    uint64_t *words;
    if (s->pages == NULL) {
        s->n_pages = (size_t)((n_ids + TRACE_TBSET_PAGE_BITS - 1) / TRACE_TBSET_PAGE_BITS);
        if ((s->pages = calloc(s->n_pages, sizeof *s->pages)) == NULL)
            return SMTLM_TRACE_ERR_NOMEM;
    }
    if (s->pages[page] == NULL && (s->pages[page] = calloc(TRACE_TBSET_PAGE_BITS / 64, sizeof(uint64_t))) == NULL)
        return SMTLM_TRACE_ERR_NOMEM;
    words = s->pages[page];
    if (words[bit / 64] >> (bit % 64) & 1)
        return 0;
    words[bit / 64] |= (uint64_t)1 << (bit % 64);
    return 1;
}

int trace_tbset_has(const trace_tbset *s, uint64_t id)
{
    const uint64_t page = id / TRACE_TBSET_PAGE_BITS, bit = id % TRACE_TBSET_PAGE_BITS;
    if (s->pages == NULL || page >= s->n_pages || s->pages[page] == NULL)
        return 0;
    return (int)(s->pages[page][bit / 64] >> (bit % 64) & 1);
}

void trace_tbset_free(trace_tbset *s)
{
    for (size_t i = 0; s->pages != NULL && i < s->n_pages; i++)
        free(s->pages[i]);
    free(s->pages);
    s->pages = NULL;
    s->n_pages = 0;
}
