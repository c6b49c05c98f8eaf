/* Thread-block storage: per warp a growable array of compact records, plus one address pool
 * holding only the active lanes of memory instructions. Reset keeps the capacity. A TB that
 * would grow past its limit keeps only where its warps start in the trace (streamed). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "trace_internal.h"

smtlm_trace_tb *smtlm_trace_tb_new(void)
{
    return calloc(1, sizeof(smtlm_trace_tb));
}

void trace_tb_release(smtlm_trace_tb *tb)
{
    for (unsigned w = 0; w < tb->warps_cap; w++)
        free(tb->warps[w].recs);
    free(tb->warps);
    free(tb->pool);
    memset(tb, 0, sizeof *tb);
}

void smtlm_trace_tb_free(smtlm_trace_tb *tb)
{
    if (tb == NULL)
        return;
    trace_tb_release(tb);
    free(tb);
}

int trace_tb_reset(smtlm_trace_tb *tb, unsigned n_warps)
{
    unsigned w;
    if (n_warps > tb->warps_cap) {
        trace_warp *p = realloc(tb->warps, n_warps * sizeof *p);
        if (p == NULL)
            return SMTLM_TRACE_ERR_NOMEM;
        memset(p + tb->warps_cap, 0, (n_warps - tb->warps_cap) * sizeof *p);
        tb->warps = p;
        tb->warps_cap = n_warps;
    }
    for (w = 0; w < tb->warps_cap; w++) {
        trace_warp *wp = &tb->warps[w];
        wp->n = 0;
        wp->declared = 0;
        wp->insts_line = 0;
        wp->off = 0;
        wp->seen = 0;
        wp->has_insts = 0;
    }
    tb->n_warps = n_warps;
    tb->pool_len = 0;
    tb->limit = SIZE_MAX;
    tb->streamed = 0;
    tb->from = NULL;
    tb->label[0] = tb->label[1] = tb->label[2] = 0;
    tb->index = 0;
    memset(tb->cluster_id, 0, sizeof tb->cluster_id);
    memset(tb->cluster_cta, 0, sizeof tb->cluster_cta);
    tb->cluster_rank = 0;
    tb->has_cluster = 0;
    tb->absent = 0;
    return 0;
}

/* Room for `add` more bytes of records or addresses within the TB's limit? */
static int fits(const smtlm_trace_tb *tb, size_t add)
{
    return tb->limit == SIZE_MAX || (add <= tb->limit && tb->heap <= tb->limit - add);
}

/* trace_tb_push when the warp's array is full. */
int trace_tb_push_grow(smtlm_trace_tb *tb, unsigned warp, trace_rec **out)
{
    trace_warp *wp = &tb->warps[warp];
    uint32_t cap;
    trace_rec *p;
    if (wp->cap >= UINT32_MAX / 2)
        return SMTLM_TRACE_ERR_NOMEM;
    /* Grow with the data, not with `insts = n` (a bogus count must not allocate), but never past
     * it: the reader has checked that this record is within it. */
    cap = wp->cap ? wp->cap * 2 : 64;
    if (cap > wp->declared && wp->declared > wp->n)
        cap = wp->declared;
    if (!fits(tb, (size_t)(cap - wp->cap) * sizeof *p))
        return TRACE_TB_FULL;
    p = realloc(wp->recs, (size_t)cap * sizeof *p);
    if (p == NULL)
        return SMTLM_TRACE_ERR_NOMEM;
    tb->heap += (size_t)(cap - wp->cap) * sizeof *p;
    wp->recs = p;
    wp->cap = cap;
    *out = &wp->recs[wp->n++];
    return 0;
}

int trace_tb_pool_add(smtlm_trace_tb *tb, const uint64_t *addrs, unsigned n, uint32_t *first)
{
    if (tb->pool_len + n >= TRACE_NO_ADDR)
        return SMTLM_TRACE_ERR_FORMAT; /* > 4G addresses in one TB */
    if (tb->pool_len + n > tb->pool_cap) {
        size_t cap = tb->pool_cap ? tb->pool_cap : 1024;
        uint64_t *p;
        while (cap < tb->pool_len + n)
            cap *= 2;
        if (!fits(tb, (cap - tb->pool_cap) * sizeof *p))
            return TRACE_TB_FULL;
        p = realloc(tb->pool, cap * sizeof *p);
        if (p == NULL)
            return SMTLM_TRACE_ERR_NOMEM;
        tb->heap += (cap - tb->pool_cap) * sizeof *p;
        tb->pool = p;
        tb->pool_cap = cap;
    }
    if (n > 0)
        memcpy(tb->pool + tb->pool_len, addrs, n * sizeof *addrs);
    *first = (uint32_t)tb->pool_len;
    tb->pool_len += n;
    return 0;
}

