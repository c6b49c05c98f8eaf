/* The C engine's GPU: N SMs, kernel launch latency, the thread-block (CTA) dispatcher with
 * GPGPU-Sim's occupancy rule, a memory model per SM, run limits and a watchdog.
 * Kernels run one after another. The caller owns the memory (arrays of SMs and memory models):
 * nothing here allocates. One step = one core cycle, in GPGPU-Sim's order:
 *   memory -> every active SM's cycle -> gpu_sim_cycle++ -> CTA issue -> launch countdown. */
#ifndef SMTLM_GPU_H
#define SMTLM_GPU_H

#include "smtlm/mem_model.h"
#include "smtlm/sm.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SMTLM_MAX_CLUSTERS 1024
#define SMTLM_MAX_SMS 4096

typedef struct smtlm_gpu_cfg {
    smtlm_sm_cfg sm;
    unsigned n_clusters, cores_per_cluster;
    unsigned kernel_launch_latency;   /* -gpgpu_kernel_launch_latency */
    unsigned tb_launch_latency;       /* -gpgpu_TB_launch_latency (a one-off lump per kernel) */
    unsigned threads_per_sm;          /* -gpgpu_shader_core_pipeline threads */
    unsigned shmem_per_sm;            /* -gpgpu_shmem_size */
    unsigned regs_per_sm;             /* -gpgpu_shader_registers */
    unsigned max_cta_per_sm;          /* -gpgpu_shader_cta */
    int ignore_resources_limitation;
    uint64_t max_cycle, max_insn, max_cta; /* 0 = unlimited */
    unsigned watchdog_cycles;         /* 0 = off */
    unsigned mem_latency, mem_bytes_per_cycle;
    int no_skip;                      /* 1: step every cycle even when every SM only waits */
} smtlm_gpu_cfg;

void smtlm_gpu_cfg_qv100(smtlm_gpu_cfg *cfg);

typedef struct smtlm_kernel_desc {
    uint32_t n_ctas;
    uint32_t threads_per_cta;
    uint32_t shmem_per_cta;
    uint32_t regs_per_thread;
} smtlm_kernel_desc;

/* Binds CTAs to the instruction source: called when a CTA lands on an SM (its warps are
 * first_warp .. first_warp + n_warps - 1) and when it finishes. */
typedef struct smtlm_cta_binder {
    void *ctx;
    int (*cta_start)(void *ctx, unsigned sm, unsigned slot, unsigned first_warp, unsigned n_warps, uint32_t cta_id);
    void (*cta_done)(void *ctx, unsigned sm, unsigned slot, uint32_t cta_id);
} smtlm_cta_binder;

/* What statistics and diagnostics read of one SM, whatever engine runs it: its counters and
 * read-only views of its blocks' kernel states. */
typedef struct smtlm_sm_view {
    const smtlm_sm_cfg *cfg;
    smtlm_sm_stats stats;
    uint64_t last_progress;
    int error;
    uint32_t error_line;
    smtlm_reject reject;
    unsigned reject_detail;
    const smtlm_inst_pool *pool;
    const smtlm_issue *iss;
    const smtlm_opcoll *oc;        /* gpgpusim mode: collector and register file (else NULL) */
    const smtlm_rf *rf;
    const smtlm_exec *ex;
    const smtlm_ldst *ldst;
    const smtlm_muon_issue *muon;  /* muon mode's issue block and collector (NULL in gpgpusim mode) */
    const smtlm_muon_coll *muon_coll;
    const smtlm_silicon *silicon;  /* the silicon core (NULL in the other modes) */
} smtlm_sm_view;
/* The view of one C SM (both engines' SMs are smtlm_sm underneath). */
void smtlm_sm_view_of(const smtlm_sm *sm, smtlm_sm_view *v);

/* How smtlm_gpu drives its SMs (SM i of the engine's `ctx`): the C engine's smtlm_sm array
 * (smtlm_gpu_init), or another engine's SMs such as the SystemC Sm modules
 * (smtlm_gpu_init_engine). The GPU's launch, dispatch, limits, watchdog and idle skipping are
 * the same C code for every engine. */
