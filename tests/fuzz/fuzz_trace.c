/* libFuzzer target for the trace reader: the input is a .traceg (plain or xz) in memory; the
 * reader must return an error or read every thread block, never crash, leak or hang. */
#include <stddef.h>
#include <stdint.h>

#include "smtlm/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    smtlm_trace *t = NULL;
    smtlm_trace_tb *tb;
    smtlm_inst_desc d;
    if (smtlm_trace_open_mem(data, size, "fuzz.traceg", NULL, &t, err, sizeof err) < 0)
        return 0;
    (void)smtlm_trace_info(t);
    tb = smtlm_trace_tb_new();
    while (tb != NULL && smtlm_trace_next_tb(t, tb, err, sizeof err) == 1) {
        unsigned w, i;
        for (w = 0; w < smtlm_trace_tb_n_warps(tb); w++)
            for (i = 0; i < smtlm_trace_tb_warp_count(tb, w); i++)
                (void)smtlm_trace_tb_inst(tb, w, i, &d);
    }
    smtlm_trace_tb_free(tb);
    smtlm_trace_close(t);
    return 0;
}
