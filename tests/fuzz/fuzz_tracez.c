/* libFuzzer target for the .tracez reader (Accel-Sim 2.0's zstd sub-chunks, trace_tracez.c):
 * fuzz_trace's reading, the input named as a .tracez; corpus/fuzz_tracez/ seeds it with small
 * valid files (sub-chunks of 1 and 3 instructions, one with a dictionary). */
#define FUZZ_TRACE_NAME "fuzz.tracez"
#include "fuzz_trace.c"
