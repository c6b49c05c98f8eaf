/* smtlm_refgen: writes the speed work's reference inputs as Accel-Sim trace directories
 * (kernelslist.g + kernel-1.traceg, Volta binary 70), so every benchmark and profile runs the
 * same text:
 *   imix    1 TB of 16 warps x N instructions alternating FFMA and IADD3, sources R3 R4 R5,
 *           destinations rotating over R20..R27 (independent), then EXIT
 *   dep     1 TB of 16 warps x N `FFMA R2 <- R2 R4 R6` (each depends on the one before), EXIT
 *   manycta imix with N instructions per warp, 8 warps per TB, T thread blocks
 * Usage: smtlm_refgen imix|dep|manycta <out-dir> [insts-per-warp] [thread-blocks] */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct refgen {
    const char *kind;
    unsigned warps_per_tb, insts, tbs;
    int dependent;
} refgen;

static void header(FILE *f, const refgen *g)
{
    fprintf(f,
            "-kernel name = %s\n-kernel id = 1\n-grid dim = (%u,1,1)\n-block dim = (%u,1,1)\n-shmem = 0\n"
            "-nregs = 32\n-binary version = 70\n-cuda stream id = 0\n-shmem base_addr = 0x00007f0000000000\n"
            "-local mem base_addr = 0x00007f1000000000\n-nvbit version = 1.5.5\n-accelsim tracer version = 4\n"
            "-enable lineinfo = 0\n\n#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num "
            "[reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n\n",
            g->kind, g->tbs, 32 * g->warps_per_tb);
}

static void warp_body(FILE *f, const refgen *g)
{
    for (unsigned i = 0; i < g->insts; i++) {
        if (g->dependent)
            fprintf(f, "%04x ffffffff 1 R2 FFMA 3 R2 R4 R6 0\n", i * 16);
        else
            fprintf(f, "%04x ffffffff 1 R%u %s 3 R3 R4 R5 0\n", i * 16, 20 + i % 8, i % 2 ? "IADD3" : "FFMA");
    }
    fprintf(f, "%04x ffffffff 0 EXIT 0 0\n\n", g->insts * 16);
}

static int write_trace(const char *dir, const refgen *g)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "smtlm_refgen: %s: %s\n", path, strerror(errno));
        return 1;
    }
    header(f, g);
    for (unsigned tb = 0; tb < g->tbs; tb++) {
        fprintf(f, "#BEGIN_TB\n\nthread block = %u,0,0\n\n", tb);
        for (unsigned w = 0; w < g->warps_per_tb; w++) {
            fprintf(f, "warp = %u\ninsts = %u\n", w, g->insts + 1);
            warp_body(f, g);
        }
        fprintf(f, "#END_TB\n\n");
    }
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
    refgen g = {NULL, 16, 20000, 1, 0};
    if (argc < 3 || argc > 5) {
        fprintf(stderr, "usage: smtlm_refgen imix|dep|manycta <out-dir> [insts-per-warp] [thread-blocks]\n");
        return 2;
    }
    g.kind = argv[1];
    if (strcmp(g.kind, "dep") == 0)
        g.dependent = 1;
    else if (strcmp(g.kind, "manycta") == 0) {
        g.warps_per_tb = 8;
        g.insts = 1000;
        g.tbs = 160;
    } else if (strcmp(g.kind, "imix") != 0) {
        fprintf(stderr, "smtlm_refgen: unknown input '%s' (imix, dep or manycta)\n", g.kind);
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
