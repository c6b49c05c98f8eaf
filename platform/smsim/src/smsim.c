/* smsim's logic (the program's main only calls smtlm_smsim): options -> engine config ->
 * kernels from a trace list or the built-in synthetic workload -> stats. */
#include "smtlm/smsim.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "smsim_internal.h"
#include "smtlm/diag.h"
#include "smtlm/msg_path.h"
#include "smtlm/muon_reports.h"
#include "smtlm/stats_compare.h"
#include "smtlm/stop_signals.h"
#include "smtlm/synth_run.h"
#include "smtlm/trace_source.h"
#include "smtlm/version.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

const char *smsim_opt_str(const smtlm_options *o, const char *name)
{
    const char *s = "";
    smtlm_options_get_str(o, name, &s);
    return s ? s : "";
}

int smsim_fail(run_ctx *r, int status, const char *fmt, ...)
{
    /* whole, however long the paths it names: its reason is at its end */
    va_list ap;
    va_start(ap, fmt);
    char *msg = smtlm_msg_vtext(fmt, ap);
    va_end(ap);
    fprintf(r->err, "smsim: %s\n", msg ? msg : "out of memory for a message");
    if (!r->status) {
        r->status = status;
        r->error = msg; /* the stats JSON's "error" */
        msg = NULL;
    }
    free(msg);
    return status;
}

/* The stop signals by name, for messages (stop_signals.h). */
static const char *stop_name(int sig)
{
    switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    case SIGPIPE: return "SIGPIPE";
    case SIGXFSZ: return "SIGXFSZ";
    default: return "a stop request";
    }
}

static const char *limit_phrase(smtlm_cta_limit l)
{
    switch (l) {
    case SMTLM_LIMIT_SHMEM: return "its shared memory exceeds -gpgpu_shmem_size";
    case SMTLM_LIMIT_REGS: return "its registers exceed -gpgpu_shader_registers";
    default: return "its threads exceed -gpgpu_shader_core_pipeline";
    }
}

/* Accel-Sim's lines after every kernel (gpgpu_context::print_simulation_time): wall time since
 * the start in whole seconds (at least 1) and the rates over the totals, which
 * Accel-Sim's get_stats.py reads; then smtlm's precise figures. */
static void print_simulation_time(run_ctx *r)
{
    double elapsed = now_s() - r->start;
    unsigned long secs = elapsed < 1 ? 1 : (unsigned long)elapsed;
    uint64_t insn = r->gpu->tot_insn, cycles = r->gpu->tot_cycle;
    fprintf(r->out, "\n\ngpgpu_simulation_time = %lu days, %lu hrs, %lu min, %lu sec (%lu sec)\n", secs / 86400,
            secs / 3600 % 24, secs / 60 % 60, secs % 60, secs);
    fprintf(r->out, "gpgpu_simulation_rate = %lu (inst/sec)\n", (unsigned long)(insn / secs));
    unsigned long cps = (unsigned long)(cycles / secs);
    fprintf(r->out, "gpgpu_simulation_rate = %lu (cycle/sec)\n", cps);
    if (cps && r->cfg.core_clock_mhz > 0)
        fprintf(r->out, "gpgpu_silicon_slowdown = %lux\n", (unsigned long)(r->cfg.core_clock_mhz * 1e6 / (double)cps));
    else
        fprintf(r->out, "gpgpu_silicon_slowdown = Nan\n");
    fprintf(r->out, "smtlm_simulation_time = %.6f s (engine %.6f s)\n", elapsed, r->wall);
    if (r->wall > 0)
        fprintf(r->out, "smtlm_sim_rate = %.0f (SM-cycles/sec), %.0f (warp inst/sec)\n", (double)r->sm_cycles / r->wall,
                (double)r->gpu->tot_warp_insn / r->wall);
}

