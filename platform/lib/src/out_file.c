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
    snprintf(msg, n, "%s: %s: %s", path, what, strerror(e));
}

/* Where a temporary file goes, and its permissions: beside the file a link names, with the
 * mode of the file it replaces (a new file gets the usual 0666 less the umask). */
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
    o->target = strdup(path);
    if (!o->target)
        errno = ENOMEM;
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
    struct stat st;
    const int in_place = stat(path, &st) == 0 && !S_ISREG(st.st_mode);
    if (in_place && S_ISDIR(st.st_mode)) {
        set_msg(msg, n, path, "cannot open for writing", EISDIR);
        return -1;
    }
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
