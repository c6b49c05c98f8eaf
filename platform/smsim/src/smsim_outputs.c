/* The files smsim writes: the stats JSON and CSV, the event log, the pipeline log and VCD, the
 * HTML report. Each is refused when it is an input of the run, another output or one of
 * smsim's own streams, written to a temporary file, and put in place only once complete
 * (out_file.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "smsim_internal.h"
#include "smtlm/msg_path.h"
#include "smtlm/view_filter.h"

/* The options that name an output file, in the order a run opens them. */
static const char *const output_opts[] = {"smtlm_stats_json", "smtlm_event_log", "smtlm_pipeline_log",
                                          "smtlm_vcd",        "smtlm_report",    "smtlm_stats_csv"};
#define N_OUTPUTS (sizeof output_opts / sizeof output_opts[0])

/* The file an output option names: "" when none, NULL for the JSON on stdout ("-"). */
static const char *output_path(const run_ctx *r, const char *opt)
{
    const char *p = smsim_opt_str(r->opts, opt);
    return !strcmp(p, "-") && !strcmp(opt, "smtlm_stats_json") ? NULL : p;
}

/* ---- the same file ---- */

/* A file by its identity: (device, inode) when it exists, else the absolute path it would be
 * created at (a link to a file not there yet: its target). A character device (a terminal,
 * /dev/null) is a sink that no output can spoil. */
typedef struct file_id {
    int exists, sink;
    dev_t dev;
    ino_t ino;
    char *where;
} file_id;

static void identify(const char *path, file_id *id)
{
    struct stat st;
    memset(id, 0, sizeof *id);
    if (stat(path, &st) == 0) {
        id->exists = 1;
        id->sink = S_ISCHR(st.st_mode);
        id->dev = st.st_dev;
        id->ino = st.st_ino;
        return;
    }
    char *target = smtlm_out_target(path);
    const char *t = target ? target : path;
    const char *slash = strrchr(t, '/');
    char *dir = slash ? strndup(t, (size_t)(slash - t) + 1) : strdup(".");
    char *real = dir ? realpath(dir, NULL) : NULL;
    const char *base = slash ? slash + 1 : t;
    if (real && (id->where = malloc(strlen(real) + strlen(base) + 2)))
        sprintf(id->where, "%s/%s", real, base);
    else
        id->where = strdup(t);
    free(real);
    free(dir);
    free(target);
}

/* smsim's standard output or error (f) as a file: 0 when it is none (no descriptor) or a sink. */
static int identify_stream(FILE *f, file_id *id)
{
    struct stat st;
    memset(id, 0, sizeof *id);
    const int fd = f ? fileno(f) : -1;
    if (fd < 0 || fstat(fd, &st) != 0 || S_ISCHR(st.st_mode))
        return 0;
    id->exists = 1;
    id->dev = st.st_dev;
    id->ino = st.st_ino;
    return 1;
}

static int same_file(const file_id *a, const file_id *b)
{
    if (a->sink || b->sink || a->exists != b->exists)
        return 0;
    if (a->exists)
        return a->dev == b->dev && a->ino == b->ino;
    return a->where && b->where && !strcmp(a->where, b->where);
}

static void origin(const run_ctx *r, const char *opt, char *buf, size_t n)
{
    snprintf(buf, n, "<default>");
    smtlm_options_origin(r->opts, opt, buf, n);
}

/* Output k refused: "<where it was set>: -<option> <path>: <why>". */
static int refuse(run_ctx *r, unsigned k, const char *why)
{
    char where[SMSIM_WHERE_MAX];
    origin(r, output_opts[k], where, sizeof where);
    const char *path = output_path(r, output_opts[k]);
    return smsim_fail(r, 2, "%s: -%s %s: %s", where, output_opts[k], path ? path : "-", why ? why : "out of memory");
}

/* Output k against one input (what: the input, for the message; freed here): 2 with the
 * message when they are one file. */
static int against_input(run_ctx *r, unsigned k, const file_id *out, const char *input, char *what)
{
    file_id in;
    identify(input, &in);
    const int same = same_file(out, &in);
    free(in.where);
    char *why = same && what ? smtlm_msg_text("is %s; an output never replaces an input", what) : NULL;
    free(what);
    if (!same)
        return 0;
    const int status = refuse(r, k, why);
    free(why);
    return status;
}