/* Runs the launched kernel to its end and reports it; returns the exit status so far. */
static int finish_kernel(run_ctx *r, const char *name, const char *(*source_error)(void *), void *src,
                         const char *trace_path)
{
    smtlm_gpu *gpu = r->gpu;
    if (r->report_file.f)
        smtlm_report_kernel_start(&r->report, gpu);
    double t0 = now_s();
    smtlm_progress_tick(&r->progress, gpu);
    smtlm_run_status st = r->engine->run(r->engine_self);
    r->wall += now_s() - t0;
    if (r->plog)
        smtlm_pipeline_log_kernel_end(r->plog, gpu);
    smtlm_progress_clear(&r->progress);
    for (unsigned i = 0; i < gpu->n_sm; i++) {
        smtlm_sm_view v;
        smtlm_gpu_sm_view(gpu, i, &v);
        r->sm_cycles += v.stats.active_cycles;
    }
    const char *where = trace_path ? trace_path : "<synthetic>";
    if (st == SMTLM_RUN_ERROR) {
        const char *e = source_error ? source_error(src) : NULL;
        if (!e && gpu->error == SMTLM_EMEMORY && gpu->error_sm < gpu->n_sm) {
            const smtlm_mem_req *q = &gpu->mem[gpu->error_sm].error_req;
            char at[16] = ""; /* the line of the instruction that made the access, when known */
            if (q->line)
                snprintf(at, sizeof at, ":%u", (unsigned)q->line);
            return smsim_fail(r, 2, "%s%s: memory error response at address 0x%llx (sm %u warp %u pc 0x%04x, %s) in kernel %s",
                              where, at, (unsigned long long)q->addr, gpu->error_sm, (unsigned)q->warp, (unsigned)q->pc,
                              q->is_write ? "store" : "load", name);
        }
        char msg[2048];
        smtlm_describe_kernel_error(gpu, where, e, msg, sizeof msg);
        return smsim_fail(r, 2, "%s", msg);
    }
    int status = 0;
    if (st == SMTLM_RUN_DEADLOCK) {
        status = smsim_fail(r, 1, "deadlock: nothing issued, retired or answered by memory for %u cycles (cycle %llu of kernel %s); stuck warps:",
                            gpu->cfg.watchdog_cycles, (unsigned long long)gpu->sim_cycle, name);
        smtlm_describe_stuck_warps(r->err, gpu, 32);
        r->stop = 1;
    } else if (st == SMTLM_RUN_STOPPED) {
        const int sig = smtlm_stop_signal();
        status = smsim_fail(r, sig ? 128 + sig : 2, "%s: stopped at cycle %llu of kernel %u (%s); the statistics so far are marked incomplete",
                            stop_name(sig), (unsigned long long)gpu->sim_cycle, r->kernels + 1, name);
        r->stop = r->signal_told = 1;
    } else if (st == SMTLM_RUN_MAX_CYCLE || st == SMTLM_RUN_MAX_INSN ||
               (gpu->cfg.max_cta && gpu->total_ctas_issued >= gpu->cfg.max_cta)) {
        /* GPGPU-Sim's cycle_insn_cta_max_hit: the CTA limit counts every CTA issued so far */
        r->stop = r->limit = 1;
    }
    smtlm_stats s;
    smtlm_stats_collect(gpu, r->cfg.core_clock_mhz, &s);
    s.kernel_name = name;
    s.kernel_uid = ++r->kernels;
    if (r->cfg.gpu.sm.silicon.enabled)
        s.listing_from = src && trace_path ? smtlm_trace_source_listing(src, &s.listing_path) : "none";
    if (r->report_file.f) {
        smtlm_report_kernel_end(&r->report, gpu, name);
        r->last_stats = s;
    }
    smtlm_stats_print(r->out, &s);
    if (r->json)
        smtlm_stats_json_run_kernel(r->json, r->kernels - 1, &s);
    char csv_msg[256];
    if (r->csv.f && smtlm_stats_csv_row(&r->csv, &s, csv_msg, sizeof csv_msg) && !status)
        status = smsim_fail(r, 2, "%s", csv_msg);
    smtlm_gpu_end_kernel(gpu);
    print_simulation_time(r);
    if (r->limit) /* after the kernel's statistics, as Accel-Sim prints it */
        fprintf(r->out, "GPGPU-Sim: ** break due to reaching the maximum cycles (or instructions) **\n");
    return status;
}

