/* Whitespace tokens and strict number parsing for trace lines (no locale, no strtol quirks:
 * every byte of a token must belong to the number). */
#include <string.h>

#include "trace_internal.h"

/* Byte classes: one table look-up per byte instead of six comparisons. */
const unsigned char trace_byte_class[256] = {
    ['\0'] = TRACE_C_END, [' '] = TRACE_C_SPACE, ['\t'] = TRACE_C_SPACE, ['\r'] = TRACE_C_SPACE,
    ['\v'] = TRACE_C_SPACE, ['\f'] = TRACE_C_SPACE, ['\n'] = TRACE_C_SPACE,
};

int trace_next_tok(const char **p, trace_tok *t)
{
    const unsigned char *s = (const unsigned char *)*p;
    while (trace_byte_class[*s] == TRACE_C_SPACE)
        s++;
    if (trace_byte_class[*s] == TRACE_C_END) {
        *p = (const char *)s;
        return 0;
    }
    t->s = (const char *)s;
    while (trace_byte_class[*s] == TRACE_C_TOKEN)
        s++;
    t->n = (size_t)((const char *)s - t->s);
    *p = (const char *)s;
    return 1;
}

int trace_tok_is(trace_tok t, const char *word)
{
    size_t n = strlen(word);
    return t.n == n && memcmp(t.s, word, n) == 0;
}

int trace_parse_dec(trace_tok t, uint64_t max, uint64_t *v)
{
    const uint64_t lim = max / 10, last = max % 10; /* x * 10 + d <= max */
    uint64_t x = 0;
    int above = 0;
    size_t i;
    if (t.n == 0)
        return -1;
    for (i = 0; i < t.n; i++) {
        const unsigned d = (unsigned)(unsigned char)t.s[i] - '0';
        if (d > 9)
            return -1;
        if (x > lim || (x == lim && d > last))
            above = 1; /* beyond max: the rest must still be digits */
        else
            x = x * 10 + d;
    }
    if (above)
        return -2;
    *v = x;
    return 0;
}

int trace_parse_sdec(trace_tok t, int64_t *v)
{
    uint64_t m;
    int neg = 0;
    if (t.n > 0 && (t.s[0] == '-' || t.s[0] == '+')) {
        neg = t.s[0] == '-';
        t.s++;
        t.n--;
    }
    if (trace_parse_dec(t, neg ? (uint64_t)INT64_MAX + 1u : (uint64_t)INT64_MAX, &m) < 0)
        return -1;
    if (neg)
        *v = m == (uint64_t)INT64_MAX + 1u ? INT64_MIN : -(int64_t)m;
    else
        *v = (int64_t)m;
    return 0;
}

const unsigned char trace_hex_plus1[256] = {
    ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
    ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
    ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

int trace_parse_hex(trace_tok t, uint64_t max, uint64_t *v)
{
    uint64_t x = 0;
    size_t i = 0;
    if (t.n >= 2 && t.s[0] == '0' && (t.s[1] == 'x' || t.s[1] == 'X'))
        i = 2;
    if (i == t.n)
        return -1;
    for (; i < t.n; i++) {
        const unsigned d = trace_hex_plus1[(unsigned char)t.s[i]] - 1u; /* UINT_MAX for a non-digit */
        if (d > 15 || x > (max >> 4))
            return -1;
        x = (x << 4) | d;
        if (x > max)
            return -1;
    }
    *v = x;
    return 0;
}

int trace_parse_reg(trace_tok t, int16_t *sim_reg)
{
    uint64_t n;
    trace_tok num;
    if (t.n < 2 || t.s[0] != 'R')
        return -1;
    num.s = t.s + 1;
    num.n = t.n - 1;
    if (trace_parse_dec(num, 255, &n) < 0)
        return -1;
    /* GPGPU-Sim numbers registers from 1; RZ (R255) thereby becomes 256. */
    *sim_reg = (int16_t)(n + 1);
    return 0;
}

const char *trace_tok_show(trace_tok t, char *buf, size_t len)
{
    size_t n = t.n;
    if (len < 8) {
        if (len > 0)
            buf[0] = '\0';
        return buf;
    }
    if (n > len - 5)
        n = len - 5; /* room for quotes, "..." is not needed: cut is visible enough */
    buf[0] = '\'';
    memcpy(buf + 1, t.s, n);
    buf[n + 1] = '\'';
    buf[n + 2] = '\0';
    return buf;
}
