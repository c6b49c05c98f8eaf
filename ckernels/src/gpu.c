/* Kernel launch, CTA dispatch over clusters and cores, and the GPU cycle loop. */
#include "smtlm/gpu.h"

#include <string.h>

void smtlm_gpu_cfg_qv100(smtlm_gpu_cfg *c)
{
    memset(c, 0, sizeof *c);
    smtlm_sm_cfg_qv100(&c->sm);
    c->n_clusters = 80;
    c->cores_per_cluster = 1;
    c->kernel_launch_latency = 5000;
    c->tb_launch_latency = 0;
    c->threads_per_sm = 2048;
    c->shmem_per_sm = 98304;
    c->regs_per_sm = 65536;
    c->max_cta_per_sm = 32;
    c->watchdog_cycles = 100000;
    c->mem_latency = 240;
    c->mem_bytes_per_cycle = 64;
}

void smtlm_gpu_on_cta_done(void *ctx, unsigned sm, unsigned slot, uint32_t cta_id)
{
    smtlm_gpu *gpu = ctx;
    gpu->ctas_done++;
    if (gpu->binder.cta_done)
        gpu->binder.cta_done(gpu->binder.ctx, sm, slot, cta_id);
}

/* ---- the C engine's SMs behind smtlm_sm_ops (ctx = the smtlm_gpu) ---- */

/* An SM not built yet has no work and no CTA; the blank SM answers for its view. Source and
 * hooks are the same for every SM (set in loops over all of them), so the blank one keeps
 * them for SMs built later. */
#define CGPU(ctx) ((smtlm_gpu *)(ctx))
#define CSM(ctx, i) (&CGPU(ctx)->sm[i])
#define CCSM(ctx, i) (((const smtlm_gpu *)(ctx))->sm_built[i] ? &((const smtlm_gpu *)(ctx))->sm[i] \
                                                                : ((const smtlm_gpu *)(ctx))->sm_blank)
#define BUILT(ctx, i) (((const smtlm_gpu *)(ctx))->sm_built[i])
static int c_cycle(void *ctx, unsigned i, uint64_t now) { return smtlm_sm_cycle(CSM(ctx, i), now); }
static int c_active(const void *ctx, unsigned i) { return BUILT(ctx, i) && smtlm_sm_active(CCSM(ctx, i)); }
static int c_quiescent(const void *ctx, unsigned i) { return smtlm_sm_quiescent(CCSM(ctx, i)); }
static void c_skip(void *ctx, unsigned i, uint64_t now, uint64_t k) { smtlm_sm_skip(CSM(ctx, i), now, k); }
static int c_launch(void *ctx, unsigned i, unsigned threads, uint32_t id)
{
    smtlm_gpu *gpu = CGPU(ctx);
    if (!gpu->sm_built[i]) {
        smtlm_sm *sm = &gpu->sm[i];
        const smtlm_sm *b = gpu->sm_blank;
        int rc = smtlm_sm_init(sm, &gpu->cfg.sm, i); /* the blank one passed the same config */
        if (rc)
            return rc;
        smtlm_sm_set_source(sm, &b->src);
        sm->on_retire = b->on_retire;
        sm->retire_ctx = b->retire_ctx;
        sm->on_cta_done = b->on_cta_done;
        sm->hook_ctx = b->hook_ctx;
        gpu->sm_built[i] = 1;
    }
    return smtlm_sm_launch_cta(&gpu->sm[i], threads, id);
}
static unsigned c_ctas(const void *ctx, unsigned i) { return BUILT(ctx, i) ? CCSM(ctx, i)->iss.n_active_ctas : 0; }
static smtlm_sm *settable(void *ctx, unsigned i) { return BUILT(ctx, i) ? CSM(ctx, i) : CGPU(ctx)->sm_blank; }
static void c_set_source(void *ctx, unsigned i, const smtlm_inst_source *src) { smtlm_sm_set_source(settable(ctx, i), src); }
static void c_set_hooks(void *ctx, unsigned i, smtlm_retire_hook retire, void *retire_ctx, smtlm_cta_hook cta, void *cta_ctx)
{
    smtlm_sm *sm = settable(ctx, i);
    sm->on_retire = retire;
    sm->retire_ctx = retire_ctx;
    sm->on_cta_done = cta;
    sm->hook_ctx = cta_ctx;
}
static unsigned c_pending(const void *ctx, unsigned i) { return BUILT(ctx, i) ? smtlm_ldst_pending_requests(&CCSM(ctx, i)->ldst) : 0; }
static void c_mem_cycle(void *ctx, unsigned i, smtlm_mem_model *m, uint64_t now) { smtlm_mem_cycle(m, &CSM(ctx, i)->ldst, now); }
void smtlm_sm_view_of(const smtlm_sm *sm, smtlm_sm_view *v)
{
    const int muon = sm->cfg.muon.enabled, own_oc = !muon && !sm->cfg.silicon.enabled;
    const smtlm_sm_view view = {&sm->cfg, sm->stats, sm->last_progress, sm->error, sm->error_line, sm->reject,
                                sm->reject_detail, &sm->pool, &sm->iss, own_oc ? &sm->oc : NULL, own_oc ? &sm->rf : NULL, &sm->ex, &sm->ldst,
                                muon ? &sm->muon.iss : NULL, muon ? &sm->muon.coll : NULL,
                                sm->cfg.silicon.enabled ? &sm->silicon : NULL};
    *v = view;
}
static void c_view(const void *ctx, unsigned i, smtlm_sm_view *v) { smtlm_sm_view_of(CCSM(ctx, i), v); }

