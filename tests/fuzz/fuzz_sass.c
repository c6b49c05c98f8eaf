/* libFuzzer target for the cuobjdump -sass listing reader: the input is a listing in memory (plain
 * or xz); the reader must return SMTLM_OK or an error with a message, never crash, leak or hang.
 * A listing read is looked up at every instruction's PC, as its users do. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "smtlm/sass_listing.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    smtlm_sass_listing l;
    size_t f, i;
    if (smtlm_sass_listing_parse((const char *)data, size, "fuzz.sass", &l, err, sizeof err) != 0) {
        if (err[0] == '\0')
            abort(); /* every error names its place */
        return 0;
    }
    for (f = 0; f < l.n; f++) {
        /* a function of that name and architecture (sm_90a's, not sm_90's, when both are listed) */
        const smtlm_sass_func *found = smtlm_sass_func_find(&l, l.func[f].name, l.func[f].arch);
        if (found == NULL || strcmp(found->name, l.func[f].name) != 0 || found->arch != l.func[f].arch ||
            (found != &l.func[f] && found->variant == l.func[f].variant))
            abort();
        for (i = 0; i < l.func[f].n; i++)
            if (smtlm_sass_inst_at(&l.func[f], l.func[f].inst[i].pc) != &l.func[f].inst[i])
                abort();
    }
    smtlm_sass_listing_free(&l);
    return 0;
}
