/* libFuzzer target for the trace reader: the input is a .traceg (plain or xz) in memory (a
 * .tracez when FUZZ_TRACE_NAME says so: fuzz_tracez.c); the reader must return an error or read
 * every thread block, never crash, leak or hang. Read twice: thread blocks held whole, then
 * every thread block streamed through a feed. */
#include <stddef.h>
#include <stdint.h>

#include "smtlm/trace.h"

#ifndef FUZZ_TRACE_NAME
#define FUZZ_TRACE_NAME "fuzz.traceg"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_all(const uint8_t *data, size_t size, size_t limit)
{
    char err[256];
    smtlm_trace *t = NULL;
    smtlm_trace_tb *tb;
    smtlm_trace_feed *f;
    smtlm_inst_desc d;
    if (smtlm_trace_open_mem(data, size, FUZZ_TRACE_NAME, NULL, &t, err, sizeof err) < 0)
        return;
    (void)smtlm_trace_info(t);
    smtlm_trace_set_stream_limit(t, limit);
    tb = smtlm_trace_tb_new();
    f = smtlm_trace_feed_new();
    while (tb != NULL && f != NULL && smtlm_trace_next_tb(t, tb, err, sizeof err) == 1) {
        unsigned w, i;
        for (w = 0; w < smtlm_trace_tb_n_warps(tb); w++)
            for (i = 0; i < smtlm_trace_tb_warp_count(tb, w); i++)
                (void)smtlm_trace_tb_inst(tb, w, i, &d);
        if (smtlm_trace_feed_bind(f, t, tb, err, sizeof err) == 0)
            for (w = 0; w < smtlm_trace_tb_n_warps(tb); w++)
                while (smtlm_trace_feed_next(f, w, &d) == 1)
                    ;
    }
    smtlm_trace_feed_free(f);
    smtlm_trace_tb_free(tb);
    smtlm_trace_close(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    read_all(data, size, SIZE_MAX);
    read_all(data, size, 0);
    return 0;
}