/* A stop request that came between kernels (while a trace was read): the run ends before the
 * next kernel. */
static int stopped_between_kernels(run_ctx *r)
{
    const int sig = smtlm_stop_signal();
    if (!sig)
        return 0;
    r->stop = r->signal_told = 1;
    return smsim_fail(r, 128 + sig, "%s: stopped before kernel %u; the statistics so far are marked incomplete",
                      stop_name(sig), r->kernels + 1);
}

/* A stop signal after the GPU's last poll of a run whose kernels all ran (ran), while it wrote
 * its results (SIGPIPE from standard output to a closed pipe, SIGXFSZ from an output over the
 * file-size limit, or any other): the run ends as a stopped one, 128 + the signal, its
 * statistics marked incomplete. */
static int stopped_after_kernels(run_ctx *r, int ran, int status)
{
    const int sig = smtlm_stop_signal();
    if (!ran || !sig || r->signal_told)
        return status;
    r->signal_told = 1;
    smsim_fail(r, 128 + sig, "%s: came after the last kernel ran; the statistics are marked incomplete", stop_name(sig));
    return 128 + sig;
}

static const char *trace_error(void *src) { return smtlm_trace_source_error(src); }

static int refuse_trace_kernel(run_ctx *r, const char *path, const smtlm_kernel_desc *k)
{
    smtlm_cta_limit why;
    smtlm_gpu_max_cta(r->gpu, k, &why);
    return smsim_fail(r, 2, "%s: a thread block (%u threads, %u B shared memory, %u registers/thread) cannot run on an SM: %s",
                      path, k->threads_per_cta, k->shmem_per_cta, k->regs_per_thread, limit_phrase(why));
}

static int refuse_synthetic_kernel(run_ctx *r, const smtlm_kernel_desc *k)
{
    return smsim_fail(r, 2, "<synthetic>: a thread block of %u threads cannot run on an SM", k->threads_per_cta);
}

static int run_trace_kernel(run_ctx *r, const char *path)
{
    char msg[SMSIM_MSG_MAX];
    smtlm_trace_source *src;
    if (smtlm_trace_source_open(&src, path, &r->cfg.lat, r->gpu->n_sm, r->cfg.gpu.sm.issue.max_warps, msg, sizeof msg) < 0)
        return smsim_fail(r, 2, "%s", msg);
    if (smsim_attach_listing(r, src)) {
        smtlm_trace_source_close(src);
        return 2;
    }
    smtlm_trace_source_set_stream_limit(src, r->stream_limit);
    if (r->reader_thread && smtlm_trace_source_start_reader(src, msg, sizeof msg) < 0) {
        smtlm_trace_source_close(src);
        return smsim_fail(r, 2, "%s", msg);
    }
    const smtlm_trace_header *h = smtlm_trace_source_header(src);
    smtlm_kernel_desc k = smtlm_trace_source_kernel(src);
    const smtlm_inst_source is = smtlm_trace_source_iface(src);
    const smtlm_cta_binder b = smtlm_trace_source_binder(src);
    smtlm_gpu_set_source(r->gpu, &is, &b);
    int status = stopped_between_kernels(r);
    if (status)
        ;
    else if (smtlm_gpu_launch(r->gpu, &k) != SMTLM_OK)
        status = refuse_trace_kernel(r, path, &k);
    else
        status = finish_kernel(r, h->kernel_name, trace_error, src, path);
    const unsigned long long absent = smtlm_trace_source_absent(src);
    if (absent)
        fprintf(r->err, "smsim: note: %s: %llu of the grid's %llu thread blocks %s absent from the trace (the tracer "
                "omits a block that traced nothing) and ran as empty blocks, as in Accel-Sim\n", path, absent, h->n_tbs,
                absent == 1 ? "is" : "are");
    smtlm_trace_source_close(src);
    return status;
}

