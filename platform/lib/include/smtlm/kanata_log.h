/* A Kanata log writer (the pipeline-diagram format of the Konata viewer, version 0004): every
 * instruction is handed over whole, once it has retired, and the writer puts its commands
 * (I, L, S, E, W, R) into the file in cycle order, which the format requires (C= gives the
 * first cycle, C the cycles elapsed since the previous command). Instruction ids in the file
 * are given in the order the instructions start (I), retire ids in the order they retire (R).
 *
 * Commands wait in memory until smtlm_kanata_flush says no instruction added later starts
 * before a given cycle; within a cycle, instructions come in the order they were added. */
#ifndef SMTLM_KANATA_LOG_H
#define SMTLM_KANATA_LOG_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct smtlm_kanata smtlm_kanata;

/* One stage of an instruction: the cycles [start, end) on a lane (0: the pipeline, 1: stalls
 * overlaid on it), a name, and an optional label shown with it ("L <id> 2 <label>"). */
typedef struct smtlm_kanata_stage {
    uint64_t start, end;
    unsigned lane;
    const char *name;
    const char *label;     /* NULL: none */
} smtlm_kanata_stage;

/* A retired instruction: it appears (I) at `start` and leaves (R) at `retire`; every stage lies
 * between them. `name` is the text shown left of its row (L type 0), `detail` the text shown on
 * mouse-over (L type 1, NULL: none); a newline in a text becomes Konata's "\n". It depends (W)
 * on the producers whose handles are in dep[] (0 entries are ignored), drawn from `dep_cycle`.
 * Stages are written in the order given: a stage ending where the next begins ends first. */
typedef struct smtlm_kanata_inst {
    uint64_t sim_id;
    unsigned thread;
    uint64_t start, retire;
    const char *name, *detail;
    unsigned n_stages;
    const smtlm_kanata_stage *stage;
    unsigned n_deps;
    const int *dep;
    uint64_t dep_cycle;
} smtlm_kanata_inst;

/* A writer on f (not closed by the writer); writes the header. NULL when out of memory. */
smtlm_kanata *smtlm_kanata_new(FILE *f);
/* Adds a retired instruction. With keep = 1 the result is a handle (> 0) for later
 * instructions' dep[], held until smtlm_kanata_release; else 0. -1 when out of memory. An
 * instruction that would start before a cycle already flushed is moved to that cycle. */
int smtlm_kanata_add(smtlm_kanata *k, const smtlm_kanata_inst *in, int keep);
/* One more holder of a handle (each holder releases it once). */
void smtlm_kanata_retain(smtlm_kanata *k, int handle);
void smtlm_kanata_release(smtlm_kanata *k, int handle);
/* Writes every waiting command of a cycle before `cycle`. */
void smtlm_kanata_flush(smtlm_kanata *k, uint64_t cycle);
/* Instructions added so far, and those moved because they came too late (0 in a correct use). */
uint64_t smtlm_kanata_count(const smtlm_kanata *k);
uint64_t smtlm_kanata_late(const smtlm_kanata *k);
/* Writes everything and frees the writer; -1 when writing to f failed or memory ran out. */
int smtlm_kanata_close(smtlm_kanata *k);

#ifdef __cplusplus
}
#endif
#endif
