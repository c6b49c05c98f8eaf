/* Memory part of an instruction line: address mode + compressed per-lane addresses
 * (Accel-Sim inst_trace_t::parse_from_string and inst_memadd_info_t::*_decompress), and the
 * per-lane width Accel-Sim re-derives from the opcode. */
#include <string.h>

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

/* One token of a TMA list as an unsigned number (hex or decimal) at most max, or an error naming it. */
static int tma_field(const trace_ctx *c, const char **p, unsigned long lineno, int hex, uint64_t max,
                     const char *what, uint64_t *v, char *err, size_t errlen)
{
    trace_tok t;
    char show[48];
    if (!trace_next_tok(p, &t))
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, c->file, lineno,
                          "malformed TMA transfer list: missing %s", what);
    if ((hex ? trace_parse_hex(t, max, v) : trace_parse_dec(t, max, v)) < 0)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, c->file, lineno,
                          "malformed TMA transfer list: bad %s %s", what, trace_tok_show(t, show, sizeof show));
    return 0;
}

int trace_tma_parse(const trace_ctx *c, const char **p, unsigned long lineno, trace_tma *out,
                    uint64_t *addrs, size_t max, char *err, size_t errlen)
{
    uint64_t v, a = 0, k;
    int rc;
    memset(out, 0, sizeof *out);
    if ((rc = tma_field(c, p, lineno, 1, UINT32_MAX, "mbarrier address", &v, err, errlen)) < 0)
        return rc;
    out->mbarrier = (uint32_t)v;
    if ((rc = tma_field(c, p, lineno, 0, 1, "multicast flag (0 or 1)", &v, err, errlen)) < 0)
        return rc;
    out->multicast = (uint8_t)v;
    if (out->multicast) {
        if ((rc = tma_field(c, p, lineno, 1, UINT16_MAX, "multicast CTA mask", &v, err, errlen)) < 0)
            return rc;
        out->cta_mask = (uint16_t)v;
    }
    if ((rc = tma_field(c, p, lineno, 0, UINT64_MAX, "byte count", &out->bytes, err, errlen)) < 0 ||
        (rc = tma_field(c, p, lineno, 0, UINT64_MAX, "out-of-bounds byte count", &out->oob_bytes, err, errlen)) < 0 ||
        (rc = tma_field(c, p, lineno, 0, UINT32_MAX, "address mode", &v, err, errlen)) < 0)
        return rc;
    if (v != TRACE_TMA_LIST_ALL && v != TRACE_TMA_BASE_DELTA)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, c->file, lineno,
                          "malformed TMA transfer list: unknown address mode %llu (3: list all, 4: base and deltas)",
                          (unsigned long long)v);
    out->mode = (uint8_t)v;
    if (out->mode == TRACE_TMA_BASE_DELTA &&
        (rc = tma_field(c, p, lineno, 1, UINT64_MAX, "base address", &a, err, errlen)) < 0)
        return rc;
    /* Accel-Sim reads the count as an int32; a line (1 MiB at most) could not list more. */
    if ((rc = tma_field(c, p, lineno, 0, INT32_MAX, "transfer count", &out->count, err, errlen)) < 0)
        return rc;
    for (k = 0; k < out->count; k++) {
        if (out->mode == TRACE_TMA_LIST_ALL || k > 0) {
            trace_tok t;
            char show[48];
            int64_t d;
            if (!trace_next_tok(p, &t))
                return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, c->file, lineno,
                                  "malformed TMA transfer list: %llu of %llu %s", (unsigned long long)k,
                                  (unsigned long long)out->count,
                                  out->mode == TRACE_TMA_LIST_ALL ? "addresses" : "transfers (base and deltas)");
            if (out->mode == TRACE_TMA_LIST_ALL ? trace_parse_hex(t, UINT64_MAX, &a) < 0 : trace_parse_sdec(t, &d) < 0)
                return trace_fail(err, errlen, SMTLM_TRACE_ERR_FORMAT, c->file, lineno,
                                  "malformed TMA transfer list: bad %s %s",
                                  out->mode == TRACE_TMA_LIST_ALL ? "hex address" : "address delta",
                                  trace_tok_show(t, show, sizeof show));
            if (out->mode == TRACE_TMA_BASE_DELTA)
                a += (uint64_t)d;
        }
        if (addrs != NULL && k < max)
            addrs[k] = a;
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
