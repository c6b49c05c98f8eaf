// The Gpu's control side: the register target (`ctrl`), the interrupt (`irq`), the reset input
// (`rst`), starting kernels of the kernel list and the end-of-kernel bookkeeping.
#include "smtlm/tlm/gpu.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>

extern "C" {
#include "smtlm/diag.h"
}

namespace smtlm {

namespace {

bool is_counter(uint64_t off) { return off >= reg::CYCLES && off < reg::END; }

} // namespace

// SMTLM_OK when a kernel may start now: not refused at construction, not busy, not held in
// reset, and the last kernel completed (one that did not leaves its thread blocks and memory
// traffic behind: a reset clears them).
int Gpu::can_start() const
{
    if (init_status_)
        return init_status_;
    return running_ || rst_held_ || needs_reset_ ? SMTLM_EFULL : SMTLM_OK;
}

int Gpu::run_kernel(const smtlm_kernel_desc &k)
{
    int rc = can_start();
    if (!rc && engine_stale_) // the engine is still inside a memory target's call
        rc = SMTLM_EFULL;
    if (!rc)
        rc = smtlm_gpu_launch(&gpu_, &k);
    if (rc)
        return rc;
    start();
    return SMTLM_OK;
}

int Gpu::start_kernel(unsigned index)
{
    if (const int rc = can_start())
        return rc;
    if (!kernels_ || index >= kernels_->count())
        return SMTLM_ERANGE;
    if (engine_stale_) { // accepted now, prepared by the thread once the engine is reset
        start_later_ = true;
        start_index_ = running_index_ = index;
        fold_ = true;
        start();
        return SMTLM_OK;
    }
    smtlm_kernel_desc k;
    int rc = kernels_->prepare(index, *this, &k);
    if (!rc)
        rc = run_kernel(k);
    if (!rc) {
        fold_ = true;
        running_index_ = index;
    }
    return rc;
}

// At once, whatever the thread does. Only a memory target that waits in b_transport lets another
// process run while the thread is inside the C kernel (in_batch_): then the registers, counters
// and interrupt are reset now, the accesses the rest of that batch would make are dropped (they
// end it at once), and the thread clears the engine when the target's call returns.
void Gpu::soft_reset()
{
    if (!in_batch_) {
        reset_now();
        return;
    }
    engine_stale_ = true;
    waits_.drop(true);
    reset_registers();
}

void Gpu::reset_now()
{
    reset_engine();
    reset_registers();
}

// Clears every SM and the GPU state; the configuration, the instruction source, the CTA binder
// and the retire and sample hooks stay.
void Gpu::reset_engine()
{
    const smtlm_retire_hook hook = gpu_.retire_hook;
    void *hook_ctx = gpu_.retire_ctx;
    const smtlm_sample_hook sample = gpu_.sample_hook;
    void *sample_ctx = gpu_.sample_ctx;
    const smtlm_cta_binder binder = gpu_.binder;
    waits_.drop(false);
    for (auto &sm : sms_)
        sm->reset();
    attach_engine(); // accepted at construction: cannot fail now
    gpu_.binder = binder;
    smtlm_gpu_set_retire_hook(&gpu_, hook, hook_ctx);
    smtlm_gpu_set_sample_hook(&gpu_, sample, sample_ctx);
}

// The counters, the registers and the interrupt as after construction; a kernel still held by
// the thread is dropped (generation_).
void Gpu::reset_registers()
{
    generation_++;
    running_ = fold_ = needs_reset_ = start_later_ = false;
    irq_en_ = irq_status_ = kernel_ = status_ = 0;
    std::fill(std::begin(shown_), std::end(shown_), 0);
    update_irq();
    reset_ev_.notify();                       // a thread waiting out its quantum drops its kernel now
    done_ev_.notify(sc_core::SC_ZERO_TIME);   // and C++ callers waiting for the end wake up
}

// In the thread, once the batch a reset came in has returned: the engine is cleared, then a
// source set and a START accepted meanwhile take effect.
void Gpu::finish_reset()
{
    if (!engine_stale_)
        return;
    engine_stale_ = false;
    reset_engine();
    if (source_later_) {
        source_later_ = false;
        smtlm_gpu_set_source(&gpu_, &later_src_, later_has_binder_ ? &later_binder_ : nullptr);
    }
    if (!start_later_)
        return;
    start_later_ = false;
    smtlm_kernel_desc k;
    int rc = kernels_->prepare(start_index_, *this, &k);
    if (!rc)
        rc = smtlm_gpu_launch(&gpu_, &k);
    if (rc) {
        running_ = fold_ = false;
        start_failed(rc, start_index_);
    }
}

// STATUS, the counters and the interrupt for a kernel that ended with `st`.
void Gpu::signal_end(smtlm_run_status st)
{
    const bool failed = st == SMTLM_RUN_ERROR || st == SMTLM_RUN_DEADLOCK || st == SMTLM_RUN_STOPPED;
    status_ = reg::STATUS_DONE | (failed ? reg::STATUS_ERROR : 0u) | (uint32_t)st << reg::STATUS_CODE_SHIFT;
    irq_status_ |= reg::IRQ_KERNEL_END;
    publish();
    update_irq();
}

// Everything is settled before any report, as a report may throw (SC_ERROR's default action).
void Gpu::kernel_ended(smtlm_run_status st)
{
    needs_reset_ = st != SMTLM_RUN_DONE;
    signal_end(st);
    done_ev_.notify(sc_core::SC_ZERO_TIME);
    const bool fold = fold_;
    fold_ = false;
    if (st == SMTLM_RUN_DEADLOCK)
        report_deadlock();
    if (st == SMTLM_RUN_ERROR)
        report_error(fold);
    if (fold)
        end_kernel();
}

// A kernel that ended with an error: a memory error response is SC_REPORT_ERROR("smtlm/memory"),
// anything else SC_REPORT_ERROR("smtlm/kernel", "<gpu>: <file>:<line>: <reason>"), the same line
// smsim prints (smtlm_describe_kernel_error). `listed`: the kernel came from the kernel list.
void Gpu::report_error(bool listed)
{
    const char *source_error = listed && kernels_ ? kernels_->error() : nullptr;
    if (!source_error && gpu_.error == SMTLM_EMEMORY && gpu_.error_sm < sms_.size()) {
        SC_REPORT_ERROR("smtlm/memory", sms_[gpu_.error_sm]->ldst.error_message().c_str());
        return;
    }
    const std::string where = listed && kernels_ ? kernels_->where(running_index_) : std::string("<set_source>");
    char msg[2048];
    smtlm_describe_kernel_error(&gpu_, where.c_str(), source_error, msg, sizeof msg);
    SC_REPORT_ERROR("smtlm/kernel", (std::string(name()) + ": " + msg).c_str());
}

// The watchdog fired: one SC_REPORT_ERROR with the cycle, the memory system's state and what
// keeps each live warp from issuing (the same lines smsim prints).
void Gpu::report_deadlock()
{
    char *text = nullptr;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        SC_REPORT_ERROR("smtlm/watchdog", "deadlock (no memory to describe the stuck warps)");
        return;
    }
    std::fprintf(f, "%s: deadlock: nothing issued, retired or answered by memory for %u cycles (cycle %llu of the kernel); stuck warps:\n",
                 name(), gpu_.cfg.watchdog_cycles, (unsigned long long)gpu_.sim_cycle);
    smtlm_describe_stuck_warps(f, &gpu_, 32);
    std::fclose(f);
    std::string msg(text, len);
    std::free(text);
    SC_REPORT_ERROR("smtlm/watchdog", msg.c_str());
}

