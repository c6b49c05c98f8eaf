/* Two stats JSON files (-smtlm_stats_json) compared counter by counter. */
#ifndef SMTLM_STATS_COMPARE_H
#define SMTLM_STATS_COMPARE_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Prints every counter that differs (every counter when show_all) as
 * "path  A  B  B-A  change%", then a summary line. Returns 0 when the files agree, 1 when
 * they differ, 2 on an unreadable or malformed file (message on err with file:line) or on the
 * file of a run that did not complete ("complete": false: its statistics are no result). How a
 * run ended (complete, exit_status, error) and host time (wall_seconds) are not compared. */
int smtlm_stats_compare(const char *path_a, const char *path_b, int show_all, FILE *out, FILE *err);

#ifdef __cplusplus
}
#endif
#endif
