/* Messages of any length (see msg_path.h). */
#include "smtlm/msg_path.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The least of a path shown however long the rest: enough to recognise it. */
#define MIN_SHOWN 32

char *smtlm_msg_vtext(const char *fmt, va_list ap)
{
    va_list cp;
    va_copy(cp, ap);
    const int len = vsnprintf(NULL, 0, fmt, cp);
    va_end(cp);
    char *text = len >= 0 ? malloc((size_t)len + 1) : NULL;
    if (text)
        vsnprintf(text, (size_t)len + 1, fmt, ap);
    return text;
}

char *smtlm_msg_text(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = smtlm_msg_vtext(fmt, ap);
    va_end(ap);
    return text;
}

char *smtlm_msg_vpath(char *buf, size_t n, const char *path, const char *fmt, va_list ap)
{
    if (!n)
        return buf;
    va_list cp;
    va_copy(cp, ap);
    const int rest = vsnprintf(NULL, 0, fmt, cp);
    va_end(cp);
    const size_t len = strlen(path), need = rest > 0 ? (size_t)rest : 0;
    size_t room = n - 1 > need ? n - 1 - need : 0; /* what the rest leaves for the path */
    if (room < MIN_SHOWN)
        room = MIN_SHOWN < n - 1 ? MIN_SHOWN : n - 1;
    size_t used;
    if (len <= room) {
        memcpy(buf, path, len);
        used = len;
    } else if (room > 3) {
        static const char cut[] = "...";
        const size_t head = (room - 3) / 2, tail = room - 3 - head;
        memcpy(buf, path, head);
        memcpy(buf + head, cut, 3);
        memcpy(buf + head + 3, path + len - tail, tail);
        used = room;
    } else {
        used = 0;
    }
    buf[used] = '\0';
    vsnprintf(buf + used, n - used, fmt, ap);
    return buf;
}

char *smtlm_msg_path(char *buf, size_t n, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    smtlm_msg_vpath(buf, n, path, fmt, ap);
    va_end(ap);
    return buf;
}
