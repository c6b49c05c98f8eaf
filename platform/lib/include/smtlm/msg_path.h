/* A message that names a path keeps its reason whatever the path's length: when the whole
 * message does not fit its buffer, the path is shortened in its middle ("<start>...<end>"),
 * never the text after it. */
#ifndef SMTLM_MSG_PATH_H
#define SMTLM_MSG_PATH_H

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Writes "<path><rest>" into buf (n bytes), rest formatted from fmt. Returns buf. */
char *smtlm_msg_path(char *buf, size_t n, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
char *smtlm_msg_vpath(char *buf, size_t n, const char *path, const char *fmt, va_list ap);

#ifdef __cplusplus
}
#endif
#endif
