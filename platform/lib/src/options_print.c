/* Printing: the start-up option listing (GPGPU-Sim's layout) and the one-line warning about
 * options that were set but are not modelled. */
#include "options_internal.h"

#include <inttypes.h>
#include <string.h>

static int needs_quotes(const char *s)
{
    if (!*s)
        return 1;
    for (; *s; s++)
        if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\v' || *s == '\f')
            return 1;
    return 0;
}

void smtlm_options_list(const smtlm_options *opts, FILE *out)
{
    size_t i;
    if (!opts || !out)
        return;
    for (i = 0; i < opts->n; i++) {
        const smtlm_option_def *d = &opts->defs[i];
        char value[256];
        /* A string never set and empty by default (-trace, the output paths) is listed as a
         * comment: the listing read back as a config file leaves it unset, as it is here (set
         * to "" it would be a choice, and an empty -trace is refused). */
        if (d->type == SMTLM_OPT_STRING && !opts->vals[i].file && !*opts->vals[i].text)
            fputs("# ", out);
        /* GPGPU-Sim: setw(20) left name, setw(20) right value, " # ", description */
        fprintf(out, "-%-19s ", d->name);
        if (d->type == SMTLM_OPT_STRING) {
            const char *v = opts->vals[i].text;
            if (needs_quotes(v))
                fprintf(out, "%*s\"%s\"", strlen(v) + 2 < 20 ? (int)(18 - strlen(v)) : 0, "", v);
            else
                fprintf(out, "%20s", v);
        } else {
            smtlm_opt_value_text_at(opts, i, value, sizeof value);
            fprintf(out, "%20s", value);
        }
        fprintf(out, " # %s %s\n", d->modelled ? "[modelled]    " : "[not modelled]", d->desc);
    }
}

/* 1 when option i holds a value other than its default (numbers compared as numbers). */
static int differs_from_default(const smtlm_options *opts, size_t i)
{
    const smtlm_option_def *d = &opts->defs[i];
    const smtlm_opt_value *v = &opts->vals[i];
    smtlm_opt_number def;
    if (!v->file)
        return 0;
    if (d->type == SMTLM_OPT_STRING)
        return strcmp(v->text, d->def) != 0;
    if (smtlm_parse_number(d->type, d->def, &def) != SMTLM_OPT_OK)
        return 1;
    switch (d->type) {
    case SMTLM_OPT_UINT32:
    case SMTLM_OPT_UINT64: return v->num.u != def.u;
    case SMTLM_OPT_DOUBLE: return v->num.d != def.d;
    default: return v->num.i != def.i;
    }
}

int smtlm_options_non_default(const smtlm_options *opts, const char *name)
{
    const long idx = smtlm_opt_find(opts, name);
    return idx >= 0 && differs_from_default(opts, (size_t)idx);
}

int smtlm_options_warn_unmodelled(const smtlm_options *opts, int verbose, FILE *out)
{
    int count = 0;
    if (!opts)
        return 0;
    for (size_t i = 0; i < opts->n; i++) {
        if (opts->defs[i].modelled || !differs_from_default(opts, i))
            continue;
        if (out && verbose) {
            if (count == 0)
                fputs("warning: options accepted but not modelled by smtlm, set to non-default "
                      "values (no effect):",
                      out);
            fprintf(out, " -%s", opts->defs[i].name);
        }
        count++;
    }
    if (count && out && verbose)
        fputc('\n', out);
    else if (count && out)
        fprintf(out, "warning: %d option%s set to non-default values %s not modelled (no effect); "
                     "-smtlm_verbose 1 names them, -smtlm_list_options 1 lists every option\n",
                count, count == 1 ? "" : "s", count == 1 ? "is" : "are");
    return count;
}
