/* A Value Change Dump writer (the waveform format of IEEE 1364, read by GTKWave): scopes and
 * unsigned integer variables are declared first, then values are given time by time. Only the
 * times in a window [from, to] are written: the first written time dumps every value
 * ($dumpvars), later ones only the variables whose value changed. A value given at time t holds
 * until the next time a value is given for that variable. */
#ifndef SMTLM_VCD_WRITER_H
#define SMTLM_VCD_WRITER_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct smtlm_vcd smtlm_vcd;

/* A writer on f (not closed by the writer) for the times from..to; the header carries
 * `version` and `timescale` (e.g. "1 ns"). NULL when out of memory. */
smtlm_vcd *smtlm_vcd_new(FILE *f, const char *version, const char *timescale, uint64_t from, uint64_t to);
/* Declarations, before smtlm_vcd_end_header: a scope (module) inside the current one, its end,
 * and a variable of `width` bits (1..64) in the current scope: returns its index (0, 1, ...)
 * or -1 when out of memory. */
void smtlm_vcd_scope(smtlm_vcd *v, const char *name);
void smtlm_vcd_upscope(smtlm_vcd *v);
int smtlm_vcd_var(smtlm_vcd *v, const char *name, unsigned width);
void smtlm_vcd_end_header(smtlm_vcd *v);
/* Values: every variable starts at 0; smtlm_vcd_time moves to time t (never backwards), and
 * smtlm_vcd_set gives a variable its value from the current time on (bits above its width are
 * dropped). */
void smtlm_vcd_time(smtlm_vcd *v, uint64_t t);
void smtlm_vcd_set(smtlm_vcd *v, int var, uint64_t value);
/* The value a variable has now. */
uint64_t smtlm_vcd_get(const smtlm_vcd *v, int var);
/* Ends the dump: the current values hold up to `end` (exclusive), which is written as the last
 * time when the window reaches it. Frees the writer; -1 when writing to f failed. */
int smtlm_vcd_close(smtlm_vcd *v, uint64_t end);

#ifdef __cplusplus
}
#endif
#endif
