/* Output files written whole or not at all (see out_file.h). */
#define _GNU_SOURCE /* fopencookie: every write checked, with its errno */
#include "smtlm/out_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "smtlm/msg_path.h"

/* The temporary files of the outputs open now, for a signal handler to remove: a slot's path
 * is complete before it is marked used. */
#define MAX_TEMPS 32
static struct {
    volatile sig_atomic_t used;
    char path[PATH_MAX];
} temps[MAX_TEMPS];

void smtlm_out_remove_temps(void)
{
    for (int i = 0; i < MAX_TEMPS; i++)
        if (temps[i].used)
            unlink(temps[i].path);
}

static ssize_t cookie_write(void *c, const char *buf, size_t size)
{
    smtlm_out_file *o = c;
    size_t done = 0;
    while (done < size) {
        const ssize_t w = write(o->fd, buf + done, size - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (!o->err)
                o->err = w < 0 ? errno : EIO;
            return 0; /* stdio's error indication */
        }
        done += (size_t)w;
    }
    return (ssize_t)size;
}

static int cookie_close(void *c)
{
    smtlm_out_file *o = c;
    if (close(o->fd) != 0 && !o->err)
        o->err = errno;
    o->fd = -1;
    return o->err ? -1 : 0;
}

static void set_msg(char *msg, size_t n, const char *path, const char *what, int e)
{
    smtlm_msg_path(msg, n, path, ": %s: %s", what, strerror(e));
}

/* The directory part of path ("." for none, "/" for the root): malloc'd, NULL when out of memory. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".");
}

char *smtlm_out_target(const char *path)
{
    struct stat there;
    if (stat(path, &there) == 0) /* the kernel follows its links (/dev/fd/N to a pipe too) */
        return strdup(path);
    char *p = strdup(path);
    for (int hops = 0; p; hops++) {
        struct stat st;
        if (lstat(p, &st) != 0)
            return errno == ENOENT ? p : (free(p), NULL); /* not there: created at p */
        if (!S_ISLNK(st.st_mode))
            return p;
        if (hops == 40) { /* as the kernel gives up on a loop */
            free(p);
            errno = ELOOP;
            return NULL;
        }
        char link[PATH_MAX];
        const ssize_t len = readlink(p, link, sizeof link - 1);
        if (len < 0) {
            free(p);
            return NULL;
        }
        link[len] = '\0';
        char *next, *dir = link[0] == '/' ? NULL : dir_of(p); /* a relative link: from its own directory */
        if (link[0] == '/')
            next = strdup(link);
        else if (dir && (next = malloc(strlen(dir) + (size_t)len + 2)))
            sprintf(next, "%s/%s", dir, link);
        else
            next = NULL;
        free(dir);
        free(p);
        p = next;
    }
    errno = ENOMEM;
    return NULL;
}

/* 0 when the directory of path takes a new file (the temporary file an output is written to),
 * else -1 with errno. */
static int dir_takes_file(const char *path)
{
    char *dir = dir_of(path);
    const int rc = dir ? access(dir, W_OK | X_OK) : -1;
    if (!dir)
        errno = ENOMEM;
    free(dir);
    return rc;
}

/* The rule of smtlm_out_check on the file an output would be written to (its links followed). */
static int may_write(const char *target)
{
    struct stat st;
    if (stat(target, &st) != 0)
        return errno == ENOENT ? dir_takes_file(target) : -1;
    if (S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        return -1;
    }
    if (access(target, W_OK) != 0)
        return -1;
    if (!(st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH))) { /* read-only: kept, even from root */
        errno = EACCES;
        return -1;
    }
    return S_ISREG(st.st_mode) ? dir_takes_file(target) : 0;
}

int smtlm_out_check(const char *path, char *msg, size_t n)
{
    char *target = smtlm_out_target(path);
    const int rc = target ? may_write(target) : -1;
    const int e = errno;
    free(target);
    if (rc)
        set_msg(msg, n, path, "cannot open for writing", e);
    return rc;
}

/* Where a temporary file goes, and its permissions: beside the file a link names (a link to a
 * file not there yet included), with the mode of the file it replaces (a new file gets the
 * usual 0666 less the umask). */
