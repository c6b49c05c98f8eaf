/* Messages that keep their reason whatever the length of the paths they name: formatted whole
 * (smtlm_msg_text), or, into a buffer of a given size, with the path shortened in its middle
 * ("<start>...<end>") when the whole message does not fit, never the text after it. */
#ifndef SMTLM_MSG_PATH_H
#define SMTLM_MSG_PATH_H

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The message formatted from fmt, whole: malloc'd, NULL when out of memory. */
char *smtlm_msg_text(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
char *smtlm_msg_vtext(const char *fmt, va_list ap);
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
