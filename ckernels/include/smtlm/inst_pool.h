/* The per-SM pool of in-flight instructions. Pipeline structures hold smtlm_iref indices into
 * it; an entry lives from decode to retirement. Fixed capacity, O(1) alloc/free. */
#ifndef SMTLM_INST_POOL_H
#define SMTLM_INST_POOL_H

#include <stddef.h>
#include <string.h>

#include "smtlm/common.h"
#include "smtlm/inst.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Execution-unit type, as GPGPU-Sim's exec_unit_type_t (dual-issue rule, routing). */
typedef enum smtlm_unit {
    SMTLM_UNIT_NONE = 0,
    SMTLM_UNIT_SP,
    SMTLM_UNIT_SFU,
    SMTLM_UNIT_MEM,
    SMTLM_UNIT_DP,
    SMTLM_UNIT_INT,
    SMTLM_UNIT_TENSOR,
    SMTLM_UNIT_SPECIALIZED
} smtlm_unit;

/* Per-instruction event cycles (SM-local core cycles; UINT64_MAX = not reached). */
typedef enum smtlm_event {
    SMTLM_EV_ISSUE = 0,
    SMTLM_EV_CU_ALLOC,
    SMTLM_EV_OPERANDS,
    SMTLM_EV_OC_EX,
    SMTLM_EV_FU_ISSUE,
    SMTLM_EV_WRITEBACK,
    SMTLM_EV_COUNT
} smtlm_event;

typedef struct smtlm_inst {
    uint64_t uid;            /* issue order, SM-wide; 0 = not issued yet */
    uint64_t ev[SMTLM_EV_COUNT];
    /* pc .. line: the decoded smtlm_inst_desc's fields in its order, copied as one block */
    uint32_t pc;
    uint32_t mask;
    uint8_t op, spec;        /* smtlm_op, specialized unit 1..8 */
    uint8_t n_dst, n_src;
    int16_t dst[SMTLM_MAX_DST];
    int16_t src[SMTLM_MAX_SRC];
    uint16_t latency, ii;
    uint8_t mem_space, mem_width, atomic;
    uint8_t left_ldst;       /* 1 once a load has left the LDST dispatch register */
    uint32_t line;           /* trace line, for messages */
    /* Register summary, set at commit (smtlm_pool_reg_summary) or by the source with pc .. line
     * (smtlm_inst_source.sets_summary), for the scoreboard's one-word tests: bit r (1..63) for
     * each register named; bit 0 when one lies outside 0..63 (the full per-register test then
     * decides). sb_regs: sources and destinations; sb_dsts: destinations (bit 0 also when n_dst
     * exceeds SMTLM_MAX_DST). */
    uint64_t sb_regs, sb_dsts;
    uint16_t warp;           /* hardware warp id */
    uint8_t unit;            /* smtlm_unit chosen at issue */
    uint8_t sched;           /* issuing scheduler */
    uint16_t mem;            /* index into the memory payload pool, SMTLM_NO_INST if none */
    uint16_t pending;        /* outstanding memory responses (loads) */
    uint16_t next_free;      /* free-list link */
    /* Operand slots the collector reads for an instruction of one to three sources: one per
     * distinct register, the first slot naming it (smtlm_read_ops); 0 otherwise. Set with the
     * register summary, so that allocation only tests bits. */
    uint8_t rd_ops;
} smtlm_inst;

/* What a memory instruction carries between decode and the LDST unit. */
typedef struct smtlm_mem_payload {
    uint64_t addr[SMTLM_WARP_SIZE];
    uint16_t next_free;
} smtlm_mem_payload;

/* Each free list ends in the entries never taken since the reset, from `fresh` on, in index order
 * (their links are not written): a reset touches no entry, so a pool's memory is brought in only
 * as far as the SM's instructions in flight reach. */
typedef struct smtlm_inst_pool {
    smtlm_inst inst[SMTLM_POOL_SIZE];
    smtlm_mem_payload mem[SMTLM_MEM_POOL_SIZE];
    uint16_t free_head, mem_free_head;
    uint16_t fresh, mem_fresh; /* the first entry never taken (SMTLM_POOL_SIZE: none left) */
    uint32_t used, mem_used;
} smtlm_inst_pool;

/* The free entry after head r, which is being taken: r's link, or for r == *fresh (the first entry
 * never taken) the next one after it. */
static inline uint16_t smtlm_pool_after_head_(uint16_t r, const uint16_t *link, uint16_t *fresh, unsigned size)
{
    if (r != *fresh)
        return *link;
    *fresh = (uint16_t)(r + 1);
    return r + 1u < size ? (uint16_t)(r + 1) : (uint16_t)SMTLM_NO_INST;
}