static int run_trace_list(run_ctx *r, const char *list_path)
{
    const smtlm_kernelslist *list = &r->list;
    if (list->n_ignored)
        fprintf(r->err, "smsim: warning: %s:%lu: '%s' ignored: only lines starting with 'kernel' are traces, as in "
                "Accel-Sim (%lu such line%s)\n", list_path, list->first_ignored_line, list->first_ignored,
                list->n_ignored, list->n_ignored == 1 ? "" : "s");
    int status = 0;
    for (size_t i = 0; i < list->n; i++)
        r->n_kernels += list->cmds[i].kind == SMTLM_TRACE_CMD_KERNEL;
    for (size_t i = 0; i < list->n && !status && !r->stop; i++)
        if (list->cmds[i].kind == SMTLM_TRACE_CMD_KERNEL) {
            smtlm_progress_kernel(&r->progress, r->kernels + 1, r->n_kernels, r->gpu->tot_warp_insn, 0, 1);
            status = run_trace_kernel(r, list->cmds[i].path);
        }
    return status;
}

static int run_synthetic(run_ctx *r)
{
    char msg[SMSIM_MSG_MAX];
    smtlm_synth_run *sr = NULL;
    if (smtlm_synth_run_open(&sr, r->opts, &r->cfg, r->gpu->n_sm, msg, sizeof msg) < 0)
        return smsim_fail(r, 2, "%s", msg);
    const smtlm_inst_source is = smtlm_synth_run_iface(sr);
    const smtlm_cta_binder b = smtlm_synth_run_binder(sr);
    const smtlm_kernel_desc k = smtlm_synth_run_kernel(sr);
    smtlm_gpu_set_source(r->gpu, &is, &b);
    smtlm_progress_kernel(&r->progress, 1, 1, 0, smtlm_synth_run_warp_insts(sr), 0);
    int status = stopped_between_kernels(r);
    if (status)
        ;
    else if (smtlm_gpu_launch(r->gpu, &k) != SMTLM_OK)
        status = refuse_synthetic_kernel(r, &k);
    else
        status = finish_kernel(r, "smtlm_synthetic", NULL, NULL, NULL);
    smtlm_synth_run_close(sr);
    return status;
}

/* -smtlm_reader_thread 0|1, or -1: 1 when this machine has more than one core. */
static int reader_thread(run_ctx *r, char *msg, size_t n)
{
    int32_t v = -1;
    smtlm_options_get_i32(r->opts, "smtlm_reader_thread", &v);
    if (v < -1 || v > 1) {
        char where[SMSIM_WHERE_MAX] = "<default>";
        smtlm_options_origin(r->opts, "smtlm_reader_thread", where, sizeof where);
        snprintf(msg, n, "%s: -smtlm_reader_thread: %d is not 0, 1 or -1 (automatic)", where, (int)v);
        return -1;
    }
    r->reader_thread = v >= 0 ? v : smsim_host_cores() > 1;
    return 0;
}

/* -smtlm_trace_stream_mib N >= 0, or -1: automatic. */
static int stream_limit(run_ctx *r, char *msg, size_t n)
{
    int32_t v = -1;
    smtlm_options_get_i32(r->opts, "smtlm_trace_stream_mib", &v);
    if (v < -1) {
        char where[SMSIM_WHERE_MAX] = "<default>";
        smtlm_options_origin(r->opts, "smtlm_trace_stream_mib", where, sizeof where);
        snprintf(msg, n, "%s: -smtlm_trace_stream_mib: %d is not -1 (automatic) or a size in MiB", where, (int)v);
        return -1;
    }
    r->stream_limit = v < 0 ? SMTLM_TRACE_STREAM_AUTO : (size_t)v << 20;
    return 0;
}

/* The pipeline log, VCD and HTML report show the gpgpusim mode's collector and register
 * file; muon mode has its own (its counters are in the stats JSON's "muon" section). */