void trace_tb_drop_records(smtlm_trace_tb *tb)
{
    for (unsigned w = 0; w < tb->warps_cap; w++) {
        free(tb->warps[w].recs);
        tb->warps[w].recs = NULL;
        tb->warps[w].cap = 0;
    }
    free(tb->pool);
    tb->pool = NULL;
    tb->pool_len = tb->pool_cap = 0;
    tb->heap = 0;
    tb->streamed = 1;
}

unsigned smtlm_trace_tb_n_warps(const smtlm_trace_tb *tb)
{
    return tb != NULL ? tb->n_warps : 0;
}

unsigned smtlm_trace_tb_warp_count(const smtlm_trace_tb *tb, unsigned warp)
{
    if (tb == NULL || warp >= tb->n_warps)
        return 0;
    return tb->warps[warp].n;
}

unsigned long long smtlm_trace_tb_index(const smtlm_trace_tb *tb)
{
    return tb != NULL ? tb->index : 0;
}

void smtlm_trace_tb_label(const smtlm_trace_tb *tb, unsigned xyz[3])
{
    xyz[0] = tb != NULL ? tb->label[0] : 0;
    xyz[1] = tb != NULL ? tb->label[1] : 0;
    xyz[2] = tb != NULL ? tb->label[2] : 0;
}

int smtlm_trace_tb_cluster(const smtlm_trace_tb *tb, unsigned id[3], unsigned cta[3], unsigned *rank)
{
    for (int k = 0; k < 3; k++) {
        id[k] = tb != NULL ? tb->cluster_id[k] : 0;
        cta[k] = tb != NULL ? tb->cluster_cta[k] : 0;
    }
    *rank = tb != NULL ? tb->cluster_rank : 0;
    return tb != NULL && tb->has_cluster;
}

int smtlm_trace_tb_absent(const smtlm_trace_tb *tb)
{
    return tb != NULL && tb->absent;
}

int smtlm_trace_tb_streamed(const smtlm_trace_tb *tb)
{
    return tb != NULL && tb->streamed;
}

static const trace_rec *rec_at(const smtlm_trace_tb *tb, unsigned warp, unsigned index)
{
    if (tb == NULL || tb->streamed || warp >= tb->n_warps || index >= tb->warps[warp].n)
        return NULL;
    return &tb->warps[warp].recs[index];
}

uint32_t smtlm_trace_tb_mask(const smtlm_trace_tb *tb, unsigned warp, unsigned index)
{
    const trace_rec *r = rec_at(tb, warp, index);
    return r != NULL ? r->mask : 0;
}

_Static_assert(sizeof(((trace_rec *)0)->dst) <= sizeof(((smtlm_inst_desc *)0)->dst) &&
                   sizeof(((trace_rec *)0)->src) <= sizeof(((smtlm_inst_desc *)0)->src),
               "a record's register arrays fit the descriptor's");

void trace_rec_expand(const trace_rec *r, const uint64_t *pool, smtlm_inst_desc *out)
{
    unsigned i;
    /* the 256 address bytes only for memory instructions: the engine reads them for no other */
    memset(out, 0, offsetof(smtlm_inst_desc, addr));
    out->pc = r->pc;
    out->mask = r->mask;
    out->op = r->op;
    out->spec = r->spec;
    out->n_dst = r->n_dst;
    out->n_src = r->n_src;
    /* whole arrays: a record's unused register slots are 0, as the descriptor's */
    memcpy(out->dst, r->dst, sizeof r->dst);
    memcpy(out->src, r->src, sizeof r->src);
    out->latency = r->latency;
    out->ii = r->ii;
    out->mem_space = r->mem_space;
    out->mem_width = r->mem_width;
    out->atomic = r->atomic;
    out->line = r->line;
    if (r->addr != TRACE_NO_ADDR) {
        memset(out->addr, 0, sizeof out->addr);
        if (r->mask) { /* no active lane stored no address: the pool may not exist at all */
            const uint64_t *a = pool + r->addr;
            for (i = 0; i < SMTLM_WARP_SIZE; i++)
                if (r->mask & (1u << i))
                    out->addr[i] = *a++;
        }
    }
}

int smtlm_trace_tb_inst(const smtlm_trace_tb *tb, unsigned warp, unsigned index,
                        smtlm_inst_desc *out)
{
    const trace_rec *r = rec_at(tb, warp, index);
    if (r == NULL || out == NULL)
        return SMTLM_TRACE_ERR_ARG;
    trace_rec_expand(r, tb->pool, out);
    return 0;
}

size_t smtlm_trace_tb_footprint(const smtlm_trace_tb *tb)
{
    size_t bytes = 0;
    unsigned w;
    if (tb == NULL)
        return 0;
    bytes += sizeof *tb + tb->warps_cap * sizeof(trace_warp) + tb->pool_cap * sizeof(uint64_t);
    for (w = 0; w < tb->warps_cap; w++)
        bytes += tb->warps[w].cap * sizeof(trace_rec);
    return bytes;
}
