/* The options object: one value per table row, with its origin; typed validation on
 * assignment and typed getters. */
#include "options_internal.h"
#include "smtlm/builtin_config.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void smtlm_opt_errf(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    if (!err || errlen == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

/* qsort over pointers into the table: the comparator reaches the names without a global. */
static int cmp_def_name(const void *a, const void *b)
{
    const smtlm_option_def *const *x = a, *const *y = b;
    return strcmp((*x)->name, (*y)->name);
}

long smtlm_opt_find(const smtlm_options *opts, const char *name)
{
    size_t lo = 0, hi;
    if (!opts || !name)
        return -1;
    hi = opts->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(opts->by_name[mid]->name, name);
        if (c == 0)
            return (long)(opts->by_name[mid] - opts->defs);
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

const char *smtlm_opt_intern(smtlm_options *opts, const char *name)
{
    size_t i;
    char *copy;
    for (i = 0; i < opts->n_names; i++)
        if (strcmp(opts->names[i], name) == 0)
            return opts->names[i];
    if (opts->n_names == opts->cap_names) {
        size_t cap = opts->cap_names ? opts->cap_names * 2 : 8;
        char **grown = realloc(opts->names, cap * sizeof *grown);
        if (!grown)
            return NULL;
        opts->names = grown;
        opts->cap_names = cap;
    }
    copy = dup_str(name);
    if (!copy)
        return NULL;
    opts->names[opts->n_names++] = copy;
    return copy;
}

int smtlm_opt_note_file(smtlm_options *opts, const char *name)
{
    for (size_t i = 0; i < opts->n_files; i++)
        if (opts->files[i] == name)
            return 0;
    if (opts->n_files == opts->cap_files) {
        const size_t cap = opts->cap_files ? opts->cap_files * 2 : 8;
        const char **grown = realloc(opts->files, cap * sizeof *grown);
        if (!grown)
            return -1;
        opts->files = grown;
        opts->cap_files = cap;
    }
    opts->files[opts->n_files++] = name;
    return 0;
}

const char *const *smtlm_options_files(const smtlm_options *opts, size_t *n)
{
    *n = opts->n_files;
    return opts->files;
}

/* Origins that are not files: the command line and program code. */
static int is_file_origin(const char *file)
{
    return strncmp(file, "<command line>", 14) != 0 && strncmp(file, "<api>", 5) != 0;
}

/* Every option still at its default goes back to GPGPU-Sim's default (the table's). */
static void gpgpusim_base(smtlm_options *opts)
{
    for (size_t i = 0; i < opts->n; i++) {
        smtlm_opt_value *v = &opts->vals[i];
        const smtlm_option_def *d = &opts->defs[i];
        if (v->file || !strcmp(v->text, d->def))
            continue;
        char *copy = dup_str(d->def);
        if (!copy) /* keep the current default: never worse than failing the parse */
            continue;
        free(v->text);
        v->text = copy;
        if (d->type != SMTLM_OPT_STRING)
            smtlm_parse_number(d->type, d->def, &v->num);
    }
}

/* Defaults: the built-in QV100 machine (a compiled-in copy of configs/qv100.config) over
 * GPGPU-Sim's defaults, so options alone always form a valid machine. */
static int load_machine_defaults(smtlm_options *o)
{
    char err[256];
    if (smtlm_options_parse_text(o, smtlm_builtin_config_text(), smtlm_builtin_config_len(), "<built-in>", err,
                                 sizeof err) != SMTLM_OPT_OK)
        return -1;
    for (size_t i = 0; i < o->n; i++) {
        o->vals[i].file = NULL; /* these are defaults, not settings */
        o->vals[i].line = 0;
        o->vals[i].seq = 0;
    }
    o->next_seq = 0;
    return 0;
}

/* An object at the defaults, made from the table and the built-in machine. */
static smtlm_options *make_defaults(void)
{
    size_t i;
    smtlm_options *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->defs = smtlm_option_table(&o->n);
    o->include_allowed = 1;
    o->vals = calloc(o->n, sizeof *o->vals);
    o->by_name = calloc(o->n, sizeof *o->by_name);
    if (!o->vals || !o->by_name)
        goto fail;
    for (i = 0; i < o->n; i++) {
        const smtlm_option_def *d = &o->defs[i];
        o->by_name[i] = d;
        o->vals[i].text = dup_str(d->def);
        if (!o->vals[i].text)
            goto fail;
        /* a default that does not parse is a table bug: refuse to build the object */
        if (d->type != SMTLM_OPT_STRING && smtlm_parse_number(d->type, d->def, &o->vals[i].num))
            goto fail;
    }
    qsort(o->by_name, o->n, sizeof *o->by_name, cmp_def_name);
    for (i = 1; i < o->n; i++) /* duplicate names would make lookups ambiguous */
        if (strcmp(o->by_name[i - 1]->name, o->by_name[i]->name) == 0)
            goto fail;
    if (load_machine_defaults(o))
        goto fail;
    return o;
fail:
    smtlm_options_free(o);
    return NULL;
}

/* The defaults are the same for every object: made once per process (parsing the built-in
 * machine and sorting the names is most of the work), and copied into each new object. Kept
 * for the process's life; a failure to make them (out of memory) is retried next time. */
static smtlm_options *defaults;
static pthread_mutex_t defaults_lock = PTHREAD_MUTEX_INITIALIZER;

static const smtlm_options *the_defaults(void)
{
    pthread_mutex_lock(&defaults_lock);
    if (!defaults)
        defaults = make_defaults();
    const smtlm_options *d = defaults;
    pthread_mutex_unlock(&defaults_lock);
    return d;
}

smtlm_options *smtlm_options_new(void)
{
    const smtlm_options *d = the_defaults();
    if (!d)
        return NULL;
    smtlm_options *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->defs = d->defs;
    o->n = d->n;
    o->include_allowed = 1;
    o->vals = calloc(o->n, sizeof *o->vals);
    o->by_name = malloc(o->n * sizeof *o->by_name);
    if (!o->vals || !o->by_name)
        goto fail;
    memcpy(o->by_name, d->by_name, o->n * sizeof *o->by_name);
    for (size_t i = 0; i < o->n; i++) { /* no origin: every value is a default */
        o->vals[i] = d->vals[i];
        if (!(o->vals[i].text = dup_str(d->vals[i].text)))
            goto fail;
    }
    return o;
fail:
    smtlm_options_free(o);
    return NULL;
}

void smtlm_options_free(smtlm_options *opts)
{
    size_t i;
    if (!opts)
        return;
    if (opts->vals)
        for (i = 0; i < opts->n; i++)
            free(opts->vals[i].text);
    for (i = 0; i < opts->n_names; i++)
        free(opts->names[i]);
    free(opts->names);
    free(opts->files);
    free(opts->vals);
    free(opts->by_name);
    free(opts);
}

void smtlm_options_set_include_allowed(smtlm_options *opts, int allowed)
{
    if (opts)
        opts->include_allowed = allowed ? 1 : 0;
}

/* Value text for messages: truncated, non-printable bytes shown as '?'. */
static void shown(const char *v, char *buf, size_t n)
{
    size_t i, len = strlen(v), keep = len > SMTLM_OPT_SHOWN ? SMTLM_OPT_SHOWN : len;
    if (keep + 4 > n)
        keep = n > 4 ? n - 4 : 0;
    for (i = 0; i < keep; i++) {
        unsigned char c = (unsigned char)v[i];
        buf[i] = (c < 0x20 || c >= 0x7f) ? '?' : (char)c;
    }
    if (keep < len && keep + 4 <= n) {
        memcpy(buf + keep, "...", 3);
        keep += 3;
    }
    buf[keep] = '\0';
}

static const char *expects(smtlm_opt_type t)
{
    switch (t) {
    case SMTLM_OPT_BOOL: return "0 or 1";
    case SMTLM_OPT_INT32:
    case SMTLM_OPT_INT64: return "an integer";
    case SMTLM_OPT_UINT32:
    case SMTLM_OPT_UINT64: return "an unsigned integer";
    case SMTLM_OPT_DOUBLE: return "a number";
    default: return "a string";
    }
}

static const char *range_text(smtlm_opt_type t)
{
    switch (t) {
    case SMTLM_OPT_INT32: return "-2147483648..2147483647";
    case SMTLM_OPT_UINT32: return "0..4294967295";
    case SMTLM_OPT_INT64: return "-9223372036854775808..9223372036854775807";
    case SMTLM_OPT_UINT64: return "0..18446744073709551615";
    default: return "finite double";
    }
}

/* 1 when value is one of the '|'-separated choices. */
static int in_choices(const char *choices, const char *value)
{
    size_t vlen = strlen(value);
    const char *p = choices;
    while (*p) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == vlen && strncmp(p, value, len) == 0)
            return 1;
        if (!bar)
            break;
        p = bar + 1;
    }
    return 0;
}