/* The views drawn from the gpgpusim collector, refused by the compositions without one (`mode`:
 * "muon mode", "the silicon core"; `counters`: what the stats JSON has instead). */
static int collector_views(const smtlm_options *o, const char *mode, const char *counters, char *msg, size_t n)
{
    static const char *const views[] = {"smtlm_pipeline_log", "smtlm_vcd", "smtlm_report"};
    for (unsigned i = 0; i < sizeof views / sizeof *views; i++)
        if (smsim_opt_str(o, views[i])[0]) {
            char where[SMSIM_WHERE_MAX] = "<command line>";
            smtlm_options_origin(o, views[i], where, sizeof where);
            snprintf(msg, n, "%s: -%s is not available in %s yet (it shows the gpgpusim collector); the stats "
                     "JSON has the %s counters", where, views[i], mode, counters);
            return 1;
        }
    return 0;
}

/* The GPU's poll: the progress line, and whether a signal asked the run to stop. */
static int on_poll(void *ctx, const smtlm_gpu *gpu)
{
    run_ctx *r = ctx;
    smtlm_progress_tick(&r->progress, gpu);
    return smtlm_stop_signal() != 0;
}

static int setup(run_ctx *r, const smtlm_engine *const *engines, unsigned n_engines, char *msg, size_t n)
{
    if (smtlm_engine_config(r->opts, &r->cfg, msg, n) || reader_thread(r, msg, n) || stream_limit(r, msg, n))
        return 2;
    if (r->cfg.gpu.sm.muon.enabled && collector_views(r->opts, "muon mode", "Muon", msg, n))
        return 2;
    if (r->cfg.gpu.sm.silicon.enabled && collector_views(r->opts, "the silicon core", "silicon core's", msg, n))
        return 2;
    smtlm_engine_params p;
    if (smtlm_engine_params_config(r->opts, r->cfg.core_clock_mhz, &p, msg, n))
        return 2;
    if (!(r->engine = smsim_pick_engine(r->opts, engines, n_engines, msg, n)))
        return 2;
    smsim_settle_threads(r->engine, &p);
    if (r->engine->create(&r->engine_self, &r->cfg.gpu, &p, &r->gpu, msg, n)) {
        r->engine_self = NULL;
        return 2;
    }
    int quiet = 0;
    smtlm_options_get_bool(r->opts, "smtlm_quiet", &quiet);
    smtlm_progress_init(&r->progress, r->err, !quiet && isatty(fileno(r->err)), now_s);
    smtlm_gpu_set_poll_hook(r->gpu, on_poll, r);
    return 0;
}

static void teardown(run_ctx *r)
{
    smsim_discard_outputs(r); /* only what an early failure left open */
    if (r->engine && r->engine_self)
        r->engine->destroy(r->engine_self);
    smtlm_report_free(&r->report);
    smtlm_kernelslist_free(&r->list);
    smtlm_sass_listing_free(&r->program);
    free(r->error);
}