/* Output k against every input of the run: -trace, the list's kernel traces, the silicon
 * core's listings (listings.c) and every config file. */
static int against_inputs(run_ctx *r, unsigned k, const file_id *out)
{
    char where[SMSIM_WHERE_MAX];
    const char *trace = smsim_opt_str(r->opts, "trace");
    if (*trace) {
        origin(r, "trace", where, sizeof where);
        if (against_input(r, k, out, trace, smtlm_msg_text("the trace given by -trace (%s)", where)))
            return 2;
    }
    for (size_t i = 0; i < r->list.n; i++) {
        const smtlm_trace_cmd *c = &r->list.cmds[i];
        if (c->kind != SMTLM_TRACE_CMD_KERNEL || !c->line)
            continue; /* a single trace is -trace itself */
        if (against_input(r, k, out, c->path, smtlm_msg_text("the kernel trace %s (%s:%lu)", c->path, trace, c->line)))
            return 2;
    }
    if (smsim_program_listing(r)) {
        origin(r, "smtlm_sass", where, sizeof where);
        char *what = smtlm_msg_text("the SASS listing given by -smtlm_sass (%s)", where);
        if (against_input(r, k, out, smsim_program_listing(r), what))
            return 2;
    } else {
        origin(r, "trace", where, sizeof where);
        for (size_t i = 0; i < r->list.n; i++) {
            const smtlm_trace_cmd *c = &r->list.cmds[i];
            char *listing = c->kind == SMTLM_TRACE_CMD_KERNEL ? smsim_listing_beside(r, c->path) : NULL;
            if (!listing)
                continue;
            char *what = c->line ? smtlm_msg_text("the SASS listing of the kernel trace %s (%s:%lu)", c->path, trace, c->line)
                                 : smtlm_msg_text("the SASS listing of the trace %s given by -trace (%s)", c->path, where);
            const int refused = against_input(r, k, out, listing, what);
            free(listing);
            if (refused)
                return 2;
        }
    }
    size_t n_files = 0;
    const char *const *files = smtlm_options_files(r->opts, &n_files);
    for (size_t i = 0; i < n_files; i++)
        if (against_input(r, k, out, files[i], smtlm_msg_text("the config file %s", files[i])))
            return 2;
    return 0;
}

/* Output k against smsim's standard output and error, which carry its text (or, on standard
 * output, the JSON of -smtlm_stats_json -): an output there would be mixed with them, or
 * would replace what the stream's file held. Compared as files (device and inode), so that
 * /dev/stdout, /dev/fd/1, /proc/self/fd/1, the file's own path and a link to it are all one.
 * out NULL: the JSON on standard output itself, against standard error. */
static int against_streams(run_ctx *r, unsigned k, const file_id *out)
{
    file_id so, se;
    const int has_out = identify_stream(r->out, &so), has_err = identify_stream(r->err, &se);
    const int json_on_stdout = !output_path(r, "smtlm_stats_json");
    if (!out)
        return has_out && has_err && same_file(&so, &se)
                   ? refuse(r, k, "standard output is also smsim's standard error, which carries its text when the "
                                  "JSON is on standard output; the JSON needs a stream of its own")
                   : 0;
    if (has_out && same_file(out, &so)) {
        if (!json_on_stdout)
            return refuse(r, k, "is smsim's standard output, which carries its text; an output never shares a stream "
                                "with it (-smtlm_stats_json - puts the JSON alone on standard output)");
        char where[SMSIM_WHERE_MAX];
        origin(r, "smtlm_stats_json", where, sizeof where);
        char *why = smtlm_msg_text("is standard output, which -smtlm_stats_json - (%s) takes; each output needs a file "
                                   "of its own", where);
        const int status = refuse(r, k, why);
        free(why);
        return status;
    }
    if (has_err && same_file(out, &se))
        return refuse(r, k, "is smsim's standard error, which carries its messages; an output never shares a stream "
                            "with it");
    return 0;
}

