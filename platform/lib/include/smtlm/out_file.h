/* An output file that is written whole or not at all.
 *
 * The text goes to a temporary file beside the target (same directory, so that the final
 * rename is atomic) and replaces the target only when every byte has been written and the
 * file closed (smtlm_out_commit). Until then an existing file at the target stays as it was;
 * an output given up (smtlm_out_discard, or a failed write) leaves nothing behind. A target
 * that exists and is not a regular file (a terminal, /dev/null, a pipe) is written in place.
 * A symbolic link is followed: the file it names is replaced (or created, for a link to a file
 * not there yet), the link stays. A file the user may not write, or with no write permission
 * bit at all (read-only, whoever the user: root too), is never replaced (smtlm_out_check).
 *
 * Every write is checked: the first failure is kept with its errno and reported by
 * smtlm_out_commit, so a full disk or /dev/full is an error, never a short file. */
#ifndef SMTLM_OUT_FILE_H
#define SMTLM_OUT_FILE_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct smtlm_out_file {
    FILE *f;          /* write through this; NULL when not open */
    char *path;       /* the target as given (messages) */
    char *target;     /* the file the rename replaces (the link's target for a link) */
    int fd;
    int err;          /* errno of the first failed write, 0 while none */
    int slot;         /* this file's entry among the temporary files, -1 when written in place */
} smtlm_out_file;

/* Whether path may be opened as an output, creating nothing: the file it names exists and may
 * be written (a write permission bit set, and access(2) grants it) and, for a regular file, its
 * directory takes the temporary file; or it does not exist and its directory takes it. 0, or -1
 * with "<path>: cannot open for writing: <why>" in msg. smtlm_out_open decides by it. */
int smtlm_out_check(const char *path, char *msg, size_t n);
/* The file path names: path itself when it exists, else the path to create, its symbolic links
 * followed (a link to a file not there yet). malloc'd, or NULL with errno. */
char *smtlm_out_target(const char *path);
/* Creates the temporary file (or opens the target in place). 0, or -1 with
 * "<path>: cannot open for writing: <why>" in msg. */
int smtlm_out_open(smtlm_out_file *o, const char *path, char *msg, size_t n);
/* Flushes, closes and renames the temporary file onto the target. 0, or -1 with
 * "<path>: write error: <why>" (nothing replaced) in msg. The output is closed either way. */
int smtlm_out_commit(smtlm_out_file *o, char *msg, size_t n);
/* Closes the output and removes its temporary file: the target keeps what it had. */
void smtlm_out_discard(smtlm_out_file *o);
/* Removes every temporary file of an output still open. Async-signal-safe: for a signal
 * handler that ends the process at once. */
void smtlm_out_remove_temps(void);

#ifdef __cplusplus
}
#endif
#endif
