// Gpu: N Sm modules plus kernel launch and thread-block dispatch, for virtual platforms and
// sc_main scenarios.
//
// Time model: one SC_THREAD advances every SM in lock step, cycle by cycle in GPGPU-Sim's order
// (the C kernel smtlm_gpu: memory, each SM's cycle, CTA issue, launch countdown), in batches
// of up to `quantum_cycles` cycles with no wait() of its own inside a batch. A kernel's cycle c
// is at start time + (c - start cycle) x clock period; after a batch the thread's local time is
// how far that is ahead of the simulation time (a memory target that waited inside the batch
// has already used some of it), in a tlm_quantumkeeper, which synchronises when the TLM quantum
// is used up. When every SM only waits for memory the C kernel jumps to the next response and
// accounts the skipped cycles in bulk (counters stay exact), as it jumps over the launch
// latency; a jump never passes the batch's end. With no kernel to run the thread sleeps on an
// event. There is no sc_clock and no process per block, so the result is the same for any
// quantum (only the number of synchronisations changes) and the same as the C engine's.
#ifndef SMTLM_TLM_GPU_H
#define SMTLM_TLM_GPU_H

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <tlm_utils/simple_target_socket.h>

#include "smtlm/tlm/mem_waits.h"
#include "smtlm/tlm/mem_funnel.h"
#include "smtlm/tlm/sm.h"

extern "C" {
#include "smtlm/gpu.h"
#include "smtlm/gpu_parallel.h"
#include "smtlm/stats.h"
}

