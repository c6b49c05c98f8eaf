/* Thread-block storage: per warp a growable array of refs (16 bytes: shape, mask, line, first
 * address), the distinct shapes the refs name (a 64-byte record each, found again through a hash
 * table), and one address pool holding only the active lanes of memory instructions. The warps of
 * a block run the same code, so its shapes are about its static instructions, a fraction of its
 * instructions. Reset keeps the capacity. A TB that would grow past its limit keeps only where its
 * warps start in the trace (streamed). */
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
        free(tb->warps[w].refs);
    free(tb->warps);
    free(tb->shapes);
    free(tb->shape_slots);
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
        wp->last_shape = UINT32_MAX;
    }
    tb->n_warps = n_warps;
    if (tb->n_shapes > 0 && tb->slots_cap > 0)
        memset(tb->shape_slots, 0, tb->slots_cap * sizeof *tb->shape_slots);
    tb->n_shapes = 0;
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

/* Room for one more ref of `warp`: 0, TRACE_TB_FULL or SMTLM_TRACE_ERR_NOMEM. */
static int grow_refs(smtlm_trace_tb *tb, trace_warp *wp)
{
    uint32_t cap;
    trace_ref *p;
    if (wp->cap >= UINT32_MAX / 2)
        return SMTLM_TRACE_ERR_NOMEM;
    /* Grow with the data, not with `insts = n` (a bogus count must not allocate), but never past
     * it: the reader has checked that this record is within it. */
    cap = wp->cap ? wp->cap * 2 : 64;
    if (cap > wp->declared && wp->declared > wp->n)
        cap = wp->declared;
    if (!fits(tb, (size_t)(cap - wp->cap) * sizeof *p))
        return TRACE_TB_FULL;
    p = realloc(wp->refs, (size_t)cap * sizeof *p);
    if (p == NULL)
        return SMTLM_TRACE_ERR_NOMEM;
    tb->heap += (size_t)(cap - wp->cap) * sizeof *p;
    wp->refs = p;
    wp->cap = cap;
    return 0;
}

/* On pc: within a kernel a pc names one static instruction, so records that share it nearly
 * always share their shape too. */
static uint32_t shape_hash(uint32_t pc)
{
    return (uint32_t)((pc * 0x9E3779B97F4A7C15ull) >> 32);
}

static inline uint64_t word_at(const trace_rec *r, size_t i)
{
    uint64_t w;
    memcpy(&w, (const char *)r + i * sizeof w, sizeof w);
    return w;
}

/* Shape s is record r's: the two agree in every byte but mask, line and addr (whether r has
 * addresses its memory space says). */
static inline int is_shape_of(const trace_rec *s, const trace_rec *r)
{
    _Static_assert(offsetof(trace_rec, mask) == 4 && offsetof(trace_rec, line) == 36 &&
                       offsetof(trace_rec, addr) == 56 && sizeof(trace_rec) == 64,
                   "the words and halves is_shape_of leaves out");
    return (((word_at(s, 0) ^ word_at(r, 0)) & 0xFFFFFFFFu) | (word_at(s, 1) ^ word_at(r, 1)) |
            (word_at(s, 2) ^ word_at(r, 2)) | (word_at(s, 3) ^ word_at(r, 3)) |
            ((word_at(s, 4) ^ word_at(r, 4)) & 0xFFFFFFFFu) | (word_at(s, 5) ^ word_at(r, 5)) |
            (word_at(s, 6) ^ word_at(r, 6)) | ((word_at(s, 7) ^ word_at(r, 7)) >> 32)) == 0;
}

/* The slot of record r's shape in a table of cap slots: where it is, or the empty one where it
 * goes. */
static uint32_t *shape_slot(const trace_rec *shapes, uint32_t *slots, uint32_t cap, const trace_rec *r)
{
    for (uint32_t i = shape_hash(r->pc) & (cap - 1);; i = (i + 1) & (cap - 1)) {
        const uint32_t k = slots[i];
        if (k == 0 || (shapes[k - 1].pc == r->pc && is_shape_of(&shapes[k - 1], r)))
            return &slots[i];
    }
}

