/* What the views of the model (-smtlm_pipeline_log, -smtlm_vcd) show: a window of cycles
 * (-smtlm_log_cycles A:B, inclusive, in the cycle numbers of -smtlm_event_log), a set of SMs
 * (-smtlm_log_sms, e.g. "0,2-3") and a set of hardware warps (-smtlm_log_warps). */
#ifndef SMTLM_VIEW_FILTER_H
#define SMTLM_VIEW_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "smtlm/gpu.h"
#include "smtlm/options.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct smtlm_view_filter {
    uint64_t first, last;               /* the cycle window, inclusive */
    uint64_t sms[SMTLM_MAX_SMS / 64];   /* bit i: SM i shown */
    uint64_t warps;                     /* bit w: hardware warp w shown */
} smtlm_view_filter;

/* Everything: every cycle, SM and warp. */
void smtlm_view_filter_all(smtlm_view_filter *f);
/* "A:B" (A <= B), "A:" (from A on), ":B" (up to B) or "" (every cycle). -1 when malformed. */
int smtlm_view_parse_cycles(const char *s, uint64_t *first, uint64_t *last);
/* A list of numbers and ranges below `limit` ("0,2-3,7"), "" = all of them: sets the bits of
 * `bits` (limit bits, cleared first). -1 when malformed or a number is not below limit. */
int smtlm_view_parse_list(const char *s, unsigned limit, uint64_t *bits);
/* The three options' values; -1 with "-<option>: '<value>' is not ..." in msg. */
int smtlm_view_filter_parse(smtlm_view_filter *f, const char *cycles, const char *sms, const char *warps, unsigned n_sm,
                            unsigned n_warps, char *msg, size_t n);
/* The same from the options' values; -1 with "<where>: -<option>: '<value>' is not ..." in msg,
 * where is the file:line or <command line>:N that set the value. */
int smtlm_view_filter_read(smtlm_view_filter *f, const smtlm_options *o, unsigned n_sm, unsigned n_warps, char *msg,
                           size_t n);

static inline int smtlm_view_shows_sm(const smtlm_view_filter *f, unsigned sm) { return (int)(f->sms[sm / 64] >> (sm % 64) & 1); }
static inline int smtlm_view_shows_warp(const smtlm_view_filter *f, unsigned w) { return (int)(f->warps >> w & 1); }
static inline int smtlm_view_shows_cycle(const smtlm_view_filter *f, uint64_t c) { return c >= f->first && c <= f->last; }

#ifdef __cplusplus
}
#endif
#endif