namespace smtlm {

class Gpu;
struct GpuConfig;
struct GpuSetup;
struct ParamInfo;

// The kernels a Gpu can start by index (the control register KERNEL): given at construction.
class KernelList {
  public:
    virtual ~KernelList() = default;
    virtual unsigned count() const = 0;
    // Binds kernel k's instruction source to the Gpu and fills its descriptor: SMTLM_OK or an error.
    virtual int prepare(unsigned k, Gpu &gpu, smtlm_kernel_desc *desc) = 0;
    // Why the last prepare() or the running kernel's instruction source failed (file:line), or null.
    virtual const char *error() const = 0;
    // What names kernel k in an error message ("<where>:<line>: ..."): its trace's path.
    virtual std::string where(unsigned k) const { return "<kernel " + std::to_string(k) + ">"; }
};

// The control registers (32-bit, little-endian, offsets from wherever the platform maps the
// `ctrl` socket). A 64-bit counter reads whole with one 8-byte access, or as two 32-bit words
// (low first). Counters count since construction or the last reset, all kernels together.
// Every register shows the GPU as it was at the Gpu thread's last synchronisation (never ahead
// of the simulation time, at most one quantum behind it), STATUS and the counters together.
namespace reg {
enum : uint64_t {
    ID = 0x00,           // RO 0x534d544c ("SMTL")
    VERSION = 0x04,      // RO major << 16 | minor << 8 | patch
    CTRL = 0x08,         // WO bit 0 START (kernel KERNEL, at the write's time), bit 1 SOFT_RESET; reads 0
    STATUS = 0x0c,       // RO bit 0 BUSY, bit 1 DONE, bit 2 ERROR; bits 8-15 the last run's smtlm_run_status
    IRQ_EN = 0x10,       // RW bit 0: raise `irq` when a kernel ends
    IRQ_STATUS = 0x14,   // RW1C bit 0: a kernel ended
    KERNEL = 0x18,       // RW index into the kernel list
    KERNEL_COUNT = 0x1c, // RO
    CYCLES = 0x20,       // RO 64-bit gpu_tot_sim_cycle (with the running kernel's cycles)
    WARP_INSTS = 0x28,   // RO 64-bit warp instructions, all kernels
    THREAD_INSTS = 0x30, // RO 64-bit thread instructions, all kernels
    BANK_WAITS = 0x38,   // RO 64-bit register-bank wait steps, all SMs and banks
    STALLS = 0x40,       // RO 64-bit scheduler cycles with an instruction that could not issue (Stall)
    END = 0x48
};
enum : uint32_t {
    CTRL_START = 1u << 0,
    CTRL_SOFT_RESET = 1u << 1,
    STATUS_BUSY = 1u << 0,
    STATUS_DONE = 1u << 1,
    STATUS_ERROR = 1u << 2,
    STATUS_CODE_SHIFT = 8,
    IRQ_KERNEL_END = 1u << 0
};
constexpr uint32_t ID_VALUE = 0x534d544c;
} // namespace reg

// Whether a Gpu's SMs run in windows (GpuParams::sm_windows; -smtlm_sm_windows auto|1|0).
enum class SmWindows { Auto, On, Off };

struct GpuParams {
    uint64_t quantum_cycles = 0;      // batch size; 0 = the TLM global quantum's worth at the end of
                                      // elaboration, else 10000
    bool real_access = false;         // loads as real reads (else IGNORE); stores are always IGNORE
    bool stage_dmi = true;            // hand-offs by direct access where the target grants it, each
                                      // port deciding at the end of elaboration (Sm::use_stage_dmi)
    bool memory_waits = false;        // the SoC's memory may wait() in b_transport: every access in a
                                      // process of its own from the first (else from the first wait seen)
    // Once no thread block is left to issue, each SM may run alone for up to 1,024 cycles at a
    // time (a window; its state stays in the host's cache) rather than every SM each cycle. Each
    // SM's accesses keep their order and their times but reach the memory SM after SM, which
    // gives the cycle-order results only behind an order-independent memory (mem_order.h).
    // Auto: windows when the memory says it is one (smtlm::Memory, smsim's; a target answering
    // MemOrderQuery), asked at the start of simulation; else cycle by cycle. On: windows
    // whatever the memory (the platform vouches for it). Off: never. A memory target that
    // waits ends them (see memory_waits).
    SmWindows sm_windows = SmWindows::Auto;
    std::vector<AddrMapping> addr_map; // trace address windows moved into the SoC's memory map
    // Every SM's memory requests leave through the one socket Gpu::mem (SM by SM in issue
    // order, the SM in the MemAccessExtension) instead of each SM's mem_socket(i).
    bool single_mem_port = false;
    // Called for each SM as it is built, before it binds its blocks' sockets (SmHook): the VP may
    // bind some of them itself, e.g. a probe between two blocks, or put a block of its own in
    // one's place (GpgpusimSm::replace_writeback). Empty: the SMs as they are.
    SmHook sm_hook;
};

class Gpu : public sc_core::sc_module, private TimeBase {
  public:
    // control: registers (b_transport, transport_dbg), interrupt out, reset in; irq and rst
    // may stay unbound
    tlm_utils::simple_target_socket_optional<Gpu> ctrl;
    sc_core::sc_port<sc_core::sc_signal_inout_if<bool>, 1, sc_core::SC_ZERO_OR_MORE_BOUND> irq;
    sc_core::sc_port<sc_core::sc_signal_in_if<bool>, 1, sc_core::SC_ZERO_OR_MORE_BOUND> rst;
    // memory, with GpuParams::single_mem_port: every SM's requests; bind it to the SoC's memory
    // (then the Gpu has bound every mem_socket(i) itself: do not bind them). Unused otherwise.
    GpuMemSocket mem;

    // clock_period: one core cycle (from -gpgpu_clock_domains). Without single_mem_port every
    // SM's `mem` socket (mem_socket(i)) must be bound to the SoC's memory before the simulation
    // starts; with it, `mem`. A configuration the engine refuses is
    // SC_REPORT_ERROR("smtlm/config", ...) here; if the platform lets that return, status() says
    // why and the Gpu starts no kernel. `rst` is level-sensitive: while it is high the GPU is
    // held in reset.
    Gpu(sc_core::sc_module_name name, const smtlm_gpu_cfg &cfg, const sc_core::sc_time &clock_period,
        const GpuParams &params = GpuParams(), KernelList *kernels = nullptr);
    // Configured by the parameter broker's presets under this Gpu's full hierarchical name
    // (gpu_config.h): an unknown parameter or a bad value is SC_REPORT_ERROR("smtlm/config").
    // sm_hook: as GpuParams::sm_hook (probes, blocks of the platform's own).
    explicit Gpu(sc_core::sc_module_name name, KernelList *kernels = nullptr, SmHook sm_hook = SmHook());
    ~Gpu() override;
    // Built by the constructor above: its parameters (every option a Gpu takes, full names) and
    // the configuration they gave (the platform's memory latency, the opcode latencies); else
    // empty / null.
    std::vector<ParamInfo> parameters() const;
    const GpuConfig *config() const;
    tlm_utils::simple_initiator_socket<LdSt> &mem_socket(unsigned i) { return sms_[i]->ldst.mem; }
    int status() const { return init_status_; }
    const char *cfg_error() const { return gpu_.cfg_error; }

