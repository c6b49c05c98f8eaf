// A virtual platform for the Gpu's tests: a CPU-like initiator running a script of register
// accesses, Gpus of smsim's built-in machine on a kernel list with their memory behind a
// router, the C engine's figures for a trace to compare the counters with.
#ifndef SMTLM_TESTS_TLM_VP_HARNESS_HPP
#define SMTLM_TESTS_TLM_VP_HARNESS_HPP

#include <gtest/gtest.h>

#include <tlm_utils/simple_initiator_socket.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "smsim_run.hpp"
#include "smtlm/tlm/gpu.h"
#include "smtlm/tlm/memory.h"
#include "smtlm/tlm/router.h"
#include "smtlm/tlm/trace_kernels.h"

extern "C" {
#include "smtlm/engine_config.h"
}

namespace vp {

namespace reg = smtlm::reg;

const uint64_t kCtrlBase = 0x40000000; // where the platform maps each Gpu's registers
const uint64_t kCtrlSize = 0x1000;

// What software does: 32-bit (and 64-bit counter) accesses from its own thread.
struct Cpu : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<Cpu> bus;
    std::function<void(Cpu &)> script;
    SC_HAS_PROCESS(Cpu);
    Cpu(sc_core::sc_module_name n, std::function<void(Cpu &)> s) : sc_core::sc_module(n), bus("bus"), script(std::move(s))
    {
        SC_THREAD(run);
    }
    void run()
    {
        script(*this);
        // Then block for good rather than return: the simulation still ends when nothing is left
        // to run, and no SystemC thread terminates. A thread that terminates as the last thing to
        // run leaves LeakSanitizer's check at exit (SystemC annotates its coroutine switches for
        // it) taking the main thread's stack to be the dead thread's: a fatal error in that check
        // after the tests passed, about one run in four of ControlRules.IrqByteEnablesAndReportedStarts.
        sc_core::wait(never);
    }
    sc_core::sc_event never; // never notified
    tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t addr, void *data, unsigned len,
                                    unsigned char *be = nullptr, unsigned be_len = 0,
                                    sc_core::sc_time delay = sc_core::SC_ZERO_TIME) // the CPU's local time
    {
        tlm::tlm_generic_payload gp;
        gp.set_command(cmd);
        gp.set_address(addr);
        gp.set_data_ptr(static_cast<unsigned char *>(data));
        gp.set_data_length(len);
        gp.set_streaming_width(len);
        gp.set_byte_enable_ptr(be);
        gp.set_byte_enable_length(be_len);
        gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        bus->b_transport(gp, delay);
        EXPECT_EQ(gp.get_address(), addr); // the router gives the address back
        return gp.get_response_status();
    }
    uint32_t rd(uint64_t off, uint64_t base = kCtrlBase)
    {
        uint32_t v = 0xdeadbeef;
        EXPECT_EQ(access(tlm::TLM_READ_COMMAND, base + off, &v, 4), tlm::TLM_OK_RESPONSE) << "read 0x" << std::hex << off;
        return v;
    }
    uint64_t rd64(uint64_t off, uint64_t base = kCtrlBase)
    {
        uint64_t v = 0;
        EXPECT_EQ(access(tlm::TLM_READ_COMMAND, base + off, &v, 8), tlm::TLM_OK_RESPONSE) << "read64 0x" << std::hex << off;
        return v;
    }
    void wr(uint64_t off, uint32_t v, uint64_t base = kCtrlBase)
    {
        EXPECT_EQ(access(tlm::TLM_WRITE_COMMAND, base + off, &v, 4), tlm::TLM_OK_RESPONSE) << "write 0x" << std::hex << off;
    }
};

