#include "smtlm/tlm/gpu.h"
#include "smtlm/tlm/gpu_config.h"
#include "smtlm/tlm/mem_order.h"

#include <tlm_utils/tlm_quantumkeeper.h>

#include <algorithm>
#include <new>
#include <string>

namespace smtlm {

namespace {

// The Gpu's Sm modules behind the C GPU kernel's smtlm_sm_ops (ctx = the module list).
using SmList = std::vector<std::unique_ptr<Sm>>;
Sm &at(void *ctx, unsigned i) { return *(*static_cast<SmList *>(ctx))[i]; }
const Sm &at(const void *ctx, unsigned i) { return *(*static_cast<const SmList *>(ctx))[i]; }

int op_cycle(void *ctx, unsigned i, uint64_t now) { return at(ctx, i).cycle(now); }
int op_active(const void *ctx, unsigned i) { return at(ctx, i).active(); }
int op_quiescent(const void *ctx, unsigned i) { return at(ctx, i).quiescent(); }
void op_skip(void *ctx, unsigned i, uint64_t now, uint64_t k) { at(ctx, i).skip(now, k); }
int op_launch(void *ctx, unsigned i, unsigned threads, uint32_t id) { return at(ctx, i).launch_cta(threads, id); }
unsigned op_ctas(const void *ctx, unsigned i) { return at(ctx, i).issue().state().n_active_ctas; }
void op_source(void *ctx, unsigned i, const smtlm_inst_source *src) { at(ctx, i).set_source(*src); }
void op_hooks(void *ctx, unsigned i, smtlm_retire_hook r, void *rc, smtlm_cta_hook c, void *cc)
{
    at(ctx, i).set_retire_hook(r, rc);
    at(ctx, i).set_cta_done_hook(c, cc);
}
unsigned op_pending(const void *ctx, unsigned i) { return at(ctx, i).ldst.pending_requests(); }
void op_mem(void *ctx, unsigned i, smtlm_mem_model *m, uint64_t now) { at(ctx, i).ldst.memory_cycle(m, now); }
void op_view(const void *ctx, unsigned i, smtlm_sm_view *v) { at(ctx, i).view(v); }

} // namespace

const smtlm_sm_ops *Gpu::sm_ops()
{
    static const smtlm_sm_ops ops = {op_cycle, op_active, op_quiescent, op_skip, op_launch, op_ctas,
                                     op_source, op_hooks, op_pending, op_mem, op_view};
    return &ops;
}

Gpu::Gpu(sc_core::sc_module_name name, const smtlm_gpu_cfg &cfg, const sc_core::sc_time &clock_period,
         const GpuParams &params, KernelList *kernels)
    : sc_core::sc_module(name), ctrl("ctrl"), irq("irq"), rst("rst"), mem("mem"), mem_funnel_("mem_funnel"),
      waits_(this->name(), *this, &gpu_.horizon), period_(clock_period), quantum_cycles_(params.quantum_cycles),
      cfg_(cfg), params_(params), kernels_(kernels), windows_(params.sm_windows == SmWindows::On)
{
    const unsigned n = smtlm_gpu_num_sms(&cfg);
    gpu_.cfg_error = nullptr;
    if (params.memory_waits)
        waits_.turn_on();
    for (unsigned i = 0; i < n && !init_status_; i++) {
        sms_.push_back(Sm::create(("sm_" + std::to_string(i)).c_str(), cfg.sm, i, params.sm_hook));
        if ((init_status_ = sms_.back()->status()))
            gpu_.cfg_error = sms_.back()->cfg_error();
    }
    mem_funnel_.out.bind(mem);
    if (params.single_mem_port)
        for (const std::unique_ptr<Sm> &sm : sms_)
            sm->ldst.mem.bind(mem_funnel_.in);
    if (!init_status_)
        init_status_ = attach_engine();
    if (init_status_) {
        const std::string msg = std::string(this->name()) + ": the configuration is refused (" +
                                smtlm_status_str(init_status_) + "): " + (gpu_.cfg_error ? gpu_.cfg_error : "no detail");
        SC_REPORT_ERROR("smtlm/config", msg.c_str());
    }
    ctrl.register_b_transport(this, &Gpu::ctrl_b_transport);
    ctrl.register_transport_dbg(this, &Gpu::ctrl_dbg);
    SC_THREAD(thread);
    SC_METHOD(drive_irq); // the only writer of `irq`, whichever process changed the state
    sensitive << irq_ev_;
    dont_initialize();
}

Gpu::Gpu(sc_core::sc_module_name name, KernelList *kernels, SmHook sm_hook)
    : Gpu(name, GpuSetup::for_instance(name, std::move(sm_hook)), kernels)
{
}

Gpu::Gpu(sc_core::sc_module_name name, std::shared_ptr<GpuSetup> setup, KernelList *kernels)
    : Gpu(name, setup->config.gpu, setup->config.period, setup->config.params, kernels)
{
    setup_ = std::move(setup);
    if (!setup_->error.empty()) { // reported, and the report did not throw
        init_status_ = SMTLM_EINVAL;
        gpu_.cfg_error = setup_->error.c_str();
    }
    setup_->attach(*this);
}

std::vector<ParamInfo> Gpu::parameters() const { return setup_ ? setup_->params : std::vector<ParamInfo>(); }

const GpuConfig *Gpu::config() const { return setup_ ? &setup_->config : nullptr; }

// The SMs go last built, first destroyed: SystemC's port and export registries look for a
// leaving port from their end, so this order makes each removal immediate (front to back,
// each removal would search every socket of the GPU).
Gpu::~Gpu()
{
    while (!sms_.empty())
        sms_.pop_back();
}

// (Re)builds the C GPU state over the Sm modules and connects each SM's memory port to its
// socket: at construction and after a reset.
int Gpu::attach_engine()
{
    if (!mems_) { // kept across resets: smtlm_gpu_init_engine re-initialises every model
        mems_.reset(static_cast<smtlm_mem_model *>(std::calloc(sms_.empty() ? 1 : sms_.size(), sizeof(smtlm_mem_model))));
        if (!mems_)
            throw std::bad_alloc(); // as the std::vector it replaces would
    }
    const int rc = smtlm_gpu_init_engine(&gpu_, &cfg_, sm_ops(), &sms_, mems_.get());
    if (rc)
        return rc;
    if (windows_)
        install_windows();
    for (unsigned i = 0; i < sms_.size(); i++)
        sms_[i]->ldst.connect_memory(&mems_[i], this, i, params_.real_access, params_.addr_map, &waits_);
    return SMTLM_OK;
}

void Gpu::install_windows()
{
    if (!par_) // one host thread: the SMs are SystemC modules
        par_.reset(smtlm_gpu_par_new(&gpu_, 1));
    if (!par_)
        throw std::bad_alloc(); // kept across resets, as mems_
    smtlm_gpu_set_window(&gpu_, &Gpu::window, this);
}

// The run loop's window function. A memory target that has waited turns the windows off: its
// accesses from then on run in processes of their own (MemWaits), answered as time passes,
// which a window cannot wait for. Inside a window every access stays in the thread.
void Gpu::window(void *ctx, smtlm_gpu *gpu, uint64_t end)
{
    Gpu &g = *static_cast<Gpu *>(ctx);
    if (g.waits_.on()) {
        smtlm_gpu_set_window(gpu, nullptr, nullptr);
        return;
    }
    g.waits_.hold();
    smtlm_gpu_par_window(g.par_.get(), gpu, end);
    g.waits_.release();
}

// The kernel's cycle 0 is now, plus the delay of the CTRL.START write that started it.
void Gpu::start()
{
    if (init_status_)
        return;
    running_ = true;
    status_ = 0; // the last kernel's end; BUSY is running_
    start_time_ = sc_core::sc_time_stamp() + start_offset_;
    start_ev_.notify(sc_core::SC_ZERO_TIME);
}

smtlm_stats Gpu::stats(double core_clock_mhz) const
{
    smtlm_stats s;
    smtlm_stats_collect(&gpu_, core_clock_mhz, &s);
    return s;
}

// The batch size: GpuParams::quantum_cycles, else the TLM global quantum as the platform has
// set it by now (a VP sets it from its configuration after building its modules).
void Gpu::end_of_elaboration()
{
    // Every binding is complete now (a VP's probe included): each port asks its target for
    // direct access once, and one that grants none leaves that port on transactions.
    if (params_.stage_dmi && !init_status_)
        for (const std::unique_ptr<Sm> &sm : sms_)
            sm->use_stage_dmi();
    if (params_.quantum_cycles == 0) {
        const sc_core::sc_time q = tlm::tlm_global_quantum::instance().get();
        quantum_cycles_ = q > sc_core::SC_ZERO_TIME && period_ > sc_core::SC_ZERO_TIME
                              ? std::max<uint64_t>(1, (uint64_t)(q / period_))
                              : 10000;
    }
    if (params_.single_mem_port && !mem.size()) // optional for SystemC: used only in this mode
        SC_REPORT_ERROR("smtlm/mem_port", (std::string(mem.name()) + " is not bound (GpuParams::single_mem_port: every "
                                                                      "SM's memory requests leave through it)")
                                              .c_str());
    bind_rst();
}

// Every module has taken its presets by now (check_unconsumed), and every binding is done:
// with SmWindows::Auto the SMs run in windows only if the memory says its answers do not
// depend on the order of the accesses (mem_order.h).
void Gpu::start_of_simulation()
{
    param_broker().check_unconsumed();
    if (params_.sm_windows == SmWindows::Auto && !init_status_ && memory_order_independent()) {
        windows_ = true;
        install_windows();
    }
}

// Asks the target of every memory socket in use: the Gpu's one socket, or each SM's.
bool Gpu::memory_order_independent()
{
    if (params_.single_mem_port)
        return mem.size() && order_independent(*mem[0]);
    for (const std::unique_ptr<Sm> &sm : sms_)
        if (!order_independent(*sm->ldst.mem[0]))
            return false;
    return true;
}

void Gpu::set_source(const smtlm_inst_source &src, const smtlm_cta_binder *binder)
{
    if (engine_stale_) { // the engine is still inside a memory target's call: bound once it is reset
        source_later_ = true;
        later_src_ = src;
        later_has_binder_ = binder != nullptr;
        if (binder)
            later_binder_ = *binder;
        return;
    }
    smtlm_gpu_set_source(&gpu_, &src, binder);
}

void Gpu::thread()
{
    tlm_utils::tlm_quantumkeeper qk;
    for (;;) {
        while (!running_) // no kernel: the thread sleeps and costs nothing
            wait(start_ev_);
        const uint64_t generation = generation_;
        qk.reset();
        uint64_t cycle = start_cycle_ = gpu_.tot_cycle + gpu_.sim_cycle;
        if (start_time_ < sc_core::sc_time_stamp())
            start_time_ = sc_core::sc_time_stamp();
        smtlm_run_status st = SMTLM_RUN_RUNNING;
        while (st == SMTLM_RUN_RUNNING) {
            uint64_t limit = cycle + quantum_cycles_;
            if (waits_.outstanding()) { // accesses in processes of their own (a memory that waits)
                const uint64_t bound = waits_.bound();
                if (bound <= cycle) { // one could still be answered for this cycle: let time pass
                    wait(waits_.wait_for(cycle), waits_.answered() | reset_ev_);
                    if (generation != generation_)
                        break;
                    qk.reset();
                    continue;
                }
                limit = std::min(limit, bound);
            }
            in_batch_ = true;
            st = smtlm_gpu_run_until(&gpu_, limit);
            in_batch_ = false;
            if (generation != generation_)
                break; // reset while a memory target held the thread inside the batch
            cycle = gpu_.tot_cycle + gpu_.sim_cycle;
            qk.set(offset_of(cycle)); // what a waiting target used of the batch's time is spent
            if (qk.get_local_time() == sc_core::SC_ZERO_TIME)
                publish(); // not ahead of the simulation time: shown as it is
            if (qk.need_sync() || st != SMTLM_RUN_RUNNING) {
                wait(qk.get_local_time(), reset_ev_); // a reset wakes the thread at once
                qk.reset();
                syncs_++;
                if (generation != generation_)
                    break;
                publish();
            }
        }
        if (generation != generation_) {
            finish_reset(); // the kernel is gone (another may already have been started)
            continue;
        }
        running_ = false;
        kernel_ended(st);
    }
}

} // namespace smtlm