// The counters as the registers show them, and as the engine has them now.
uint64_t Gpu::counter(uint64_t off) const { return shown_[((off & ~7ull) - reg::CYCLES) / 8]; }

// The counters as the engine has them now, read in one pass over the SMs (the thread publishes
// them at every synchronisation: with a waiting memory that is every few cycles).
void Gpu::publish()
{
    uint64_t warp_insts = 0, thread_insts = 0, bank_waits = 0, stalls = 0;
    for (unsigned i = 0; i < gpu_.n_sm; i++) {
        smtlm_sm_view v;
        smtlm_gpu_sm_view(&gpu_, i, &v);
        warp_insts += v.stats.warp_insts;
        thread_insts += v.stats.thread_insts;
        if (v.rf) // gpgpusim mode: per-bank wait steps
            for (unsigned b = 0; b < v.cfg->rf.n_banks; b++)
                bank_waits += v.rf->wait_steps[b];
        else if (v.muon_coll) // muon mode: read-cycles lost to PRF or port conflicts
            bank_waits += v.muon_coll->st.conflict_waits;
        for (unsigned s = 0; s < v.cfg->shape.n_sched; s++)
            stalls += v.iss->distro[s][SMTLM_DISTRO_STALL];
    }
    // the kernel's counts (smtlm_gpu_sim_warp_insn, smtlm_gpu_sim_insn) on the totals before it
    const uint64_t now[] = {gpu_.tot_cycle + gpu_.sim_cycle, gpu_.tot_warp_insn + warp_insts - gpu_.start_warp_insts,
                            gpu_.tot_insn + thread_insts - gpu_.start_thread_insts, bank_waits, stalls};
    static_assert(sizeof now == sizeof shown_, "one value per 64-bit counter register");
    std::copy(std::begin(now), std::end(now), std::begin(shown_));
}

