/* smtlm_refgen: writes the speed work's reference inputs (refgen_text.h) as Accel-Sim trace
 * directories (kernelslist.g + kernel-1.traceg), so every benchmark and profile runs the same
 * text.
 * Usage: smtlm_refgen imix|dep|manycta <out-dir> [insts-per-warp] [thread-blocks] */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "refgen_text.h"

static int write_trace(const char *dir, const refgen *g)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "smtlm_refgen: %s: %s\n", path, strerror(errno));
        return 1;
    }
    refgen_write(f, g);
    if (fclose(f) != 0) {
        fprintf(stderr, "smtlm_refgen: %s: %s\n", path, strerror(errno));
        return 1;
    }
    snprintf(path, sizeof path, "%s/kernelslist.g", dir);
    f = fopen(path, "w");
    if (f == NULL || fputs("kernel-1.traceg\n", f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "smtlm_refgen: %s: cannot write\n", path);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    refgen g;
    if (argc < 3 || argc > 5) {
        fprintf(stderr, "usage: smtlm_refgen imix|dep|manycta <out-dir> [insts-per-warp] [thread-blocks]\n");
        return 2;
    }
    if (refgen_kind(&g, argv[1]) < 0) {
        fprintf(stderr, "smtlm_refgen: unknown input '%s' (imix, dep or manycta)\n", argv[1]);
        return 2;
    }
    char *end;
    if (argc > 3) {
        g.insts = (unsigned)strtoul(argv[3], &end, 10);
        if (*end != '\0' || g.insts == 0 || g.insts > 100000000u) {
            fprintf(stderr, "smtlm_refgen: bad instruction count '%s'\n", argv[3]);
            return 2;
        }
    }
    if (argc > 4) {
        g.tbs = (unsigned)strtoul(argv[4], &end, 10);
        if (*end != '\0' || g.tbs == 0 || g.tbs > 1000000u) {
            fprintf(stderr, "smtlm_refgen: bad thread-block count '%s'\n", argv[4]);
            return 2;
        }
    }
    if (mkdir(argv[2], 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "smtlm_refgen: %s: %s\n", argv[2], strerror(errno));
        return 1;
    }
    return write_trace(argv[2], &g);
}