static void print_usage(FILE *out)
{
    fprintf(out,
            "usage: smsim [-trace <kernelslist.g | kernel.traceg[.xz]>] [-config <file>]... [-<option> <value>]...\n"
            "\n"
            "A cycle-level model of a GPU SM back end with Accel-Sim's command line and output.\n"
            "Without -trace it runs a built-in synthetic workload; without -config the machine is the\n"
            "built-in QV100 (configs/qv100.config), and a file or option given sits on top of it.\n"
            "\n"
            "common options:\n"
            "  -trace <path>                 Accel-Sim kernel list or one kernel trace\n"
            "  -config <file>                GPGPU-Sim config file (repeatable; later values win)\n"
            "  -gpgpu_max_cycle|_insn|_cta N  stop after N cycles / thread instructions / CTAs\n"
            "  -smtlm_stats_json <path|->    every statistic as JSON ('-' = stdout; the text then goes to stderr)\n"
            "  -smtlm_pipeline_log <path>, -smtlm_vcd <path>   the pipeline for Konata / GTKWave; limit them with\n"
            "                                -smtlm_log_cycles A:B, -smtlm_log_sms 0,2-3, -smtlm_log_warps 0-7\n"
            "  -smtlm_fix_<quirk> 0|1        subcore_hol, optype_priority, wb_bank_conflict\n"
            "  -smtlm_oc_allocator fifo|wavefront\n"
            "  -smtlm_mem_latency N, -smtlm_mem_bytes_per_cycle N   the memory behind each SM\n"
            "  -smtlm_watchdog_cycles N      end a run in which nothing progresses for N cycles\n"
            "  -smtlm_list_options 1         every option with its value and description\n"
            "  -smtlm_check_options 1        check options, configs, outputs and the trace list; run nothing\n"
            "  -smtlm_cost_report 1, -smtlm_analytic_banks N   Muon storage cost / bank-conflict model (print, exit)\n"
            "  -smtlm_verbose 1              name each not-modelled option set to a non-default value\n"
            "  -smtlm_engine c|systemc       the C engine (default, on every core) or the SystemC/TLM model: identical results\n"
            "  -h, -help, --help             this text;  --version, -version   version and git commit\n"
            "\n"
            "smsim -smtlm_compare A.json B.json [-smtlm_compare_all 1]\n"
            "  two -smtlm_stats_json files side by side, counter by counter (exit 0 same, 1 differ)\n"
            "\n"
            "Exit status: 0 done (also when a -gpgpu_max_* limit stopped it), 1 the watchdog stopped it,\n"
            "2 bad input, an output that could not be written or out of memory, 128 + the signal when\n"
            "SIGINT, SIGTERM, SIGHUP, SIGPIPE or SIGXFSZ stopped it (the statistics so far are written,\n"
            "marked incomplete; a second signal ends smsim at once).\n"
            "Full reference: README.md and docs/OPTIONS.md.\n");
}

/* -h/-help/--help and --version/-version answer at once, wherever they stand. Returns 1 when
 * one was handled. */
static int info_request(int argc, const char *const *argv, FILE *out)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "-help") || !strcmp(argv[i], "--help")) {
            print_usage(out);
            return 1;
        }
        if (!strcmp(argv[i], "--version") || !strcmp(argv[i], "-version")) {
            fprintf(out, "smsim (smtlm) %s\n", smtlm_version_text());
            return 1;
        }
    }
    return 0;
}

/* smsim -smtlm_compare A.json B.json [-smtlm_compare_all 0|1]: no simulation. Returns -1 when
 * the command line is not a comparison, else the exit status. */
static int compare_request(int argc, const char *const *argv, FILE *out, FILE *err)
{
    int at = -1;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-smtlm_compare"))
            at = i;
    if (at < 0)
        return -1;
    int all = 0, ok = at == 1 && (argc == 4 || argc == 6);
    if (ok && argc == 6) {
        ok = !strcmp(argv[4], "-smtlm_compare_all") && (!strcmp(argv[5], "0") || !strcmp(argv[5], "1"));
        all = ok && argv[5][0] == '1';
    }
    if (!ok) {
        fprintf(err, "smsim: -smtlm_compare takes two stats files and nothing else: "
                     "smsim -smtlm_compare A.json B.json [-smtlm_compare_all 1]\n");
        return 2;
    }
    return smtlm_stats_compare(argv[2], argv[3], all, out, err);
}

/* ---- -smtlm_check_options: what a run checks before and while it reads its input, without
 * simulating, writing or printing anything but the first error ---- */

/* -trace's kernel list (also a single trace): 0, or 2 with the message. */
static int load_list(run_ctx *r)
{
    char msg[SMSIM_MSG_MAX];
    const char *trace = smsim_opt_str(r->opts, "trace");
    if (!*trace && smtlm_options_is_set(r->opts, "trace")) { /* given, but empty */
        char where[SMSIM_WHERE_MAX] = "<default>";
        smtlm_options_origin(r->opts, "trace", where, sizeof where);
        return smsim_fail(r, 2, "%s: -trace: empty path (leave -trace out to run the built-in synthetic workload)", where);
    }
    if (*trace && smtlm_kernelslist_load(trace, &r->list, msg, sizeof msg) < 0)
        return smsim_fail(r, 2, "%s", msg);
    return smsim_load_program_listing(r);
}