bool Gpu::read_reg(uint64_t off, uint32_t *value) const
{
    if (off >= reg::END || off % 4)
        return false;
    if (is_counter(off)) {
        const uint64_t c = counter(off);
        *value = off % 8 ? (uint32_t)(c >> 32) : (uint32_t)c;
        return true;
    }
    switch (off) {
    case reg::ID: *value = reg::ID_VALUE; return true;
    case reg::VERSION: *value = SMTLM_VERSION_MAJOR << 16 | SMTLM_VERSION_MINOR << 8 | SMTLM_VERSION_PATCH; return true;
    case reg::CTRL: *value = 0; return true;
    case reg::STATUS: *value = status_ | (running_ ? reg::STATUS_BUSY : 0u); return true;
    case reg::IRQ_EN: *value = irq_en_; return true;
    case reg::IRQ_STATUS: *value = irq_status_; return true;
    case reg::KERNEL: *value = kernel_; return true;
    case reg::KERNEL_COUNT: *value = kernels_ ? kernels_->count() : 0; return true;
    default: return false;
    }
}

// While `rst` is high every register holds its reset value: a write to IRQ_EN, IRQ_STATUS or
// KERNEL is ignored with a warning (as START is refused).
bool Gpu::write_reg(uint64_t off, uint32_t v)
{
    if (rst_held_ && (off == reg::IRQ_EN || off == reg::IRQ_STATUS || off == reg::KERNEL)) {
        const char *reg_name = off == reg::IRQ_EN ? "IRQ_EN" : off == reg::IRQ_STATUS ? "IRQ_STATUS" : "KERNEL";
        SC_REPORT_WARNING("smtlm/ctrl",
                          (std::string(name()) + ": write to " + reg_name + " ignored: held in reset by `rst`").c_str());
        return true;
    }
    switch (off) {
    case reg::CTRL:
        if (v & ~(reg::CTRL_START | reg::CTRL_SOFT_RESET)) {
            char msg[64];
            std::snprintf(msg, sizeof msg, "undefined CTRL bits 0x%x ignored", v & ~(reg::CTRL_START | reg::CTRL_SOFT_RESET));
            SC_REPORT_WARNING("smtlm/ctrl", (std::string(name()) + ": " + msg).c_str());
        }
        if (v & reg::CTRL_SOFT_RESET)
            soft_reset();
        else if (v & reg::CTRL_START)
            start_from_ctrl();
        return true;
    case reg::IRQ_EN: irq_en_ = v & reg::IRQ_KERNEL_END; update_irq(); return true;
    case reg::IRQ_STATUS: irq_status_ &= ~v; update_irq(); return true; // write 1 to clear
    case reg::KERNEL: kernel_ = v; return true;
    default: return false;
    }
}

// CTRL.START: refused with a warning while busy, held in reset or after a kernel that did not
// complete (nothing changes); a start that cannot run ends at once, with an error, the
// interrupt and a warning saying why.
void Gpu::start_from_ctrl()
{
    const int rc = start_kernel(kernel_);
    if (rc == SMTLM_OK)
        return;
    if (rc == SMTLM_EFULL || init_status_) {
        refuse_start(kernel_, init_status_ ? "the configuration was refused"
                     : running_   ? "busy (ignored)"
                     : rst_held_  ? "held in reset by `rst` (ignored)"
                                  : "the last kernel did not complete: a reset (CTRL.SOFT_RESET or `rst`) must come first (ignored)");
        return;
    }
    start_failed(rc, kernel_);
}