static const smtlm_sm_ops c_ops = {c_cycle, c_active, c_quiescent, c_skip, c_launch, c_ctas,
                                   c_set_source, c_set_hooks, c_pending, c_mem_cycle, c_view};
const smtlm_sm_ops *smtlm_sm_c_ops(void) { return &c_ops; }

/* The Muon composition's SMs (muon mode): their own cycle; they never skip cycles (quiescent
 * only when idle, and then nothing to skip). */
static int c_muon_cycle(void *ctx, unsigned i, uint64_t now) { return smtlm_sm_muon_cycle(CSM(ctx, i), now); }
static int c_muon_quiescent(const void *ctx, unsigned i) { return !smtlm_sm_active(CCSM(ctx, i)); }
static void c_muon_skip(void *ctx, unsigned i, uint64_t now, uint64_t k) { (void)ctx, (void)i, (void)now, (void)k; }
static const smtlm_sm_ops c_muon_ops = {c_muon_cycle, c_active, c_muon_quiescent, c_muon_skip, c_launch, c_ctas,
                                        c_set_source, c_set_hooks, c_pending, c_mem_cycle, c_view};

/* The silicon core's SMs (-smtlm_core silicon): their own cycle; they never skip cycles either. */
static int c_silicon_cycle(void *ctx, unsigned i, uint64_t now) { return smtlm_sm_silicon_cycle(CSM(ctx, i), now); }
static const smtlm_sm_ops c_silicon_ops = {c_silicon_cycle, c_active, c_muon_quiescent, c_muon_skip, c_launch, c_ctas,
                                           c_set_source, c_set_hooks, c_pending, c_mem_cycle, c_view};

/* The C engine's SM operations for the composition cfg selects. */
static const smtlm_sm_ops *c_ops_for(const smtlm_gpu_cfg *cfg)
{
    return cfg->sm.silicon.enabled ? &c_silicon_ops : cfg->sm.muon.enabled ? &c_muon_ops : &c_ops;
}

/* Checks the GPU-level fields; SMTLM_OK or a code with the reason in gpu->cfg_error. */
static int check_cfg(smtlm_gpu *gpu, const smtlm_gpu_cfg *cfg)
{
    const char **e = &gpu->cfg_error;
    if (cfg->n_clusters == 0 || cfg->cores_per_cluster == 0)
        return smtlm_cfg_reject(e, SMTLM_EINVAL, "GPU: n_clusters and cores_per_cluster (-gpgpu_n_clusters, "
                                "-gpgpu_n_cores_per_cluster) must be at least 1");
    if (cfg->threads_per_sm == 0)
        return smtlm_cfg_reject(e, SMTLM_EINVAL, "GPU: threads_per_sm (-gpgpu_shader_core_pipeline) must be at least 32");
    if (cfg->max_cta_per_sm == 0)
        return smtlm_cfg_reject(e, SMTLM_EINVAL, "GPU: max_cta_per_sm (-gpgpu_shader_cta) must be at least 1");
    if (cfg->n_clusters > SMTLM_MAX_CLUSTERS || cfg->cores_per_cluster > 0xFFFF ||
        (uint64_t)cfg->n_clusters * cfg->cores_per_cluster > SMTLM_MAX_SMS)
        return smtlm_cfg_reject(e, SMTLM_ERANGE, "GPU: n_clusters x cores_per_cluster exceeds SMTLM_MAX_SMS");
    if (cfg->threads_per_sm / SMTLM_WARP_SIZE != cfg->sm.issue.max_warps) /* warp slots follow the thread count */
        return smtlm_cfg_reject(e, SMTLM_EINVAL, "GPU: sm.issue.max_warps must be threads_per_sm / 32");
    return SMTLM_OK;
}

/* Everything but building the SMs. */
static int attach(smtlm_gpu *gpu, const smtlm_gpu_cfg *cfg, const smtlm_sm_ops *ops, void *ctx, smtlm_mem_model *mems)
{
    gpu->cfg = *cfg;
    gpu->horizon = UINT64_MAX;
    gpu->n_sm = smtlm_gpu_num_sms(cfg);
    gpu->ops = ops;
    gpu->sm_ctx = ctx;
    gpu->mem = mems;
    for (unsigned i = 0; i < gpu->n_sm; i++) {
        ops->set_hooks(ctx, i, 0, 0, smtlm_gpu_on_cta_done, gpu);
        int rc = smtlm_mem_init(&mems[i], cfg->mem_latency, cfg->mem_bytes_per_cycle);
        if (rc)
            return smtlm_cfg_reject(&gpu->cfg_error, rc, "memory: bytes_per_cycle (-smtlm_mem_bytes_per_cycle) must be at least 1");
    }
    gpu->last_cluster_issue = cfg->n_clusters - 1; /* so cluster 0 goes first */
    for (unsigned c = 0; c < cfg->n_clusters; c++)
        gpu->next_core[c] = (uint16_t)(cfg->cores_per_cluster - 1); /* core 0 first */
    gpu->status = SMTLM_RUN_DONE;
    return SMTLM_OK;
}