/* Every kernel of the list: its trace opens, its header reads and its thread blocks fit an SM. */
static int check_trace_list(run_ctx *r)
{
    char msg[SMSIM_MSG_MAX];
    for (size_t i = 0; i < r->list.n; i++) {
        if (r->list.cmds[i].kind != SMTLM_TRACE_CMD_KERNEL)
            continue;
        const char *path = r->list.cmds[i].path;
        smtlm_trace_source *src;
        if (smtlm_trace_source_open(&src, path, &r->cfg.lat, r->gpu->n_sm, r->cfg.gpu.sm.issue.max_warps, msg, sizeof msg) < 0)
            return smsim_fail(r, 2, "%s", msg);
        if (smsim_attach_listing(r, src)) {
            smtlm_trace_source_close(src);
            return 2;
        }
        const smtlm_kernel_desc k = smtlm_trace_source_kernel(src);
        const int fits = smtlm_gpu_kernel_fits(r->gpu, &k);
        smtlm_trace_source_close(src);
        if (!fits)
            return refuse_trace_kernel(r, path, &k);
    }
    return 0;
}

static int check_synthetic(run_ctx *r)
{
    char msg[SMSIM_MSG_MAX];
    smtlm_synth_run *sr = NULL;
    if (smtlm_synth_run_open(&sr, r->opts, &r->cfg, r->gpu->n_sm, msg, sizeof msg) < 0)
        return smsim_fail(r, 2, "%s", msg);
    const smtlm_kernel_desc k = smtlm_synth_run_kernel(sr);
    const int fits = smtlm_gpu_kernel_fits(r->gpu, &k);
    smtlm_synth_run_close(sr);
    return fits ? 0 : refuse_synthetic_kernel(r, &k);
}

/* The same decisions as a run, in the same order: an option list or a Muon report only needs
 * its options; a simulation also the engine's configuration, its outputs and its workload. */
static int check_request(run_ctx *r, const smtlm_engine *const *engines, unsigned n_engines)
{
    char msg[SMSIM_MSG_MAX];
    int list_only = 0;
    smtlm_options_get_bool(r->opts, "smtlm_list_options", &list_only);
    if (list_only)
        return 0;
    if (smtlm_muon_report_requested(r->opts)) {
        FILE *sink = fopen("/dev/null", "w");
        if (!sink && !(sink = tmpfile())) {
            fprintf(r->err, "smsim: cannot open /dev/null: %s\n", strerror(errno));
            return 2;
        }
        const int bad = smtlm_muon_reports(r->opts, sink, msg, sizeof msg);
        fclose(sink);
        if (bad)
            fprintf(r->err, "smsim: %s\n", msg);
        return bad ? 2 : 0;
    }
    if (setup(r, engines, n_engines, msg, sizeof msg)) {
        fprintf(r->err, "smsim: %s\n", msg);
        return 2;
    }
    if (load_list(r) || smsim_check_outputs(r) || smsim_check_outputs_writable(r) || smsim_check_views(r))
        return 2;
    return r->list.n ? check_trace_list(r) : check_synthetic(r);
}

/* 1 when a stream's writes failed (errno says why when the flush did). */
static int flush_failed(FILE *f)
{
    errno = EIO;
    return fflush(f) != 0 || ferror(f);
}

/* The simulation: its outputs opened, the kernels run, everything written. Returns the exit
 * status: what the kernels gave, or 2 when an output could not be written. */
