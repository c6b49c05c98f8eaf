#include "smtlm/tlm/systemc_engine.h"

#include <cstdio>

#include "smtlm/tlm/gpu.h"

namespace {

int create(void **self, const smtlm_gpu_cfg *cfg, double core_clock_mhz, uint64_t quantum_cycles, smtlm_gpu **gpu, char *msg,
           size_t n)
{
    // One core cycle; 1 ns when the configuration gives no clock (sc_time rounds to the
    // kernel's resolution, 1 ps by default: 1132 MHz gives 883 ps).
    const sc_core::sc_time period(core_clock_mhz > 0 ? 1e6 / core_clock_mhz : 1000.0, sc_core::SC_PS);
    smtlm::Gpu *g = new smtlm::Gpu("gpu", *cfg, period, quantum_cycles);
    if (g->status()) {
        std::snprintf(msg, n, "the configuration is rejected by the engine (%s): %s", smtlm_status_str(g->status()),
                      g->cfg_error() ? g->cfg_error() : "no detail");
        delete g;
        return -1;
    }
    *self = g;
    *gpu = &g->engine();
    return 0;
}

smtlm_run_status run(void *self)
{
    smtlm::Gpu *g = static_cast<smtlm::Gpu *>(self);
    g->start();
    sc_core::sc_start(); // returns when the Gpu's thread waits for the next kernel
    return g->run_status();
}

void destroy(void *self) { delete static_cast<smtlm::Gpu *>(self); }

} // namespace

extern "C" const smtlm_engine *smtlm_systemc_engine(void)
{
    static const smtlm_engine e = {"systemc", create, run, destroy};
    return &e;
}