/* Validates and stores; from_file: the value is a machine config file's (the Accel-Sim rule below). */
static int assign(smtlm_options *opts, size_t idx, const char *value, const char *file, int line, int from_file,
                  char *err, size_t errlen)
{
    const smtlm_option_def *d = &opts->defs[idx];
    smtlm_opt_value *v = &opts->vals[idx];
    smtlm_opt_number num;
    char show[SMTLM_OPT_SHOWN + 8];
    char *copy;
    int rc;

    num.u = 0;
    if (d->type == SMTLM_OPT_STRING) {
        if (d->choices && !in_choices(d->choices, value)) {
            shown(value, show, sizeof show);
            smtlm_opt_errf(err, errlen, "%s:%d: bad value '%s' for -%s (expects one of %s)", file,
                           line, show, d->name, d->choices);
            return SMTLM_OPT_E_BAD_VALUE;
        }
    } else {
        rc = smtlm_parse_number(d->type, value, &num);
        if (rc == SMTLM_OPT_E_RANGE) {
            shown(value, show, sizeof show);
            smtlm_opt_errf(err, errlen, "%s:%d: value '%s' out of range for -%s (%s)", file, line,
                           show, d->name, range_text(d->type));
            return rc;
        }
        if (rc != SMTLM_OPT_OK) {
            shown(value, show, sizeof show);
            smtlm_opt_errf(err, errlen, "%s:%d: bad value '%s' for -%s (expects %s)", file, line,
                           show, d->name, expects(d->type));
            return SMTLM_OPT_E_BAD_VALUE;
        }
    }
    copy = dup_str(value);
    if (!copy) {
        smtlm_opt_errf(err, errlen, "%s:%d: out of memory", file, line);
        return SMTLM_OPT_E_NOMEM;
    }
    free(v->text);
    v->text = copy;
    v->num = num;
    v->file = file;
    v->line = line;
    v->seq = ++opts->next_seq;
    /* Accel-Sim's machine configs all declare their architecture with this option and are
     * written against GPGPU-Sim's defaults, not ours: options they leave unset fall back to
     * GPGPU-Sim's value, so such a file means exactly what it means in Accel-Sim. */
    if (!strcmp(d->name, "gpgpu_ptx_force_max_capability") && from_file)
        gpgpusim_base(opts);
    return SMTLM_OPT_OK;
}

