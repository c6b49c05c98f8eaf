/* One instruction line -> one compact record (Accel-Sim inst_trace_t::parse_from_string +
 * trace_warp_inst_t::parse_from_trace_struct). Field order:
 *   [tb_x tb_y tb_z warp]   (tracer version < 3)
 *   [line_num]              (-enable lineinfo = 1)
 *   PC mask dest_num {R<n>} opcode src_num {R<n>} mem_width [mode addresses] [immediate] */
#include <string.h>

#include "smtlm/common.h"
#include "trace_internal.h"

static int bad(const trace_ctx *c, unsigned long lineno, char *err, size_t errlen,
               const char *what, trace_tok t)
{
    char show[48];
    return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, c->file, lineno,
                      "malformed line: %s %s", what, trace_tok_show(t, show, sizeof show));
}

static int missing(const trace_ctx *c, unsigned long lineno, char *err, size_t errlen,
                   const char *what)
{
    return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, c->file, lineno,
                      "malformed line: missing %s", what);
}

/* Registers: count token, then that many R<n> tokens. */
static int parse_regs(const trace_ctx *c, const char **p, unsigned long lineno, unsigned max,
                      const char *kind, int16_t *regs, uint8_t *n, char *err, size_t errlen)
{
    trace_tok t;
    uint64_t cnt;
    unsigned i;
    if (!trace_next_tok(p, &t))
        return missing(c, lineno, err, errlen, kind);
    if (trace_parse_dec(t, UINT32_MAX, &cnt) < 0)
        return bad(c, lineno, err, errlen, "bad register count", t);
    if (cnt > max)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, c->file, lineno,
                          "too many %s (%llu, at most %u)", kind, (unsigned long long)cnt,
                          max);
    for (i = 0; i < cnt; i++) {
        if (!trace_next_tok(p, &t))
            return missing(c, lineno, err, errlen, "register");
        if (trace_parse_reg(t, &regs[i]) < 0)
            return bad(c, lineno, err, errlen, "bad register token", t);
    }
    *n = (uint8_t)cnt;
    return 0;
}

/* Generic LD/ST: Accel-Sim looks at the first active lane's address and the kernel's bases. */
static uint8_t generic_space(const smtlm_trace_header *h, uint32_t mask, const uint64_t *addrs)
{
    uint64_t a;
    if (h->shmem_base == 0 || h->local_base == 0)
        return SMTLM_MEM_SHARED; /* bases unknown: everything is shared */
    if (mask == 0)
        return SMTLM_MEM_GLOBAL; /* no lane accesses memory; Accel-Sim leaves it undefined */
    a = addrs[0];
    if (a >= h->shmem_base && a < h->local_base)
        return SMTLM_MEM_SHARED;
    if (a >= h->local_base && a < h->local_base + TRACE_LOCAL_MEM_SIZE_MAX)
        return SMTLM_MEM_LOCAL;
    return SMTLM_MEM_GLOBAL;
}

static uint8_t mem_space_of(const smtlm_opcode *o, const smtlm_trace_header *h, uint32_t mask,
                            const uint64_t *addrs)
{
    switch (o->mem) {
    case SMTLM_OPMEM_SHARED: return SMTLM_MEM_SHARED;
    case SMTLM_OPMEM_GLOBAL: return SMTLM_MEM_GLOBAL;
    case SMTLM_OPMEM_LOCAL: return SMTLM_MEM_LOCAL;
    case SMTLM_OPMEM_GENERIC: return generic_space(h, mask, addrs);
    default: return SMTLM_MEM_NONE;
    }
}

