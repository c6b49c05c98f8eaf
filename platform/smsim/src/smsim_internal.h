/* smsim's run, shared by smsim.c (options, engine, kernels) and smsim_outputs.c (the files it
 * writes). */
#ifndef SMTLM_SMSIM_INTERNAL_H
#define SMTLM_SMSIM_INTERNAL_H

#include <limits.h>
#include <stdio.h>

#include "smtlm/engine.h"
#include "smtlm/engine_config.h"
#include "smtlm/options.h"
#include "smtlm/out_file.h"
#include "smtlm/pipeline_log.h"
#include "smtlm/progress.h"
#include "smtlm/report.h"
#include "smtlm/sass_listing.h"
#include "smtlm/stats.h"
#include "smtlm/stats_csv.h"
#include "smtlm/trace.h"
#include "smtlm/trace_source.h"
#include "smtlm/vcd_view.h"

/* Room for a message from the library, which may name two paths as long as a file's can be,
 * and its reason; and for where an option was set ("<command line>:3", or a config file's
 * path and line). */
#define SMSIM_MSG_MAX (3 * PATH_MAX)
#define SMSIM_WHERE_MAX (PATH_MAX + 32)

typedef struct run_ctx {
    const smtlm_options *opts;
    smtlm_run_cfg cfg;
    smtlm_gpu *gpu;
    const smtlm_engine *engine;
    void *engine_self;
    FILE *out, *err;
    FILE *json;              /* -smtlm_stats_json: json_file.f, or the caller's stdout for '-' */
    smtlm_out_file json_file;
    FILE *events;            /* -smtlm_event_log (events_file.f) */
    smtlm_out_file events_file;
    smtlm_out_file plog_file, vcd_file; /* -smtlm_pipeline_log, -smtlm_vcd */
    smtlm_pipeline_log *plog;
    smtlm_vcd_view *vcd;
    smtlm_out_file csv_file; /* -smtlm_stats_csv */
    smtlm_stats_csv csv;
    smtlm_out_file report_file;
    smtlm_report report;
    smtlm_stats last_stats;  /* the last kernel's, for the report */
    smtlm_kernelslist list;  /* -trace's kernel list (list.n == 0 for the synthetic workload) */
    unsigned kernels;
    int stop;          /* a limit, the watchdog or a signal ended the run: later kernels are not simulated */
    int limit;         /* a -gpgpu_max_* limit ended it (Accel-Sim's break line is due) */
    int status;        /* the exit status so far */
    int signal_told;   /* a stop signal ended the run, and said so */
    char *error;       /* the first error's message, whole (the stats JSON's "error"); malloc'd */
    double start;      /* when smsim started (Accel-Sim's simulation time counts from there) */
    double wall;       /* seconds spent in the engine */
    uint64_t sm_cycles;
    int reader_thread; /* -smtlm_reader_thread, resolved */
    size_t stream_limit; /* -smtlm_trace_stream_mib in bytes, or SMTLM_TRACE_STREAM_AUTO */
    smtlm_progress progress; /* the progress line on a terminal's stderr */
    unsigned n_kernels;      /* kernels the run will simulate (for the progress line) */
    smtlm_sass_listing program; /* -smtlm_sass (program.path NULL: none) */
    int derived_noted;       /* the silicon core's note on derived control bits was given */
} run_ctx;

/* listings.c: the silicon core's control bits. The listings a run reads are inputs that no
 * output may be: -smtlm_sass when the silicon core reads it (else NULL), and without it the
 * listing beside each kernel trace, there yet or not (malloc'd; NULL when none is read). */
const char *smsim_program_listing(const run_ctx *r);
char *smsim_listing_beside(const run_ctx *r, const char *trace);
/* Reads -smtlm_sass (once per run); 0 or 2. */
int smsim_load_program_listing(run_ctx *r);
/* Gives a kernel's trace source its listing (-smtlm_sass, or kernel-N.sass beside the trace)
 * when the core is the silicon one; without a listing, says once that the bits are derived.
 * 0 or 2. */
int smsim_attach_listing(run_ctx *r, smtlm_trace_source *src);

const char *smsim_opt_str(const smtlm_options *o, const char *name);
/* Prints "smsim: <message>" on err and keeps the first such message and status for the stats
 * JSON. Returns status. */
int smsim_fail(run_ctx *r, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Outputs never replace an input (-trace, the list's kernel traces, the silicon core's
 * listings, every -config file) or each other, and never go where smsim's own standard output
 * or error goes: 0, or 2 with the message naming both. */
int smsim_check_outputs(run_ctx *r);
/* -smtlm_check_options: every output could be created (nothing is), by the rule a run opens
 * them by (smtlm_out_check). 0 or 2. */
int smsim_check_outputs_writable(run_ctx *r);
/* The view filters (-smtlm_log_cycles, _sms, _warps): 0 or 2 with the message. */
int smsim_check_views(run_ctx *r);
/* Opens every output asked for (as temporary files) and hooks the views and the event log
 * to the GPU: 0 or 2. */
int smsim_open_outputs(run_ctx *r);
/* Completes every output but the stats JSON (report, views, event log, CSV) and puts each in
 * place: 0, or 2 after a message for each that could not be written. */
int smsim_close_outputs(run_ctx *r);
/* Writes the stats JSON's end (the exit status `status` and r->error) and puts the file in
 * place: 0, or 2 with the message. */
int smsim_close_json(run_ctx *r, int status);
/* Gives up every output still open; the files they would replace stay as they were. */
void smsim_discard_outputs(run_ctx *r);

/* engine_choice.c: -smtlm_engine (empty: the C engine, or the SystemC engine when an option only it
 * reads is set; NULL with a message for a name not among `engines` or such an option with another
 * engine), the host's cores (those this process may run on), and -smtlm_threads -1 (p->threads
 * 0) settled for engine e: every core it can use, 1 without SM windows. */
const smtlm_engine *smsim_pick_engine(const smtlm_options *o, const smtlm_engine *const *engines, unsigned n, char *msg,
                                      size_t len);
unsigned smsim_host_cores(void);
void smsim_settle_threads(const smtlm_engine *e, smtlm_engine_params *p);

#endif
