/* smtlm_parse_only: reads a kernel trace (.traceg or .traceg.xz) with the trace reader and
 * nothing else, so a profile of it is the reader's cost alone. Prints the bytes of the file,
 * the thread blocks and the warp instructions read. Exit 2 with the reader's message on bad
 * input. */
#include <stdio.h>
#include <sys/stat.h>

#include "smtlm/trace.h"

int main(int argc, char **argv)
{
    char err[1024];
    smtlm_trace *t;
    struct stat st;
    if (argc != 2) {
        fprintf(stderr, "usage: smtlm_parse_only <kernel.traceg>\n");
        return 2;
    }
    if (smtlm_trace_open(argv[1], NULL, &t, err, sizeof err) < 0) {
        fprintf(stderr, "smtlm_parse_only: %s\n", err);
        return 2;
    }
    smtlm_trace_tb *tb = smtlm_trace_tb_new();
    unsigned long long tbs = 0, insts = 0;
    int rc = tb ? 1 : -1;
    while (tb && (rc = smtlm_trace_next_tb(t, tb, err, sizeof err)) == 1) {
        tbs++;
        for (unsigned w = 0; w < smtlm_trace_tb_n_warps(tb); w++)
            insts += smtlm_trace_tb_warp_count(tb, w);
    }
    smtlm_trace_tb_free(tb);
    smtlm_trace_close(t);
    if (rc < 0) {
        fprintf(stderr, "smtlm_parse_only: %s\n", tb ? err : "out of memory");
        return 2;
    }
    printf("bytes %lld thread_blocks %llu warp_insts %llu\n", stat(argv[1], &st) == 0 ? (long long)st.st_size : -1LL, tbs,
           insts);
    return 0;
}
