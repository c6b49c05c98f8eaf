/* Reading an input file with a limit: every reader of smtlm (config files, JSON stats files and
 * goldens, SASS listings, kernel lists, trace headers) opens its file without waiting for a
 * FIFO's writer and stops at a documented size, so that no input (/dev/zero, a pipe that never
 * ends, a FIFO nothing writes to, a huge file) can hang a reader or exhaust memory. Each says
 * so in one message: "<path>: larger than N bytes, the limit for a <kind>" or "<path>: a FIFO
 * or pipe that nothing was written to (no writer?)". */
#ifndef SMTLM_FILE_READ_H
#define SMTLM_FILE_READ_H

#include <stddef.h>
#include <sys/stat.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How a read ended. */
enum { SMTLM_READ_OK = 0, SMTLM_READ_ERRNO, SMTLM_READ_TOO_BIG, SMTLM_READ_NO_WRITER };

/* Opens path for reading without waiting for a FIFO's writer; reads on the descriptor block
 * from then on (a writer may still be writing). The descriptor and *st, or -1 with errno. */
int smtlm_open_nowait(const char *path, struct stat *st);

/* Reads the whole of path into *text (*len bytes, malloc'd, not NUL-terminated): at most limit
 * bytes (a regular file larger than that is refused before reading; anything else when its
 * limit + 1st byte arrives), stopping after a chunk that holds a NUL byte (not text: the
 * caller's parser reports its line). A FIFO or pipe that ends before its first byte is
 * SMTLM_READ_NO_WRITER. SMTLM_READ_ERRNO leaves the errno value in *err_no. */
int smtlm_read_bounded(const char *path, size_t limit, char **text, size_t *len, int *err_no);

/* The message for a read that ended in rc (not SMTLM_READ_OK), without the path: "larger than
 * <limit> bytes, the limit for a <kind>", "a FIFO or pipe that nothing was written to (no
 * writer?)" or "cannot open: <errno text>". Returns buf. */
const char *smtlm_read_problem(int rc, int err_no, size_t limit, const char *kind, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
