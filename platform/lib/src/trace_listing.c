/* A trace line against the listing of the binary it was traced from (smtlm_trace_check_listing):
 * the same instruction at its PC, so that the control bits the silicon core takes from the
 * listing are that instruction's. */
#include <stdio.h>
#include <string.h>

#include "smtlm/sass_listing.h"

#include "trace_internal.h"

/* The opcode token of a line the parser accepted: after the prefix, PC, mask, the destination
 * count and the destinations. */
static trace_tok opcode_of(const trace_ctx *c, const char *line, const trace_rec *r)
{
    const char *p = line;
    trace_tok t = {0};
    unsigned skip = (c->hdr->tracer_version < 3 ? 4u : 0u) + (c->hdr->lineinfo ? 1u : 0u) + 3u + r->n_dst;
    for (unsigned i = 0; i <= skip; i++)
        if (!trace_next_tok(&p, &t))
            break;
    return t;
}

/* "R4 R6 RZ" into buf. */
static void regs_text(char *buf, size_t n, const int16_t *sim, unsigned count, const smtlm_sass_src *src)
{
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < count && used < n; i++) {
        const unsigned reg = sim ? (unsigned)sim[i] - 1u : src[i].reg;
        int w = reg == SMTLM_SASS_RZ ? snprintf(buf + used, n - used, "%sRZ", i ? " " : "")
                                     : snprintf(buf + used, n - used, "%sR%u", i ? " " : "", reg);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    if (count == 0)
        snprintf(buf, n, "none");
}

int trace_listing_check(const trace_ctx *c, const char *line, size_t len, unsigned long lineno, const trace_rec *r,
                        char *err, size_t errlen)
{
    (void)len;
    const smtlm_sass_func *f = c->func;
    const smtlm_sass_inst *in = smtlm_sass_inst_at(f, r->pc);
    if (in == NULL)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, c->file, lineno,
                          "PC 0x%04x is not in function %s of the listing %s (line %u)", r->pc, f->name,
                          c->listing->path, f->line);
    const trace_tok op = opcode_of(c, line, r);
    if (op.n != strlen(in->op) || memcmp(op.s, in->op, op.n) != 0)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, c->file, lineno,
                          "opcode %.*s at PC 0x%04x, but the listing has %s there (%s:%u)", (int)(op.n > 64 ? 64 : op.n),
                          op.s, r->pc, in->op, c->listing->path, in->line);
    int same = r->n_src == in->n_src;
    for (unsigned i = 0; same && i < r->n_src; i++)
        same = (unsigned)r->src[i] == in->src[i].reg + 1u;
    if (!same) {
        char a[96], b[96];
        regs_text(a, sizeof a, r->src, r->n_src, NULL);
        regs_text(b, sizeof b, NULL, in->n_src, in->src);
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, c->file, lineno,
                          "%s at PC 0x%04x reads %s, but the listing's reads %s (%s:%u)", in->op, r->pc, a, b,
                          c->listing->path, in->line);
    }
    return 0;
}
