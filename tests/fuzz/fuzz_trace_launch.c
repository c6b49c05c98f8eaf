/* libFuzzer target: the input is a .traceg (plain or xz) that is read as smsim reads a kernel
 * and launched on a small GPU through the C engine: the trace source, the kernel's fit check,
 * the launch, thread-block dispatch and up to about a thousand cycles, then what smsim reports
 * (the source's error, stuck warps, statistics as text and JSON). Every path must end in a
 * status, never a crash, leak or hang. The GPU: the built-in QV100 cut to 2 SMs with no kernel
 * launch latency, a short memory latency so loads come back within the budget, a watchdog and
 * a cycle limit. tests/fuzz/fuzz_trace_launch.dict holds header lines at the edges of their
 * fields' ranges, for the kernel descriptions the launch must refuse or fit. */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "smtlm/diag.h"
#include "smtlm/engine_config.h"
#include "smtlm/options.h"
#include "smtlm/stats.h"
#include "smtlm/trace_source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The cycle limit lies just past the watchdog's first look (it looks every 1024 cycles), so a
 * kernel that stops progressing ends in the watchdog's report and the others in the limit. */
#define N_SMS 2
static const char *const small_gpu[][2] = {
    {"gpgpu_n_clusters", "2"},           {"gpgpu_n_cores_per_cluster", "1"}, /* N_SMS */
    {"gpgpu_kernel_launch_latency", "0"}, {"smtlm_mem_latency", "16"},
    {"gpgpu_max_cycle", "1100"},         {"smtlm_watchdog_cycles", "200"},
};

typedef struct fixture {
    smtlm_run_cfg cfg;
    int fd;        /* memfd the input is written to: the trace source reads a path */
    char path[64];
    FILE *sink;    /* the reports go here */
} fixture;

static const fixture *setup(void)
{
    static fixture fx;
    static int done;
    if (done)
        return &fx;
    char err[512];
    smtlm_options *o = smtlm_options_new();
    if (!o)
        abort();
    for (size_t i = 0; i < sizeof small_gpu / sizeof small_gpu[0]; i++)
        if (smtlm_options_set(o, small_gpu[i][0], small_gpu[i][1], err, sizeof err) != 0) {
            fprintf(stderr, "fuzz_trace_launch: %s\n", err);
            abort();
        }
    if (smtlm_engine_config(o, &fx.cfg, err, sizeof err) != 0) {
        fprintf(stderr, "fuzz_trace_launch: %s\n", err);
        abort();
    }
    smtlm_options_free(o);
    fx.fd = memfd_create("fuzz.traceg", 0);
    fx.sink = fopen("/dev/null", "w");
    if (fx.fd < 0 || !fx.sink)
        abort();
    snprintf(fx.path, sizeof fx.path, "/proc/self/fd/%d", fx.fd);
    done = 1;
    return &fx;
}

/* What smsim does with a kernel once it ran (finish_kernel), into the sink. */
static void report(const fixture *fx, smtlm_gpu *gpu, smtlm_run_status st, const smtlm_trace_source *src,
                   unsigned uid)
{
    if (st == SMTLM_RUN_ERROR) {
        const char *e = smtlm_trace_source_error(src);
        fprintf(fx->sink, "%s %s\n", e ? e : "", smtlm_status_str(gpu->error));
        if (gpu->error_sm < gpu->n_sm) { /* what smsim names in its message */
            smtlm_sm_view v;
            smtlm_gpu_sm_view(gpu, gpu->error_sm, &v);
            fprintf(fx->sink, "%d %u %u\n", (int)v.reject, v.reject_detail, (unsigned)v.error_line);
        }
        return;
    }
    if (st == SMTLM_RUN_DEADLOCK)
        smtlm_describe_stuck_warps(fx->sink, gpu, 32);
    smtlm_stats s;
    smtlm_stats_collect(gpu, fx->cfg.core_clock_mhz, &s);
    s.kernel_name = smtlm_trace_source_header(src)->kernel_name;
    s.kernel_uid = uid;
    smtlm_stats_print(fx->sink, &s);
    smtlm_stats_json(fx->sink, &s);
    smtlm_gpu_end_kernel(gpu);
}

/* The C engine's GPU (engine_c.c: smtlm_gpu_init_lazy over smtlm_sm), on memory kept from one
 * input to the next and cleared as calloc clears it: an SM is 750 KB, and fresh pages for
 * every input would cost more than the run. */
static smtlm_sm sms[N_SMS + 1];
static smtlm_mem_model mems[N_SMS];
static smtlm_gpu gpu;
static int gpu_ready; /* built, and free for the next kernel */

/* One kernel of the input on the GPU, as smsim runs a kernel of its list (run_trace_kernel).
 * The GPU is built when a kernel first needs it, and again after a kernel that did not end
 * (a limit, the watchdog or an error leaves it busy; smsim would stop there). */
static void run_kernel(const fixture *fx, size_t stream_limit, unsigned uid)
{
    char msg[1024];
    smtlm_trace_source *src;
    if (smtlm_trace_source_open(&src, fx->path, &fx->cfg.lat, N_SMS, fx->cfg.gpu.sm.issue.max_warps, msg, sizeof msg) < 0)
        return;
    smtlm_trace_source_set_stream_limit(src, stream_limit);
    if (!gpu_ready) {
        memset(sms, 0, sizeof sms);
        memset(mems, 0, sizeof mems);
        if (smtlm_gpu_init_lazy(&gpu, &fx->cfg.gpu, sms, mems) != SMTLM_OK)
            abort(); /* the fixed configuration is valid */
        gpu_ready = 1;
    }
    const smtlm_kernel_desc k = smtlm_trace_source_kernel(src);
    const smtlm_inst_source is = smtlm_trace_source_iface(src);
    const smtlm_cta_binder b = smtlm_trace_source_binder(src);
    smtlm_gpu_set_source(&gpu, &is, &b);
    if (smtlm_gpu_launch(&gpu, &k) != SMTLM_OK) {
        smtlm_cta_limit why; /* smsim names the limit in its refusal */
        fprintf(fx->sink, "%u\n", smtlm_gpu_max_cta(&gpu, &k, &why) + (unsigned)why);
    } else {
        const smtlm_run_status st = smtlm_gpu_run(&gpu);
        report(fx, &gpu, st, src, uid);
        gpu_ready = st == SMTLM_RUN_DONE;
    }
    smtlm_trace_source_close(src);
}

/* The input twice, as a kernel list naming it twice: its thread blocks held whole, then every
 * one streamed; the second kernel runs on the GPU the first left, as in smsim. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const fixture *fx = setup();
    if (ftruncate(fx->fd, 0) != 0 || (size && pwrite(fx->fd, data, size, 0) != (ssize_t)size))
        abort();
    gpu_ready = 0;
    run_kernel(fx, SMTLM_TRACE_STREAM_AUTO, 1);
    run_kernel(fx, 0, 2);
    return 0;
}
