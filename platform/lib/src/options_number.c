/* Number parsing with GPGPU-Sim's OptionRegistry::fromString rules (a C++ stream with the
 * base picked from the prefix: "0x.." hex, other "0.." octal, else decimal), made strict:
 * the whole token must be consumed and the value must fit the option's type. */
#include "smtlm/options.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int digit_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return 99;
}

/* Magnitude of an integer token and its sign. GPGPU-Sim chooses the base from the first
 * characters of the raw token (before any sign), so "-010" is decimal -10: kept as is. */
static int parse_magnitude(const char *s, uint64_t *mag, int *negative)
{
    size_t len = strlen(s);
    unsigned base = 10;
    uint64_t v = 0;
    int digits = 0;

    if (len > 1 && s[0] == '0') {
        if (len > 2 && s[1] == 'x') {
            base = 16;
            s += 2;
        } else {
            base = 8;
            s += 1;
        }
    }
    *negative = 0;
    if (*s == '+' || *s == '-') {
        *negative = (*s == '-');
        s++;
    }
    for (; *s; s++) {
        int d = digit_value(*s);
        if (d >= (int)base)
            return SMTLM_OPT_E_BAD_VALUE;
        if (v > (UINT64_MAX - (uint64_t)d) / base)
            return SMTLM_OPT_E_RANGE;
        v = v * base + (uint64_t)d;
        digits++;
    }
    if (!digits)
        return SMTLM_OPT_E_BAD_VALUE;
    *mag = v;
    return SMTLM_OPT_OK;
}

static int parse_signed(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    uint64_t mag;
    int neg, rc = parse_magnitude(s, &mag, &neg);
    if (rc != SMTLM_OPT_OK)
        return rc;
    if (neg) {
        /* -lo as an unsigned magnitude without overflowing int64 */
        uint64_t lim = (uint64_t)(-(lo + 1)) + 1u;
        if (mag > lim)
            return SMTLM_OPT_E_RANGE;
        *out = (mag == lim) ? lo : -(int64_t)mag;
    } else {
        if (mag > (uint64_t)hi)
            return SMTLM_OPT_E_RANGE;
        *out = (int64_t)mag;
    }
    return SMTLM_OPT_OK;
}

static int parse_unsigned(const char *s, uint64_t hi, uint64_t *out)
{
    uint64_t mag;
    int neg, rc = parse_magnitude(s, &mag, &neg);
    if (rc != SMTLM_OPT_OK)
        return rc;
    if (neg)
        return SMTLM_OPT_E_BAD_VALUE; /* a stream would wrap it; nobody means that */
    if (mag > hi)
        return SMTLM_OPT_E_RANGE;
    *out = mag;
    return SMTLM_OPT_OK;
}

/* Decimal floating point only ("1132.0", "1e3", "-0.5"); no hex floats, inf or nan. */
static int parse_double(const char *s, double *out)
{
    const char *p;
    char *end;
    int digits = 0;
    double v;
    for (p = s; *p; p++) {
        if (*p >= '0' && *p <= '9')
            digits++;
        else if (!strchr("+-.eE", *p))
            return SMTLM_OPT_E_BAD_VALUE;
    }
    if (!digits)
        return SMTLM_OPT_E_BAD_VALUE;
    errno = 0;
    v = strtod(s, &end);
    if (end == s || *end != '\0')
        return SMTLM_OPT_E_BAD_VALUE;
    if (errno == ERANGE && (v > 1.0 || v < -1.0))
        return SMTLM_OPT_E_RANGE;
    if (!isfinite(v))
        return SMTLM_OPT_E_RANGE;
    *out = v;
    return SMTLM_OPT_OK;
}

int smtlm_parse_number(smtlm_opt_type type, const char *text, smtlm_opt_number *out)
{
    smtlm_opt_number n;
    int rc;
    if (!text || !out)
        return SMTLM_OPT_E_ARG;
    n.u = 0;
    switch (type) {
    case SMTLM_OPT_BOOL:
        rc = parse_signed(text, INT64_MIN, INT64_MAX, &n.i);
        if (rc == SMTLM_OPT_OK && n.i != 0 && n.i != 1)
            rc = SMTLM_OPT_E_BAD_VALUE;
        if (rc == SMTLM_OPT_E_RANGE)
            rc = SMTLM_OPT_E_BAD_VALUE;
        break;
    case SMTLM_OPT_INT32:
        rc = parse_signed(text, INT32_MIN, INT32_MAX, &n.i);
        break;
    case SMTLM_OPT_INT64:
        rc = parse_signed(text, INT64_MIN, INT64_MAX, &n.i);
        break;
    case SMTLM_OPT_UINT32:
        rc = parse_unsigned(text, UINT32_MAX, &n.u);
        break;
    case SMTLM_OPT_UINT64:
        rc = parse_unsigned(text, UINT64_MAX, &n.u);
        break;
    case SMTLM_OPT_DOUBLE:
        rc = parse_double(text, &n.d);
        break;
    default:
        return SMTLM_OPT_E_TYPE;
    }
    if (rc == SMTLM_OPT_OK)
        *out = n;
    return rc;
}