// smsim's built-in machine (the options' defaults), as a VP would build it.
inline smtlm_run_cfg default_machine(const std::vector<const char *> &extra = {})
{
    smtlm_options *o = smtlm_options_new();
    std::vector<const char *> argv = {"vp"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    char err[512];
    EXPECT_EQ(smtlm_options_parse_argv(o, (int)argv.size(), argv.data(), err, sizeof err), SMTLM_OPT_OK) << err;
    smtlm_run_cfg c;
    EXPECT_EQ(smtlm_engine_config(o, &c, err, sizeof err), 0) << err;
    smtlm_options_free(o);
    return c;
}

inline sc_core::sc_time period_of(const smtlm_run_cfg &c) { return sc_core::sc_time(1e6 / c.core_clock_mhz, sc_core::SC_PS); }

// One Gpu of the default machine running a kernel list, with its memory behind a router (a
// smtlm::Memory with the machine's latency, or the test's own target) and its irq/rst lines on
// signals (rst low at the start unless asked).
struct GpuNode {
    smtlm_run_cfg cfg;
    smtlm::TraceKernels kernels;
    smtlm::Gpu gpu;
    smtlm::Router mem_bus;
    std::unique_ptr<smtlm::Memory> dram; // unless the test brings its own memory
    sc_core::sc_signal<bool> irq, rst;
    GpuNode(const char *name, const std::string &list, const smtlm_run_cfg &c, uint64_t quantum = 0)
        : GpuNode(name, list, c, params(quantum))
    {
    }
    GpuNode(const char *name, const std::string &list, const smtlm_run_cfg &c, const smtlm::GpuParams &p,
            tlm::tlm_target_socket<> *memory = nullptr, bool rst_high = false, const std::string &sass = "")
        : cfg(c), kernels(list, c.lat, sass), gpu(name, c.gpu, period_of(c), p, &kernels),
          mem_bus((std::string(name) + "_bus").c_str()),
          irq((std::string(name) + "_irq").c_str()), rst((std::string(name) + "_rst").c_str(), rst_high)
    {
        EXPECT_TRUE(kernels.ok()) << kernels.error();
        EXPECT_EQ(gpu.status(), SMTLM_OK);
        for (unsigned i = 0; i < gpu.n_sm(); i++)
            gpu.mem_socket(i).bind(mem_bus.in);
        if (!memory) {
            dram.reset(new smtlm::Memory((std::string(name) + "_dram").c_str(), period_of(c) * (double)c.gpu.mem_latency));
            memory = &dram->socket;
        }
        mem_bus.out.bind(*memory);
        mem_bus.map(0, ~0ull, 0);
        gpu.irq.bind(irq);
        gpu.rst.bind(rst);
    }
    static smtlm::GpuParams params(uint64_t quantum)
    {
        smtlm::GpuParams p;
        p.quantum_cycles = quantum;
        return p;
    }
};

// A CPU and one or two Gpus behind a router (Gpu g's registers at kCtrlBase + g * kCtrlSize).
struct Soc {
    std::vector<std::unique_ptr<GpuNode>> nodes;
    smtlm::Router bus{"bus"};
    Cpu cpu;
    Soc(std::function<void(Cpu &)> script, std::vector<std::unique_ptr<GpuNode>> gpus)
        : nodes(std::move(gpus)), cpu("cpu", std::move(script))
    {
        cpu.bus.bind(bus.in);
        for (unsigned g = 0; g < nodes.size(); g++) {
            bus.out.bind(nodes[g]->gpu.ctrl);
            bus.map(kCtrlBase + g * kCtrlSize, kCtrlSize, g, true);
        }
    }
};

inline std::unique_ptr<GpuNode> node(const char *name, const std::string &trace, uint64_t quantum = 0,
                               const std::vector<const char *> &opts = {})
{
    return std::unique_ptr<GpuNode>(
        new GpuNode(name, e2e::data("traces/" + trace + "/kernelslist.g"), default_machine(opts), quantum));
}

// What the C engine prints for the same trace run `times` times on the same machine.
struct Reference {
    uint64_t cycles, warp_insts, thread_insts, bank_waits, stalls;
};
inline Reference reference(const std::string &trace, unsigned times = 1)
{
    std::vector<std::string> args;
    std::string list = e2e::data("traces/" + trace + "/kernelslist.g");
    if (times > 1) { // the same (one-kernel) trace again: copies kernel-1, kernel-2, ... in a list
        const std::string dir = e2e::scratch("times_" + trace);
        std::ifstream in(list);
        std::string line, text;
        while (std::getline(in, line))
            if (line.rfind("kernel", 0) == 0)
                for (unsigned t = 1; t <= times; t++) {
                    const std::string copy = "kernel-" + std::to_string(t) + ".traceg";
                    std::ifstream src(e2e::data("traces/" + trace + "/" + line), std::ios::binary);
                    std::ofstream(dir + "/" + copy, std::ios::binary) << src.rdbuf();
                    text += copy + "\n";
                }
        std::ofstream(dir + "/kernelslist.g") << text;
        list = dir + "/kernelslist.g";
    }
    const e2e::Result r = e2e::smsim({"-trace", list, "-smtlm_engine", "c"});
    EXPECT_EQ(r.status, 0) << r.err;
    Reference ref{(uint64_t)r.stat("gpu_tot_sim_cycle"), (uint64_t)r.stat("gpgpu_n_tot_w_icount"),
                  (uint64_t)r.stat("gpu_tot_sim_insn"), 0, 0};
    // the last kernel's lines: stall and bank counters are totals since the start
    const std::regex stall("\nStall:([0-9]+)"), waits("\nsmtlm_rf_bank_wait_steps = ([0-9 ]+)");
    for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), stall); it != std::sregex_iterator(); ++it)
        ref.stalls = std::stoull((*it)[1]);
    for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), waits); it != std::sregex_iterator(); ++it) {
        ref.bank_waits = 0;
        std::istringstream ws((*it)[1].str());
        for (uint64_t w; ws >> w;)
            ref.bank_waits += w;
    }
    return ref;
}