typedef struct smtlm_sm_ops {
    int (*cycle)(void *ctx, unsigned i, uint64_t now);
    int (*active)(const void *ctx, unsigned i);
    int (*quiescent)(const void *ctx, unsigned i);
    void (*skip)(void *ctx, unsigned i, uint64_t now, uint64_t k);
    int (*launch_cta)(void *ctx, unsigned i, unsigned threads, uint32_t cta_id);
    unsigned (*resident_ctas)(const void *ctx, unsigned i);
    void (*set_source)(void *ctx, unsigned i, const smtlm_inst_source *src);
    void (*set_hooks)(void *ctx, unsigned i, smtlm_retire_hook retire, void *retire_ctx, smtlm_cta_hook cta_done,
                      void *cta_ctx);
    /* the memory port of SM i: requests waiting to leave, and one cycle of memory m behind it */
    unsigned (*pending_requests)(const void *ctx, unsigned i);
    void (*mem_cycle)(void *ctx, unsigned i, smtlm_mem_model *m, uint64_t now);
    void (*view)(const void *ctx, unsigned i, smtlm_sm_view *out);
} smtlm_sm_ops;

typedef enum smtlm_run_status {
    SMTLM_RUN_RUNNING = 0,
    SMTLM_RUN_DONE,          /* kernel finished */
    SMTLM_RUN_MAX_CYCLE,     /* -gpgpu_max_cycle reached */
    SMTLM_RUN_MAX_INSN,      /* -gpgpu_max_insn reached */
    SMTLM_RUN_DEADLOCK,      /* watchdog: nothing issued or retired */
    SMTLM_RUN_ERROR,         /* an SM or the binder reported an error (see error fields) */
    SMTLM_RUN_STOPPED        /* the poll hook asked to stop (the host's request, e.g. a signal) */
} smtlm_run_status;

typedef enum smtlm_cta_limit {
    SMTLM_LIMIT_THREADS = 0, SMTLM_LIMIT_SHMEM, SMTLM_LIMIT_REGS, SMTLM_LIMIT_CTAS, SMTLM_LIMIT_GRID
} smtlm_cta_limit;

struct smtlm_gpu;
typedef void (*smtlm_series_hook)(void *ctx, const struct smtlm_gpu *gpu);
/* The host's poll: called from the stop checks when a kernel's sim_cycle reaches each multiple
 * of SMTLM_POLL_CYCLES (a progress line, a request to stop). A nonzero return ends the kernel
 * there with SMTLM_RUN_STOPPED. It must not change the GPU. */
typedef int (*smtlm_poll_hook)(void *ctx, const struct smtlm_gpu *gpu);
#define SMTLM_POLL_CYCLES 1024
/* Called after cycles first .. first + n - 1 have run on every SM with work: n = 1 after a
 * step, n = k after a bulk skip of k idle cycles (each of which was the same as the first).
 * The SMs' state (smtlm_gpu_sm_view) is then that at the end of those cycles. For views that
 * read the model (smsim's pipeline log and VCD); it must not change the GPU. */
typedef void (*smtlm_sample_hook)(void *ctx, const struct smtlm_gpu *gpu, uint64_t first, uint64_t n);
/* A window: steps each live SM alone from the current cycle up to `end`
 * (smtlm_gpu_sms_alone_until) and leaves the GPU as smtlm_gpu_step and smtlm_gpu_skip_idle
 * would have left it at `end`, or earlier where they would have stopped the kernel. The C
 * engine's is platform's gpu_parallel.c, on one host thread or several. */
typedef void (*smtlm_window_fn)(void *ctx, struct smtlm_gpu *gpu, uint64_t end);
/* A multiple of the watchdog's 1024-cycle check: SMs stepped in parallel windows
 * (-smtlm_threads) meet the stop checks at every such multiple too. */
#define SMTLM_SERIES_CYCLES 1024

