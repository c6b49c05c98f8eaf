/* One-message error reporting for the trace front end. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smtlm/msg_path.h"

#include "trace_internal.h"

int trace_vfail(char *err, size_t errlen, int code, const char *file, unsigned long line,
                const char *fmt, va_list ap)
{
    if (err == NULL || errlen == 0)
        return code;
    if (file == NULL)
        file = "<trace>";
    /* the reason first, so that a long path is what gets shortened (msg_path.h) */
    char *why = smtlm_msg_vtext(fmt, ap);
    if (why == NULL) {
        snprintf(err, errlen, "%s: out of memory for a message", file);
        return code;
    }
    if (line > 0)
        smtlm_msg_path(err, errlen, file, ":%lu: %s", line, why);
    else
        smtlm_msg_path(err, errlen, file, ": %s", why);
    free(why);
    return code;
}

int trace_fail(char *err, size_t errlen, int code, const char *file, unsigned long line,
               const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    code = trace_vfail(err, errlen, code, file, line, fmt, ap);
    va_end(ap);
    return code;
}

void trace_copy_msg(char *err, size_t errlen, const char *msg)
{
    if (err == NULL || errlen == 0)
        return;
    snprintf(err, errlen, "%s", msg != NULL ? msg : "");
}
