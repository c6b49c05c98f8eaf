/* Memory part of an instruction line: address mode + compressed per-lane addresses
 * (Accel-Sim inst_trace_t::parse_from_string and inst_memadd_info_t::*_decompress), and the
 * per-lane width Accel-Sim re-derives from the opcode. */
#include "trace_internal.h"

enum { MODE_LIST_ALL = 0, MODE_BASE_STRIDE = 1, MODE_BASE_DELTA = 2 };

static int popcount32(uint32_t m)
{
    int n = 0;
    for (; m != 0; m &= m - 1)
        n++;
    return n;
}

static int need_more(const trace_ctx *c, unsigned long lineno, int got, int need, char *err,
                     size_t errlen)
{
    return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, c->file, lineno,
                      "fewer addresses than active lanes (%d of %d)", got, need);
}

/* Accel-Sim base_stride_decompress: the first active lane gets base, each later lane of the
 * same contiguous run +stride; lanes after the first gap get 0 (the tracer only emits this mode
 * for contiguous masks, so real traces never hit that case). */
static void base_stride(uint64_t base, int64_t stride, uint32_t mask, uint64_t *out)
{
    int found = 0, gap = 0, k = 0, s;
    uint64_t a = base;
    for (s = 0; s < SMTLM_WARP_SIZE; s++) {
        int on = (mask >> s) & 1u;
        if (on && !found) {
            found = 1;
            out[k++] = base;
        } else if (found && !gap) {
            if (on) {
                a += (uint64_t)stride;
                out[k++] = a;
            } else {
                gap = 1;
            }
        } else if (on) {
            out[k++] = 0;
        }
    }
}

int trace_addr_parse(const trace_ctx *c, const char **p, unsigned long lineno, uint32_t mask,
                     uint64_t addrs[SMTLM_WARP_SIZE], char *err, size_t errlen)
{
    int need = popcount32(mask), k;
    uint64_t mode, base;
    trace_tok t;
    char show[48];
    if (!trace_next_tok(p, &t))
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, c->file, lineno,
                          "malformed line: missing address mode");
    if (trace_parse_dec(t, UINT32_MAX, &mode) < 0 || mode > MODE_BASE_DELTA)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, c->file, lineno,
                          "unknown address mode %s", trace_tok_show(t, show, sizeof show));
    if (mode == MODE_LIST_ALL) { /* no active lane: no address */
        for (k = 0; k < need; k++) {
            if (!trace_next_tok(p, &t))
                return need_more(c, lineno, k, need, err, errlen);
            if (trace_parse_hex(t, UINT64_MAX, &addrs[k]) < 0)
                return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, c->file, lineno,
                                  "malformed line: bad hex address %s",
                                  trace_tok_show(t, show, sizeof show));
        }
        return 0;
    }
    /* The compressed modes always carry a base (and a stride), even with no active lane. */
    if (!trace_next_tok(p, &t))
        return need > 0 ? need_more(c, lineno, 0, need, err, errlen)
                        : trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, c->file, lineno,
                                     "malformed line: missing base address");
    if (trace_parse_hex(t, UINT64_MAX, &base) < 0)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, c->file, lineno,
                          "malformed line: bad hex base address %s",
                          trace_tok_show(t, show, sizeof show));
    if (mode == MODE_BASE_STRIDE) {
        int64_t stride;
        if (!trace_next_tok(p, &t))
            return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, c->file, lineno,
                              "malformed line: base_stride without stride");
        if (trace_parse_sdec(t, &stride) < 0)
            return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, c->file, lineno,
                              "malformed line: bad stride %s",
                              trace_tok_show(t, show, sizeof show));
        base_stride(base, stride, mask, addrs);
        return 0;
    }
    /* base_delta: base for the first active lane, then one delta per further active lane,
     * each relative to the previous active lane. */
    if (need == 0)
        return 0;
    addrs[0] = base;
    for (k = 1; k < need; k++) {
        int64_t d;
        if (!trace_next_tok(p, &t))
            return need_more(c, lineno, k, need, err, errlen);
        if (trace_parse_sdec(t, &d) < 0)
            return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, c->file, lineno,
                              "malformed line: bad address delta %s",
                              trace_tok_show(t, show, sizeof show));
        addrs[k] = addrs[k - 1] + (uint64_t)d;
    }
    return 0;
}

/* get_datawidth_from_opcode: the first '.'-token that is all digits gives bits, or one that is
 * 'U' + digits; default 4 bytes. Returns bytes (0 when the bits are < 8; capped at 4096). */
unsigned trace_width_from_opcode(const char *op, size_t len)
{
    size_t i = 0;
    while (i < len) {
        size_t j = i;
        trace_tok t;
        uint64_t bits;
        while (j < len && op[j] != '.')
            j++;
        t.s = op + i;
        t.n = j - i;
        if (t.n > 0) {
            if (t.s[0] == 'U' && t.n > 1) {
                t.s++;
                t.n--;
            }
            if (trace_parse_dec(t, UINT64_MAX, &bits) == 0)
                return bits > 8u * 4096u ? 4096u : (unsigned)(bits / 8);
            /* a token longer than 20 digits overflows: treat like Accel-Sim's stoi failure */
        }
        i = j + 1;
    }
    return 4;
}
