/* Opcode-map selection by binary version and binary-search lookup. */
#include <string.h>

#include "smtlm/opcodes.h"
#include "opcodes_internal.h"

_Static_assert(SMTLM_OPCAT_SPEC_8 - SMTLM_OPCAT_SPEC_1 + 1 == SMTLM_MAX_SPEC_UNITS,
               "one category per specialised unit");

const smtlm_opcode_map *smtlm_opcode_map_for_binary(unsigned binary_version)
{
    switch (binary_version) {
    case 60:
    case 61:
        return &smtlm_opcode_map_pascal;
    case 70:
        return &smtlm_opcode_map_volta;
    case 75:
        return &smtlm_opcode_map_turing;
    case 80:
    case 86:
        return &smtlm_opcode_map_ampere;
    case 90:
        return &smtlm_opcode_map_hopper;
    default:
        return NULL; /* Kepler (35), Ada (89) and anything newer than Hopper are not modelled */
    }
}

/* strcmp order between a counted name and a NUL-terminated table name. */
static int cmp_counted(const char *name, size_t len, const char *entry)
{
    size_t elen = strlen(entry);
    int c = memcmp(name, entry, len < elen ? len : elen);
    if (c != 0)
        return c;
    return (len > elen) - (len < elen);
}

size_t smtlm_sorted_name_find(const void *rows, size_t n, size_t stride, const char *name, size_t len)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *entry = *(const char *const *)((const char *)rows + mid * stride);
        int c = cmp_counted(name, len, entry);
        if (c == 0)
            return mid;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return n;
}

const smtlm_opcode *smtlm_opcode_find(const smtlm_opcode_map *map, const char *name, size_t len)
{
    size_t i;
    if (map == NULL || name == NULL)
        return NULL;
    i = smtlm_sorted_name_find(map->ops, map->n, sizeof map->ops[0], name, len);
    return i < map->n ? &map->ops[i] : NULL;
}

size_t smtlm_opcode_first_token(const char *sass, size_t len, const char **start)
{
    size_t i = 0;
    while (i < len && sass[i] == '.')
        i++; /* Accel-Sim splits on '.' and drops empty tokens */
    {
        size_t j = i;
        while (j < len && sass[j] != '.')
            j++;
        if (start != NULL)
            *start = sass + i;
        return j - i;
    }
}

const smtlm_opcode *smtlm_opcode_find_sass(const smtlm_opcode_map *map, const char *sass)
{
    const char *tok;
    size_t n;
    if (sass == NULL)
        return NULL;
    n = smtlm_opcode_first_token(sass, strlen(sass), &tok);
    return n == 0 ? NULL : smtlm_opcode_find(map, tok, n);
}

smtlm_op smtlm_opcat_to_op(smtlm_opcat cat, uint8_t *spec)
{
    if (spec != NULL)
        *spec = 0;
    switch (cat) {
    case SMTLM_OPCAT_SP: return SMTLM_OP_SP;
    case SMTLM_OPCAT_DP: return SMTLM_OP_DP;
    case SMTLM_OPCAT_SFU: return SMTLM_OP_SFU;
    case SMTLM_OPCAT_INTP: return SMTLM_OP_INTP;
    case SMTLM_OPCAT_TENSOR_CORE: return SMTLM_OP_TENSOR_CORE;
    case SMTLM_OPCAT_LOAD: return SMTLM_OP_LOAD;
    case SMTLM_OPCAT_STORE: return SMTLM_OP_STORE;
    case SMTLM_OPCAT_BRANCH:
    case SMTLM_OPCAT_CALL:
    case SMTLM_OPCAT_RET: return SMTLM_OP_BRANCH;
    case SMTLM_OPCAT_BARRIER: return SMTLM_OP_BARRIER;
    case SMTLM_OPCAT_MEMBAR: return SMTLM_OP_MEMBAR;
    case SMTLM_OPCAT_EXIT: return SMTLM_OP_EXIT;
    case SMTLM_OPCAT_ALU: return SMTLM_OP_ALU;
    default:
        break;
    }
    if (cat >= SMTLM_OPCAT_SPEC_1 && cat <= SMTLM_OPCAT_SPEC_8) {
        if (spec != NULL)
            *spec = (uint8_t)(cat - SMTLM_OPCAT_SPEC_1 + 1);
        return SMTLM_OP_SPEC;
    }
    return SMTLM_OP_ALU;
}

int smtlm_opcode_map_is_sorted(const smtlm_opcode_map *map)
{
    size_t i;
    if (map == NULL)
        return 0;
    for (i = 1; i < map->n; i++)
        if (strcmp(map->ops[i - 1].name, map->ops[i].name) >= 0)
            return 0;
    return 1;
}