int smtlm_opt_assign(smtlm_options *opts, size_t idx, const char *value, const char *file,
                     int line, char *err, size_t errlen)
{
    return assign(opts, idx, value, file, line, is_file_origin(file), err, errlen);
}

int smtlm_options_set_at(smtlm_options *opts, const char *name, const char *value, const char *where, int line,
                         char *err, size_t errlen)
{
    long idx;
    const char *origin;
    if (!opts || !name || !value || !where) {
        smtlm_opt_errf(err, errlen, "smtlm_options_set: NULL argument");
        return SMTLM_OPT_E_ARG;
    }
    if (name[0] == '-')
        name++;
    idx = smtlm_opt_find(opts, name);
    if (idx < 0) {
        const char *near = smtlm_opt_nearest(opts, name);
        char show[SMTLM_OPT_SHOWN + 8];
        shown(name, show, sizeof show);
        if (near)
            smtlm_opt_errf(err, errlen, "%s:%d: unknown option -%s (did you mean -%s?)", where, line, show, near);
        else
            smtlm_opt_errf(err, errlen, "%s:%d: unknown option -%s (smsim -smtlm_list_options 1 lists them)", where,
                           line, show);
        return SMTLM_OPT_E_UNKNOWN;
    }
    origin = smtlm_opt_intern(opts, where);
    if (!origin) {
        smtlm_opt_errf(err, errlen, "%s:%d: out of memory", where, line);
        return SMTLM_OPT_E_NOMEM;
    }
    return assign(opts, (size_t)idx, value, origin, line, 0, err, errlen);
}