typedef struct smtlm_gpu {
    smtlm_gpu_cfg cfg;
    unsigned n_sm;
    smtlm_sm *sm;                     /* the C engine's SMs (NULL under another engine) */
    smtlm_sm *sm_blank;               /* lazy C engine: a never-used SM standing in for unbuilt ones */
    const smtlm_sm_ops *ops;          /* how the SMs are driven */
    void *sm_ctx;
    smtlm_mem_model *mem;
    smtlm_retire_hook retire_hook;
    void *retire_ctx;
    smtlm_poll_hook poll_hook;         /* every SMTLM_POLL_CYCLES of a kernel */
    void *poll_ctx;
    uint64_t poll_next;                /* sim_cycle of the next call */
    smtlm_sample_hook sample_hook;     /* after every step and idle skip (NULL: none) */
    void *sample_ctx;
    smtlm_window_fn window;            /* steps the SMs in windows (NULL: cycle by cycle) */
    void *window_ctx;
    smtlm_series_hook series_hook;     /* every SMTLM_SERIES_CYCLES of a kernel (time series) */
    void *series_ctx;
    uint64_t series_next;
    smtlm_cta_binder binder;
    /* current kernel */
    smtlm_kernel_desc k;
    int kernel_active;
    uint32_t next_cta, ctas_done, ctas_to_run;
    unsigned max_cta_per_sm;
    smtlm_cta_limit cta_limit;
    uint64_t launch_countdown;
    uint64_t start_thread_insts, start_warp_insts;
    uint64_t start_active_cycles[SMTLM_MAX_SMS]; /* each SM's active cycles when the kernel launched */
    /* time and counts (GPGPU-Sim names) */
    uint64_t sim_cycle, tot_cycle;
    uint64_t tot_insn, tot_warp_insn;
    uint64_t total_ctas_issued;
    unsigned last_cluster_issue;
    /* SMs that hold work (a CTA, unfinished threads or memory traffic), in index order: the
     * only ones a step visits */
    unsigned n_live;
    uint16_t live[SMTLM_MAX_SMS];
    uint8_t is_live[SMTLM_MAX_SMS];
    uint8_t sm_built[SMTLM_MAX_SMS];  /* C engine: smtlm_sm_init has run on SM i */
    uint16_t next_core[SMTLM_MAX_CLUSTERS];
    smtlm_run_status status;
    uint64_t skipped_cycles;          /* cycles accounted in bulk (all SMs quiescent) */
    /* run_until's batch end: no jump (launch latency, idle skip) takes the total cycle count
     * past it (UINT64_MAX outside run_until); an idle skip cut there resumes with the next
     * smtlm_gpu_skip_idle (run_until's first act) */
    uint64_t horizon;
    uint64_t skip_event;              /* the cut skip's target cycle (0: none) */
    int error;
    unsigned error_sm;
    uint32_t error_line;
    const char *cfg_error;            /* why smtlm_gpu_init refused the configuration (the field) */
} smtlm_gpu;

/* sms and mems: arrays of n_clusters * cores_per_cluster elements owned by the caller. On a
 * refusal gpu->cfg_error names the field (for every block's own checks too). */
int smtlm_gpu_init(smtlm_gpu *gpu, const smtlm_gpu_cfg *cfg, smtlm_sm *sms, smtlm_mem_model *mems);
/* The same, but SM i is built (smtlm_sm_init) when it first gets a CTA: sms has
 * n_clusters * cores_per_cluster + 1 elements, the last one built now (it checks the config)
 * and never used, so an SM never built reports exactly what a fresh one would. */
int smtlm_gpu_init_lazy(smtlm_gpu *gpu, const smtlm_gpu_cfg *cfg, smtlm_sm *sms, smtlm_mem_model *mems);
/* The same over SMs another engine has built (n_clusters * cores_per_cluster of them, SM i
 * configured with cfg->sm and id i), driven through `ops` on `ctx`. */
int smtlm_gpu_init_engine(smtlm_gpu *gpu, const smtlm_gpu_cfg *cfg, const smtlm_sm_ops *ops, void *ctx,
                          smtlm_mem_model *mems);
/* The C engine's smtlm_sm behind smtlm_sm_ops (ctx = the smtlm_gpu). */
const smtlm_sm_ops *smtlm_sm_c_ops(void);
/* View of SM i (statistics, diagnostics). */
static inline void smtlm_gpu_sm_view(const smtlm_gpu *gpu, unsigned i, smtlm_sm_view *out) { gpu->ops->view(gpu->sm_ctx, i, out); }
/* 1 when SM i (whose view is v) ran at least one cycle in the current kernel, 0 when it sat idle. */
static inline int smtlm_gpu_sm_ran_in_kernel(const smtlm_gpu *gpu, unsigned i, const smtlm_sm_view *v)
{
    return v->stats.active_cycles > gpu->start_active_cycles[i];
}
/* Pieces of smtlm_gpu_step for a driver that runs the SMs itself (gpu_parallel): the limit,
 * completion and watchdog checks after the step of cycle `now`; the idle skip between steps;
 * an SM's (or, with s = n_sm, the dispatcher's) error; a CTA's completion as SMs report it. */
void smtlm_gpu_stop_checks(smtlm_gpu *gpu, uint64_t now);
void smtlm_gpu_skip_idle(smtlm_gpu *gpu);
/* The first total cycle, from the current one, at which anything but the SMs' own cycles may
 * act on the run: the current cycle while a CTA waits to be issued or the launch countdown runs;
 * else the first cycle whose stop checks can do more than find the kernel done (the watchdog's
 * check at each multiple of 1,024 cycles, a hook's cycle, -gpgpu_max_cycle), or `limit` (a
 * batch's end) if that comes first. Up to it each SM's cycles depend on that SM alone: the calm
 * stretch, the idle skip and the windowed driver step the SMs only that far. Whatever reads
 * every SM after every cycle (a sample hook, -gpgpu_max_insn) is the caller's to honour. */
