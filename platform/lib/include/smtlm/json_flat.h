/* A JSON document read as a flat list of leaves, each named by its path: members joined with
 * '.', array elements as [i] (`kernels[0].warp_stall.scoreboard`). Enough to compare two stats
 * files counter by counter; not a general JSON library. */
#ifndef SMTLM_JSON_FLAT_H
#define SMTLM_JSON_FLAT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct smtlm_json_leaf {
    char *path;
    char *text;      /* the value as written (strings without their quotes) */
    int is_number;
    double number;   /* when is_number */
} smtlm_json_leaf;

typedef struct smtlm_json_flat {
    smtlm_json_leaf *leaf;
    size_t n, cap;
} smtlm_json_flat;

/* Parses text[0..len). Returns 0, or -1 with "line L: what" in msg (out is then empty). */
int smtlm_json_flatten(const char *text, size_t len, smtlm_json_flat *out, char *msg, size_t msg_size);
/* The largest file smtlm_json_flatten_file reads (256 MiB; a stats file of a thousand kernels
 * on 132 SMs is a few tens of MiB). */
#define SMTLM_JSON_MAX_BYTES ((size_t)256 << 20)
/* Reads and parses a file; errors as "path:line: what" (or "path: what": it cannot be opened,
 * it is larger than SMTLM_JSON_MAX_BYTES, a FIFO or pipe nothing was written to). */
int smtlm_json_flatten_file(const char *path, smtlm_json_flat *out, char *msg, size_t msg_size);
void smtlm_json_flat_free(smtlm_json_flat *f);

#ifdef __cplusplus
}
#endif
#endif
