/* One instruction line -> one compact record (Accel-Sim inst_trace_t::parse_from_string +
 * trace_warp_inst_t::parse_from_trace_struct). Field order:
 *   [tb_x tb_y tb_z warp]   (tracer version < 3)
 *   [line_num]              (-enable lineinfo = 1)
 *   PC mask dest_num {R<n>} opcode src_num {R<n>} mem_width [mode addresses] [immediate] */
#include <string.h>

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

/* Memory part and tail. Fills addrs (active lanes) when mem_width > 0. */
static int parse_mem(const trace_ctx *c, const char **p, unsigned long lineno, uint32_t mask,
                     int *has_addr, uint64_t *addrs, char *err, size_t errlen)
{
    trace_tok t;
    uint64_t width;
    *has_addr = 0;
    if (!trace_next_tok(p, &t))
        return missing(c, lineno, err, errlen, "mem_width");
    if (trace_parse_dec(t, UINT32_MAX, &width) < 0)
        return bad(c, lineno, err, errlen, "bad mem_width", t);
    if (width > 0) {
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

int trace_inst_parse(const trace_ctx *c, const char *line, unsigned long lineno,
                     smtlm_trace_tb *tb, unsigned warp, char *err, size_t errlen)
{
    const char *p = line, *optok;
    trace_tok t, opcode;
    uint64_t pc, mask;
    trace_rec r;
    const smtlm_opcode *o;
    uint64_t addrs[SMTLM_WARP_SIZE];
    int has_addr, rc;
    size_t oplen;
    trace_rec *slot;

    memset(&r, 0, sizeof r);
    rc = skip_prefix(c, &p, lineno, err, errlen);
    if (rc < 0)
        return rc;
    if (!trace_next_tok(&p, &t))
        return missing(c, lineno, err, errlen, "PC");
    if (trace_parse_hex(t, UINT32_MAX, &pc) < 0)
        return bad(c, lineno, err, errlen, "bad hex PC", t);
    if (!trace_next_tok(&p, &t))
        return missing(c, lineno, err, errlen, "mask");
    if (trace_parse_hex(t, UINT32_MAX, &mask) < 0)
        return bad(c, lineno, err, errlen, "bad hex mask", t);
    r.pc = (uint32_t)pc;
    r.mask = (uint32_t)mask;
    r.line = lineno > UINT32_MAX ? UINT32_MAX : (uint32_t)lineno;
    r.addr = TRACE_NO_ADDR;

    rc = parse_regs(c, &p, lineno, TRACE_MAX_DST, "destinations", r.dst, &r.n_dst, err, errlen);
    if (rc < 0)
        return rc;
    if (!trace_next_tok(&p, &opcode))
        return missing(c, lineno, err, errlen, "opcode");
    oplen = smtlm_opcode_first_token(opcode.s, opcode.n, &optok);
    o = trace_opindex_find(c->ops, c->map, optok, oplen);
    if (o == NULL) {
        if (oplen == 0) { /* "..." */
            optok = opcode.s;
            oplen = opcode.n;
        }
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, c->file, lineno,
                          "unknown opcode %.*s for binary version %u",
                          (int)(oplen > 64 ? 64 : oplen), optok, c->hdr->binary_version);
    }
    rc = parse_regs(c, &p, lineno, TRACE_MAX_SRC, "sources", r.src, &r.n_src, err, errlen);
    if (rc < 0)
        return rc;
    rc = parse_mem(c, &p, lineno, r.mask, &has_addr, addrs, err, errlen);
    if (rc < 0)
        return rc;

    r.op = (uint8_t)smtlm_opcat_to_op((smtlm_opcat)o->cat, &r.spec);
    smtlm_trace_latency_apply(c->lat, (smtlm_opcat)o->cat, o->flags, &r.latency, &r.ii);
    if (o->flags & SMTLM_OPF_ATOM_AS_LOAD)
        r.op = SMTLM_OP_LOAD; /* atomics are done at L2 as loads */
    r.atomic = (o->flags & SMTLM_OPF_ATOMIC) ? 1 : 0;
    r.mem_space = SMTLM_MEM_NONE;
    r.mem_width = 0;
    if (o->mem != SMTLM_OPMEM_NONE) {
        unsigned width = trace_width_from_opcode(opcode.s, opcode.n);
        if (!has_addr)
            return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, c->file, lineno,
                              "memory instruction with mem_width 0 (no addresses)");
        if (width < 1 || width > 16)
            return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, c->file, lineno,
                              "unsupported memory width %u bytes from the opcode", width);
        r.mem_width = (uint8_t)width;
        r.mem_space = mem_space_of(o, c->hdr, r.mask, addrs);
    }

    slot = trace_tb_push(tb, warp);
    if (slot == NULL)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_NOMEM, c->file, lineno, "out of memory");
    if (r.mem_space != SMTLM_MEM_NONE) {
        int n = 0;
        uint32_t m;
        for (m = r.mask; m != 0; m &= m - 1)
            n++;
        rc = trace_tb_pool_add(tb, addrs, (unsigned)n, &r.addr);
        if (rc < 0) {
            tb->warps[warp].n--;
            return trace_fail(err, errlen, rc, c->file, lineno,
                              rc == SMTLM_TRACE_ERR_NOMEM ? "out of memory"
                                                          : "too many addresses in one TB");
        }
    }
    *slot = r;
    return 0;
}