int smtlm_gpu_init(smtlm_gpu *gpu, const smtlm_gpu_cfg *cfg, smtlm_sm *sms, smtlm_mem_model *mems)
{
    memset(gpu, 0, sizeof *gpu);
    int rc = check_cfg(gpu, cfg);
    if (rc)
        return rc;
    for (unsigned i = 0; i < smtlm_gpu_num_sms(cfg); i++) {
        if ((rc = smtlm_sm_init(&sms[i], &cfg->sm, i)))
            return smtlm_cfg_reject(&gpu->cfg_error, rc, sms[i].cfg_error ? sms[i].cfg_error : "SM: rejected");
        gpu->sm_built[i] = 1;
    }
    gpu->sm = sms;
    gpu->sm_blank = &sms[0]; /* every SM is built: never consulted */
    return attach(gpu, cfg, c_ops_for(cfg), gpu, mems);
}

int smtlm_gpu_init_lazy(smtlm_gpu *gpu, const smtlm_gpu_cfg *cfg, smtlm_sm *sms, smtlm_mem_model *mems)
{
    memset(gpu, 0, sizeof *gpu);
    int rc = check_cfg(gpu, cfg);
    if (rc)
        return rc;
    const unsigned n = smtlm_gpu_num_sms(cfg);
    if ((rc = smtlm_sm_init(&sms[n], &cfg->sm, n)))
        return smtlm_cfg_reject(&gpu->cfg_error, rc, sms[n].cfg_error ? sms[n].cfg_error : "SM: rejected");
    gpu->sm = sms;
    gpu->sm_blank = &sms[n];
    return attach(gpu, cfg, c_ops_for(cfg), gpu, mems);
}

int smtlm_gpu_init_engine(smtlm_gpu *gpu, const smtlm_gpu_cfg *cfg, const smtlm_sm_ops *ops, void *ctx,
                          smtlm_mem_model *mems)
{
    memset(gpu, 0, sizeof *gpu);
    int rc = check_cfg(gpu, cfg);
    return rc ? rc : attach(gpu, cfg, ops, ctx, mems);
}

void smtlm_gpu_set_source(smtlm_gpu *gpu, const smtlm_inst_source *src, const smtlm_cta_binder *binder)
{
    for (unsigned i = 0; i < gpu->n_sm; i++)
        gpu->ops->set_source(gpu->sm_ctx, i, src);
    if (binder)
        gpu->binder = *binder;
    else
        memset(&gpu->binder, 0, sizeof gpu->binder);
}

void smtlm_gpu_set_retire_hook(smtlm_gpu *gpu, smtlm_retire_hook hook, void *ctx)
{
    gpu->retire_hook = hook;
    gpu->retire_ctx = ctx;
    for (unsigned i = 0; i < gpu->n_sm; i++)
        gpu->ops->set_hooks(gpu->sm_ctx, i, hook, ctx, smtlm_gpu_on_cta_done, gpu);
}

unsigned smtlm_gpu_max_cta(const smtlm_gpu *gpu, const smtlm_kernel_desc *k, smtlm_cta_limit *limit)
{
    const smtlm_gpu_cfg *c = &gpu->cfg;
    /* In 64 bits: a kernel's sizes may be anything a caller passes, and no product may wrap
     * (a wrapped product of 0 would be a division by zero). */
    const uint64_t pad = ((uint64_t)k->threads_per_cta + SMTLM_WARP_SIZE - 1) / SMTLM_WARP_SIZE * SMTLM_WARP_SIZE;
    uint64_t best = pad ? c->threads_per_sm / pad : 0;
    smtlm_cta_limit why = SMTLM_LIMIT_THREADS;
    if (k->shmem_per_cta > 0 && c->shmem_per_sm / k->shmem_per_cta < best) {
        best = c->shmem_per_sm / k->shmem_per_cta;
        why = SMTLM_LIMIT_SHMEM;
    }
    if (k->regs_per_thread > 0 && pad > 0) { /* per-thread registers rounded up to a multiple of 4 */
        const uint64_t regs = ((uint64_t)k->regs_per_thread + 3) / 4 * 4;
        const uint64_t by_regs = regs > c->regs_per_sm / pad ? 0 : c->regs_per_sm / (pad * regs);
        if (by_regs < best) {
            best = by_regs;
            why = SMTLM_LIMIT_REGS;
        }
    }
    unsigned cap = c->max_cta_per_sm < SMTLM_MAX_CTAS ? c->max_cta_per_sm : SMTLM_MAX_CTAS;
    if (cap < best) {
        best = cap;
        why = SMTLM_LIMIT_CTAS;
    }
    /* Small grids are spread over the SMs rather than packed. */
    if ((uint64_t)k->n_ctas < best * gpu->n_sm) {
        best = ((uint64_t)k->n_ctas + gpu->n_sm - 1) / gpu->n_sm;
        why = SMTLM_LIMIT_GRID;
    }
    if (best < 1 && c->ignore_resources_limitation)
        best = 1;
    if (limit)
        *limit = why;
    return (unsigned)best; /* at most SMTLM_MAX_CTAS */
}