/* Leading fields before the PC that Accel-Sim reads and ignores. */
static int skip_prefix(const trace_ctx *c, const char **p, unsigned long lineno, char *err,
                       size_t errlen)
{
    unsigned n = (c->hdr->tracer_version < 3 ? 4u : 0u) + (c->hdr->lineinfo ? 1u : 0u), i;
    for (i = 0; i < n; i++) {
        trace_tok t;
        uint64_t v;
        if (!trace_next_tok(p, &t))
            return missing(c, lineno, err, errlen,
                           c->hdr->tracer_version < 3 && i < 4 ? "tb/warp prefix" : "line_num");
        if (trace_parse_dec(t, UINT32_MAX, &v) < 0)
            return bad(c, lineno, err, errlen, "bad decimal field", t);
    }
    return 0;
}

/* Memory part and tail. Fills addrs (active lanes) when mem_width > 0. A TMA or bulk copy
 * (SMTLM_OPF_TMA_LIST) carries Accel-Sim 2.0's transfer list instead, whatever mem_width says,
 * when anything follows mem_width (earlier tracers end such a line there): it is read and
 * checked; the model has no TMA engine, so the instruction runs on its unit without traffic. */
static int parse_mem(const trace_ctx *c, const char **p, unsigned long lineno, const smtlm_opcode *o,
                     uint32_t mask, int *has_addr, uint64_t *addrs, char *err, size_t errlen)
{
    trace_tok t;
    uint64_t width;
    *has_addr = 0;
    if (!trace_next_tok(p, &t))
        return missing(c, lineno, err, errlen, "mem_width");
    if (trace_parse_dec(t, UINT32_MAX, &width) < 0)
        return bad(c, lineno, err, errlen, "bad mem_width", t);
    if (o->flags & SMTLM_OPF_TMA_LIST) {
        const char *q = *p;
        trace_tma tma;
        int rc;
        if (trace_next_tok(&q, &t) && (rc = trace_tma_parse(c, p, lineno, &tma, NULL, 0, err, errlen)) < 0)
            return rc;
    } else if (width > 0) {
        int rc = trace_addr_parse(c, p, lineno, mask, addrs, err, errlen);
        if (rc < 0)
            return rc;
        *has_addr = 1;
    }
    if (trace_next_tok(p, &t)) {
        int64_t imm;
        if (trace_parse_sdec(t, &imm) < 0)
            return bad(c, lineno, err, errlen, "bad immediate", t);
        if (trace_next_tok(p, &t))
            return bad(c, lineno, err, errlen, "unexpected trailing field", t);
    }
    return 0;
}

void trace_opinfo_of(const smtlm_opcode *o, const smtlm_trace_latency *lat, trace_opinfo *out)
{
    out->op = (uint8_t)smtlm_opcat_to_op((smtlm_opcat)o->cat, &out->spec);
    smtlm_trace_latency_apply(lat, (smtlm_opcat)o->cat, o->flags, &out->latency, &out->ii);
    if (o->flags & SMTLM_OPF_ATOM_AS_LOAD)
        out->op = SMTLM_OP_LOAD; /* atomics are done at L2 as loads */
    out->atomic = (o->flags & SMTLM_OPF_ATOMIC) ? 1 : 0;
}

/* The fields before mem_width. */
typedef struct inst_head {
    trace_rec r;            /* pc, mask, dst, src filled */
    trace_tok opcode;       /* the whole opcode token (its suffix gives a memory width) */
    const smtlm_opcode *o;
} inst_head;

