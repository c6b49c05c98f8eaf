/* The binary search the opcode tables share (opcodes_lookup.c). */
#ifndef SMTLM_OPCODES_INTERNAL_H
#define SMTLM_OPCODES_INTERNAL_H

#include <stddef.h>

/* Index of the row named name[0..len) in n rows of `stride` bytes from `rows`, each row starting
 * with its NUL-terminated name (const char *), the rows sorted by strcmp of their names; n when
 * none is. */
size_t smtlm_sorted_name_find(const void *rows, size_t n, size_t stride, const char *name, size_t len);

#endif