static int run(run_ctx *r)
{
    FILE *const out = r->out; /* stdout, even when the JSON takes it and the text moves to stderr */
    if (load_list(r) || smsim_check_outputs(r) || smsim_open_outputs(r))
        return 2;
    smtlm_stop_signals_install(&r->progress.shown);
    if (r->json)
        smtlm_stats_json_run_begin(r->json);
    int status = r->list.n ? run_trace_list(r, smsim_opt_str(r->opts, "trace")) : run_synthetic(r);
    const int ran = status == 0; /* every kernel ran: a signal from now on came while writing */
    if (smsim_close_outputs(r) && !status)
        status = 2;
    if (out != r->json && flush_failed(out)) {
        const int failed = smsim_fail(r, 2, "standard output: write error: %s", strerror(errno));
        status = status ? status : failed;
    }
    status = stopped_after_kernels(r, ran, status);
    /* Accel-Sim's last lines, once everything else on their stream and the JSON so far are
     * written: get_stats.py trusts only output that ends with them. The JSON's end comes
     * last, so that it says how the run ended, these lines included. */
    if (status == 0 && !(r->json && flush_failed(r->json))) {
        fprintf(r->out, "GPGPU-Sim: *** simulation thread exiting ***\nGPGPU-Sim: *** exit detected ***\n");
        if (flush_failed(r->out))
            status = smsim_fail(r, 2, "standard output: write error: %s", strerror(errno));
        status = stopped_after_kernels(r, ran, status);
    }
    if (smsim_close_json(r, status) && !status)
        status = 2;
    status = stopped_after_kernels(r, ran, status); /* the JSON on standard output, to a closed pipe */
    smtlm_stop_signals_restore();
    return status;
}

int smtlm_smsim(int argc, const char *const *argv, FILE *out, FILE *err)
{
    const smtlm_engine *c = smtlm_c_engine();
    return smtlm_smsim_engines(argc, argv, out, err, &c, 1);
}

int smtlm_smsim_engines(int argc, const char *const *argv, FILE *out, FILE *err, const smtlm_engine *const *engines,
                        unsigned n_engines)
{
    char msg[SMSIM_MSG_MAX];
    if (info_request(argc, argv, out))
        return 0;
    const int compared = compare_request(argc, argv, out, err);
    if (compared >= 0)
        return compared;
    smtlm_options *opts = smtlm_options_new();
    if (!opts) {
        fprintf(err, "smsim: out of memory\n");
        return 2;
    }
    run_ctx r;
    memset(&r, 0, sizeof r);
    r.opts = opts;
    r.out = out;
    r.err = err;
    r.start = now_s();
    smtlm_report_init(&r.report);
    int status = 0;
    int list_only = 0, verbose = 0, check_only = 0;
    /* the options start as the built-in QV100 machine (smtlm_options_new) */
    if (smtlm_options_parse_argv(opts, argc, argv, msg, sizeof msg) != SMTLM_OPT_OK) {
        fprintf(err, "smsim: %s\n", msg);
        status = 2;
    } else if (smtlm_options_get_bool(opts, "smtlm_check_options", &check_only) == SMTLM_OPT_OK && check_only) {
        list_only = 1; /* nothing runs after the check */
        status = check_request(&r, engines, n_engines);
    } else if (smtlm_options_get_bool(opts, "smtlm_list_options", &list_only) == SMTLM_OPT_OK && list_only) {
        smtlm_options_list(opts, out);
    } else if (smtlm_muon_report_requested(opts)) { /* print and exit: nothing is simulated */
        list_only = 1;
        if (smtlm_muon_reports(opts, out, msg, sizeof msg)) {
            fprintf(err, "smsim: %s\n", msg);
            status = 2;
        }
    } else {
        smtlm_options_get_bool(opts, "smtlm_verbose", &verbose);
        smtlm_options_warn_unmodelled(opts, verbose, err);
        if ((status = setup(&r, engines, n_engines, msg, sizeof msg)) != 0)
            fprintf(err, "smsim: %s\n", msg);
    }
    if (!status && !list_only)
        status = run(&r);
    teardown(&r);
    smtlm_options_free(opts);
    return status;
}