/* Room for one more shape (and its table at most half full): 0, TRACE_TB_FULL or NOMEM. */
static int grow_shapes(smtlm_trace_tb *tb)
{
    if (tb->n_shapes == tb->shapes_cap) {
        uint32_t cap = tb->shapes_cap ? tb->shapes_cap * 2 : 64;
        trace_rec *p;
        if (tb->shapes_cap >= UINT32_MAX / 4)
            return SMTLM_TRACE_ERR_NOMEM;
        if (!fits(tb, (size_t)(cap - tb->shapes_cap) * sizeof *p))
            return TRACE_TB_FULL;
        if ((p = realloc(tb->shapes, (size_t)cap * sizeof *p)) == NULL)
            return SMTLM_TRACE_ERR_NOMEM;
        tb->heap += (size_t)(cap - tb->shapes_cap) * sizeof *p;
        tb->shapes = p;
        tb->shapes_cap = cap;
    }
    if (!tb->one_shape_each && 2 * (tb->n_shapes + 1) > tb->slots_cap) {
        uint32_t cap = tb->slots_cap ? tb->slots_cap * 2 : 128;
        uint32_t *p;
        if (!fits(tb, (size_t)(cap - tb->slots_cap) * sizeof *p))
            return TRACE_TB_FULL;
        if ((p = calloc(cap, sizeof *p)) == NULL)
            return SMTLM_TRACE_ERR_NOMEM;
        for (uint32_t k = 0; k < tb->n_shapes; k++) /* (each shape once: the first empty slot) */
            *shape_slot(tb->shapes, p, cap, &tb->shapes[k]) = k + 1;
        free(tb->shape_slots);
        tb->heap += (size_t)(cap - tb->slots_cap) * sizeof *p;
        tb->shape_slots = p;
        tb->slots_cap = cap;
    }
    return 0;
}

/* The index of record r's shape, added when new; UINT32_MAX when it cannot be added (*rc says
 * why). Warps run the same code, and its shapes are numbered in the order first met: the shape
 * after the warp's last one is tried first, so that only a jump (or the first warp) asks the
 * table. */
static uint32_t shape_of(smtlm_trace_tb *tb, trace_warp *wp, const trace_rec *r, int *rc)
{
    uint32_t k = wp->last_shape + 1;
    if (tb->one_shape_each || k >= tb->n_shapes || tb->shapes[k].pc != r->pc || !is_shape_of(&tb->shapes[k], r)) {
        uint32_t *slot = NULL;
        if ((*rc = grow_shapes(tb)) != 0) /* first, so that the slot found stays where it is */
            return UINT32_MAX;
        if (!tb->one_shape_each)
            slot = shape_slot(tb->shapes, tb->shape_slots, tb->slots_cap, r);
        if (slot != NULL && *slot != 0) {
            k = *slot - 1;
        } else {
            trace_rec *s = &tb->shapes[k = tb->n_shapes++];
            *s = *r;
            s->mask = 0;
            s->line = 0;
            if (s->addr != TRACE_NO_ADDR)
                s->addr = 0;
            if (slot != NULL)
                *slot = k + 1;
        }
    }
    wp->last_shape = k;
    return k;
}

int trace_tb_push(smtlm_trace_tb *tb, unsigned warp, const trace_rec *r)
{
    trace_warp *wp = &tb->warps[warp];
    uint32_t k;
    int rc = 0;
    if (wp->n == wp->cap && (rc = grow_refs(tb, wp)) != 0)
        return rc;
    if ((k = shape_of(tb, wp, r, &rc)) == UINT32_MAX)
        return rc;
    wp->refs[wp->n++] = (trace_ref){k, r->mask, r->line, r->addr};
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
        free(tb->warps[w].refs);
        tb->warps[w].refs = NULL;
        tb->warps[w].cap = 0;
    }
    free(tb->shapes);
    free(tb->shape_slots);
    tb->shapes = NULL;
    tb->shape_slots = NULL;
    tb->n_shapes = tb->shapes_cap = tb->slots_cap = 0;
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

static const trace_ref *ref_at(const smtlm_trace_tb *tb, unsigned warp, unsigned index)
{
    if (tb == NULL || tb->streamed || warp >= tb->n_warps || index >= tb->warps[warp].n)
        return NULL;
    return &tb->warps[warp].refs[index];
}

uint32_t smtlm_trace_tb_mask(const smtlm_trace_tb *tb, unsigned warp, unsigned index)
{
    const trace_ref *r = ref_at(tb, warp, index);
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
    const trace_ref *r = ref_at(tb, warp, index);
    if (r == NULL || out == NULL)
        return SMTLM_TRACE_ERR_ARG;
    const trace_rec whole = trace_ref_record(tb->shapes, r);
    trace_rec_expand(&whole, tb->pool, out);
    return 0;
}

size_t smtlm_trace_tb_footprint(const smtlm_trace_tb *tb)
{
    size_t bytes = 0;
    unsigned w;
    if (tb == NULL)
        return 0;
    bytes += sizeof *tb + tb->warps_cap * sizeof(trace_warp) + tb->pool_cap * sizeof(uint64_t) +
             tb->shapes_cap * sizeof(trace_rec) + tb->slots_cap * sizeof(uint32_t);
    for (w = 0; w < tb->warps_cap; w++)
        bytes += tb->warps[w].cap * sizeof(trace_ref);
    return bytes;
}