/* General parser of the head, with a message for every malformed field. */
static int slow_head(const trace_ctx *c, const char **p, unsigned long lineno, inst_head *h, char *err,
                     size_t errlen)
{
    trace_tok t;
    uint64_t pc, mask;
    const char *optok;
    size_t oplen;
    int rc = skip_prefix(c, p, lineno, err, errlen);
    if (rc < 0)
        return rc;
    if (!trace_next_tok(p, &t))
        return missing(c, lineno, err, errlen, "PC");
    if (trace_parse_hex(t, UINT32_MAX, &pc) < 0)
        return bad(c, lineno, err, errlen, "bad hex PC", t);
    if (!trace_next_tok(p, &t))
        return missing(c, lineno, err, errlen, "mask");
    if (trace_parse_hex(t, UINT32_MAX, &mask) < 0)
        return bad(c, lineno, err, errlen, "bad hex mask", t);
    h->r.pc = (uint32_t)pc;
    h->r.mask = (uint32_t)mask;
    rc = parse_regs(c, p, lineno, TRACE_MAX_DST, "destinations", h->r.dst, &h->r.n_dst, err, errlen);
    if (rc < 0)
        return rc;
    if (!trace_next_tok(p, &h->opcode))
        return missing(c, lineno, err, errlen, "opcode");
    oplen = smtlm_opcode_first_token(h->opcode.s, h->opcode.n, &optok);
    h->o = trace_opindex_find(c->ops, c->map, optok, oplen);
    if (h->o == NULL) {
        if (oplen == 0) { /* "..." */
            optok = h->opcode.s;
            oplen = h->opcode.n;
        }
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, c->file, lineno,
                          "unknown opcode %.*s for binary version %u",
                          (int)(oplen > 64 ? 64 : oplen), optok, c->hdr->binary_version);
    }
    return parse_regs(c, p, lineno, TRACE_MAX_SRC, "sources", h->r.src, &h->r.n_src, err, errlen);
}

/* ---- fast path: one pass over the bytes of a well-formed head, no messages ---- */

#define TRACE_MEMO_CREDIT 256 /* misses a fresh memo may take before it rests */
#define SPACE(ch) (trace_byte_class[(unsigned char)(ch)] == TRACE_C_SPACE)
#define ENDS_TOKEN(ch) (trace_byte_class[(unsigned char)(ch)] != TRACE_C_TOKEN)

/* Inline at every use: a call per token costs more than the test (link-time inlining would
 * otherwise decide it anew whenever the rest of the program changes). */
static SMTLM_ALWAYS_INLINE const unsigned char *skip_spaces(const unsigned char *s)
{
    if (*s == ' ' && !SPACE(s[1])) /* the usual single space */
        return s + 1;
    while (SPACE(*s))
        s++;
    return s;
}

/* SWAR over 8 bytes: bit 7 of each byte set where the byte is a hex digit. */
static uint64_t hex_bytes(uint64_t w)
{
    const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
    const uint64_t x = w & ~high, y = (w | 0x2020202020202020ull) & ~high; /* y: letters in lower case */
    const uint64_t digit = (x + (0x80 - '0') * ones) & ~(x + (0x80 - '9' - 1) * ones);
    const uint64_t alpha = (y + (0x80 - 'a') * ones) & ~(y + (0x80 - 'f' - 1) * ones);
    return (digit | alpha) & ~w & high; /* bytes >= 0x80 are no digits */
}

/* 1..8 hex digits (no 0x); end: the line's NUL. With 8 bytes of line ahead the digits are
 * found and combined 8 at a time, else one by one. */
static const unsigned char *fast_hex32(const unsigned char *s, const unsigned char *end, uint32_t *v)
{
    uint32_t x = 0;
    unsigned n = 0, d;
    uint64_t w;
    if (end - s >= 8) {
        memcpy(&w, s, 8);
        if (w == 0x6666666666666666ull && ENDS_TOKEN(s[8])) {
            *v = UINT32_MAX; /* "ffffffff", the full mask of most lines, in one compare */
            return skip_spaces(s + 8);
        }
        const uint64_t not_hex = ~hex_bytes(w) & 0x8080808080808080ull;
        n = not_hex ? (unsigned)smtlm_ctz64(not_hex) / 8 : 8; /* digits before the first other byte */
        if (n == 0 || !ENDS_TOKEN(s[n]))
            return NULL;
        /* nibble values ('0'-'9' -> 0-9, 'a'-'f' / 'A'-'F' -> 10-15), first digit in the top byte */
        uint64_t nib = (w & 0x0f0f0f0f0f0f0f0full) + ((w >> 6) & 0x0101010101010101ull) * 9;
        nib = __builtin_bswap64(nib) >> (8 * (8 - n));
        nib = (nib | nib >> 4) & 0x00ff00ff00ff00ffull;
        nib = (nib | nib >> 8) & 0x0000ffff0000ffffull;
        *v = (uint32_t)(nib | nib >> 16);
        return skip_spaces(s + n);
    }
    while ((d = trace_hex_plus1[s[n]]) != 0) {
        x = x << 4 | (d - 1u);
        if (++n == 8)
            break;
    }
    *v = x;
    return n > 0 && ENDS_TOKEN(s[n]) ? skip_spaces(s + n) : NULL;
}