int smtlm_options_set(smtlm_options *opts, const char *name, const char *value, char *err,
                      size_t errlen)
{
    return smtlm_options_set_at(opts, name, value, "<api>", 0, err, errlen);
}

/* Lookup for the getters: the value or NULL with *rc set. */
static const smtlm_opt_value *get(const smtlm_options *opts, const char *name,
                                  const smtlm_option_def **def, int *rc)
{
    long idx = smtlm_opt_find(opts, name);
    if (idx < 0) {
        *rc = (!opts || !name) ? SMTLM_OPT_E_ARG : SMTLM_OPT_E_UNKNOWN;
        return NULL;
    }
    *def = &opts->defs[idx];
    *rc = SMTLM_OPT_OK;
    return &opts->vals[idx];
}

int smtlm_options_get_bool(const smtlm_options *opts, const char *name, int *out)
{
    const smtlm_option_def *d;
    int rc;
    const smtlm_opt_value *v = get(opts, name, &d, &rc);
    if (!v)
        return rc;
    if (d->type != SMTLM_OPT_BOOL)
        return SMTLM_OPT_E_TYPE;
    if (out)
        *out = (int)v->num.i;
    return SMTLM_OPT_OK;
}

/* Integer value as sign + magnitude, for the range-checked integer getters. */
static int get_integer(const smtlm_options *opts, const char *name, int *neg, uint64_t *mag)
{
    const smtlm_option_def *d;
    int rc;
    const smtlm_opt_value *v = get(opts, name, &d, &rc);
    if (!v)
        return rc;
    switch (d->type) {
    case SMTLM_OPT_BOOL:
    case SMTLM_OPT_INT32:
    case SMTLM_OPT_INT64:
        *neg = v->num.i < 0;
        *mag = *neg ? (uint64_t)(-(v->num.i + 1)) + 1u : (uint64_t)v->num.i;
        return SMTLM_OPT_OK;
    case SMTLM_OPT_UINT32:
    case SMTLM_OPT_UINT64:
        *neg = 0;
        *mag = v->num.u;
        return SMTLM_OPT_OK;
    default:
        return SMTLM_OPT_E_TYPE;
    }
}

int smtlm_options_get_i64(const smtlm_options *opts, const char *name, int64_t *out)
{
    int neg = 0;
    uint64_t mag = 0;
    int rc = get_integer(opts, name, &neg, &mag);
    if (rc)
        return rc;
    if (!neg && mag > (uint64_t)INT64_MAX)
        return SMTLM_OPT_E_RANGE;
    if (out)
        *out = neg ? (mag == (uint64_t)INT64_MAX + 1u ? INT64_MIN : -(int64_t)mag) : (int64_t)mag;
    return SMTLM_OPT_OK;
}

int smtlm_options_get_u64(const smtlm_options *opts, const char *name, uint64_t *out)
{
    int neg = 0;
    uint64_t mag = 0;
    int rc = get_integer(opts, name, &neg, &mag);
    if (rc)
        return rc;
    if (neg)
        return SMTLM_OPT_E_RANGE;
    if (out)
        *out = mag;
    return SMTLM_OPT_OK;
}

