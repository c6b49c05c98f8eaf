/* Opcode lookup by hashing: the name's length and its first 8 bytes (zero-padded) are the key;
 * names longer than 8 bytes compare their tail on a key match. Linear probing in a table at
 * most half full. */
#include <string.h>

#include "trace_internal.h"

static uint64_t key_of(const char *name, size_t len)
{
    uint64_t k = 0; /* little-endian on every host: the fast path builds it byte by byte */
    for (size_t i = 0; i < len && i < 8; i++)
        k |= (uint64_t)(unsigned char)name[i] << (8 * i);
    return k;
}

static unsigned slot_of(uint64_t key, size_t len)
{
    const uint64_t h = (key ^ (uint64_t)len) * 0x9e3779b97f4a7c15ull; /* Fibonacci hashing */
    return (unsigned)(h >> 54) & (TRACE_OPINDEX_SLOTS - 1u);
}

void trace_opindex_build(trace_opindex *ix, const smtlm_opcode_map *map)
{
    memset(ix, 0, sizeof *ix);
    if (map == NULL || map->n > TRACE_OPINDEX_SLOTS / 2)
        return;
    for (size_t j = 0; j < map->n; j++) {
        const size_t len = strlen(map->ops[j].name);
        if (len == 0 || len > UINT16_MAX) {
            ix->map = NULL;
            return;
        }
        const uint64_t k = key_of(map->ops[j].name, len);
        unsigned i = slot_of(k, len);
        while (ix->len[i] != 0)
            i = (i + 1) & (TRACE_OPINDEX_SLOTS - 1u);
        ix->key[i] = k;
        ix->len[i] = (uint16_t)len;
        ix->op[i] = (uint16_t)j;
    }
    ix->map = map;
}

const smtlm_opcode *trace_opindex_find(const trace_opindex *ix, const smtlm_opcode_map *map, const char *name,
                                       size_t len)
{
    return trace_opindex_find_key(ix, map, name, len, key_of(name, len));
}

const smtlm_opcode *trace_opindex_find_key(const trace_opindex *ix, const smtlm_opcode_map *map, const char *name,
                                           size_t len, uint64_t k)
{
    if (ix == NULL || ix->map != map || map == NULL)
        return smtlm_opcode_find(map, name, len);
    if (len == 0 || len > UINT16_MAX)
        return NULL;
    for (unsigned i = slot_of(k, len); ix->len[i] != 0; i = (i + 1) & (TRACE_OPINDEX_SLOTS - 1u))
        if (ix->len[i] == len && ix->key[i] == k &&
            (len <= 8 || memcmp(map->ops[ix->op[i]].name + 8, name + 8, len - 8) == 0))
            return &map->ops[ix->op[i]];
    return NULL;
}