int smtlm_gpu_kernel_fits(const smtlm_gpu *gpu, const smtlm_kernel_desc *k)
{
    smtlm_cta_limit why;
    if (k->threads_per_cta == 0 || k->threads_per_cta > gpu->cfg.threads_per_sm)
        return 0;
    return smtlm_gpu_max_cta(gpu, k, &why) > 0 || k->n_ctas == 0;
}

int smtlm_gpu_launch(smtlm_gpu *gpu, const smtlm_kernel_desc *k)
{
    if (!smtlm_gpu_kernel_fits(gpu, k))
        return SMTLM_EINVAL;
    gpu->max_cta_per_sm = smtlm_gpu_max_cta(gpu, k, &gpu->cta_limit);
    gpu->k = *k;
    gpu->kernel_active = 1;
    gpu->next_cta = 0;
    gpu->ctas_done = 0;
    gpu->ctas_to_run = k->n_ctas;
    if (gpu->cfg.max_cta) {
        uint64_t left = gpu->cfg.max_cta > gpu->total_ctas_issued ? gpu->cfg.max_cta - gpu->total_ctas_issued : 0;
        if (left < gpu->ctas_to_run)
            gpu->ctas_to_run = (uint32_t)left;
    }
    gpu->launch_countdown = gpu->cfg.kernel_launch_latency + (uint64_t)k->n_ctas * gpu->cfg.tb_launch_latency;
    gpu->sim_cycle = 0;
    gpu->poll_next = SMTLM_POLL_CYCLES;
    gpu->series_next = SMTLM_SERIES_CYCLES;
    gpu->start_thread_insts = gpu->start_warp_insts = 0;
    for (unsigned i = 0; i < gpu->n_sm; i++) {
        smtlm_sm_view v;
        smtlm_gpu_sm_view(gpu, i, &v);
        gpu->start_thread_insts += v.stats.thread_insts;
        gpu->start_warp_insts += v.stats.warp_insts;
        gpu->start_active_cycles[i] = v.stats.active_cycles;
    }
    gpu->status = SMTLM_RUN_RUNNING;
    gpu->error = SMTLM_OK;
    gpu->horizon = UINT64_MAX;
    gpu->skip_event = 0;
    return SMTLM_OK;
}

/* Adds SM s to the live list, keeping index order. */
static void make_live(smtlm_gpu *gpu, unsigned s)
{
    if (gpu->is_live[s])
        return;
    unsigned k = gpu->n_live++;
    while (k > 0 && gpu->live[k - 1] > s) {
        gpu->live[k] = gpu->live[k - 1];
        k--;
    }
    gpu->live[k] = (uint16_t)s;
    gpu->is_live[s] = 1;
}

/* The per-cycle SM calls of smtlm_gpu_step. `direct` (a constant in each copy): the ops are the
 * C engine's own (smtlm_sm_c_ops on this GPU), called directly where the compiler can inline
 * them; the same functions run either way. */
#define SM_CALL(gpu, direct, c_fn, op, ...) ((direct) ? c_fn((gpu), __VA_ARGS__) : (gpu)->ops->op((gpu)->sm_ctx, __VA_ARGS__))

static SMTLM_ALWAYS_INLINE int sm_has_work_(smtlm_gpu *gpu, unsigned s, int direct)
{
    return SM_CALL(gpu, direct, c_active, active, s) || smtlm_mem_busy(&gpu->mem[s]) ||
           SM_CALL(gpu, direct, c_pending, pending_requests, s);
}

static int issue_cta(smtlm_gpu *gpu, unsigned s)
{
    const uint32_t id = gpu->next_cta;
    int slot = gpu->ops->launch_cta(gpu->sm_ctx, s, gpu->k.threads_per_cta, id);
    if (slot < 0)
        return slot;
    gpu->next_cta++;
    gpu->total_ctas_issued++;
    make_live(gpu, s);
    if (gpu->binder.cta_start) {
        unsigned wpc = (gpu->k.threads_per_cta + SMTLM_WARP_SIZE - 1) / SMTLM_WARP_SIZE;
        int rc = gpu->binder.cta_start(gpu->binder.ctx, s, (unsigned)slot, (unsigned)slot * wpc, wpc, id);
        if (rc < 0)
            return SMTLM_ESOURCE;
    }
    return SMTLM_OK;
}

/* GPGPU-Sim issue_block2core: at most one CTA per cluster per cycle, clusters round robin
 * from the last one that issued, cores round robin inside a cluster. */
static int issue_block2core(smtlm_gpu *gpu)
{
    if (!gpu->kernel_active || gpu->launch_countdown || gpu->next_cta >= gpu->ctas_to_run)
        return SMTLM_OK;
    const unsigned ncl = gpu->cfg.n_clusters, ncore = gpu->cfg.cores_per_cluster;
    const unsigned first = gpu->last_cluster_issue + 1;
    for (unsigned i = 0; i < ncl && gpu->next_cta < gpu->ctas_to_run; i++) {
        unsigned cl = (first + i) % ncl;
        for (unsigned c = 0; c < ncore; c++) {
            unsigned core = (gpu->next_core[cl] + 1 + c) % ncore;
            unsigned s = cl * ncore + core;
            if (gpu->ops->resident_ctas(gpu->sm_ctx, s) >= gpu->max_cta_per_sm)
                continue;
            int rc = issue_cta(gpu, s);
            if (rc)
                return rc;
            gpu->next_core[cl] = (uint16_t)core;
            gpu->last_cluster_issue = cl;
            break;
        }
    }
    return SMTLM_OK;
}

