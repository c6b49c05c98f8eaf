/* libFuzzer target: arbitrary bytes through the JSON reader behind smsim -smtlm_compare.
 * Every input ends in leaves or one "line L: what" message, never a crash, leak or hang. */
#include "smtlm/json_flat.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    smtlm_json_flat f;
    char msg[256];
    if (smtlm_json_flatten((const char *)data, size, &f, msg, sizeof msg) == 0) {
        for (size_t i = 0; i < f.n; i++)
            if (!f.leaf[i].path || !f.leaf[i].text)
                __builtin_trap();
        smtlm_json_flat_free(&f);
    } else if (strncmp(msg, "line ", 5) != 0 || f.n != 0) {
        __builtin_trap();
    }
    return 0;
}