uint64_t smtlm_gpu_sms_alone_until(const smtlm_gpu *gpu, uint64_t limit);
/* Cycles that only the SMs' own cycles can change, run without the GPU step around them (the
 * run loops' calm stretches), while the total cycle count stays below `limit`; nothing when
 * the GPU is not in that state. Exactly the steps (and idle skips) it replaces. */
void smtlm_gpu_run_calm(smtlm_gpu *gpu, uint64_t limit);
int smtlm_gpu_fail(smtlm_gpu *gpu, int rc, unsigned s);
void smtlm_gpu_on_cta_done(void *gpu, unsigned sm, unsigned slot, uint32_t cta_id);
/* Number of SMs a config needs. */
static inline unsigned smtlm_gpu_num_sms(const smtlm_gpu_cfg *cfg) { return cfg->n_clusters * cfg->cores_per_cluster; }
void smtlm_gpu_set_source(smtlm_gpu *gpu, const smtlm_inst_source *src, const smtlm_cta_binder *binder);
void smtlm_gpu_set_retire_hook(smtlm_gpu *gpu, smtlm_retire_hook hook, void *ctx);
/* The poll hook (smtlm_poll_hook); NULL = none. */
void smtlm_gpu_set_poll_hook(smtlm_gpu *gpu, smtlm_poll_hook hook, void *ctx);
/* A hook called after every step and every bulk idle skip (NULL = none; no cost then). Runs
 * with a sample hook are stepped serially (the parallel driver leaves them alone). */
void smtlm_gpu_set_sample_hook(smtlm_gpu *gpu, smtlm_sample_hook hook, void *ctx);
/* A hook called from the stop checks when a kernel's sim_cycle reaches each multiple of
 * SMTLM_SERIES_CYCLES (for time series read from the SM views). NULL = none. */
void smtlm_gpu_set_series_hook(smtlm_gpu *gpu, smtlm_series_hook hook, void *ctx);
/* 1 when smtlm_gpu_launch would accept kernel k: a CTA has threads, fits an SM's threads, and
 * at least one fits the SM's resources (or the grid is empty). Changes nothing. */
int smtlm_gpu_kernel_fits(const smtlm_gpu *gpu, const smtlm_kernel_desc *k);
/* Starts a kernel (gpu_sim_cycle = 0). SMTLM_EINVAL if a CTA cannot fit on an SM. */
int smtlm_gpu_launch(smtlm_gpu *gpu, const smtlm_kernel_desc *k);
/* CTAs per SM for kernel k and the resource that limits it (GPGPU-Sim max_cta); 0 = no fit. */
unsigned smtlm_gpu_max_cta(const smtlm_gpu *gpu, const smtlm_kernel_desc *k, smtlm_cta_limit *limit);
/* One core cycle; returns the status. */
smtlm_run_status smtlm_gpu_step(smtlm_gpu *gpu);
/* Steps until the kernel ends or a limit/error stops it: smtlm_gpu_run_until with no limit. */
smtlm_run_status smtlm_gpu_run(smtlm_gpu *gpu);
/* The window function of the run loop (NULL: none). Not used under -gpgpu_max_insn or a sample
 * hook (both read every SM after every cycle). A window ends at the batch's end at the latest. */
void smtlm_gpu_set_window(smtlm_gpu *gpu, smtlm_window_fn fn, void *ctx);
/* The one run loop. Where only the SMs can change anything it runs their cycles without the GPU
 * step around them, in windows when a window function is set (smtlm_gpu_set_window) and two SMs
 * or more are live, else in calm stretches; either way with exactly the results of stepping
 * cycle by cycle. It returns (SMTLM_RUN_RUNNING) once the total cycle count (gpu_tot_sim_cycle +
 * gpu_sim_cycle) reaches `limit`, exactly: the launch latency and idle skips end there too (a
 * cut idle skip resumes at the next call), so a time-decoupled caller's batch never runs ahead
 * of its end. Batches change nothing but where the caller may synchronise: every counter,
 * skipped_cycles included, is the same as one smtlm_gpu_run. */
smtlm_run_status smtlm_gpu_run_until(smtlm_gpu *gpu, uint64_t limit);
/* Folds the kernel's cycles and instructions into the totals (GPGPU-Sim update_stats). */
void smtlm_gpu_end_kernel(smtlm_gpu *gpu);

/* Kernel statistics in GPGPU-Sim's names. */
uint64_t smtlm_gpu_sim_insn(const smtlm_gpu *gpu);      /* thread instructions, this kernel */
uint64_t smtlm_gpu_sim_warp_insn(const smtlm_gpu *gpu);

#ifdef __cplusplus
}
#endif
#endif