// A START of kernel `index` that cannot run ends at once: STATUS DONE | ERROR, the interrupt, a
// warning saying why.
void Gpu::start_failed(int rc, unsigned index)
{
    std::string why;
    if (rc == SMTLM_ERANGE)
        why = "past the kernel list (KERNEL_COUNT " + std::to_string(kernels_ ? kernels_->count() : 0) + ")";
    else if (kernels_ && kernels_->error())
        why = kernels_->error();
    else
        why = smtlm_status_str(rc);
    signal_end(SMTLM_RUN_ERROR);
    refuse_start(index, why.c_str());
}

void Gpu::refuse_start(unsigned index, const char *why)
{
    const std::string msg = std::string(name()) + ": CTRL.START of kernel " + std::to_string(index) + ": " + why;
    SC_REPORT_WARNING("smtlm/ctrl", msg.c_str());
}

// Byte enables that enable every byte of the access are the same as none.
static bool all_enabled(const tlm::tlm_generic_payload &gp)
{
    const unsigned char *be = gp.get_byte_enable_ptr();
    const unsigned n = gp.get_byte_enable_length();
    if (!be)
        return true;
    if (n == 0)
        return false;
    for (unsigned i = 0; i < gp.get_data_length(); i++)
        if (be[i % n] != TLM_BYTE_ENABLED)
            return false;
    return true;
}

// One 32-bit register per access, or a whole 64-bit counter read with 8 bytes; anything else
// is refused with the matching TLM response. A START takes effect at the initiator's time:
// now plus the annotated delay.
void Gpu::ctrl_b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay)
{
    const uint64_t off = gp.get_address();
    const unsigned len = gp.get_data_length();
    if (!all_enabled(gp)) {
        gp.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
        return;
    }
    if (gp.get_streaming_width() < len) {
        gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return;
    }
    if (len == 8 && gp.is_read() && is_counter(off) && off % 8 == 0) {
        const uint64_t c = counter(off);
        std::memcpy(gp.get_data_ptr(), &c, 8);
        gp.set_response_status(tlm::TLM_OK_RESPONSE);
        return;
    }
    if (len != 4) {
        gp.set_response_status(off < reg::END && off % 4 == 0 ? tlm::TLM_BURST_ERROR_RESPONSE
                                                               : tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    uint32_t v = 0;
    bool ok = true;
    if (gp.is_read()) {
        ok = read_reg(off, &v);
        if (ok)
            std::memcpy(gp.get_data_ptr(), &v, 4);
    } else if (gp.is_write()) {
        std::memcpy(&v, gp.get_data_ptr(), 4);
        start_offset_ = delay;
        ok = write_reg(off, v);
        start_offset_ = sc_core::SC_ZERO_TIME;
        if (!ok && off < reg::END && off % 4 == 0) { // a read-only register
            gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
            return;
        }
    }
    gp.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

// Debug reads of one or more consecutive registers, with no side effect; writes are refused.
unsigned Gpu::ctrl_dbg(tlm::tlm_generic_payload &gp)
{
    if (!gp.is_read())
        return 0;
    unsigned done = 0;
    for (; done + 4 <= gp.get_data_length(); done += 4) {
        uint32_t v;
        if (!read_reg(gp.get_address() + done, &v))
            break;
        std::memcpy(gp.get_data_ptr() + done, &v, 4);
    }
    return done;
}

// Immediate: `irq` takes the new level in the next delta cycle, as a signal written here would.
void Gpu::update_irq()
{
    if (sc_core::sc_is_running())
        irq_ev_.notify();
    else
        irq_ev_.notify(sc_core::SC_ZERO_TIME);
}

void Gpu::drive_irq()
{
    if (irq.size())
        irq->write((irq_en_ & irq_status_) != 0);
}

// `rst` is a level: the method also runs at the start, so a line high from time 0 holds the GPU.
void Gpu::bind_rst()
{
    if (!rst.size())
        return;
    sc_core::sc_spawn_options o;
    o.spawn_method();
    o.set_sensitivity(&rst->value_changed_event());
    sc_core::sc_spawn([this] { on_rst(); }, sc_core::sc_gen_unique_name("rst_method"), &o);
}

// Active high: going high resets; while high the GPU stays in reset (START is refused).
void Gpu::on_rst()
{
    const bool high = rst->read();
    if (high && !rst_held_)
        soft_reset();
    rst_held_ = high;
}

} // namespace smtlm
