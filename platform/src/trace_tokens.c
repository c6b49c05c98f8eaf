/* Whitespace tokens and strict number parsing for trace lines (no locale, no strtol quirks:
 * every byte of a token must belong to the number). */
#include <string.h>

#include "trace_internal.h"

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '\n';
}

int trace_next_tok(const char **p, trace_tok *t)
{
    const char *s = *p;
    while (*s != '\0' && is_space(*s))
        s++;
    if (*s == '\0') {
        *p = s;
        return 0;
    }
    t->s = s;
    while (*s != '\0' && !is_space(*s))
        s++;
    t->n = (size_t)(s - t->s);
    *p = s;
    return 1;
}

int trace_tok_is(trace_tok t, const char *word)
{
    size_t n = strlen(word);
    return t.n == n && memcmp(t.s, word, n) == 0;
}

int trace_parse_dec(trace_tok t, uint64_t max, uint64_t *v)
{
    uint64_t x = 0;
    size_t i;
    if (t.n == 0)
        return -1;
    for (i = 0; i < t.n; i++) {
        unsigned d;
        if (t.s[i] < '0' || t.s[i] > '9')
            return -1;
        d = (unsigned)(t.s[i] - '0');
        if (d > max || x > (max - d) / 10)
            return -1; /* beyond max */
        x = x * 10 + d;
    }
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

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int trace_parse_hex(trace_tok t, uint64_t max, uint64_t *v)
{
    uint64_t x = 0;
    size_t i = 0;
    if (t.n >= 2 && t.s[0] == '0' && (t.s[1] == 'x' || t.s[1] == 'X'))
        i = 2;
    if (i == t.n)
        return -1;
    for (; i < t.n; i++) {
        int d = hex_digit(t.s[i]);
        if (d < 0 || x > (max >> 4))
            return -1;
        x = (x << 4) | (uint64_t)d;
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
