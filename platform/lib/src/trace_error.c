/* One-message error reporting for the trace front end. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "trace_internal.h"

int trace_vfail(char *err, size_t errlen, int code, const char *file, unsigned long line,
                const char *fmt, va_list ap)
{
    int n;
    if (err == NULL || errlen == 0)
        return code;
    if (file == NULL)
        file = "<trace>";
    if (line > 0)
        n = snprintf(err, errlen, "%s:%lu: ", file, line);
    else
        n = snprintf(err, errlen, "%s: ", file);
    if (n < 0 || (size_t)n >= errlen)
        return code;
    vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
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
