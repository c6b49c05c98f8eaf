// A minimal sc_main: a 4-SM QV100-like Gpu, its SMs' memory sockets behind a router to a
// memory of 240 cycles' latency, runs one kernel of 8 thread blocks (each warp 16 independent
// FFMAs) and prints the cycles and instructions.
#include <cstdio>
#include <cstring>

#include <systemc>

#include "smtlm/tlm/gpu.h"
#include "smtlm/tlm/memory.h"
#include "smtlm/tlm/router.h"

namespace {

// The instruction source: every warp runs 16 FFMAs and EXIT (registers shifted by +1 as the
// trace reader does; R20.. as destinations, R3 R4 R5 as sources).
struct Ffma16 {
    unsigned pos[4096] = {};
    static int next(void *ctx, unsigned sm, unsigned warp, smtlm_inst_desc *d)
    {
        unsigned &p = static_cast<Ffma16 *>(ctx)->pos[sm * SMTLM_MAX_WARPS + warp];
        if (p > 16)
            return 0;
        std::memset(d, 0, sizeof *d);
        d->pc = p * 16;
        d->mask = 0xffffffffu;
        if (p < 16) {
            d->op = SMTLM_OP_SP;
            d->n_dst = 1;
            d->dst[0] = (int16_t)(21 + p % 8);
            d->n_src = 3;
            d->src[0] = 4, d->src[1] = 5, d->src[2] = 6;
            d->latency = d->ii = 2;
        } else {
            d->op = SMTLM_OP_EXIT;
            d->latency = d->ii = 1;
        }
        p++;
        return 1;
    }
    static int has_more(void *ctx, unsigned sm, unsigned warp)
    {
        return static_cast<Ffma16 *>(ctx)->pos[sm * SMTLM_MAX_WARPS + warp] <= 16;
    }
    // a new thread block on a warp slot starts the program again
    static int cta_start(void *ctx, unsigned sm, unsigned, unsigned first, unsigned n, uint32_t)
    {
        for (unsigned w = first; w < first + n; w++)
            static_cast<Ffma16 *>(ctx)->pos[sm * SMTLM_MAX_WARPS + w] = 0;
        return 0;
    }
};

} // namespace

int sc_main(int, char *[])
{
    smtlm_gpu_cfg cfg;
    smtlm_gpu_cfg_qv100(&cfg);
    cfg.n_clusters = 4;
    smtlm::Gpu gpu("gpu", cfg, sc_core::sc_time(1, sc_core::SC_NS));
    if (gpu.status() != SMTLM_OK) {
        std::fprintf(stderr, "configuration rejected: %s\n", gpu.cfg_error());
        return 1;
    }
    smtlm::Router bus("bus");
    smtlm::Memory dram("dram", sc_core::sc_time(240, sc_core::SC_NS));
    for (unsigned i = 0; i < gpu.n_sm(); i++)
        gpu.mem_socket(i).bind(bus.in);
    bus.out.bind(dram.socket);
    bus.map(0, ~0ull, 0);
    static Ffma16 prog;
    const smtlm_inst_source src = {&prog, &Ffma16::next, &Ffma16::has_more, nullptr, 0, 0, nullptr, nullptr, nullptr};
    const smtlm_cta_binder binder = {&prog, &Ffma16::cta_start, nullptr};
    gpu.set_source(src, &binder);
    const smtlm_kernel_desc k = {8, 128, 0, 32}; // 8 CTAs of 4 warps
    if (gpu.run_kernel(k) != SMTLM_OK)
        return 1;
    sc_core::sc_start(); // returns when the kernel is done and the Gpu's thread sleeps
    std::printf("gpu_sim_cycle = %llu\ngpu_sim_insn = %llu\nsimulated time = %s\n",
                (unsigned long long)gpu.engine().sim_cycle, (unsigned long long)smtlm_gpu_sim_insn(&gpu.engine()),
                sc_core::sc_time_stamp().to_string().c_str());
    gpu.end_kernel();
    return gpu.run_status() == SMTLM_RUN_DONE ? 0 : 1;
}
