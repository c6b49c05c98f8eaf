/* The synthetic generator's op-mix string: "sp=60,int=30,sfu=5,ldst=5". */
#include <stdio.h>
#include <string.h>

#include "smtlm/synth.h"

static const char *const class_name[SMTLM_SYNTH_CLASSES] = {"sp", "int", "sfu", "dp", "ldst", "ldg"};

static int is_blank(char c) { return c == ' ' || c == '\t'; }

static int fail(char *err, size_t errlen, const char *fmt, const char *a, const char *b)
{
    if (err && errlen)
        snprintf(err, errlen, fmt, a, b);
    return SMTLM_EINVAL;
}

/* Copies [b, e) without surrounding blanks into out (truncated to outlen - 1). */
static void trimmed(const char *b, const char *e, char *out, size_t outlen)
{
    while (b < e && is_blank(*b))
        b++;
    while (e > b && is_blank(e[-1]))
        e--;
    size_t n = (size_t)(e - b);
    if (n >= outlen)
        n = outlen - 1;
    memcpy(out, b, n);
    out[n] = '\0';
}

static int class_of(const char *key)
{
    for (int c = 0; c < SMTLM_SYNTH_CLASSES; c++)
        if (strcmp(key, class_name[c]) == 0)
            return c;
    return -1;
}

/* Decimal 0..100, digits only. -1 otherwise. */
static int percent_of(const char *v)
{
    if (!*v)
        return -1;
    int n = 0;
    for (; *v; v++) {
        if (*v < '0' || *v > '9')
            return -1;
        n = n * 10 + (*v - '0');
        if (n > 100)
            return -1;
    }
    return n;
}

int smtlm_synth_parse_mix(const char *s, smtlm_synth_mix *out, char *err, size_t errlen)
{
    static const char usage[] = " (expected e.g. \"sp=60,int=30,sfu=5,ldst=5\"; classes sp int sfu dp ldst ldg)";
    if (!s || !out)
        return fail(err, errlen, "op mix: no string given%s%s", usage, "");
    const char *q = s;
    while (is_blank(*q))
        q++;
    if (!*q)
        return fail(err, errlen, "op mix is empty%s%s", usage, "");
    smtlm_synth_mix m;
    memset(&m, 0, sizeof m);
    unsigned seen = 0, sum = 0;
    const char *p = s;
    for (;;) {
        const char *end = strchr(p, ',');
        if (!end)
            end = p + strlen(p);
        char item[64], key[64], val[64];
        if ((size_t)(end - p) >= sizeof item)
            return fail(err, errlen, "op mix: entry starting \"%.16s\" is too long%s", p, "");
        trimmed(p, end, item, sizeof item);
        if (!item[0])
            return fail(err, errlen, "op mix \"%s\": empty entry%s", s, usage);
        const char *eq = strchr(item, '=');
        if (!eq)
            return fail(err, errlen, "op mix: entry \"%s\" needs '=<percent>'%s", item, usage);
        trimmed(item, eq, key, sizeof key);
        trimmed(eq + 1, item + strlen(item), val, sizeof val);
        int c = class_of(key);
        if (c < 0)
            return fail(err, errlen, "op mix: unknown class \"%s\"%s", key, usage);
        if (seen & (1u << c))
            return fail(err, errlen, "op mix: class \"%s\" given twice%s", key, "");
        int v = percent_of(val);
        if (v < 0)
            return fail(err, errlen, "op mix: bad percent \"%s\" for \"%s\" (expected an integer 0..100)", val, key);
        seen |= 1u << c;
        m.pct[c] = (uint8_t)v;
        sum += (unsigned)v;
        if (!*end)
            break;
        p = end + 1;
    }
    if (sum != 100) {
        char n[16];
        snprintf(n, sizeof n, "%u", sum);
        return fail(err, errlen, "op mix \"%s\": percentages sum to %s, must be 100", s, n);
    }
    *out = m;
    return SMTLM_OK;
}

void smtlm_synth_mix_str(const smtlm_synth_mix *mix, char *buf, size_t len)
{
    if (!len)
        return;
    buf[0] = '\0';
    size_t at = 0;
    for (int c = 0; c < SMTLM_SYNTH_CLASSES; c++) {
        if (!mix->pct[c])
            continue;
        int n = snprintf(buf + at, len - at, "%s%s=%u", at ? "," : "", class_name[c], (unsigned)mix->pct[c]);
        if (n < 0 || (size_t)n >= len - at)
            return;
        at += (size_t)n;
    }
}
