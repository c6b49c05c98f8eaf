/* Decoders for the list-valued option strings ("4,4,...", "2048:32", "1132.0:...:850.0",
 * "2,2", "1,4,4,4,4,BRA"). Numbers in these lists are decimal, as GPGPU-Sim's sscanf("%u")
 * reads them; blanks around an element are allowed. */
#include "smtlm/options.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char *skip_blanks(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* One decimal unsigned element ending at sep or the end of s. */
static int parse_uint_elem(const char **pp, char sep, unsigned *out)
{
    const char *p = skip_blanks(*pp);
    unsigned long long v = 0;
    int digits = 0;
    while (*p >= '0' && *p <= '9') {
        v = v * 10u + (unsigned)(*p - '0');
        if (v > UINT_MAX)
            return SMTLM_OPT_E_RANGE;
        p++;
        digits++;
    }
    p = skip_blanks(p);
    if (!digits || (*p && *p != sep))
        return SMTLM_OPT_E_BAD_VALUE;
    *out = (unsigned)v;
    *pp = p;
    return SMTLM_OPT_OK;
}

int smtlm_parse_uint_list_sep(const char *s, char sep, unsigned *out, int max, int *n)
{
    const char *p = s;
    int count = 0;
    if (!s || !out || !n || max < 0)
        return SMTLM_OPT_E_ARG;
    *n = 0;
    for (;;) {
        unsigned v;
        int rc = parse_uint_elem(&p, sep, &v);
        if (rc)
            return rc;
        if (count >= max)
            return SMTLM_OPT_E_RANGE;
        out[count++] = v;
        if (!*p)
            break;
        p++; /* the separator */
    }
    *n = count;
    return SMTLM_OPT_OK;
}

int smtlm_parse_uint_list(const char *s, unsigned *out, int max, int *n)
{
    return smtlm_parse_uint_list_sep(s, ',', out, max, n);
}

int smtlm_parse_double_list_sep(const char *s, char sep, double *out, int max, int *n)
{
    const char *p = s;
    int count = 0;
    if (!s || !out || !n || max < 0)
        return SMTLM_OPT_E_ARG;
    *n = 0;
    for (;;) {
        char buf[64];
        const char *end = strchr(p, sep);
        size_t len = end ? (size_t)(end - p) : strlen(p);
        smtlm_opt_number num;
        int rc;
        if (len >= sizeof buf)
            return SMTLM_OPT_E_BAD_VALUE;
        memcpy(buf, p, len);
        buf[len] = '\0';
        {
            /* trim blanks, then reuse the reader's strict decimal parser */
            char *b = buf, *e = buf + len;
            while (*b == ' ' || *b == '\t')
                b++;
            while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
                *--e = '\0';
            rc = smtlm_parse_number(SMTLM_OPT_DOUBLE, b, &num);
        }
        if (rc)
            return rc;
        if (count >= max)
            return SMTLM_OPT_E_RANGE;
        out[count++] = num.d;
        if (!end)
            break;
        p = end + 1;
    }
    *n = count;
    return SMTLM_OPT_OK;
}

int smtlm_parse_lat_ii(const char *s, unsigned *latency, unsigned *ii)
{
    unsigned v[2];
    int n, rc;
    if (!latency || !ii)
        return SMTLM_OPT_E_ARG;
    rc = smtlm_parse_uint_list(s, v, 2, &n);
    if (rc == SMTLM_OPT_E_RANGE || (rc == SMTLM_OPT_OK && n != 2))
        return SMTLM_OPT_E_BAD_VALUE;
    if (rc)
        return rc;
    *latency = v[0];
    *ii = v[1];
    return SMTLM_OPT_OK;
}

int smtlm_parse_specialized_unit(const char *s, smtlm_spec_unit_cfg *out)
{
    unsigned v[5];
    const char *p = s, *name;
    size_t len;
    int i;
    if (!s || !out)
        return SMTLM_OPT_E_ARG;
    for (i = 0; i < 5; i++) {
        int rc = parse_uint_elem(&p, ',', &v[i]);
        if (rc)
            return rc;
        if (*p != ',')
            return SMTLM_OPT_E_BAD_VALUE; /* fewer than six fields */
        p++;
    }
    name = skip_blanks(p);
    len = strlen(name);
    while (len > 0 && (name[len - 1] == ' ' || name[len - 1] == '\t'))
        len--;
    if (len == 0 || len >= SMTLM_SPEC_UNIT_NAME_MAX || v[0] > 1)
        return SMTLM_OPT_E_BAD_VALUE;
    for (i = 0; i < (int)len; i++)
        if (name[i] == ' ' || name[i] == '\t' || name[i] == ',')
            return SMTLM_OPT_E_BAD_VALUE;
    out->enabled = v[0];
    out->num_units = v[1];
    out->max_latency = v[2];
    out->id_oc_width = v[3];
    out->oc_ex_width = v[4];
    memcpy(out->name, name, len);
    out->name[len] = '\0';
    return SMTLM_OPT_OK;
}
