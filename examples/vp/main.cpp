// A small virtual platform: a CPU-like initiator runs a driver that programs two GPUs through
// their control registers, starts every kernel of each GPU's kernel list, sleeps until an
// interrupt, reads the counters and starts the next kernel. Both GPUs share one DRAM behind a
// memory router, the two ways a Gpu can be bound: gpu0 with one socket per SM, gpu1 through
// its single memory socket (GpuParams::single_mem_port). The CPU reaches the GPUs' registers
// through a system bus that hands each GPU offsets from its base.
//
//   vp <kernelslist.g for gpu0> <kernelslist.g for gpu1> [-<option> <value>]... [gpuN.<option>=<value>]...
//
// The options are smsim's (-config FILE, -gpgpu_n_clusters 4, ...), over the same built-in
// QV100 machine, for both GPUs; gpuN.<option>=<value> (or --param gpuN.<option>=<value>) sets
// one GPU's option over them, e.g. gpu1.gpgpu_n_clusters=2 or gpu0.config=my.config. The DRAM
// has gpu0's -smtlm_mem_latency. Prints one line per finished kernel and the totals; exit 1 on
// any error, 2 on a bad command line or configuration.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "smtlm/tlm/gpu.h"
#include "smtlm/tlm/gpu_config.h"
#include "smtlm/tlm/memory.h"
#include "smtlm/tlm/router.h"
#include "smtlm/tlm/trace_kernels.h"

namespace {

namespace reg = smtlm::reg;
const uint64_t kGpuBase = 0x40000000, kGpuStride = 0x1000;

// The CPU: a thread running the driver, 32/64-bit register accesses, interrupt lines in.
struct Cpu : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<Cpu> bus;
    std::vector<sc_core::sc_in<bool> *> irq;
    bool failed = false;

#if SC_VERSION_MAJOR < 3 // SystemC 3 finds the module's type itself and deprecates the macro
    SC_HAS_PROCESS(Cpu);
#endif
    Cpu(sc_core::sc_module_name n, unsigned n_gpus) : sc_core::sc_module(n), bus("bus")
    {
        for (unsigned g = 0; g < n_gpus; g++)
            irq.push_back(new sc_core::sc_in<bool>(sc_core::sc_gen_unique_name("irq")));
        SC_THREAD(driver);
    }
    ~Cpu() override
    {
        for (auto *p : irq)
            delete p;
    }

    bool access(tlm::tlm_command cmd, uint64_t addr, void *data, unsigned len)
    {
        tlm::tlm_generic_payload gp;
        gp.set_command(cmd);
        gp.set_address(addr);
        gp.set_data_ptr(static_cast<unsigned char *>(data));
        gp.set_data_length(len);
        gp.set_streaming_width(len);
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        bus->b_transport(gp, delay);
        if (!gp.is_response_ok()) {
            std::fprintf(stderr, "vp: bus error at 0x%llx: %s\n", (unsigned long long)addr, gp.get_response_string().c_str());
            failed = true;
        }
        return gp.is_response_ok();
    }
    uint32_t rd(unsigned g, uint64_t off)
    {
        uint32_t v = 0;
        access(tlm::TLM_READ_COMMAND, kGpuBase + g * kGpuStride + off, &v, 4);
        return v;
    }
    uint64_t rd64(unsigned g, uint64_t off)
    {
        uint64_t v = 0;
        access(tlm::TLM_READ_COMMAND, kGpuBase + g * kGpuStride + off, &v, 8);
        return v;
    }
    void wr(unsigned g, uint64_t off, uint32_t v) { access(tlm::TLM_WRITE_COMMAND, kGpuBase + g * kGpuStride + off, &v, 4); }

    // The driver: every GPU runs its kernels in order; the CPU sleeps between interrupts.
    void driver()
    {
        const unsigned n = (unsigned)irq.size();
        std::vector<uint32_t> next(n, 0), count(n);
        sc_core::sc_event_or_list any_irq;
        for (unsigned g = 0; g < n; g++) {
            if (rd(g, reg::ID) != reg::ID_VALUE) {
                std::fprintf(stderr, "vp: no smtlm GPU at 0x%llx\n", (unsigned long long)(kGpuBase + g * kGpuStride));
                failed = true;
                return;
            }
            count[g] = rd(g, reg::KERNEL_COUNT);
            wr(g, reg::IRQ_EN, reg::IRQ_KERNEL_END);
            any_irq |= irq[g]->posedge_event();
        }
        unsigned running = 0;
        for (unsigned g = 0; g < n; g++)
            running += start_next(g, next, count);
        while (running) {
            sc_core::wait(any_irq);
            for (unsigned g = 0; g < n; g++) {
                if (!(rd(g, reg::IRQ_STATUS) & reg::IRQ_KERNEL_END))
                    continue;
                wr(g, reg::IRQ_STATUS, reg::IRQ_KERNEL_END); // write 1 to clear
                const uint32_t status = rd(g, reg::STATUS);
                std::printf("[%s] gpu%u kernel %u: status 0x%x cycles %llu warp_insts %llu thread_insts %llu "
                            "bank_waits %llu stalls %llu\n",
                            sc_core::sc_time_stamp().to_string().c_str(), g, next[g] - 1, status,
                            (unsigned long long)rd64(g, reg::CYCLES), (unsigned long long)rd64(g, reg::WARP_INSTS),
                            (unsigned long long)rd64(g, reg::THREAD_INSTS), (unsigned long long)rd64(g, reg::BANK_WAITS),
                            (unsigned long long)rd64(g, reg::STALLS));
                running--;
                if (status & reg::STATUS_ERROR) {
                    failed = true;
                    continue; // a failed GPU runs nothing more
                }
                running += start_next(g, next, count);
            }
        }
        // nothing left to do: with the GPUs' threads asleep the simulation ends by itself
    }
    unsigned start_next(unsigned g, std::vector<uint32_t> &next, const std::vector<uint32_t> &count)
    {
        if (next[g] >= count[g])
            return 0;
        wr(g, reg::KERNEL, next[g]++);
        wr(g, reg::CTRL, reg::CTRL_START);
        return 1;
    }
};

} // namespace