/* ---- the shape memo of the SM's instruction checks (smtlm_sm_check_inst_memo in sm.h); here so
 * that the issue stage can apply it inline to an instruction decoded in place ---- */
#define SMTLM_SHAPE_OPS 16 /* one memo slot per op */
/* The memo's words: the slots' keys, then per slot the register bits that must be clear in the
 * sources' word, then in the destinations' word (the shape's counts folded in). */
#define SMTLM_SHAPE_MEMO (3 * SMTLM_SHAPE_OPS)
/* Four 16-bit numbers as the lanes of one word, lane 0 lowest (one load on a little-endian host). */
static inline uint64_t smtlm_pack16_(const int16_t *r)
{
    return (uint64_t)(uint16_t)r[0] | (uint64_t)(uint16_t)r[1] << 16 | (uint64_t)(uint16_t)r[2] << 32 |
           (uint64_t)(uint16_t)r[3] << 48;
}
/* The bits of the low n 16-bit lanes (n <= 4) that make a register number leave 0..511: one is
 * outside iff a bit above bit 8 is set (a negative number has bit 15). */
static inline uint64_t smtlm_bad_reg_bits_(unsigned n)
{
    return 0xFE00FE00FE00FE00ull & (n >= 4 ? ~0ull : (1ull << (16 * n)) - 1);
}
/* The memo's key: every field the checks read but the registers and the memory space, as the
 * entry or descriptor holds them: op, spec, n_dst, n_src (4 bytes) and latency, ii (4 bytes). */
static inline uint64_t smtlm_sm_shape_key_(const uint8_t *op, const uint16_t *latency)
{
    uint32_t lo, hi;
    memcpy(&lo, op, sizeof lo);
    memcpy(&hi, latency, sizeof hi);
    return (uint64_t)lo | (uint64_t)hi << 32;
}
/* The memo's verdict for an instruction of shape `key`: -1 when the shape is not remembered (the
 * full check must run), else 0 when its registers pass and 1 when one does not (the shape's other
 * checks all passed). */
static inline int smtlm_sm_memo_verdict_(const uint64_t *memo, unsigned op, uint64_t key, unsigned mem_space,
                                         const int16_t *src, const int16_t *dst)
{
    const unsigned k = op & (SMTLM_SHAPE_OPS - 1);
    if (key != memo[k] || mem_space >= SMTLM_MEM_COUNT)
        return -1;
    return ((smtlm_pack16_(src) & memo[SMTLM_SHAPE_OPS + k]) | (smtlm_pack16_(dst) & memo[2 * SMTLM_SHAPE_OPS + k])) != 0;
}
/* Empties the memo (every memo starts so): slot k holds a key whose op byte belongs to another
 * slot, so no instruction's key matches it. (A zeroed memo would pass, unchecked, an instruction
 * whose key packs to 0: op 0 with no registers and latency 0.) */
static inline void smtlm_sm_memo_clear(uint64_t *memo)
{
    static const uint16_t no_latency[2] = {0, 0};
    for (unsigned k = 0; k < SMTLM_SHAPE_OPS; k++) {
        const uint8_t other_op[4] = {(uint8_t)((k + 1) & (SMTLM_SHAPE_OPS - 1)), 0, 0, 0};
        memo[k] = smtlm_sm_shape_key_(other_op, no_latency);
        memo[SMTLM_SHAPE_OPS + k] = 0;
        memo[2 * SMTLM_SHAPE_OPS + k] = 0;
    }
}
/* Remembers shape `key` (counts n_src, n_dst <= 4) as passing the full check. */
static inline void smtlm_sm_memo_store_(uint64_t *memo, unsigned op, uint64_t key, unsigned n_src, unsigned n_dst)
{
    const unsigned k = op & (SMTLM_SHAPE_OPS - 1);
    memo[k] = key;
    memo[SMTLM_SHAPE_OPS + k] = smtlm_bad_reg_bits_(n_src);
    memo[2 * SMTLM_SHAPE_OPS + k] = smtlm_bad_reg_bits_(n_dst);
}
/* The checks that need no configuration: every named register in 0..511, counts at most 4, a
 * known memory space. A source may work this out ahead (smtlm_inst_source.marks_fields_ok). */
