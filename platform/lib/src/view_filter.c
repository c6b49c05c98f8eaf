/* -smtlm_log_cycles, -smtlm_log_sms, -smtlm_log_warps. */
#include "smtlm/view_filter.h"

#include <stdio.h>
#include <string.h>

#include "option_errors.h"

void smtlm_view_filter_all(smtlm_view_filter *f)
{
    f->first = 0;
    f->last = UINT64_MAX;
    memset(f->sms, 0xff, sizeof f->sms);
    f->warps = ~0ull;
}

/* A decimal number at *p (no sign, no overflow); advances *p. -1 when there is none. */
static int number(const char **p, uint64_t *out)
{
    const char *s = *p;
    uint64_t v = 0;
    if (*s < '0' || *s > '9')
        return -1;
    for (; *s >= '0' && *s <= '9'; s++) {
        const unsigned d = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *p = s;
    *out = v;
    return 0;
}

int smtlm_view_parse_cycles(const char *s, uint64_t *first, uint64_t *last)
{
    uint64_t a = 0, b = UINT64_MAX;
    const char *p = s;
    if (!*p) {
        *first = a;
        *last = b;
        return 0;
    }
    if (*p != ':' && number(&p, &a))
        return -1;
    if (*p++ != ':')
        return -1;
    if (*p && number(&p, &b))
        return -1;
    if (*p || a > b || (p == s + 1)) /* ":" alone says nothing */
        return -1;
    *first = a;
    *last = b;
    return 0;
}

int smtlm_view_parse_list(const char *s, unsigned limit, uint64_t *bits)
{
    const unsigned words = (limit + 63) / 64;
    memset(bits, 0, words * sizeof *bits);
    if (!*s) {
        for (unsigned i = 0; i < limit; i++)
            bits[i / 64] |= 1ull << (i % 64);
        return 0;
    }
    const char *p = s;
    for (;;) {
        uint64_t a, b;
        if (number(&p, &a))
            return -1;
        b = a;
        if (*p == '-') {
            p++;
            if (number(&p, &b))
                return -1;
        }
        if (a > b || b >= limit)
            return -1;
        for (uint64_t i = a; i <= b; i++)
            bits[i / 64] |= 1ull << (i % 64);
        if (!*p)
            return 0;
        if (*p++ != ',')
            return -1;
    }
}

/* The three values into f; 0, or which option is wrong (1 cycles, 2 SMs, 3 warps) with the
 * reason, without the option's name, in msg. */
static int parse_which(smtlm_view_filter *f, const char *cycles, const char *sms, const char *warps, unsigned n_sm,
                       unsigned n_warps, char *msg, size_t n)
{
    smtlm_view_filter_all(f);
    memset(f->sms, 0, sizeof f->sms);
    if (smtlm_view_parse_cycles(cycles, &f->first, &f->last)) {
        snprintf(msg, n, "'%s' is not a cycle window A:B (A <= B; A: or :B leave one end open)", cycles);
        return 1;
    }
    if (smtlm_view_parse_list(sms, n_sm, f->sms)) {
        snprintf(msg, n, "'%s' is not a list of SM numbers from 0 to %u (e.g. 0,2-3)", sms, n_sm - 1);
        return 2;
    }
    if (smtlm_view_parse_list(warps, n_warps, &f->warps)) {
        snprintf(msg, n, "'%s' is not a list of warp numbers from 0 to %u (e.g. 0,2-3)", warps, n_warps - 1);
        return 3;
    }
    return 0;
}

static const char *const option_name[] = {"", "smtlm_log_cycles", "smtlm_log_sms", "smtlm_log_warps"};

int smtlm_view_filter_parse(smtlm_view_filter *f, const char *cycles, const char *sms, const char *warps, unsigned n_sm,
                            unsigned n_warps, char *msg, size_t n)
{
    char why[384];
    const int bad = parse_which(f, cycles, sms, warps, n_sm, n_warps, why, sizeof why);
    if (bad)
        snprintf(msg, n, "-%s: %s", option_name[bad], why);
    return bad ? -1 : 0;
}

static const char *value_of(const smtlm_options *o, int which)
{
    const char *s = "";
    smtlm_options_get_str(o, option_name[which], &s);
    return s ? s : "";
}

int smtlm_view_filter_read(smtlm_view_filter *f, const smtlm_options *o, unsigned n_sm, unsigned n_warps, char *msg,
                           size_t n)
{
    char why[384];
    const int bad = parse_which(f, value_of(o, 1), value_of(o, 2), value_of(o, 3), n_sm, n_warps, why, sizeof why);
    return bad ? smtlm_opt_fail(o, option_name[bad], msg, n, "%s", why) : 0;
}