int smtlm_options_get_i32(const smtlm_options *opts, const char *name, int32_t *out)
{
    int64_t v;
    int rc = smtlm_options_get_i64(opts, name, &v);
    if (rc)
        return rc;
    if (v < INT32_MIN || v > INT32_MAX)
        return SMTLM_OPT_E_RANGE;
    if (out)
        *out = (int32_t)v;
    return SMTLM_OPT_OK;
}

int smtlm_options_get_u32(const smtlm_options *opts, const char *name, uint32_t *out)
{
    uint64_t v;
    int rc = smtlm_options_get_u64(opts, name, &v);
    if (rc)
        return rc;
    if (v > UINT32_MAX)
        return SMTLM_OPT_E_RANGE;
    if (out)
        *out = (uint32_t)v;
    return SMTLM_OPT_OK;
}

int smtlm_options_get_double(const smtlm_options *opts, const char *name, double *out)
{
    const smtlm_option_def *d;
    int rc;
    const smtlm_opt_value *v = get(opts, name, &d, &rc);
    double x;
    if (!v)
        return rc;
    switch (d->type) {
    case SMTLM_OPT_BOOL:
    case SMTLM_OPT_INT32:
    case SMTLM_OPT_INT64: x = (double)v->num.i; break;
    case SMTLM_OPT_UINT32:
    case SMTLM_OPT_UINT64: x = (double)v->num.u; break;
    case SMTLM_OPT_DOUBLE: x = v->num.d; break;
    default: return SMTLM_OPT_E_TYPE;
    }
    if (out)
        *out = x;
    return SMTLM_OPT_OK;
}

int smtlm_options_get_str(const smtlm_options *opts, const char *name, const char **out)
{
    const smtlm_option_def *d;
    int rc;
    const smtlm_opt_value *v = get(opts, name, &d, &rc);
    if (!v)
        return rc;
    if (out)
        *out = v->text;
    return SMTLM_OPT_OK;
}

void smtlm_opt_value_text_at(const smtlm_options *opts, size_t i, char *buf, size_t n)
{
    const smtlm_opt_value *v = &opts->vals[i];
    switch (opts->defs[i].type) {
    case SMTLM_OPT_BOOL:
    case SMTLM_OPT_INT32:
    case SMTLM_OPT_INT64: snprintf(buf, n, "%" PRId64, v->num.i); break;
    case SMTLM_OPT_UINT32:
    case SMTLM_OPT_UINT64: snprintf(buf, n, "%" PRIu64, v->num.u); break;
    case SMTLM_OPT_DOUBLE: snprintf(buf, n, "%.17g", v->num.d); break;
    default: snprintf(buf, n, "%s", v->text); break;
    }
}

int smtlm_options_value_text(const smtlm_options *opts, const char *name, char *buf, size_t n)
{
    long idx = smtlm_opt_find(opts, name);
    if (idx < 0)
        return (!opts || !name) ? SMTLM_OPT_E_ARG : SMTLM_OPT_E_UNKNOWN;
    if (!buf || n == 0)
        return SMTLM_OPT_E_ARG;
    smtlm_opt_value_text_at(opts, (size_t)idx, buf, n);
    return SMTLM_OPT_OK;
}

int smtlm_options_is_set(const smtlm_options *opts, const char *name)
{
    long idx = smtlm_opt_find(opts, name);
    return idx >= 0 && opts->vals[idx].file != NULL;
}

unsigned long smtlm_options_set_order(const smtlm_options *opts, const char *name)
{
    long idx = smtlm_opt_find(opts, name);
    return idx >= 0 ? opts->vals[idx].seq : 0;
}

int smtlm_options_origin(const smtlm_options *opts, const char *name, char *buf, size_t n)
{
    long idx = smtlm_opt_find(opts, name);
    const smtlm_opt_value *v;
    if (idx < 0)
        return (!opts || !name) ? SMTLM_OPT_E_ARG : SMTLM_OPT_E_UNKNOWN;
    if (!buf || n == 0)
        return SMTLM_OPT_E_ARG;
    v = &opts->vals[idx];
    if (v->file)
        snprintf(buf, n, "%s:%d", v->file, v->line);
    else
        snprintf(buf, n, "<default>");
    return SMTLM_OPT_OK;
}