static int plan(smtlm_out_file *o, const char *path, mode_t *mode)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        *mode = st.st_mode & 07777;
        o->target = realpath(path, NULL);
        return o->target ? 0 : -1;
    }
    if (errno != ENOENT)
        return -1;
    const mode_t mask = umask(0);
    umask(mask);
    *mode = 0666 & ~mask;
    o->target = smtlm_out_target(path);
    return o->target ? 0 : -1;
}

static int open_temp(smtlm_out_file *o, mode_t mode)
{
    int slot = 0;
    while (slot < MAX_TEMPS && temps[slot].used)
        slot++;
    if (slot == MAX_TEMPS) {
        errno = EMFILE;
        return -1;
    }
    if (strlen(o->target) + sizeof ".tmpXXXXXX" > sizeof temps[slot].path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(temps[slot].path, o->target);
    strcat(temps[slot].path, ".tmpXXXXXX");
    sigset_t all, old; /* no handler may find a file created but not yet listed */
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old);
    o->fd = mkstemp(temps[slot].path);
    const int e = errno;
    if (o->fd >= 0)
        temps[slot].used = 1;
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (o->fd < 0) {
        errno = e;
        return -1;
    }
    o->slot = slot;
    if (fchmod(o->fd, mode) != 0) {
        const int fe = errno;
        smtlm_out_discard(o);
        errno = fe;
        return -1;
    }
    return 0;
}

static void release(smtlm_out_file *o)
{
    free(o->path);
    free(o->target);
    o->path = o->target = NULL;
    o->f = NULL;
    o->fd = -1;
    o->slot = -1;
}

int smtlm_out_open(smtlm_out_file *o, const char *path, char *msg, size_t n)
{
    memset(o, 0, sizeof *o);
    o->fd = o->slot = -1;
    if (smtlm_out_check(path, msg, n))
        return -1;
    struct stat st;
    const int in_place = stat(path, &st) == 0 && !S_ISREG(st.st_mode);
    mode_t mode = 0;
    if (!(o->path = strdup(path))) {
        set_msg(msg, n, path, "cannot open for writing", ENOMEM);
        return -1;
    }
    if (in_place ? (o->fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)) < 0 : plan(o, path, &mode) || open_temp(o, mode)) {
        set_msg(msg, n, path, "cannot open for writing", errno);
        release(o);
        return -1;
    }
    static const cookie_io_functions_t io = {NULL, cookie_write, NULL, cookie_close};
    if (!(o->f = fopencookie(o, "w", io))) {
        set_msg(msg, n, path, "cannot open for writing", errno ? errno : ENOMEM);
        close(o->fd);
        o->fd = -1;
        smtlm_out_discard(o);
        return -1;
    }
    setvbuf(o->f, NULL, _IOFBF, 1 << 16);
    return 0;
}

/* Removes the temporary file and frees its slot. */
static void drop_temp(smtlm_out_file *o)
{
    if (o->slot < 0)
        return;
    unlink(temps[o->slot].path);
    temps[o->slot].used = 0;
}

int smtlm_out_commit(smtlm_out_file *o, char *msg, size_t n)
{
    if (!o->path)
        return 0;
    if (fclose(o->f) != 0 && !o->err)
        o->err = errno ? errno : EIO;
    o->f = NULL;
    int rc = 0;
    if (o->err) {
        set_msg(msg, n, o->path, "write error", o->err);
        drop_temp(o);
        rc = -1;
    } else if (o->slot >= 0) {
        if (rename(temps[o->slot].path, o->target) != 0) {
            set_msg(msg, n, o->path, "cannot replace it", errno);
            drop_temp(o);
            rc = -1;
        } else {
            temps[o->slot].used = 0;
        }
    }
    release(o);
    return rc;
}

void smtlm_out_discard(smtlm_out_file *o)
{
    if (!o->path)
        return;
    if (o->f)
        fclose(o->f);
    else if (o->fd >= 0)
        close(o->fd);
    drop_temp(o);
    release(o);
}