uint64_t smtlm_gpu_sim_insn(const smtlm_gpu *gpu)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < gpu->n_sm; i++) {
        smtlm_sm_view v;
        smtlm_gpu_sm_view(gpu, i, &v);
        n += v.stats.thread_insts;
    }
    return n - gpu->start_thread_insts;
}

uint64_t smtlm_gpu_sim_warp_insn(const smtlm_gpu *gpu)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < gpu->n_sm; i++) {
        smtlm_sm_view v;
        smtlm_gpu_sm_view(gpu, i, &v);
        n += v.stats.warp_insts;
    }
    return n - gpu->start_warp_insts;
}

int smtlm_gpu_fail(smtlm_gpu *gpu, int rc, unsigned s)
{
    gpu->error = rc;
    gpu->error_sm = s;
    gpu->error_line = 0;
    if (s < gpu->n_sm) {
        smtlm_sm_view v;
        smtlm_gpu_sm_view(gpu, s, &v);
        gpu->error_line = v.error_line;
    }
    gpu->status = SMTLM_RUN_ERROR;
    return rc;
}

/* The watchdog's notion of progress: an instruction issued or retired, a memory request
 * accepted or answered. A request in flight (or queued at the SM's memory port) is progress
 * too: the memory answers it at a known cycle, so a slow memory is never a deadlock. */
static uint64_t last_progress(const smtlm_gpu *gpu, uint64_t now)
{
    uint64_t p = 0;
    for (unsigned i = 0; i < gpu->n_sm; i++) {
        if (smtlm_mem_busy(&gpu->mem[i]) || gpu->ops->pending_requests(gpu->sm_ctx, i))
            return now;
        smtlm_sm_view v;
        smtlm_gpu_sm_view(gpu, i, &v);
        if (v.last_progress > p)
            p = v.last_progress;
        if (gpu->mem[i].last_event > p)
            p = gpu->mem[i].last_event;
    }
    return p;
}

/* The end-of-step checks (smtlm_gpu_stop_checks), inline in the step. */
static SMTLM_ALWAYS_INLINE void stop_checks(smtlm_gpu *gpu, uint64_t now)
{
    if (gpu->series_hook && gpu->sim_cycle >= gpu->series_next) {
        gpu->series_next = (gpu->sim_cycle / SMTLM_SERIES_CYCLES + 1) * SMTLM_SERIES_CYCLES;
        gpu->series_hook(gpu->series_ctx, gpu);
    }
    int stop = 0;
    if (gpu->poll_hook && gpu->sim_cycle >= gpu->poll_next) {
        gpu->poll_next = (gpu->sim_cycle / SMTLM_POLL_CYCLES + 1) * SMTLM_POLL_CYCLES;
        stop = gpu->poll_hook(gpu->poll_ctx, gpu);
    }
    if (gpu->ctas_done >= gpu->ctas_to_run && gpu->next_cta >= gpu->ctas_to_run && !gpu->launch_countdown) {
        gpu->kernel_active = 0;
        gpu->status = SMTLM_RUN_DONE;
    } else if (gpu->cfg.max_cycle && gpu->tot_cycle + gpu->sim_cycle >= gpu->cfg.max_cycle) {
        gpu->status = SMTLM_RUN_MAX_CYCLE;
    } else if (gpu->cfg.max_insn && gpu->tot_insn + smtlm_gpu_sim_insn(gpu) >= gpu->cfg.max_insn) {
        gpu->status = SMTLM_RUN_MAX_INSN;
    } else if (gpu->cfg.watchdog_cycles && (gpu->sim_cycle & 1023) == 0 && !gpu->launch_countdown) {
        uint64_t p = last_progress(gpu, now);
        uint64_t start = gpu->tot_cycle + gpu->cfg.kernel_launch_latency;
        if (p < start)
            p = start;
        if (now + 1 - p >= gpu->cfg.watchdog_cycles)
            gpu->status = SMTLM_RUN_DEADLOCK;
    }
    if (stop && gpu->status == SMTLM_RUN_RUNNING) /* a kernel that ended on this cycle ended */
        gpu->status = SMTLM_RUN_STOPPED;
}

/* Cycle `now` of every live SM (its memory port, then the SM), dropping the SMs left without
 * work. 0 when an SM or its memory failed (gpu->status says how). */
