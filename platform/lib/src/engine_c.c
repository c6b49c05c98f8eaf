/* The C engine behind smtlm_engine: smtlm_gpu over an array of smtlm_sm, each built when it
 * first gets a CTA (a big GPU given a small kernel starts at once and stays small). */
#include "smtlm/engine.h"

#include <stdio.h>
#include <stdlib.h>

#include "smtlm/gpu_parallel.h"

typedef struct c_engine {
    smtlm_gpu gpu;
    smtlm_sm *sms;
    smtlm_mem_model *mems;
    smtlm_gpu_par *par; /* the SMs stepped in windows (-smtlm_sm_windows), on -smtlm_threads threads */
} c_engine;

static void destroy(void *self)
{
    c_engine *e = self;
    if (!e)
        return;
    smtlm_gpu_par_free(e->par);
    free(e->sms);
    free(e->mems);
    free(e);
}

static int create(void **self, const smtlm_gpu_cfg *cfg, const smtlm_engine_params *p, smtlm_gpu **gpu, char *msg, size_t n)
{
    /* untimed and without a SoC side: its memory model answers every request */
    const unsigned count = smtlm_gpu_num_sms(cfg);
    c_engine *e = calloc(1, sizeof *e);
    if (e) {
        e->sms = calloc(count + 1, sizeof *e->sms); /* + the blank SM; untouched pages cost no memory */
        e->mems = calloc(count ? count : 1, sizeof *e->mems);
    }
    if (!e || !e->sms || !e->mems) {
        destroy(e);
        snprintf(msg, n, SMTLM_ENGINE_NO_MEMORY, count);
        return -1;
    }
    const int rc = smtlm_gpu_init_lazy(&e->gpu, cfg, e->sms, e->mems);
    if (rc) {
        snprintf(msg, n, "the configuration is rejected by the engine (%s): %s", smtlm_status_str(rc),
                 e->gpu.cfg_error ? e->gpu.cfg_error : "no detail");
        destroy(e);
        return -1;
    }
    if (p->sm_windows) {
        e->par = smtlm_gpu_par_new(&e->gpu, p->threads);
        if (!e->par && p->threads > 1 && p->threads_best_effort)
            e->par = smtlm_gpu_par_new(&e->gpu, 1); /* the same results on the calling thread alone */
        if (!e->par) {
            if (p->threads > 1 && !p->threads_best_effort)
                snprintf(msg, n, "-smtlm_threads %u: cannot start the threads (out of memory or the process's thread "
                         "limit)", p->threads);
            else /* no thread to start: its memory */
                snprintf(msg, n, SMTLM_ENGINE_NO_MEMORY, count);
            destroy(e);
            return -1;
        }
    }
    *self = e;
    *gpu = &e->gpu;
    return 0;
}

static smtlm_run_status run(void *self)
{
    c_engine *e = self;
    return e->par ? smtlm_gpu_par_run(e->par) : smtlm_gpu_run(&e->gpu);
}

const smtlm_engine *smtlm_c_engine(void)
{
    static const smtlm_engine e = {"c", create, run, destroy, SMTLM_MAX_THREADS};
    return &e;
}
