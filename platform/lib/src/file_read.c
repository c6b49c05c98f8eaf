/* Bounded input reads (smtlm/file_read.h). */
#include "smtlm/file_read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int smtlm_open_nowait(const char *path, struct stat *st)
{
    int flags;
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -1;
    if (fstat(fd, st) != 0 || (flags = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        const int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    if (S_ISDIR(st->st_mode)) { /* open(2) takes a directory; reading it is EISDIR: say so now */
        close(fd);
        errno = EISDIR;
        return -1;
    }
    return fd;
}

int smtlm_read_bounded(const char *path, size_t limit, char **text, size_t *len, int *err_no)
{
    const size_t stop = limit + 1; /* one byte more tells "too big" */
    char *buf = NULL;
    size_t n = 0, cap = 0;
    struct stat st;
    int rc = SMTLM_READ_OK;
    *text = NULL;
    *len = 0;
    const int fd = smtlm_open_nowait(path, &st);
    if (fd < 0) {
        *err_no = errno;
        return SMTLM_READ_ERRNO;
    }
    if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > (unsigned long long)limit) {
        close(fd);
        return SMTLM_READ_TOO_BIG;
    }
    while (n < stop) {
        ssize_t got;
        if (cap - n < 4096 && cap < stop) {
            size_t ncap = cap ? cap * 2 : 8192;
            if (ncap > stop)
                ncap = stop;
            char *grown = realloc(buf, ncap);
            if (!grown) {
                *err_no = ENOMEM;
                rc = SMTLM_READ_ERRNO;
                break;
            }
            buf = grown;
            cap = ncap;
        }
        got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            *err_no = errno;
            rc = SMTLM_READ_ERRNO;
            break;
        }
        if (got == 0)
            break;
        n += (size_t)got;
        if (memchr(buf + n - (size_t)got, '\0', (size_t)got))
            break;
    }
    close(fd);
    if (rc == SMTLM_READ_OK && n == stop && !memchr(buf, '\0', n))
        rc = SMTLM_READ_TOO_BIG;
    if (rc == SMTLM_READ_OK && n == 0 && (S_ISFIFO(st.st_mode)))
        rc = SMTLM_READ_NO_WRITER;
    if (rc != SMTLM_READ_OK) {
        free(buf);
        return rc;
    }
    *text = buf ? buf : malloc(1); /* an empty regular file: text, not a failure */
    if (!*text) {
        *err_no = ENOMEM;
        return SMTLM_READ_ERRNO;
    }
    *len = n;
    return SMTLM_READ_OK;
}

const char *smtlm_read_problem(int rc, int err_no, size_t limit, const char *kind, char *buf, size_t n)
{
    if (rc == SMTLM_READ_TOO_BIG)
        snprintf(buf, n, "larger than %zu bytes, the limit for a %s", limit, kind);
    else if (rc == SMTLM_READ_NO_WRITER)
        snprintf(buf, n, "a FIFO or pipe that nothing was written to (no writer?)");
    else {
        char why[128];
        if (strerror_r(err_no, why, sizeof why) != 0)
            snprintf(why, sizeof why, "error %d", err_no);
        snprintf(buf, n, "cannot open: %s", why);
    }
    return buf;
}
