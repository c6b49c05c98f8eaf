/* smtlm_throughput's options. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "throughput.h"

#define DEFAULT_MIX "sp=60,int=35,sfu=5"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: smtlm_throughput [options]\n"
            "  Runs the C engine (QV100-like config, one SM) on a synthetic ALU-heavy kernel R times\n"
            "  and prints simulated SM-cycles/s and warp instructions/s (median, min, max).\n"
            "  --reps N     repetitions (default 5)\n"
            "  --insts N    instructions per warp, EXIT excluded (default 20000)\n"
            "  --warps N    warps in the one CTA, 1..64 (default 32)\n"
            "  --mix S      op mix (default " DEFAULT_MIX ")\n"
            "  --dep N      dependency distance, 0..64 (default 4)\n"
            "  --regs N     distinct registers, 1..255 (default 32)\n"
            "  --seed N     generator seed (default 1)\n");
}

static int number(const char *opt, const char *v, unsigned long long max, unsigned long long *out)
{
    char *end;
    errno = 0;
    unsigned long long x = v && *v != '-' ? strtoull(v, &end, 10) : 0;
    if (!v || *v == '-' || errno || *end || x > max) {
        fprintf(stderr, "smtlm_throughput: %s needs a number (0..%llu), got \"%s\"\n", opt, max, v ? v : "");
        return -1;
    }
    *out = x;
    return 0;
}

int tp_parse_args(int argc, char **argv, tp_args *a)
{
    a->reps = 5;
    smtlm_synth_cfg_default(&a->synth);
    a->synth.insts_per_warp = 20000;
    char err[256];
    if (smtlm_synth_parse_mix(DEFAULT_MIX, &a->synth.mix, err, sizeof err))
        return -1;
    for (int i = 1; i < argc; i += 2) { /* every option takes one value */
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        unsigned long long x = 0;
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            usage(stdout);
            return 1;
        }
        if (!strcmp(o, "--mix")) {
            if (!v || smtlm_synth_parse_mix(v, &a->synth.mix, err, sizeof err)) {
                fprintf(stderr, "smtlm_throughput: %s\n", v ? err : "--mix needs a value");
                return -1;
            }
        } else if (!strcmp(o, "--reps")) {
            if (number(o, v, 1000, &x))
                return -1;
            if (x == 0) {
                fprintf(stderr, "smtlm_throughput: --reps must be at least 1\n");
                return -1;
            }
            a->reps = (unsigned)x;
        } else if (!strcmp(o, "--insts")) {
            if (number(o, v, 100000000, &x))
                return -1;
            a->synth.insts_per_warp = (uint32_t)x;
        } else if (!strcmp(o, "--warps")) {
            if (number(o, v, 64, &x))
                return -1;
            a->synth.warps_per_cta = (uint32_t)x;
        } else if (!strcmp(o, "--dep")) {
            if (number(o, v, 64, &x))
                return -1;
            a->synth.dep_distance = (unsigned)x;
        } else if (!strcmp(o, "--regs")) {
            if (number(o, v, 255, &x))
                return -1;
            a->synth.n_regs = (unsigned)x;
        } else if (!strcmp(o, "--seed")) {
            if (number(o, v, ~0ull, &x))
                return -1;
            a->synth.seed = x;
        } else {
            fprintf(stderr, "smtlm_throughput: unknown option \"%s\"\n", o);
            usage(stderr);
            return -1;
        }
    }
    if (smtlm_synth_check(&a->synth, err, sizeof err)) {
        fprintf(stderr, "smtlm_throughput: %s\n", err);
        return -1;
    }
    return 0;
}