/* R<0..255> with one to three digits, numbered from 1 as slow_head does. */
static const unsigned char *fast_reg(const unsigned char *s, int16_t *reg)
{
    unsigned v, d;
    if (s[0] != 'R' || (v = (unsigned)s[1] - '0') > 9)
        return NULL;
    s += 2;
    if ((d = (unsigned)*s - '0') <= 9) {
        v = v * 10 + d;
        s++;
        if ((d = (unsigned)*s - '0') <= 9) {
            v = v * 10 + d;
            s++;
        }
    }
    if (v > 255 || !ENDS_TOKEN(*s))
        return NULL;
    *reg = (int16_t)(v + 1);
    return skip_spaces(s);
}

/* One digit count <= max, then that many registers. */
static const unsigned char *fast_regs(const unsigned char *s, unsigned max, int16_t *regs, uint8_t *n)
{
    const unsigned cnt = (unsigned)*s - '0';
    if (cnt > max || !ENDS_TOKEN(s[1]))
        return NULL;
    s = skip_spaces(s + 1);
    for (unsigned i = 0; i < cnt && s != NULL; i++)
        s = fast_reg(s, &regs[i]);
    *n = (uint8_t)cnt;
    return s;
}

/* The head after PC and mask (t: the destination count). NULL when it is not of the plain
 * common shape: the caller then runs slow_head, which accepts the same lines with the same
 * result and names what is wrong with the others. */
static const char *fast_tail_head(const trace_ctx *c, const char *t, inst_head *h)
{
    const unsigned char *s = (const unsigned char *)t, *dot;
    if ((s = fast_regs(s, TRACE_MAX_DST, h->r.dst, &h->r.n_dst)) == NULL || *s == '.')
        return NULL;
    /* the opcode token; its first '.'-part's first 8 bytes become the index key on the way */
    h->opcode.s = (const char *)s;
    uint64_t key = 0;
    unsigned shift = 0;
    while (!ENDS_TOKEN(*s) && *s != '.') {
        if (shift < 64)
            key |= (uint64_t)*s << shift;
        shift += 8;
        s++;
    }
    dot = s;
    while (!ENDS_TOKEN(*s))
        s++;
    h->opcode.n = (size_t)((const char *)s - h->opcode.s);
    h->o = trace_opindex_find_key(c->ops, c->map, h->opcode.s, (size_t)((const char *)dot - h->opcode.s), key);
    if (h->o == NULL)
        return NULL;
    s = fast_regs(skip_spaces(s), TRACE_MAX_SRC, h->r.src, &h->r.n_src);
    return (const char *)s;
}

/* The tail of most lines: mem_width 0 and nothing after it. Returns where the line's NUL is. */
static const char *plain_tail_end(const char *p)
{
    const unsigned char *s = (const unsigned char *)p, *e;
    if (s[0] != '0')
        return NULL;
    e = skip_spaces(s + 1);
    return *e == '\0' ? (const char *)e : NULL;
}

/* ---- memo of line tails ---- */

/* A tail (what follows the mask) of 8 to 48 bytes is known by its length and its first, middle
 * and last 8 bytes, which overlap and cover a tail of up to 24 bytes whole (longer ones compare
 * the rest too). */
typedef struct tail_key {
    uint64_t w[3];
    size_t len;
} tail_key;