static inline int smtlm_fields_ok(const int16_t *dst, unsigned n_dst, const int16_t *src, unsigned n_src,
                                  unsigned mem_space)
{
    return n_dst <= 4 && n_src <= 4 && mem_space < SMTLM_MEM_COUNT &&
           ((smtlm_pack16_(src) & smtlm_bad_reg_bits_(n_src)) | (smtlm_pack16_(dst) & smtlm_bad_reg_bits_(n_dst))) == 0;
}
/* What a marking source leaves in an entry's left_ldst byte between its fill and the commit
 * (which clears it) when smtlm_fields_ok holds. */
#define SMTLM_FIELDS_OK 1
/* The memo's verdict for an entry marked SMTLM_FIELDS_OK or not by its source: a remembered key
 * implies counts of at most 4, so with the mark the key alone decides (as smtlm_sm_memo_pass). */
static inline int smtlm_sm_memo_pass_mark(const uint64_t *memo, unsigned mark, const uint8_t *op, const uint16_t *latency)
{
    return mark == SMTLM_FIELDS_OK && smtlm_sm_shape_key_(op, latency) == memo[*op & (SMTLM_SHAPE_OPS - 1)];
}
static inline int smtlm_sm_memo_pass_marked(const uint64_t *memo, const smtlm_inst *in)
{
    return smtlm_sm_memo_pass_mark(memo, in->left_ldst, &in->op, &in->latency);
}
/* 1 when the memo passes entry `in` as it stands (no call needed), else 0 (the full check decides). */
static inline int smtlm_sm_memo_pass(const uint64_t *memo, const smtlm_inst *in)
{
    const uint64_t key = smtlm_sm_shape_key_(&in->op, &in->latency);
    return smtlm_sm_memo_verdict_(memo, in->op, key, in->mem_space, in->src, in->dst) == 0;
}

/* The bits of registers r[0..n) (n > 4 taken as 4) in 1..63, and bit 0 when one lies outside
 * 0..63; register 0 (none) sets no bit. With bit 0 set the other bits are not meaningful.
 * Only the named registers are visited (one or two, usually). */
static inline uint64_t smtlm_reg_bits_(const int16_t *r, unsigned n)
{
    uint64_t m = 0;
    unsigned any = 0; /* the registers ORed: >= 64 iff one is outside 0..63 */
    switch (n) {
    default: any |= (uint16_t)r[3], m |= 1ull << ((uint16_t)r[3] & 63); /* fall through */
    case 3: any |= (uint16_t)r[2], m |= 1ull << ((uint16_t)r[2] & 63); /* fall through */
    case 2: any |= (uint16_t)r[1], m |= 1ull << ((uint16_t)r[1] & 63); /* fall through */
    case 1: any |= (uint16_t)r[0], m |= 1ull << ((uint16_t)r[0] & 63); /* fall through */
    case 0: break;
    }
    return (m & ~1ull) | (uint64_t)(any >= 64);
}
/* The register summary (sb_regs, sb_dsts) of destinations dst[0..n_dst) and sources
 * src[0..n_src). The one definition: a source that sets an entry's summary itself
 * (smtlm_inst_source.sets_summary) computes it here too. */
static inline void smtlm_reg_summary(const int16_t *dst, unsigned n_dst, const int16_t *src, unsigned n_src,
                                     uint64_t *regs, uint64_t *dsts)
{
    const uint64_t d = smtlm_reg_bits_(dst, n_dst) | (uint64_t)(n_dst > SMTLM_MAX_DST);
    *dsts = d;
    *regs = d | smtlm_reg_bits_(src, n_src);
}
/* The operand slots a collector reads of sources src[0..n_src) when n_src is 1..3: one per
 * distinct register (Accel-Sim reads a register named twice only once, for its first slot);
 * 0 for no source or more than three (the collector's general path works those out). */
static inline uint8_t smtlm_read_ops(const int16_t *src, unsigned n_src)
{
    switch (n_src) {
    case 1: return 1;
    case 2: return (uint8_t)(1u | (unsigned)(src[1] != src[0]) << 1);
    case 3: return (uint8_t)(1u | (unsigned)(src[1] != src[0]) << 1 | (unsigned)(src[2] != src[0] && src[2] != src[1]) << 2);
    default: return 0;
    }
}
/* Sets the entry's register summary (sb_regs, sb_dsts) and rd_ops from its registers as they stand. */
static inline void smtlm_pool_reg_summary(smtlm_inst *in)
{
    smtlm_reg_summary(in->dst, in->n_dst, in->src, in->n_src, &in->sb_regs, &in->sb_dsts);
    in->rd_ops = smtlm_read_ops(in->src, in->n_src);
}