// A one-kernel trace of `ctas` thread blocks of `warps` warps in scratch directory `name`: warp
// w of block b runs the instructions instruction(b, w, i) gives for i = 0, 1, ... (the line after
// its pc, until it returns ""), then EXIT. Returns its kernel list.
inline std::string write_kernel_trace(const std::string &name, unsigned ctas, unsigned warps,
                                      const std::function<std::string(unsigned, unsigned, unsigned)> &instruction)
{
    const std::string dir = e2e::scratch(name);
    std::string t = "-kernel name = " + name + "\n-kernel id = 1\n-grid dim = (" + std::to_string(ctas) +
                    ",1,1)\n-block dim = (" + std::to_string(32 * warps) +
                    ",1,1)\n-shmem = 0\n-nregs = 32\n-binary version = 70\n-cuda stream id = 0\n"
                    "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007f1000000000\n"
                    "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
                    "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
                    "[adrrescompress?] [mem_addresses]\n\n";
    char pc[16];
    for (unsigned b = 0; b < ctas; b++) {
        t += "#BEGIN_TB\n\nthread block = " + std::to_string(b) + ",0,0\n\n";
        for (unsigned w = 0; w < warps; w++) {
            std::string body;
            unsigned i = 0;
            for (std::string in; !(in = instruction(b, w, i)).empty(); i++) {
                std::snprintf(pc, sizeof pc, "%04x ", i * 16);
                body += pc + in + "\n";
            }
            std::snprintf(pc, sizeof pc, "%04x ", i * 16);
            t += "warp = " + std::to_string(w) + "\ninsts = " + std::to_string(i + 1) + "\n" + body + pc +
                 "ffffffff 0 EXIT 0 0\n\n";
        }
        t += "#END_TB\n\n";
    }
    e2e::write_file(dir + "/kernel-1.traceg", t);
    e2e::write_file(dir + "/kernelslist.g", "kernel-1.traceg\n");
    return dir + "/kernelslist.g";
}

// A kernel of `ctas` thread blocks of `warps` warps, each warp `loads` loads whose 32 lanes are
// 64 bytes apart (32 sectors each) into eight registers in turn, nothing waiting for them: up to
// eight loads of a warp are in flight at once, so the memory has many accesses outstanding.
// Returns its kernel list; ctas x warps x loads x 32 memory accesses.
inline std::string write_loads_trace(const std::string &name, unsigned ctas, unsigned warps, unsigned loads)
{
    return write_kernel_trace(name, ctas, warps, [&](unsigned b, unsigned w, unsigned i) {
        char line[96] = "";
        if (i < loads)
            std::snprintf(line, sizeof line, "ffffffff 1 R%u LDG.E 1 R2 4 1 0x%llx 64", 10 + i % 8,
                          0x10000000ull + ((unsigned long long)(b * warps + w) * loads + i) * 0x800);
        return std::string(line);
    });
}

inline void wait_irq(GpuNode &n)
{
    while (!n.irq.read())
        sc_core::wait(n.irq.posedge_event());
}

// What a driver does for one kernel: enable the interrupt, START, sleep until the interrupt.
inline void start_and_wait_irq(Cpu &c, GpuNode &n, uint64_t base = kCtrlBase)
{
    c.wr(reg::IRQ_EN, 1, base);
    c.wr(reg::CTRL, reg::CTRL_START, base);
    wait_irq(n);
}

// Runs kernel 0 of a Gpu the test built itself, its memory bound: a CPU starts it through the
// registers and waits for its end. The platform lives as long as the result.
inline std::unique_ptr<Soc> run_kernel_0(smtlm::Gpu &gpu)
{
    std::unique_ptr<Soc> soc(new Soc(
        [&gpu](Cpu &cpu) {
            cpu.wr(reg::CTRL, reg::CTRL_START);
            while (gpu.busy())
                sc_core::wait(gpu.done_event());
        },
        {}));
    soc->bus.out.bind(gpu.ctrl);
    soc->bus.map(kCtrlBase, kCtrlSize, 0, true);
    sc_core::sc_start();
    return soc;
}

} // namespace vp

#endif