    // ---- the C++ API for sc_main scenarios ----
    // The instruction source of the next kernel (after a reset that came while a memory target
    // held the Gpu's thread, it takes effect once that call has returned).
    void set_source(const smtlm_inst_source &src, const smtlm_cta_binder *binder);
    void set_retire_hook(smtlm_retire_hook hook, void *ctx) { smtlm_gpu_set_retire_hook(&gpu_, hook, ctx); }
    // Starts kernel k on the source set with set_source(): the thread runs it from the current
    // simulated time; its statistics stay in engine() until end_kernel(). SMTLM_EINVAL if a
    // thread block cannot fit on an SM, SMTLM_EFULL while busy, held in reset, after a kernel
    // that did not complete (a reset first) or while a reset is finishing (it came while a
    // memory target held the thread: done_event() says when it is over), the construction's
    // error if it was refused.
    int run_kernel(const smtlm_kernel_desc &k);
    // Runs a kernel already launched on engine() (smtlm_gpu_launch).
    void start();
    // Starts kernel `index` of the kernel list, as writing CTRL.START does: the Gpu folds its
    // statistics into the totals when it ends, then sets STATUS and IRQ_STATUS. SMTLM_EFULL
    // while busy, held in reset or after a kernel that did not complete, SMTLM_ERANGE past
    // the list, else what prepare() or the launch answered. Right after a reset that came while
    // a memory target held the thread, the start is accepted (SMTLM_OK, BUSY) and the kernel is
    // prepared once that call returns; a failure then ends it as a failed START does.
    int start_kernel(unsigned index);
    // Aborts a running kernel and clears all state, counters and registers, keeping the
    // configuration, the source and the hooks (CTRL.SOFT_RESET, a rising edge on `rst`). It
    // takes effect at once; if a memory target holds the Gpu's thread inside b_transport, the
    // engine's own state is cleared when that call returns (its answer is dropped).
    void soft_reset();
    // Register read; false with an unknown offset. No register has read side effects. The
    // values are the GPU's at the thread's last synchronisation (see reg).
    bool read_reg(uint64_t offset, uint32_t *value) const;
    // Register write; false with an unknown or read-only offset.
    bool write_reg(uint64_t offset, uint32_t value);
    // Statistics snapshot of the whole GPU (as smsim prints them).
    smtlm_stats stats(double core_clock_mhz = 0) const;
    bool busy() const { return running_; }
    // Notified when the running kernel ends (done, limit, deadlock or error).
    const sc_core::sc_event &done_event() const { return done_ev_; }
    smtlm_run_status run_status() const { return gpu_.status; }
    // Folds the finished kernel into the totals (as smtlm_gpu_end_kernel).
    void end_kernel() { smtlm_gpu_end_kernel(&gpu_); }
    // The engine's state: cycles, instructions, SM views for statistics (read-only use). It
    // runs up to a quantum ahead of the simulation time inside a kernel; exact at its end.
    const smtlm_gpu &engine() const { return gpu_; }
    smtlm_gpu &engine() { return gpu_; }
    Sm &sm(unsigned i) { return *sms_[i]; }
    unsigned n_sm() const { return (unsigned)sms_.size(); }
    uint64_t syncs() const { return syncs_; }
    // Whether its SMs run in windows (GpuParams::sm_windows; with Auto decided at the start of
    // simulation, by asking the memory), and the cycles they ran in windows since construction.
    bool windows() const { return windows_; }
    uint64_t window_cycles() const { return par_ ? smtlm_gpu_par_window_cycles(par_.get()) : 0; }
    uint64_t quantum_cycles() const { return quantum_cycles_; }