void smtlm_pool_init(smtlm_inst_pool *p);
/* Allocates an entry filled from desc (addresses into a payload for memory ops).
 * Returns SMTLM_NO_INST when the pool (or the payload pool) is exhausted. */
smtlm_iref smtlm_pool_alloc(smtlm_inst_pool *p, const smtlm_inst_desc *d, uint16_t warp);

/* Decoding in place, without a descriptor in between: a source writes the next instruction's
 * fields straight into the entry smtlm_pool_alloc would take (smtlm_pool_next_entry: pc .. line,
 * left_ldst over the descriptor's reserved byte) and, for a memory instruction, its 32 lane
 * addresses into the payload it would take (smtlm_pool_next_addr); smtlm_pool_commit then takes
 * them. Until the commit both stay free, so an instruction refused after the fill costs nothing.
 * Both heads must be free (smtlm_pool_can_fill). */
static inline int smtlm_pool_can_fill(const smtlm_inst_pool *p)
{
    return p->free_head != SMTLM_NO_INST && p->mem_free_head != SMTLM_NO_INST;
}
static inline smtlm_inst *smtlm_pool_next_entry(smtlm_inst_pool *p) { return &p->inst[p->free_head]; }
static inline uint64_t *smtlm_pool_next_addr(smtlm_inst_pool *p) { return p->mem[p->mem_free_head].addr; }
/* Takes the filled entry r (the pool's free head, read by the caller before its fill, so the
 * fill's stores do not make the compiler read it again) and its payload when it is a memory
 * instruction, for `warp`, its register summary set by the source too (else smtlm_pool_commit). */
static SMTLM_ALWAYS_INLINE smtlm_iref smtlm_pool_commit_at(smtlm_inst_pool *p, smtlm_iref r, uint16_t warp)
{
    smtlm_inst *in = &p->inst[r];
    uint16_t m = SMTLM_NO_INST;
    if (in->mem_space != SMTLM_MEM_NONE) {
        m = p->mem_free_head;
        p->mem_free_head = smtlm_pool_after_head_(m, &p->mem[m].next_free, &p->mem_fresh, SMTLM_MEM_POOL_SIZE);
        p->mem_used++;
    }
    p->free_head = smtlm_pool_after_head_(r, &in->next_free, &p->fresh, SMTLM_POOL_SIZE);
    p->used++;
    in->uid = 0;
    for (unsigned e = 0; e < SMTLM_EV_COUNT; e++)
        in->ev[e] = UINT64_MAX;
    in->left_ldst = 0;
    in->warp = warp;
    in->unit = SMTLM_UNIT_NONE;
    in->sched = 0;
    in->mem = m;
    in->pending = 0;
    in->next_free = SMTLM_NO_INST;
    return r;
}
/* The same, reading the free head here. */
static SMTLM_ALWAYS_INLINE smtlm_iref smtlm_pool_commit_summarized(smtlm_inst_pool *p, uint16_t warp)
{
    return smtlm_pool_commit_at(p, p->free_head, warp);
}
/* The same for an entry filled without its summary: sets it first. */
static SMTLM_ALWAYS_INLINE smtlm_iref smtlm_pool_commit(smtlm_inst_pool *p, uint16_t warp)
{
    smtlm_pool_reg_summary(smtlm_pool_next_entry(p));
    return smtlm_pool_commit_summarized(p, warp);
}
/* A source's instruction as a reader stores it ahead (the trace source's records) is two parts:
 * its shape, a whole smtlm_inst_rec held once for all the instructions of a thread block alike in
 * every field but mask, line and addresses (the same static instruction, as a rule), and its own
 * smtlm_inst_ref, which names the shape and carries those three. In a record, pc .. sb_dsts lie
 * as in the entry, so a fill copies them as one block; fields_ok is the entry's left_ldst until
 * the commit (SMTLM_FIELDS_OK or 0); addr is SMTLM_REC_NO_ADDR, or in a shape 0 for a memory
 * instruction, whose ref's addr is the first of its active lanes' addresses in the pool. */