static unsigned memo_key(const char *t, size_t len, tail_key *k)
{
    memcpy(&k->w[0], t, 8);
    memcpy(&k->w[1], t + len / 2 - 4, 8);
    memcpy(&k->w[2], t + len - 8, 8);
    k->len = len;
    const uint64_t x =
        (k->w[0] * 0x9e3779b97f4a7c15ull ^ k->w[1] * 0xd6e8feb86659fd93ull ^ k->w[2] ^ len) * 0xc2b2ae3d27d4eb4full;
    return (unsigned)(x >> 58) & (TRACE_MEMO_SLOTS - 1u);
}

static int memo_same(const trace_memo_entry *e, const tail_key *k, const char *t)
{
    return e->len == k->len && e->w[0] == k->w[0] && e->w[1] == k->w[1] && e->w[2] == k->w[2] &&
           (k->len <= 24 || memcmp(e->tail, t + 8, k->len - 16) == 0);
}

void trace_memo_reset(trace_memo *m)
{
    for (unsigned i = 0; i < TRACE_MEMO_SLOTS; i++)
        m->e[i].len = 0;
    m->credit = TRACE_MEMO_CREDIT;
    m->resting = 0;
}

/* Whether to look a tail up: a lookup that misses costs about a fifth of what a hit saves, so
 * on text whose tails do not repeat the memo rests for a while, then tries again. */
static int memo_on(trace_memo *m)
{
    if (m == NULL)
        return 0;
    if (m->resting == 0)
        return 1;
    if (--m->resting == 0)
        m->credit = TRACE_MEMO_CREDIT;
    return 0;
}

static void memo_count(trace_memo *m, int hit)
{
    if (hit) {
        if (m->credit < 4 * TRACE_MEMO_CREDIT)
            m->credit += 4;
    } else if (--m->credit < 0) {
        m->resting = 4096;
    }
}

/* The record of a line from its opinfo, pc, mask and line number. */
static void finish_rec(const trace_ctx *c, inst_head *h, unsigned long lineno)
{
    trace_opinfo info;
    h->r.line = lineno > UINT32_MAX ? UINT32_MAX : (uint32_t)lineno;
    h->r.addr = TRACE_NO_ADDR;
    if (c->info != NULL)
        info = c->info[h->o - c->map->ops];
    else
        trace_opinfo_of(h->o, c->lat, &info);
    h->r.op = info.op;
    h->r.spec = info.spec;
    h->r.latency = info.latency;
    h->r.ii = info.ii;
    h->r.atomic = info.atomic;
    h->r.mem_space = SMTLM_MEM_NONE;
    h->r.mem_width = 0;
    trace_rec_summarize(&h->r); /* here, so that the tail memo holds it too */
}

/* The fast path over a whole line: 1 = *r done, 0 = not a plain line (the general path decides;
 * *p is where a successful fast head ended, else NULL). A complete fast line ends at line + len,
 * so it holds no NUL byte: only the other lines need trace_lines' NUL check. */
static int fast_line(const trace_ctx *c, trace_memo *m, const char *line, size_t len, unsigned long lineno,
                     inst_head *h, trace_rec *r, const char **p)
{
    const unsigned char *s = skip_spaces((const unsigned char *)line), *end = (const unsigned char *)line + len;
    const char *t;
    uint32_t pc, mask;
    size_t tlen;
    unsigned slot = 0;
    tail_key key;
    *p = NULL;
    if ((s = fast_hex32(s, end, &pc)) == NULL || (s = fast_hex32(s, end, &mask)) == NULL)
        return 0;
    t = (const char *)s;
    tlen = (size_t)(line + len - t);
    const int memo = tlen >= 8 && tlen <= TRACE_MEMO_TAIL && memo_on(m);
    if (memo) {
        const trace_memo_entry *e = &m->e[slot = memo_key(t, tlen, &key)];
        const int hit = memo_same(e, &key, t);
        memo_count(m, hit);
        if (hit) { /* the same tail: the same fields */
            *r = e->rec;
            r->pc = pc;
            r->mask = mask;
            r->line = lineno > UINT32_MAX ? UINT32_MAX : (uint32_t)lineno;
            return 1;
        }
    }
    memset(&h->r, 0, sizeof h->r); /* unused register slots and fields stay 0 */
    h->r.pc = pc;
    h->r.mask = mask;
    if ((*p = fast_tail_head(c, t, h)) == NULL || plain_tail_end(*p) != line + len || h->o->mem != SMTLM_OPMEM_NONE)
        return 0;
    finish_rec(c, h, lineno);
    *r = h->r;
    if (memo) {
        trace_memo_entry *e = &m->e[slot];
        e->rec = h->r;
        e->len = (uint8_t)tlen;
        memcpy(e->w, key.w, sizeof e->w);
        if (tlen > 24)
            memcpy(e->tail, t + 8, tlen - 16); /* what the three words leave out, and some */
    }
    return 1;
}