// The shared -<option> <value> arguments as presets of every GPU, below any gpuN.<option> one.
bool shared_options(int argc, char **argv, const std::vector<char *> &orig, unsigned n_gpus)
{
    smtlm::Parameters &broker = smtlm::param_broker();
    for (int i = 3; i < argc; i += 2) {
        const int at = (int)(std::find(orig.begin(), orig.end(), argv[i]) - orig.begin());
        if (argv[i][0] != '-' || i + 1 >= argc) {
            std::fprintf(stderr, "vp: <command line>:%d: '%s' is not -<option> <value> or gpuN.<option>=<value>\n",
                         at, argv[i]);
            return false;
        }
        for (unsigned g = 0; g < n_gpus; g++) {
            const std::string name = "gpu" + std::to_string(g) + "." + (argv[i] + 1);
            if (!broker.find(name))
                broker.set_preset(name, argv[i + 1], "<command line>", at);
        }
    }
    return true;
}

int sc_main(int argc, char *argv[])
{
    const unsigned n_gpus = 2;
    const std::vector<char *> orig(argv, argv + argc);
    const std::string bad = smtlm::param_broker().take_args(&argc, argv);
    if (!bad.empty() || argc < 3) {
        if (!bad.empty())
            std::fprintf(stderr, "vp: %s\n", bad.c_str());
        std::fprintf(stderr, "usage: vp <kernelslist0> <kernelslist1> [-<option> <value>]... [gpuN.<option>=<value>]...\n");
        return 2;
    }
    if (!shared_options(argc, argv, orig, n_gpus))
        return 2;
    // the two ways to bind a Gpu's memory side: gpu1 through its single socket unless told
    if (!smtlm::param_broker().find("gpu1.smtlm_mem_single_port"))
        smtlm::param_broker().set_preset("gpu1.smtlm_mem_single_port", "1");

    std::vector<std::unique_ptr<smtlm::TraceKernels>> lists;
    std::vector<std::unique_ptr<smtlm::Gpu>> gpus;
    std::vector<std::unique_ptr<sc_core::sc_signal<bool>>> irqs;
    std::unique_ptr<smtlm::Memory> dram;
    Cpu cpu("cpu", n_gpus);
    smtlm::Router sysbus("sysbus"), membus("membus");
    cpu.bus.bind(sysbus.in);
    membus.map(0, ~0ull, 0);
    for (unsigned g = 0; g < n_gpus; g++) {
        const std::string name = "gpu" + std::to_string(g);
        smtlm::GpuConfig cfg; // what the Gpu will take: its kernel list needs the opcode latencies
                              // (and, with the silicon core, the -smtlm_sass listing)
        const std::string err = cfg.from_presets(name);
        if (!err.empty()) {
            std::fprintf(stderr, "vp: %s\n", err.c_str());
            return 2;
        }
        lists.emplace_back(new smtlm::TraceKernels(argv[1 + g], cfg.lat, cfg.sass));
        if (!lists.back()->ok()) {
            std::fprintf(stderr, "vp: %s\n", lists.back()->error());
            return 2;
        }
        gpus.emplace_back(new smtlm::Gpu(name.c_str(), lists.back().get()));
        smtlm::Gpu &gpu = *gpus.back();
        if (gpu.status() != SMTLM_OK) {
            std::fprintf(stderr, "vp: configuration rejected: %s\n", gpu.cfg_error());
            return 2;
        }
        if (!dram) {
            dram.reset(new smtlm::Memory("dram", gpu.config()->mem_latency));
            membus.out.bind(dram->socket);
        }
        if (gpu.config()->params.single_mem_port) // one socket carries every SM's requests
            gpu.mem.bind(membus.in);
        else
            for (unsigned i = 0; i < gpu.n_sm(); i++)
                gpu.mem_socket(i).bind(membus.in);
        sysbus.out.bind(gpu.ctrl);
        sysbus.map(kGpuBase + g * kGpuStride, kGpuStride, g, true); // registers at offsets from the base
        irqs.emplace_back(new sc_core::sc_signal<bool>(("irq" + std::to_string(g)).c_str()));
        gpu.irq.bind(*irqs.back());
        cpu.irq[g]->bind(*irqs.back());
    }
    try {
        sc_core::sc_start();
    } catch (const sc_core::sc_report &r) { // a preset nothing took (smtlm/config)
        std::fprintf(stderr, "vp: %s\n", r.get_msg());
        return 2;
    }
    std::printf("simulated time %s\n", sc_core::sc_time_stamp().to_string().c_str());
    return cpu.failed ? 1 : 0;
}