static SMTLM_ALWAYS_INLINE int cycle_sms(smtlm_gpu *gpu, uint64_t now, int direct)
{
    unsigned kept = 0;
    for (unsigned k = 0; k < gpu->n_live; k++) {
        const unsigned i = gpu->live[k];
        if (SM_CALL(gpu, direct, c_pending, pending_requests, i) || smtlm_mem_busy(&gpu->mem[i])) {
            SM_CALL(gpu, direct, c_mem_cycle, mem_cycle, i, &gpu->mem[i], now);
            if (gpu->mem[i].error) { /* an error response: the kernel ends (gpu->mem[i].error_req) */
                smtlm_gpu_fail(gpu, gpu->mem[i].error, i);
                return 0;
            }
        }
        if (SM_CALL(gpu, direct, c_active, active, i)) {
            int rc = SM_CALL(gpu, direct, c_cycle, cycle, i, now);
            if (rc) {
                smtlm_gpu_fail(gpu, rc, i);
                return 0;
            }
        }
        if (sm_has_work_(gpu, i, direct))
            gpu->live[kept++] = (uint16_t)i;
        else
            gpu->is_live[i] = 0;
    }
    gpu->n_live = kept;
    return 1;
}

/* smtlm_gpu_step, inline in the run loops. */
static SMTLM_ALWAYS_INLINE smtlm_run_status step(smtlm_gpu *gpu)
{
    if (gpu->status != SMTLM_RUN_RUNNING)
        return gpu->status;
    if (gpu->launch_countdown > 1 && gpu->ctas_done == gpu->next_cta && gpu->n_live == 0) {
        /* Nothing can happen before the countdown ends: jump to its last cycle (the counts
         * move exactly as cycle-by-cycle stepping would move them). */
        uint64_t skip = gpu->launch_countdown - 1;
        const uint64_t t = gpu->tot_cycle + gpu->sim_cycle;
        if (gpu->cfg.max_cycle) {
            uint64_t room = gpu->cfg.max_cycle > t + 1 ? gpu->cfg.max_cycle - t - 1 : 0;
            if (skip > room)
                skip = room;
        }
        if (t + skip >= gpu->horizon) { /* a batch's end: jump to it, the step comes later */
            gpu->launch_countdown -= gpu->horizon - t;
            gpu->sim_cycle += gpu->horizon - t;
            return gpu->status;
        }
        gpu->sim_cycle += skip;
        gpu->launch_countdown -= skip;
    }
    const uint64_t now = gpu->tot_cycle + gpu->sim_cycle;
    if (gpu->ops == &c_ops && gpu->sm_ctx == gpu ? !cycle_sms(gpu, now, 1) : !cycle_sms(gpu, now, 0))
        return gpu->status;
    if (gpu->sample_hook)
        gpu->sample_hook(gpu->sample_ctx, gpu, now, 1);
    gpu->sim_cycle++;
    /* issue_block2core's own first test, here: most steps have no CTA to issue */
    int rc = gpu->kernel_active && !gpu->launch_countdown && gpu->next_cta < gpu->ctas_to_run ? issue_block2core(gpu)
                                                                                              : SMTLM_OK;
    if (rc) {
        smtlm_gpu_fail(gpu, rc, gpu->n_sm);
        return gpu->status;
    }
    if (gpu->launch_countdown)
        gpu->launch_countdown--;
    stop_checks(gpu, now);
    return gpu->status;
}

smtlm_run_status smtlm_gpu_step(smtlm_gpu *gpu) { return step(gpu); }

void smtlm_gpu_set_sample_hook(smtlm_gpu *gpu, smtlm_sample_hook hook, void *ctx)
{
    gpu->sample_hook = hook;
    gpu->sample_ctx = ctx;
}

void smtlm_gpu_set_poll_hook(smtlm_gpu *gpu, smtlm_poll_hook hook, void *ctx)
{
    gpu->poll_hook = hook;
    gpu->poll_ctx = ctx;
}

void smtlm_gpu_set_series_hook(smtlm_gpu *gpu, smtlm_series_hook hook, void *ctx)
{
    gpu->series_hook = hook;
    gpu->series_ctx = ctx;
}

void smtlm_gpu_stop_checks(smtlm_gpu *gpu, uint64_t now) { stop_checks(gpu, now); }

/* The skip itself, once a response beyond the next cycle is known (skip_idle). */
static void skip_to(smtlm_gpu *gpu, uint64_t event, uint64_t next)
{
    for (unsigned k = 0; k < gpu->n_live; k++) {
        const unsigned i = gpu->live[k];
        if (gpu->ops->pending_requests(gpu->sm_ctx, i) || !gpu->ops->quiescent(gpu->sm_ctx, i))
            return;
    }
    uint64_t k = event - next;
    /* the skip stops the cycle before the next check, whose step then runs the checks */
    const uint64_t end = smtlm_gpu_sms_alone_until(gpu, UINT64_MAX);
    if (next + k >= end)
        k = end > next + 1 ? end - next - 1 : 0;
    if (next + k > gpu->horizon) { /* a batch's end: the rest at the next batch's start */
        k = gpu->horizon - next;
        gpu->skip_event = event;
    }
    if (k == 0)
        return;
    for (unsigned j = 0; j < gpu->n_live; j++) {
        const unsigned i = gpu->live[j];
        gpu->ops->skip(gpu->sm_ctx, i, next, k);
        smtlm_mem_model *m = &gpu->mem[i]; /* credit recovers as it would cycle by cycle */
        int64_t credit = m->credit + (int64_t)(k * m->bytes_per_cycle);
        m->credit = credit > (int64_t)m->bytes_per_cycle ? (int64_t)m->bytes_per_cycle : credit;
    }
    gpu->sim_cycle += k;
    gpu->skipped_cycles += k;
    if (gpu->sample_hook)
        gpu->sample_hook(gpu->sample_ctx, gpu, next, k);
}