static int parse_line(const trace_ctx *c, trace_memo *m, const char *line, size_t len, unsigned long lineno,
                      trace_rec *r, uint64_t addrs[SMTLM_WARP_SIZE], char *err, size_t errlen)
{
    inst_head h;
    const char *p = NULL;
    int has_addr = 0, rc;

    if (c->plain_fields && fast_line(c, m, line, len, lineno, &h, r, &p))
        return 0;
    if (memchr(line, '\0', len) != NULL)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, c->file, lineno, "malformed line: NUL byte");
    if (p == NULL) {
        memset(&h.r, 0, sizeof h.r); /* nothing left of a fast path that gave up half way */
        p = line;
        if ((rc = slow_head(c, &p, lineno, &h, err, errlen)) < 0)
            return rc;
    }
    if (plain_tail_end(p) == NULL && (rc = parse_mem(c, &p, lineno, h.o, h.r.mask, &has_addr, addrs, err, errlen)) < 0)
        return rc;
    finish_rec(c, &h, lineno);
    if (h.o->mem != SMTLM_OPMEM_NONE) {
        unsigned width = trace_width_from_opcode(h.opcode.s, h.opcode.n);
        if (!has_addr)
            return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, c->file, lineno,
                              "memory instruction with mem_width 0 (no addresses)");
        if (width < 1 || width > 16)
            return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, c->file, lineno,
                              "unsupported memory width %u bytes from the opcode", width);
        h.r.mem_width = (uint8_t)width;
        h.r.mem_space = mem_space_of(h.o, c->hdr, h.r.mask, addrs);
        trace_rec_summarize(&h.r); /* the mark covers the memory space */
    }
    *r = h.r;
    return 0;
}

int trace_inst_parse(const trace_ctx *c, trace_memo *m, const char *line, size_t len, unsigned long lineno,
                     trace_rec *r, uint64_t addrs[SMTLM_WARP_SIZE], char *err, size_t errlen)
{
    const int rc = parse_line(c, m, line, len, lineno, r, addrs, err, errlen);
    if (rc < 0 || c->func == NULL)
        return rc;
    return trace_listing_check(c, line, len, lineno, r, err, errlen);
}

int trace_inst_store(const trace_ctx *c, smtlm_trace_tb *tb, unsigned warp, trace_rec *r,
                     const uint64_t *addrs, unsigned long lineno, char *err, size_t errlen)
{
    int rc;
    if (r->mem_space != SMTLM_MEM_NONE) {
        rc = trace_tb_pool_add(tb, addrs, (unsigned)smtlm_popcount32(r->mask), &r->addr);
        if (rc == TRACE_TB_FULL)
            return rc;
        if (rc < 0)
            return trace_fail(err, errlen, rc, c->file, lineno,
                              rc == SMTLM_TRACE_ERR_NOMEM ? "out of memory" : "too many addresses in one TB");
    }
    rc = trace_tb_push(tb, warp, r);
    if (rc == TRACE_TB_FULL)
        return rc; /* the addresses just added go with the records the reader drops now */
    if (rc < 0)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_NOMEM, c->file, lineno, "out of memory");
    return 0;
}
