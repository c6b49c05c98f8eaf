/* The reference inputs' trace text (see refgen_text.h). */
#include "refgen_text.h"

#include <string.h>

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

void refgen_write(FILE *f, const refgen *g)
{
    header(f, g);
    for (unsigned tb = 0; tb < g->tbs; tb++) {
        fprintf(f, "#BEGIN_TB\n\nthread block = %u,0,0\n\n", tb);
        for (unsigned w = 0; w < g->warps_per_tb; w++) {
            fprintf(f, "warp = %u\ninsts = %u\n", w, g->insts + 1);
            warp_body(f, g);
        }
        fprintf(f, "#END_TB\n\n");
    }
}

int refgen_kind(refgen *g, const char *kind)
{
    refgen d = {kind, 16, 20000, 1, 0};
    if (strcmp(kind, "dep") == 0) {
        d.dependent = 1;
    } else if (strcmp(kind, "manycta") == 0) {
        d.warps_per_tb = 8;
        d.insts = 1000;
        d.tbs = 160;
    } else if (strcmp(kind, "imix") != 0) {
        return -1;
    }
    *g = d;
    return 0;
}