/* When every SM with work is quiescent and only memory responses are on their way, jumps to
 * the cycle of the next response, accounting the cycles in between in bulk. The jump stops
 * before the next watchdog check and before -gpgpu_max_cycle, so stopping is unchanged.
 * This is the cheap first part, inline in the run loops; skip_to does the rest. */
static SMTLM_ALWAYS_INLINE void skip_idle(smtlm_gpu *gpu)
{
    if (gpu->cfg.no_skip || gpu->launch_countdown || gpu->next_cta < gpu->ctas_to_run || gpu->n_live == 0)
        return;
    if (gpu->skip_event) { /* the rest of a skip the last batch's end cut */
        const uint64_t event = gpu->skip_event;
        gpu->skip_event = 0;
        skip_to(gpu, event, gpu->tot_cycle + gpu->sim_cycle);
        return;
    }
    /* The next response first: without one beyond the next cycle there is nothing to jump to,
     * and the SMs' (side-effect free) quiescence tests need not run. */
    uint64_t event = UINT64_MAX;
    for (unsigned k = 0; k < gpu->n_live; k++) {
        const uint64_t e = smtlm_mem_next_ready(&gpu->mem[gpu->live[k]]);
        if (e < event)
            event = e;
    }
    const uint64_t next = gpu->tot_cycle + gpu->sim_cycle; /* the cycle the next step runs */
    if (event == UINT64_MAX || event <= next + 1)
        return;
    skip_to(gpu, event, next);
}

void smtlm_gpu_skip_idle(smtlm_gpu *gpu) { skip_idle(gpu); }

/* ---- the run loop's calm stretches ---- */

/* SM i (built) at the start of a cycle: its step is its SM cycle alone (no memory traffic to
 * move), and it has work; at the end of one: it stays live and the next cycle is the same.
 * direct: the C engine's own SMs, read in place; else asked through the SM operations (the
 * SystemC engine), the same questions cycle_sms asks. */
static SMTLM_ALWAYS_INLINE int calm_sm(const smtlm_gpu *gpu, unsigned i, int direct)
{
    if (!direct)
        return gpu->ops->active(gpu->sm_ctx, i) && !gpu->ops->pending_requests(gpu->sm_ctx, i) &&
               !smtlm_mem_busy(&gpu->mem[i]);
    const smtlm_sm *sm = &gpu->sm[i];
    return smtlm_sm_active(sm) & !smtlm_ldst_pending_requests(&sm->ldst) & !smtlm_mem_busy(&gpu->mem[i]);
}

static SMTLM_ALWAYS_INLINE int calm_sm_cycle(smtlm_gpu *gpu, unsigned i, uint64_t now, int direct)
{
    return direct ? smtlm_sm_cycle(&gpu->sm[i], now) : gpu->ops->cycle(gpu->sm_ctx, i, now);
}

/* The first sim_cycle, after a step, at which the stop checks could do more than find the
 * kernel done: the next watchdog check, a hook's cycle, -gpgpu_max_cycle. */
static uint64_t next_check(const smtlm_gpu *gpu)
{
    uint64_t end = (gpu->sim_cycle | 1023) + 1;
    if (gpu->series_hook && gpu->series_next < end)
        end = gpu->series_next;
    if (gpu->poll_hook && gpu->poll_next < end)
        end = gpu->poll_next;
    if (gpu->cfg.max_cycle) {
        const uint64_t m = gpu->cfg.max_cycle > gpu->tot_cycle ? gpu->cfg.max_cycle - gpu->tot_cycle : 0;
        if (m < end)
            end = m;
    }
    return end;
}

uint64_t smtlm_gpu_sms_alone_until(const smtlm_gpu *gpu, uint64_t limit)
{
    const uint64_t now = gpu->tot_cycle + gpu->sim_cycle;
    if (gpu->launch_countdown || gpu->next_cta < gpu->ctas_to_run)
        return now;
    const uint64_t end = gpu->tot_cycle + next_check(gpu);
    const uint64_t first = end < limit ? end : limit;
    return first > now ? first : now;
}

/* The rest of cycle `now`'s cycle_sms after live SM k, already cycled, left the calm state
 * (the SMs before it stay live), then the rest of its step. */
static void calm_leave(smtlm_gpu *gpu, unsigned k, uint64_t now, int direct)
{
    unsigned kept = k;
    for (;;) {
        const unsigned i = gpu->live[k];
        if (sm_has_work_(gpu, i, direct))
            gpu->live[kept++] = (uint16_t)i;
        else
            gpu->is_live[i] = 0;
        if (++k == gpu->n_live)
            break;
        const int rc = calm_sm_cycle(gpu, gpu->live[k], now, direct); /* calm at the start of the cycle */
        if (rc) {
            smtlm_gpu_fail(gpu, rc, gpu->live[k]);
            return;
        }
    }
    gpu->n_live = kept;
    gpu->sim_cycle++;
    stop_checks(gpu, now);
}

/* run_calm's cycles over the n live SMs up to `end`. Inlined three times: for the C engine's
 * SMs with n == 1 (the usual one-SM run: the SM's place is read once, before the loop, and
 * kept in a register) and with n, and through the SM operations (direct == 0). */