int smsim_check_outputs(run_ctx *r)
{
    file_id ids[N_OUTPUTS];
    int status = 0;
    unsigned k = 0;
    for (; k < N_OUTPUTS && !status; k++) {
        const char *p = output_path(r, output_opts[k]);
        memset(&ids[k], 0, sizeof ids[k]);
        if (!p) {
            status = against_streams(r, k, NULL);
            continue;
        }
        if (!*p)
            continue;
        identify(p, &ids[k]);
        status = against_inputs(r, k, &ids[k]);
        if (!status)
            status = against_streams(r, k, &ids[k]);
        for (unsigned j = 0; j < k && !status; j++) {
            if (!same_file(&ids[j], &ids[k]))
                continue;
            char first[SMSIM_WHERE_MAX];
            origin(r, output_opts[j], first, sizeof first);
            char *why = smtlm_msg_text("is the same file as -%s %s (%s); each output needs a file of its own", output_opts[j],
                             output_path(r, output_opts[j]), first);
            status = refuse(r, k, why);
            free(why);
        }
    }
    while (k-- > 0)
        free(ids[k].where);
    return status;
}

int smsim_check_outputs_writable(run_ctx *r)
{
    char msg[SMSIM_MSG_MAX];
    for (unsigned k = 0; k < N_OUTPUTS; k++) {
        const char *p = output_path(r, output_opts[k]);
        if (p && *p && smtlm_out_check(p, msg, sizeof msg))
            return smsim_fail(r, 2, "%s", msg);
    }
    return 0;
}

/* ---- the event log and the views, hooked to the GPU ---- */

/* -smtlm_event_log: one line per retired instruction, in retirement order, with the cycle of
 * each pipeline event (the kernel's gpu_sim_cycle count). */
static void log_retired(void *ctx, unsigned sm, const smtlm_inst *in)
{
    const run_ctx *r = ctx;
    fprintf(r->events, "%u %u %u 0x%04x %llu", r->kernels + 1, sm, (unsigned)in->warp, (unsigned)in->pc,
            (unsigned long long)in->uid);
    for (unsigned e = 0; e < SMTLM_EV_COUNT; e++) /* '-': an event this core does not have */
        if (in->ev[e] == UINT64_MAX)
            fputs(" -", r->events);
        else
            fprintf(r->events, " %llu", (unsigned long long)in->ev[e]);
    fputc('\n', r->events);
}

/* The retire hook: the event log and the pipeline log. */
static void on_retired(void *ctx, unsigned sm, const smtlm_inst *in)
{
    run_ctx *r = ctx;
    if (r->events)
        log_retired(r, sm, in);
    if (r->plog)
        smtlm_pipeline_log_retired(r->plog, r->gpu, sm, in);
}

/* The sample hook, after every cycle: the pipeline log and the VCD. */
static void on_sample(void *ctx, const smtlm_gpu *gpu, uint64_t first, uint64_t n)
{
    run_ctx *r = ctx;
    if (r->plog)
        smtlm_pipeline_log_sample(r->plog, gpu, first, n);
    if (r->vcd)
        smtlm_vcd_view_sample(r->vcd, gpu, first, n);
}

static int parse_views(run_ctx *r, smtlm_view_filter *flt)
{
    char msg[512];
    if (smtlm_view_filter_read(flt, r->opts, r->gpu->n_sm, r->cfg.gpu.sm.issue.max_warps, msg, sizeof msg))
        return smsim_fail(r, 2, "%s", msg);
    return 0;
}

int smsim_check_views(run_ctx *r)
{
    smtlm_view_filter flt;
    return parse_views(r, &flt);
}

/* ---- opening and closing ---- */

static int open_file(run_ctx *r, smtlm_out_file *o, const char *opt)
{
    char msg[SMSIM_MSG_MAX];
    const char *path = output_path(r, opt);
    if (path && *path && smtlm_out_open(o, path, msg, sizeof msg))
        return smsim_fail(r, 2, "%s", msg);
    return 0;
}