typedef struct smtlm_inst_rec {
    uint32_t pc;
    uint32_t mask;
    uint8_t op, spec, n_dst, n_src;
    int16_t dst[SMTLM_MAX_DST]; /* slots past n_dst / n_src are 0 (the fill copies them all) */
    int16_t src[SMTLM_MAX_SRC];
    uint16_t latency, ii;
    uint8_t mem_space, mem_width, atomic;
    uint8_t fields_ok;
    uint32_t line;
    uint64_t sb_regs, sb_dsts;
    uint32_t addr;
    uint8_t rd_ops;  /* the entry's rd_ops (smtlm_read_ops), worked out with the summary */
    uint8_t pad_[3]; /* 0 (named so that records compare as bytes) */
} smtlm_inst_rec;
#define SMTLM_REC_NO_ADDR UINT32_MAX
typedef struct smtlm_inst_ref {
    uint32_t shape; /* index of its shape in the window's shapes */
    uint32_t mask;
    uint32_t line;
    uint32_t addr;  /* a memory instruction: its first address in the pool */
} smtlm_inst_ref;
/* A warp's instructions at hand, [cur, lim), with their shapes and address pool; pos counts those
 * taken. */
typedef struct smtlm_rec_window {
    const smtlm_inst_ref *cur, *lim;
    const smtlm_inst_rec *shapes;
    const uint64_t *pool;
    uint32_t pos, count;
} smtlm_rec_window;
/* Instruction ref of shape s into entry `in` and, for a memory instruction, all 32 lanes of addr
 * (inactive ones 0). */
static inline void smtlm_rec_fill(const smtlm_inst_rec *s, const smtlm_inst_ref *ref, const uint64_t *pool,
                                  smtlm_inst *in, uint64_t *addr)
{
    memcpy(&in->pc, &s->pc, offsetof(smtlm_inst_rec, addr) - offsetof(smtlm_inst_rec, pc));
    in->mask = ref->mask;
    in->line = ref->line;
    in->rd_ops = s->rd_ops;
    if (s->addr != SMTLM_REC_NO_ADDR) {
        memset(addr, 0, SMTLM_WARP_SIZE * sizeof *addr);
        if (ref->mask) { /* no active lane stored no address: the pool may not exist at all */
            const uint64_t *a = pool + ref->addr;
            for (unsigned i = 0; i < SMTLM_WARP_SIZE; i++)
                if (ref->mask & (1u << i))
                    addr[i] = *a++;
        }
    }
}
/* Up to max instructions of window fw (NULL: none) filled, passed by the shape memo and committed
 * for `warp`, refs into out; stops at the first not at hand or not passed. The pool has room for
 * max. The one body of the source's take_ready and of decode's direct take. */
static SMTLM_ALWAYS_INLINE unsigned smtlm_pool_take_window(smtlm_inst_pool *pool, const uint64_t *memo,
                                                           smtlm_rec_window *fw, uint16_t warp, smtlm_iref *out,
                                                           unsigned max)
{
    unsigned n = 0;
    if (fw == NULL)
        return 0;
    for (; n < max && fw->cur != fw->lim; n++) {
        const smtlm_inst_ref *ref = fw->cur;
        const smtlm_inst_rec *s = fw->shapes + ref->shape;
        if (!smtlm_sm_memo_pass_mark(memo, s->fields_ok, &s->op, &s->latency))
            break;
        const smtlm_iref r = pool->free_head;
        smtlm_rec_fill(s, ref, fw->pool, &pool->inst[r], pool->mem[pool->mem_free_head].addr);
        fw->cur = ref + 1;
        fw->pos++;
        out[n] = smtlm_pool_commit_at(pool, r, warp);
    }
    return n;
}
/* Writes desc into a free entry and payload as a source's in-place fill would (addresses only
 * for a memory instruction). */
void smtlm_pool_fill_from_desc(smtlm_inst *in, uint64_t *addr, const smtlm_inst_desc *d);
/* The entry's descriptor fields back into *d (its addresses zero): for the checks. */
void smtlm_pool_entry_desc(const smtlm_inst *in, smtlm_inst_desc *d);
/* Releases the address payload early (once the LDST has generated its accesses).
 * Inline, as smtlm_pool_free: every retired instruction goes through both. */
static inline void smtlm_pool_drop_payload(smtlm_inst_pool *p, smtlm_iref r)
{
    smtlm_inst *in = &p->inst[r];
    if (in->mem != SMTLM_NO_INST) {
        p->mem[in->mem].next_free = p->mem_free_head;
        p->mem_free_head = in->mem;
        p->mem_used--;
        in->mem = SMTLM_NO_INST;
    }
}
static inline void smtlm_pool_free(smtlm_inst_pool *p, smtlm_iref r)
{
    smtlm_pool_drop_payload(p, r);
    p->inst[r].next_free = p->free_head;
    p->free_head = r;
    p->used--;
}

static inline smtlm_inst *smtlm_pool_get(smtlm_inst_pool *p, smtlm_iref r) { return &p->inst[r]; }

#ifdef __cplusplus
}
#endif
#endif
