/* smtlm_parse_only: reads a kernel trace (.traceg or .traceg.xz) with the trace reader and
 * nothing else, so a profile of it is the reader's cost alone. Prints the bytes of the file,
 * the thread blocks, the warp instructions read and how many blocks were streamed. Exit 2 with
 * the reader's message on bad input.
 *   --whole   hold every thread block whole (never stream)
 *   --stream  stream every thread block (default: the reader's automatic limit)
 *   --feed    also hand out every instruction through an smtlm_trace_feed, warps interleaved
 *             as the engine takes them (for a streamed block: the cursors' second parse), and
 *             print the most memory a feed held */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "smtlm/trace.h"

/* Every instruction of tb through f, one per warp in turn. */
static int feed_all(smtlm_trace_feed *f, const smtlm_trace *t, const smtlm_trace_tb *tb, char *err, size_t errlen)
{
    smtlm_inst_desc d;
    int any = 1;
    if (smtlm_trace_feed_bind(f, t, tb, err, errlen) < 0)
        return -1;
    while (any) {
        any = 0;
        for (unsigned w = 0; w < smtlm_trace_tb_n_warps(tb); w++) {
            int rc = smtlm_trace_feed_next(f, w, &d);
            if (rc < 0) {
                snprintf(err, errlen, "%s", smtlm_trace_feed_error(f));
                return -1;
            }
            any |= rc;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    char err[1024];
    smtlm_trace *t;
    struct stat st;
    size_t limit = SMTLM_TRACE_STREAM_AUTO;
    int feed = 0, a = 1;
    for (; a < argc - 1; a++) {
        if (!strcmp(argv[a], "--whole"))
            limit = SIZE_MAX;
        else if (!strcmp(argv[a], "--stream"))
            limit = 0;
        else if (!strcmp(argv[a], "--feed"))
            feed = 1;
        else
            break;
    }
    if (a != argc - 1) {
        fprintf(stderr, "usage: smtlm_parse_only [--whole|--stream] [--feed] <kernel.traceg>\n");
        return 2;
    }
    if (smtlm_trace_open(argv[a], NULL, &t, err, sizeof err) < 0) {
        fprintf(stderr, "smtlm_parse_only: %s\n", err);
        return 2;
    }
    smtlm_trace_set_stream_limit(t, limit);
    smtlm_trace_tb *tb = smtlm_trace_tb_new();
    smtlm_trace_feed *f = smtlm_trace_feed_new();
    unsigned long long tbs = 0, insts = 0, streamed = 0;
    size_t feed_bytes = 0;
    int rc = tb && f ? 1 : -1;
    while (tb && f && (rc = smtlm_trace_next_tb(t, tb, err, sizeof err)) == 1) {
        tbs++;
        streamed += (unsigned)smtlm_trace_tb_streamed(tb);
        for (unsigned w = 0; w < smtlm_trace_tb_n_warps(tb); w++)
            insts += smtlm_trace_tb_warp_count(tb, w);
        if (feed && (rc = feed_all(f, t, tb, err, sizeof err)) < 0)
            break;
        if (feed && smtlm_trace_feed_footprint(f) > feed_bytes)
            feed_bytes = smtlm_trace_feed_footprint(f);
    }
    if (!tb || !f)
        snprintf(err, sizeof err, "out of memory");
    smtlm_trace_feed_free(f);
    smtlm_trace_tb_free(tb);
    smtlm_trace_close(t);
    if (rc < 0) {
        fprintf(stderr, "smtlm_parse_only: %s\n", err);
        return 2;
    }
    printf("bytes %lld thread_blocks %llu warp_insts %llu streamed %llu", stat(argv[a], &st) == 0 ? (long long)st.st_size : -1LL,
           tbs, insts, streamed);
    if (feed)
        printf(" feed_bytes %zu", feed_bytes);
    printf("\n");
    return 0;
}
