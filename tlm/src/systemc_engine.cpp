#include "smtlm/tlm/systemc_engine.h"

#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "smtlm/tlm/gpu.h"
#include "smtlm/tlm/gpu_config.h"
#include "smtlm/tlm/memory.h"
#include "smtlm/tlm/router.h"

namespace {

// smsim's default platform: the Gpu's SM memory sockets (or its single one,
// -smtlm_mem_single_port 1) -> a router -> one memory with the configured latency
// (-smtlm_mem_latency; the per-SM bandwidth stays at each SM's memory port).
struct Platform {
    std::unique_ptr<smtlm::Gpu> gpu;
    std::unique_ptr<smtlm::Router> router;
    std::unique_ptr<smtlm::Memory> memory;
};

int build(void **self, const smtlm_gpu_cfg *cfg, const smtlm_engine_params *p, smtlm_gpu **gpu, char *msg, size_t n)
{
    smtlm::GpuParams gp;
    const std::string why = smtlm::gpu_params(*p, &gp);
    if (!why.empty()) {
        std::snprintf(msg, n, "%s", why.c_str());
        return -1;
    }
    const sc_core::sc_time period = smtlm::clock_period(p->core_clock_mhz);
    std::unique_ptr<Platform> pf(new Platform);
    // smsim says itself why a configuration is refused (status() and cfg_error())
    sc_core::sc_report_handler::set_actions("smtlm/config", sc_core::SC_ERROR, sc_core::SC_DO_NOTHING);
    pf->gpu.reset(new smtlm::Gpu("gpu", *cfg, period, gp));
    if (pf->gpu->status()) {
        std::snprintf(msg, n, "the configuration is rejected by the engine (%s): %s", smtlm_status_str(pf->gpu->status()),
                      pf->gpu->cfg_error() ? pf->gpu->cfg_error() : "no detail");
        return -1;
    }
    pf->router.reset(new smtlm::Router("router"));
    pf->memory.reset(new smtlm::Memory("memory", smtlm::cycles_time(cfg->mem_latency, period)));
    if (gp.single_mem_port)
        pf->gpu->mem.bind(pf->router->in);
    else
        for (unsigned i = 0; i < pf->gpu->n_sm(); i++)
            pf->gpu->mem_socket(i).bind(pf->router->in);
    pf->router->out.bind(pf->memory->socket);
    pf->router->map(0, ~0ull, 0);
    // smsim reports an error response, a deadlock and a kernel error itself (as with the C
    // engine): no display, no exception
    for (const char *id : {"smtlm/memory", "smtlm/watchdog", "smtlm/kernel"})
        sc_core::sc_report_handler::set_actions(id, sc_core::SC_ERROR, sc_core::SC_DO_NOTHING);
    // Elaborated now, every process's stack allocated (the first sc_start finds it done): a
    // machine too big for the memory is refused at the start, not at its first kernel.
    try {
        sc_core::sc_get_curr_simcontext()->initialize(true);
    } catch (const sc_core::sc_report &e) {
        if (std::strcmp(e.get_msg_type(), sc_core::SC_ID_STACK_SETUP_FAILED_) != 0)
            throw;
        pf.release(); // SystemC holds on to the modules now: they stay until the process ends
        throw std::bad_alloc();
    }
    *gpu = &pf->gpu->engine();
    *self = pf.release();
    return 0;
}

// An allocation that fails while the model is built is the engine's error, said as the C
// engine says it: smsim prints it on stderr and exits 2 (never SystemC's report of an uncaught
// exception, on stdout, exit 1). The modules built so far are destroyed by the unwinding.
int create(void **self, const smtlm_gpu_cfg *cfg, const smtlm_engine_params *p, smtlm_gpu **gpu, char *msg, size_t n)
{
    try {
        return build(self, cfg, p, gpu, msg, n);
    } catch (const std::bad_alloc &) {
        std::snprintf(msg, n, SMTLM_ENGINE_NO_MEMORY, smtlm_gpu_num_sms(cfg));
        return -1;
    }
}

smtlm_run_status run(void *self)
{
    smtlm::Gpu &g = *static_cast<Platform *>(self)->gpu;
    g.start();
    sc_core::sc_start(); // returns when the Gpu's thread waits for the next kernel
    return g.run_status();
}

void destroy(void *self) { delete static_cast<Platform *>(self); }

} // namespace

extern "C" const smtlm_engine *smtlm_systemc_engine(void)
{
    static const smtlm_engine e = {"systemc", create, run, destroy, 1};
    return &e;
}