static SMTLM_ALWAYS_INLINE void calm_cycles(smtlm_gpu *gpu, unsigned n, uint64_t end, int direct)
{
    const uint64_t base = gpu->tot_cycle;
    const uint32_t to_run = gpu->ctas_to_run;
    const unsigned first = gpu->live[0];
    for (uint64_t sim = gpu->sim_cycle; sim + 1 < end;) {
        const uint64_t now = base + sim;
        for (unsigned k = 0; k < n; k++) { /* cycle_sms, its memory and active tests known */
            const unsigned i = n == 1 ? first : gpu->live[k];
            const int rc = calm_sm_cycle(gpu, i, now, direct);
            if (rc) {
                smtlm_gpu_fail(gpu, rc, i);
                return;
            }
            if (!calm_sm(gpu, i, direct)) {
                calm_leave(gpu, k, now, direct);
                return;
            }
        }
        gpu->sim_cycle = ++sim;
        if (gpu->ctas_done >= to_run) {
            stop_checks(gpu, now);
            return;
        }
    }
}

/* Steps, each with its idle skip, while only the SMs' own cycles can change anything (up to
 * smtlm_gpu_sms_alone_until with run_until's batch end as `limit`), no sample hook or
 * -gpgpu_max_insn reads every SM after every cycle, and every live SM is calm (so no memory
 * cycle runs, the live list stays, and skip_idle finds no response to jump to). Leaves after
 * the first cycle that breaks one of these; step() then runs as ever. Hooks called from the
 * SMs see the GPU as step() leaves it. */
static void run_calm(smtlm_gpu *gpu, uint64_t limit)
{
    if (gpu->status != SMTLM_RUN_RUNNING || gpu->sample_hook || gpu->cfg.max_insn || gpu->n_live == 0)
        return;
    const uint64_t end = smtlm_gpu_sms_alone_until(gpu, limit) - gpu->tot_cycle; /* as a sim_cycle */
    if (end <= gpu->sim_cycle + 1)
        return;
    const int direct = gpu->ops == &c_ops && gpu->sm_ctx == gpu;
    const unsigned n = gpu->n_live;
    for (unsigned k = 0; k < n; k++)
        if (direct ? !gpu->sm_built[gpu->live[k]] || !calm_sm(gpu, gpu->live[k], 1) : !calm_sm(gpu, gpu->live[k], 0))
            return;
    if (!direct)
        calm_cycles(gpu, n, end, 0);
    else if (n == 1)
        calm_cycles(gpu, 1, end, 1);
    else
        calm_cycles(gpu, n, end, 1);
}

void smtlm_gpu_run_calm(smtlm_gpu *gpu, uint64_t limit) { run_calm(gpu, limit); }

void smtlm_gpu_set_window(smtlm_gpu *gpu, smtlm_window_fn fn, void *ctx)
{
    gpu->window = fn;
    gpu->window_ctx = ctx;
}

/* The end of the window the SMs can run now, or 0 when none can: the run loop's choice between
 * a window and a calm stretch. A window never crosses the batch's end (the horizon). */
static SMTLM_ALWAYS_INLINE uint64_t window_end(const smtlm_gpu *gpu)
{
    if (!gpu->window || gpu->n_live < 2 || gpu->status != SMTLM_RUN_RUNNING || gpu->cfg.max_insn || gpu->sample_hook)
        return 0;
    const uint64_t end = smtlm_gpu_sms_alone_until(gpu, gpu->horizon);
    return end > gpu->tot_cycle + gpu->sim_cycle ? end : 0;
}

smtlm_run_status smtlm_gpu_run(smtlm_gpu *gpu) { return smtlm_gpu_run_until(gpu, UINT64_MAX); }

smtlm_run_status smtlm_gpu_run_until(smtlm_gpu *gpu, uint64_t limit)
{
    gpu->horizon = limit;
    if (gpu->skip_event && gpu->status == SMTLM_RUN_RUNNING)
        skip_idle(gpu); /* the rest of the skip the last batch cut */
    /* the horizon, not `limit`: a memory port answering later may bring it closer (to the
     * cycle after the request) */
    while (gpu->tot_cycle + gpu->sim_cycle < gpu->horizon && step(gpu) == SMTLM_RUN_RUNNING) {
        skip_idle(gpu);
        for (uint64_t end; (end = window_end(gpu));) { /* each window ends where a step must run */
            gpu->window(gpu->window_ctx, gpu, end);
            if (gpu->status == SMTLM_RUN_RUNNING)
                skip_idle(gpu);
        }
        run_calm(gpu, gpu->horizon);
    }
    gpu->horizon = UINT64_MAX;
    return gpu->status;
}

void smtlm_gpu_end_kernel(smtlm_gpu *gpu)
{
    gpu->tot_insn += smtlm_gpu_sim_insn(gpu);
    gpu->tot_warp_insn += smtlm_gpu_sim_warp_insn(gpu);
    gpu->start_thread_insts += smtlm_gpu_sim_insn(gpu);
    gpu->start_warp_insts += smtlm_gpu_sim_warp_insn(gpu);
    gpu->tot_cycle += gpu->sim_cycle;
    gpu->sim_cycle = 0;
    gpu->kernel_active = 0;
}