int smsim_open_outputs(run_ctx *r)
{
    smtlm_view_filter flt;
    if (open_file(r, &r->json_file, "smtlm_stats_json") || open_file(r, &r->events_file, "smtlm_event_log") ||
        parse_views(r, &flt) || open_file(r, &r->plog_file, "smtlm_pipeline_log") ||
        open_file(r, &r->vcd_file, "smtlm_vcd") || open_file(r, &r->report_file, "smtlm_report") ||
        open_file(r, &r->csv_file, "smtlm_stats_csv"))
        return 2;
    if (!output_path(r, "smtlm_stats_json")) { /* stdout: the GPGPU-Sim text moves to stderr */
        r->json = r->out;
        r->out = r->err;
    } else {
        r->json = r->json_file.f;
    }
    if ((r->events = r->events_file.f))
        fprintf(r->events, "# kernel sm warp pc uid issue cu_alloc operands oc_ex fu_issue writeback\n");
    if ((r->plog_file.f && !(r->plog = smtlm_pipeline_log_new(r->plog_file.f, r->gpu, &flt))) ||
        (r->vcd_file.f && !(r->vcd = smtlm_vcd_view_new(r->vcd_file.f, r->gpu, &flt))))
        return smsim_fail(r, 2, "out of memory for -smtlm_pipeline_log or -smtlm_vcd");
    if (r->report_file.f)
        smtlm_gpu_set_series_hook(r->gpu, smtlm_report_series_hook, &r->report);
    smtlm_stats_csv_init(&r->csv, r->csv_file.f);
    if (r->events || r->plog)
        smtlm_gpu_set_retire_hook(r->gpu, on_retired, r);
    if (r->plog || r->vcd)
        smtlm_gpu_set_sample_hook(r->gpu, on_sample, r);
    return 0;
}

/* Puts one output in place, or says why it could not be written. */
static int commit(run_ctx *r, smtlm_out_file *o, int writer_failed)
{
    char msg[SMSIM_MSG_MAX];
    if (!o->path)
        return 0;
    if (writer_failed && !o->err)
        o->err = ENOMEM; /* the writer's own failure: its memory */
    if (smtlm_out_commit(o, msg, sizeof msg))
        return smsim_fail(r, 2, "%s", msg);
    return 0;
}

/* -smtlm_report: the page, once every kernel ran (also after a limit, the watchdog or a
 * signal): the run's totals are the last kernel's cumulative counters. */
static int write_report(run_ctx *r)
{
    if (!r->report_file.path)
        return 0;
    if (!r->kernels) { /* nothing ran: no page, and a page already there stays */
        smtlm_out_discard(&r->report_file);
        return 0;
    }
    r->last_stats.tot_cycle = r->gpu->tot_cycle;
    r->last_stats.tot_insn = r->gpu->tot_insn;
    r->last_stats.tot_warp_insn = r->gpu->tot_warp_insn;
    return commit(r, &r->report_file, smtlm_report_write_html(&r->report, &r->last_stats, r->report_file.f) != 0);
}

int smsim_close_outputs(run_ctx *r)
{
    int status = write_report(r);
    const uint64_t end = r->gpu ? r->gpu->tot_cycle + r->gpu->sim_cycle : 0;
    if (r->plog_file.path)
        status |= commit(r, &r->plog_file, smtlm_pipeline_log_close(r->plog) != 0);
    if (r->vcd_file.path)
        status |= commit(r, &r->vcd_file, smtlm_vcd_view_close(r->vcd, end) != 0);
    r->plog = NULL;
    r->vcd = NULL;
    status |= commit(r, &r->events_file, 0);
    r->events = NULL;
    smtlm_stats_csv_free(&r->csv);
    status |= commit(r, &r->csv_file, 0);
    return status ? 2 : 0;
}

int smsim_close_json(run_ctx *r, int status)
{
    FILE *f = r->json;
    if (!f)
        return 0;
    smtlm_stats_run_end e = {r->gpu->tot_cycle, r->gpu->tot_insn, r->wall, status, status && r->error ? r->error : ""};
    smtlm_stats_json_run_end(f, &e);
    r->json = NULL;
    if (r->json_file.path)
        return commit(r, &r->json_file, 0);
    if (fflush(f) != 0 || ferror(f)) /* stdout */
        return smsim_fail(r, 2, "standard output: write error: %s", strerror(errno));
    return 0;
}

void smsim_discard_outputs(run_ctx *r)
{
    smtlm_pipeline_log_close(r->plog);
    smtlm_vcd_view_close(r->vcd, 0);
    r->plog = NULL;
    r->vcd = NULL;
    smtlm_stats_csv_free(&r->csv);
    smtlm_out_file *files[] = {&r->json_file, &r->events_file, &r->plog_file, &r->vcd_file, &r->report_file, &r->csv_file};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        smtlm_out_discard(files[i]);
    r->json = r->events = NULL;
}
