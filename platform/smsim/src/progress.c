/* smsim's progress line (see progress.h). */
#include "smtlm/progress.h"

#include <string.h>

#define FIRST_AFTER_S 1.0   /* short runs never show a line */
#define EVERY_S 0.25

static void format_eta(char *buf, size_t n, double s)
{
    if (s < 0) {
        snprintf(buf, n, "--");
        return;
    }
    const unsigned long t = (unsigned long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, n, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, n, "%lu:%02lu", t / 60, t % 60);
}

void smtlm_progress_format(char *buf, size_t n, const smtlm_progress_state *s)
{
    /* fraction of the run done: finished kernels, and this one's share done */
    const double done = s->n_kernels ? ((double)(s->kernel - 1) + s->kernel_done) / (double)s->n_kernels : 0.0;
    char eta[32], read[32] = "";
    format_eta(eta, sizeof eta, done > 0 ? s->elapsed_s * (1.0 - done) / done : -1.0);
    if (s->traced)
        snprintf(read, sizeof read, "  trace %u%% read", s->tbs ? (unsigned)(100.0 * s->tbs_read / s->tbs) : 0);
    snprintf(buf, n, "smsim: kernel %u/%u  cycle %llu  %llu warp inst  %.2f M warp inst/s%s  ETA %s", s->kernel,
             s->n_kernels, (unsigned long long)s->cycles, (unsigned long long)s->warp_insts, s->warp_insts_per_s / 1e6,
             read, eta);
}

void smtlm_progress_init(smtlm_progress *p, FILE *err, int enabled, double (*clock)(void))
{
    memset(p, 0, sizeof *p);
    p->err = err;
    p->enabled = enabled;
    p->clock = clock;
    p->start = clock();
    p->last = p->start;
    p->kernel = p->n_kernels = 1;
}

void smtlm_progress_kernel(smtlm_progress *p, unsigned k, unsigned n, uint64_t base_warp_insts, uint64_t total,
                           int traced)
{
    p->kernel = k;
    p->n_kernels = n;
    p->base_warp_insts = base_warp_insts;
    p->kernel_warp_insts = total;
    p->traced = traced;
}

void smtlm_progress_tick(smtlm_progress *p, const smtlm_gpu *gpu)
{
    if (!p->enabled)
        return;
    const double now = p->clock();
    if (now - p->start < FIRST_AFTER_S || now - p->last < EVERY_S)
        return;
    p->last = now;
    smtlm_progress_state s;
    s.kernel = p->kernel;
    s.n_kernels = p->n_kernels;
    s.cycles = gpu->sim_cycle;
    const uint64_t kernel_insts = smtlm_gpu_sim_warp_insn(gpu);
    s.warp_insts = p->base_warp_insts + kernel_insts;
    s.elapsed_s = now - p->start;
    s.warp_insts_per_s = s.elapsed_s > 0 ? (double)s.warp_insts / s.elapsed_s : 0.0;
    s.traced = p->traced;
    s.tbs_read = gpu->next_cta;
    s.tbs = gpu->ctas_to_run;
    if (p->kernel_warp_insts)
        s.kernel_done = kernel_insts >= p->kernel_warp_insts ? 1.0 : (double)kernel_insts / (double)p->kernel_warp_insts;
    else
        s.kernel_done = gpu->ctas_to_run ? (double)gpu->ctas_done / (double)gpu->ctas_to_run : 0.0;
    char line[256];
    smtlm_progress_format(line, sizeof line, &s);
    fprintf(p->err, "\r%s\033[K", line);
    fflush(p->err);
    p->shown = 1;
}

void smtlm_progress_clear(smtlm_progress *p)
{
    if (p->shown) {
        fprintf(p->err, "\r\033[K");
        fflush(p->err);
        p->shown = 0;
    }
}
