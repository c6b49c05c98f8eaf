// Gpu: N Sm modules plus kernel launch and thread-block dispatch, for virtual platforms and
// sc_main scenarios.
//
// Time model: one SC_THREAD advances every SM in lock step, cycle by cycle in GPGPU-Sim's order
// (the C kernel smtlm_gpu: memory, each SM's cycle, CTA issue, launch countdown), in batches
// of up to `quantum_cycles` cycles with no wait() inside a batch; after a batch the elapsed
// cycles become sc_time (cycles x clock period) in a tlm_quantumkeeper, which synchronises
// when the TLM quantum is used up. When every SM only waits for memory the C kernel jumps to
// the next response and accounts the skipped cycles in bulk (counters stay exact); with no
// kernel to run the thread sleeps on an event. There is no sc_clock and no process per block,
// so the result is the same for any quantum (only the number of synchronisations changes)
// and the same as the C engine's.
#ifndef SMTLM_TLM_GPU_H
#define SMTLM_TLM_GPU_H

#include <memory>
#include <vector>

#include "smtlm/tlm/sm.h"

extern "C" {
#include "smtlm/gpu.h"
}

namespace smtlm {

struct GpuParams {
    uint64_t quantum_cycles = 0;      // batch size; 0 = the TLM global quantum's worth, else 10000
    bool real_access = false;         // loads as real reads, stores as writes of zeros (else IGNORE)
    std::vector<AddrMapping> addr_map; // trace address windows moved into the SoC's memory map
};

class Gpu : public sc_core::sc_module, private TimeBase {
  public:
    // clock_period: one core cycle (from -gpgpu_clock_domains). Every SM's `mem` socket
    // (mem_socket(i)) must be bound to the SoC's memory before the simulation starts.
    Gpu(sc_core::sc_module_name name, const smtlm_gpu_cfg &cfg, const sc_core::sc_time &clock_period,
        const GpuParams &params = GpuParams());
    tlm_utils::simple_initiator_socket<LdSt> &mem_socket(unsigned i) { return sms_[i]->ldst.mem; }
    int status() const { return init_status_; }
    const char *cfg_error() const { return gpu_.cfg_error; }

    // ---- the C++ API for sc_main scenarios ----
    void set_source(const smtlm_inst_source &src, const smtlm_cta_binder *binder) { smtlm_gpu_set_source(&gpu_, &src, binder); }
    void set_retire_hook(smtlm_retire_hook hook, void *ctx) { smtlm_gpu_set_retire_hook(&gpu_, hook, ctx); }
    // Starts kernel k: the thread runs it from the current simulated time. SMTLM_EINVAL if a
    // thread block cannot fit on an SM.
    int run_kernel(const smtlm_kernel_desc &k);
    // Runs a kernel already launched on engine() (smtlm_gpu_launch).
    void start();
    bool busy() const { return running_; }
    // Notified when the running kernel ends (done, limit, deadlock or error).
    const sc_core::sc_event &done_event() const { return done_ev_; }
    smtlm_run_status run_status() const { return gpu_.status; }
    // Folds the finished kernel into the totals (as smtlm_gpu_end_kernel).
    void end_kernel() { smtlm_gpu_end_kernel(&gpu_); }
    // The engine's state: cycles, instructions, SM views for statistics (read-only use).
    const smtlm_gpu &engine() const { return gpu_; }
    smtlm_gpu &engine() { return gpu_; }
    Sm &sm(unsigned i) { return *sms_[i]; }
    unsigned n_sm() const { return (unsigned)sms_.size(); }
    uint64_t syncs() const { return syncs_; }
    uint64_t quantum_cycles() const { return quantum_cycles_; }

  private:
    SC_HAS_PROCESS(Gpu);
    void thread();
    sc_core::sc_time offset_of(uint64_t cycle) const override { return batch_local_ + period_ * (double)(cycle - batch_cycle_); }
    sc_core::sc_time period() const override { return period_; }
    static const smtlm_sm_ops *sm_ops();

    std::vector<std::unique_ptr<Sm>> sms_;
    std::vector<smtlm_mem_model> mems_;
    smtlm_gpu gpu_;
    sc_core::sc_time period_;
    uint64_t quantum_cycles_;
    int init_status_ = SMTLM_OK;
    bool running_ = false;
    uint64_t syncs_ = 0;
    uint64_t batch_cycle_ = 0;        // first cycle of the running batch ...
    sc_core::sc_time batch_local_;    // ... and its local-time offset
    sc_core::sc_event start_ev_, done_ev_;
};

} // namespace smtlm

#endif
