/* smtlm_throughput: command-line options. */
#ifndef SMTLM_BENCH_THROUGHPUT_H
#define SMTLM_BENCH_THROUGHPUT_H

#include "smtlm/synth.h"

typedef struct tp_args {
    unsigned reps;
    smtlm_synth_cfg synth;
} tp_args;

/* Fills *a from argv (defaults first). 0 = run, 1 = help printed, -1 = error printed. */
int tp_parse_args(int argc, char **argv, tp_args *a);

#endif
