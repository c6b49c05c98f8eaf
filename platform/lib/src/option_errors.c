/* Messages about option values (see option_errors.h). */
#include "option_errors.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>

#include "smtlm/msg_path.h"

static int vfail(const smtlm_options *o, const char *name, char *err, size_t n, const char *fmt, va_list ap)
{
    char where[PATH_MAX + 32] = "<default>", msg[512]; /* file:line, the file's path whole */
    smtlm_options_origin(o, name, where, sizeof where);
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (err && n) /* a path too long for err is shortened in its middle, never the reason */
        smtlm_msg_path(err, n, where, ": -%s: %s", name, msg);
    return -1;
}

int smtlm_opt_fail(const smtlm_options *o, const char *name, char *err, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(o, name, err, n, fmt, ap);
    va_end(ap);
    return -1;
}

int smtlm_opt_fail_conflict(const smtlm_options *o, const char *const *names, char *err, size_t n, const char *fmt, ...)
{
    const char *blame = names[0];
    for (unsigned i = 1; names[i]; i++)
        if (smtlm_options_set_order(o, names[i]) > smtlm_options_set_order(o, blame))
            blame = names[i];
    va_list ap;
    va_start(ap, fmt);
    vfail(o, blame, err, n, fmt, ap);
    va_end(ap);
    return -1;
}
