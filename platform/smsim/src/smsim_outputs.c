/* The files smsim writes: the stats JSON and CSV, the event log, the pipeline log and VCD, the
 * HTML report. Each is refused when it is an input of the run or another output, written to a
 * temporary file, and put in place only once complete (out_file.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "smsim_internal.h"
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
 * created at. A character device (a terminal, /dev/null) is a sink that no output can spoil. */
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
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, (size_t)(slash - path) + 1) : strdup(".");
    char *real = dir ? realpath(dir, NULL) : NULL;
    const char *base = slash ? slash + 1 : path;
    if (real && (id->where = malloc(strlen(real) + strlen(base) + 2)))
        sprintf(id->where, "%s/%s", real, base);
    else
        id->where = strdup(path);
    free(real);
    free(dir);
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

/* Output k against one input; 2 with the message when they are one file. */
static int against_input(run_ctx *r, unsigned k, const file_id *out, const char *input, const char *what)
{
    file_id in;
    identify(input, &in);
    const int same = same_file(out, &in);
    free(in.where);
    if (!same)
        return 0;
    char where[300];
    origin(r, output_opts[k], where, sizeof where);
    return smsim_fail(r, 2, "%s: -%s %s: is %s; an output never replaces an input", where, output_opts[k],
                      output_path(r, output_opts[k]), what);
}

/* Output k against every input of the run. */
static int against_inputs(run_ctx *r, unsigned k, const file_id *out)
{
    char what[PATH_MAX + 400];
    const char *trace = smsim_opt_str(r->opts, "trace");
    if (*trace) {
        char where[300];
        origin(r, "trace", where, sizeof where);
        snprintf(what, sizeof what, "the trace given by -trace (%s)", where);
        if (against_input(r, k, out, trace, what))
            return 2;
    }
    for (size_t i = 0; i < r->list.n; i++) {
        const smtlm_trace_cmd *c = &r->list.cmds[i];
        if (c->kind != SMTLM_TRACE_CMD_KERNEL || !c->line)
            continue; /* a single trace is -trace itself */
        snprintf(what, sizeof what, "the kernel trace %s (%s:%lu)", c->path, trace, c->line);
        if (against_input(r, k, out, c->path, what))
            return 2;
    }
    size_t n_files = 0;
    const char *const *files = smtlm_options_files(r->opts, &n_files);
    for (size_t i = 0; i < n_files; i++) {
        snprintf(what, sizeof what, "the config file %s", files[i]);
        if (against_input(r, k, out, files[i], what))
            return 2;
    }
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
        if (!p || !*p)
            continue;
        identify(p, &ids[k]);
        status = against_inputs(r, k, &ids[k]);
        for (unsigned j = 0; j < k && !status; j++) {
            if (!same_file(&ids[j], &ids[k]))
                continue;
            char first[300], second[300];
            origin(r, output_opts[j], first, sizeof first);
            origin(r, output_opts[k], second, sizeof second);
            status = smsim_fail(r, 2, "%s: -%s %s: is the same file as -%s %s (%s); each output needs a file of its own",
                                second, output_opts[k], output_path(r, output_opts[k]), output_opts[j],
                                output_path(r, output_opts[j]), first);
        }
    }
    while (k-- > 0)
        free(ids[k].where);
    return status;
}

/* 1 when the directory of path takes a new file (the temporary file an output is written to). */
static int dir_writable(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".");
    const int ok = dir && access(dir, W_OK | X_OK) == 0;
    free(dir);
    return ok;
}

/* An output path a run would open for writing: the file when it exists (its directory too when
 * it is a regular file, which a new one replaces), else its directory. Nothing is created. */
static int check_writable(run_ctx *r, const char *path)
{
    if (!path || !*path)
        return 0;
    struct stat st;
    int ok;
    if (stat(path, &st) == 0) {
        errno = EISDIR;
        ok = !S_ISDIR(st.st_mode) && access(path, W_OK) == 0 && (!S_ISREG(st.st_mode) || dir_writable(path));
    } else {
        ok = dir_writable(path);
    }
    if (!ok)
        return smsim_fail(r, 2, "%s: cannot open for writing: %s", path, strerror(errno));
    return 0;
}

int smsim_check_outputs_writable(run_ctx *r)
{
    for (unsigned k = 0; k < N_OUTPUTS; k++)
        if (check_writable(r, output_path(r, output_opts[k])))
            return 2;
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
    char msg[PATH_MAX + 256];
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
    char msg[PATH_MAX + 256];
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
    smtlm_stats_run_end e = {r->gpu->tot_cycle, r->gpu->tot_insn, r->wall, status, status ? r->error : ""};
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