  private:
#if SC_VERSION_MAJOR < 3 // SystemC 3 finds the module's type itself and deprecates the macro
    SC_HAS_PROCESS(Gpu);
#endif
    Gpu(sc_core::sc_module_name name, std::shared_ptr<GpuSetup> setup, KernelList *kernels);
    void thread();
    void ctrl_b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    unsigned ctrl_dbg(tlm::tlm_generic_payload &gp);
    void end_of_elaboration() override;
    void start_of_simulation() override;
    bool memory_order_independent();
    void install_windows();
    void bind_rst();
    void on_rst();
    void drive_irq();
    void update_irq();
    void reset_now();
    void reset_engine();
    void reset_registers();
    void finish_reset();
    void start_failed(int rc, unsigned index);
    void signal_end(smtlm_run_status st);
    void kernel_ended(smtlm_run_status st);
    void start_from_ctrl();
    void refuse_start(unsigned index, const char *why);
    void report_deadlock();
    void report_error(bool listed);
    uint64_t counter(uint64_t offset) const;
    void publish();
    int attach_engine();
    int can_start() const;
    sc_core::sc_time time_of(uint64_t cycle) const override { return start_time_ + period_ * (double)(cycle - start_cycle_); }
    sc_core::sc_time offset_of(uint64_t cycle) const { return ahead_of(time_of(cycle), sc_core::sc_time_stamp()); }
    sc_core::sc_time period() const override { return period_; }
    static const smtlm_sm_ops *sm_ops();
    static void window(void *ctx, smtlm_gpu *gpu, uint64_t end);

    MemFunnel mem_funnel_; // every SM's mem socket -> `mem`, with single_mem_port
    std::vector<std::unique_ptr<Sm>> sms_;
    // One memory model per SM: calloc'd, as a model is large (its in-flight queue) and fresh
    // zero pages cost nothing until an SM uses them; smtlm_gpu_init_engine initialises each.
    struct FreeMem {
        void operator()(smtlm_mem_model *m) const { std::free(m); }
    };
    std::unique_ptr<smtlm_mem_model[], FreeMem> mems_;
    smtlm_gpu gpu_;
    struct FreePar {
        void operator()(smtlm_gpu_par *p) const { smtlm_gpu_par_free(p); }
    };
    std::unique_ptr<smtlm_gpu_par, FreePar> par_; // the SMs' windows (GpuParams::sm_windows)
    MemWaits waits_;
    sc_core::sc_time period_;
    uint64_t quantum_cycles_;
    int init_status_ = SMTLM_OK;
    bool running_ = false;
    uint64_t syncs_ = 0;
    smtlm_gpu_cfg cfg_;
    GpuParams params_;
    KernelList *kernels_;
    // control registers
    uint32_t irq_en_ = 0, irq_status_ = 0, kernel_ = 0, status_ = 0;
    bool fold_ = false;            // the running kernel came from CTRL.START: fold its stats at its end
    unsigned running_index_ = 0;   // ... and its index in the kernel list
    bool rst_held_ = false;        // `rst` is high: the GPU is held in reset
    bool needs_reset_ = false;     // the last kernel did not complete: its state stays until a reset
    bool in_batch_ = false;        // the thread is inside the C kernel: another process runs only while a
                                   // memory target holds the thread in b_transport
    bool engine_stale_ = false;    // a reset came meanwhile: the engine is cleared when the batch returns
    bool start_later_ = false;     // ... and a START after it, of kernel start_index_, runs then
    unsigned start_index_ = 0;
    bool source_later_ = false;    // ... or a source set after it (set_source), bound then
    smtlm_inst_source later_src_{};
    smtlm_cta_binder later_binder_{};
    bool later_has_binder_ = false;
    bool windows_ = false;         // the SMs run in windows (GpuParams::sm_windows, decided)
    uint64_t generation_ = 0;      // bumped by each reset: a thread running an older kernel drops it
    uint64_t start_cycle_ = 0;        // the running kernel's first cycle ...
    sc_core::sc_time start_time_;     // ... and its time (START's write time with its delay)
    sc_core::sc_time start_offset_;   // the delay annotated on a CTRL.START being written
    uint64_t shown_[(reg::END - reg::CYCLES) / 8] = {}; // the counters at the last synchronisation
    sc_core::sc_event start_ev_, done_ev_, reset_ev_, irq_ev_;
    std::shared_ptr<GpuSetup> setup_; // from the presets (Gpu(name, kernels)), else null
};

} // namespace smtlm

#endif
