// The Gpu's control side as software on a virtual platform sees it: a CPU-like initiator
// programs the registers over TLM (behind a router that hands the Gpu local offsets), starts
// kernels of a real Accel-Sim kernel list, waits for the interrupt and reads the counters.
// The counters must equal what the C engine (smsim -smtlm_engine c, same built-in QV100
// machine) prints for the same trace; register semantics: W1C, unknown offsets, debug
// reads, soft reset and the rst line mid-kernel, the watchdog, two Gpus side by side.
#include <gtest/gtest.h>

#include "kernel_test_util.hpp"
#include "vp_harness.hpp"

namespace {

using namespace vp;
namespace reg = smtlm::reg;

TEST(GpuControl, IdentityAndAccessRules)
{
    Soc soc(
        [](Cpu &c) {
            EXPECT_EQ(c.rd(reg::ID), 0x534d544cu); // "SMTL"
            EXPECT_EQ(c.rd(reg::VERSION), 0x000100u); // 0.1.0
            EXPECT_EQ(c.rd(reg::KERNEL_COUNT), 1u);
            EXPECT_EQ(c.rd(reg::STATUS), 0u);
            EXPECT_EQ(c.rd(reg::CTRL), 0u);
            uint32_t v = 1;
            // unknown offsets: past the map, inside a word, not a register
            for (uint64_t off : {(uint64_t)reg::END, (uint64_t)0x100, (uint64_t)0x2, (uint64_t)0xffc})
                EXPECT_EQ(c.access(tlm::TLM_READ_COMMAND, kCtrlBase + off, &v, 4), tlm::TLM_ADDRESS_ERROR_RESPONSE) << off;
            EXPECT_EQ(c.access(tlm::TLM_WRITE_COMMAND, kCtrlBase + 0x100, &v, 4), tlm::TLM_ADDRESS_ERROR_RESPONSE);
            // read-only registers refuse writes
            for (uint64_t off : {(uint64_t)reg::ID, (uint64_t)reg::STATUS, (uint64_t)reg::KERNEL_COUNT, (uint64_t)reg::CYCLES})
                EXPECT_EQ(c.access(tlm::TLM_WRITE_COMMAND, kCtrlBase + off, &v, 4), tlm::TLM_COMMAND_ERROR_RESPONSE) << off;
            // 8 bytes only for a whole counter, byte enables never
            uint64_t w = 0;
            EXPECT_EQ(c.access(tlm::TLM_READ_COMMAND, kCtrlBase + reg::STATUS, &w, 8), tlm::TLM_BURST_ERROR_RESPONSE);
            EXPECT_EQ(c.access(tlm::TLM_READ_COMMAND, kCtrlBase + reg::CYCLES + 4, &w, 8), tlm::TLM_BURST_ERROR_RESPONSE);
            unsigned char be[4] = {0xff, 0xff, 0, 0};
            EXPECT_EQ(c.access(tlm::TLM_READ_COMMAND, kCtrlBase + reg::ID, &v, 4, be, 4), tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
            // read-write registers keep what is written
            c.wr(reg::KERNEL, 7);
            EXPECT_EQ(c.rd(reg::KERNEL), 7u);
            c.wr(reg::IRQ_EN, 0xffffffffu);
            EXPECT_EQ(c.rd(reg::IRQ_EN), 1u); // one defined bit
        },
        [] {
            std::vector<std::unique_ptr<GpuNode>> v;
            v.push_back(node("gpu", "vectoradd-100-32-trace"));
            return v;
        }());
    sc_core::sc_start();
}

// START runs kernel KERNEL; the interrupt comes when it ends; every counter equals the C
// engine's figure for the trace (matrixmul: 4416 warp and 139264 thread instructions are the
// trace's own counts).
TEST(GpuControl, StartRunsTheKernelAndTheCountersMatchTheCEngine)
{
    const Reference ref = reference("matrixmul-32-32-trace");
    ASSERT_EQ(ref.warp_insts, 4416u);
    ASSERT_EQ(ref.thread_insts, 139264u);
    ASSERT_GT(ref.bank_waits, 0u);
    ASSERT_GT(ref.stalls, 0u);
    bool finished = false;
    std::vector<std::unique_ptr<GpuNode>> g;
    g.push_back(node("gpu", "matrixmul-32-32-trace"));
    GpuNode *n = g[0].get();
    Soc soc(
        [&](Cpu &c) {
            c.wr(reg::KERNEL, 0);
            c.wr(reg::IRQ_EN, reg::IRQ_KERNEL_END);
            c.wr(reg::CTRL, reg::CTRL_START);
            EXPECT_EQ(c.rd(reg::STATUS), reg::STATUS_BUSY);
            c.wr(reg::CTRL, reg::CTRL_START); // ignored while busy
            wait_irq(*n);
            EXPECT_EQ(c.rd(reg::STATUS), reg::STATUS_DONE | SMTLM_RUN_DONE << reg::STATUS_CODE_SHIFT);
            EXPECT_EQ(c.rd(reg::IRQ_STATUS), reg::IRQ_KERNEL_END);
            EXPECT_EQ(c.rd64(reg::CYCLES), ref.cycles);
            EXPECT_EQ(c.rd(reg::CYCLES), (uint32_t)ref.cycles);
            EXPECT_EQ(c.rd(reg::CYCLES + 4), 0u);
            EXPECT_EQ(c.rd64(reg::WARP_INSTS), ref.warp_insts);
            EXPECT_EQ(c.rd64(reg::THREAD_INSTS), ref.thread_insts);
            EXPECT_EQ(c.rd64(reg::BANK_WAITS), ref.bank_waits);
            EXPECT_EQ(c.rd64(reg::STALLS), ref.stalls);
            // the Gpu's time: the kernel's cycles at the core clock (the Gpu ran ahead by at
            // most what its last sync had not yet waited out)
            EXPECT_EQ(sc_core::sc_time_stamp(), period_of(n->cfg) * (double)ref.cycles);
            // IRQ_STATUS is write-1-to-clear: 0 leaves it, 1 clears it and drops the line
            c.wr(reg::IRQ_STATUS, 0);
            EXPECT_EQ(c.rd(reg::IRQ_STATUS), 1u);
            sc_core::wait(sc_core::SC_ZERO_TIME);
            EXPECT_TRUE(n->irq.read());
            c.wr(reg::IRQ_STATUS, 1);
            EXPECT_EQ(c.rd(reg::IRQ_STATUS), 0u);
            sc_core::wait(sc_core::SC_ZERO_TIME);
            sc_core::wait(sc_core::SC_ZERO_TIME);
            EXPECT_FALSE(n->irq.read());
            finished = true;
        },
        std::move(g));
    sc_core::sc_start();
    EXPECT_TRUE(finished);
    EXPECT_FALSE(n->gpu.busy());
    const smtlm_stats st = n->gpu.stats(); // the C++ API's snapshot says the same
    EXPECT_EQ(st.tot_cycle, ref.cycles);
    EXPECT_EQ(st.tot_warp_insn, ref.warp_insts);
}

// Kernels run one after another accumulate like the C engine running the list twice; with
// IRQ_EN clear the kernel's end shows in IRQ_STATUS but not on the line.
TEST(GpuControl, KernelsAccumulateAndIrqEnMasksTheLine)
{
    const Reference once = reference("vectoradd-100-32-trace"), twice = reference("vectoradd-100-32-trace", 2);
    ASSERT_EQ(twice.warp_insts, 2 * once.warp_insts);
    std::vector<std::unique_ptr<GpuNode>> g;
    g.push_back(node("gpu", "vectoradd-100-32-trace"));
    GpuNode *n = g[0].get();
    Soc soc(
        [&](Cpu &c) {
            c.wr(reg::CTRL, reg::CTRL_START);
            while (c.rd(reg::STATUS) & reg::STATUS_BUSY)
                sc_core::wait(100, sc_core::SC_NS);
            EXPECT_EQ(c.rd(reg::IRQ_STATUS), 1u);
            EXPECT_FALSE(n->irq.read());
            EXPECT_EQ(c.rd64(reg::CYCLES), once.cycles);
            c.wr(reg::IRQ_STATUS, 1);
            c.wr(reg::IRQ_EN, 1);
            c.wr(reg::CTRL, reg::CTRL_START);
            wait_irq(*n);
            EXPECT_EQ(c.rd64(reg::CYCLES), twice.cycles);
            EXPECT_EQ(c.rd64(reg::WARP_INSTS), twice.warp_insts);
            EXPECT_EQ(c.rd64(reg::THREAD_INSTS), twice.thread_insts);
            EXPECT_EQ(c.rd64(reg::STALLS), twice.stalls);
        },
        std::move(g));
    sc_core::sc_start();
}

// transport_dbg reads any run of registers (no side effect) and refuses writes and unknown
// offsets; it works before the simulation starts.
TEST(GpuControl, DebugTransportReadsRegisters)
{
    bool ran = false;
    std::vector<std::unique_ptr<GpuNode>> g;
    g.push_back(node("gpu", "vectoradd-100-32-trace"));
    Soc soc(
        [&](Cpu &c) {
            c.wr(reg::KERNEL, 5);
            uint32_t words[reg::END / 4];
            tlm::tlm_generic_payload gp;
            gp.set_read();
            gp.set_address(kCtrlBase);
            gp.set_data_ptr(reinterpret_cast<unsigned char *>(words));
            gp.set_data_length(sizeof words);
            EXPECT_EQ(c.bus->transport_dbg(gp), (unsigned)reg::END);
            EXPECT_EQ(words[reg::ID / 4], reg::ID_VALUE);
            EXPECT_EQ(words[reg::KERNEL / 4], 5u);
            EXPECT_EQ(words[reg::KERNEL_COUNT / 4], 1u);
            gp.set_address(kCtrlBase + reg::END);
            gp.set_data_length(4);
            EXPECT_EQ(c.bus->transport_dbg(gp), 0u);
            gp.set_address(kCtrlBase + reg::KERNEL);
            gp.set_write();
            words[0] = 0;
            EXPECT_EQ(c.bus->transport_dbg(gp), 0u);
            EXPECT_EQ(c.rd(reg::KERNEL), 5u);
            ran = true;
        },
        std::move(g));
    sc_core::sc_start();
    EXPECT_TRUE(ran);
}

// CTRL.SOFT_RESET in the middle of a kernel: the kernel is gone at once (not busy, no
// interrupt), every counter and register is back to zero, and the same kernel started again
// takes exactly the cycles of a fresh run.
TEST(GpuControl, SoftResetMidKernelAbortsAndClearsEverything)
{
    const Reference ref = reference("matrixmul-32-32-trace");
    std::vector<std::unique_ptr<GpuNode>> g;
    g.push_back(node("gpu", "matrixmul-32-32-trace", 100));
    GpuNode *n = g[0].get();
    Soc soc(
        [&](Cpu &c) {
            c.wr(reg::IRQ_EN, 1);
            c.wr(reg::KERNEL, 0);
            c.wr(reg::CTRL, reg::CTRL_START);
            sc_core::wait(period_of(n->cfg) * 6500.0); // past the 5000-cycle launch latency
            const uint64_t mid = c.rd64(reg::CYCLES);
            EXPECT_GE(mid, 6400u); // the registers show the last synchronisation: one 100-cycle batch back at most
            EXPECT_LE(mid, 6500u);
            EXPECT_LT(mid, ref.cycles);
            EXPECT_GT(c.rd64(reg::WARP_INSTS), 0u);
            EXPECT_EQ(c.rd(reg::STATUS), reg::STATUS_BUSY);
            c.wr(reg::CTRL, reg::CTRL_SOFT_RESET);
            EXPECT_EQ(c.rd(reg::STATUS), 0u);
            for (uint64_t off = reg::CYCLES; off < reg::END; off += 8)
                EXPECT_EQ(c.rd64(off), 0u) << off;
            EXPECT_EQ(c.rd(reg::IRQ_EN), 0u);
            EXPECT_EQ(c.rd(reg::IRQ_STATUS), 0u);
            sc_core::wait(period_of(n->cfg) * 20000.0); // longer than the kernel: nothing ends
            EXPECT_EQ(c.rd(reg::IRQ_STATUS), 0u);
            EXPECT_EQ(c.rd64(reg::CYCLES), 0u);
            EXPECT_FALSE(n->irq.read());
            c.wr(reg::IRQ_EN, 1);
            c.wr(reg::CTRL, reg::CTRL_START);
            wait_irq(*n);
            EXPECT_EQ(c.rd64(reg::CYCLES), ref.cycles);
            EXPECT_EQ(c.rd64(reg::WARP_INSTS), ref.warp_insts);
            EXPECT_EQ(c.rd64(reg::BANK_WAITS), ref.bank_waits);
        },
        std::move(g));
    sc_core::sc_start();
}

// The rst line: its rising edge resets like CTRL.SOFT_RESET and START is ignored while it is
// high (so is a write to IRQ_EN: the registers hold their reset values); after it falls the
// kernel runs normally.
TEST(GpuControl, ResetLineAbortsAndHoldsOffStart)
{
    const Reference ref = reference("vectoradd-100-32-trace");
    std::vector<std::unique_ptr<GpuNode>> g;
    g.push_back(node("gpu", "vectoradd-100-32-trace", 50));
    GpuNode *n = g[0].get();
    bool ran = false;
    Soc soc(
        [&](Cpu &c) {
            c.wr(reg::IRQ_EN, 1);
            c.wr(reg::CTRL, reg::CTRL_START);
            sc_core::wait(period_of(n->cfg) * 1000.0);
            EXPECT_EQ(c.rd(reg::STATUS), reg::STATUS_BUSY);
            n->rst.write(true);
            sc_core::wait(1, sc_core::SC_NS);
            EXPECT_EQ(c.rd(reg::STATUS), 0u);
            EXPECT_EQ(c.rd64(reg::CYCLES), 0u);
            c.wr(reg::IRQ_EN, 1);             // held in reset: ignored
            c.wr(reg::CTRL, reg::CTRL_START); // held in reset: ignored
            sc_core::wait(period_of(n->cfg) * 10000.0);
            EXPECT_EQ(c.rd(reg::STATUS), 0u);
            EXPECT_EQ(c.rd(reg::IRQ_EN), 0u);
            EXPECT_FALSE(n->irq.read());
            n->rst.write(false);
            sc_core::wait(1, sc_core::SC_NS);
            c.wr(reg::IRQ_EN, 1);
            c.wr(reg::CTRL, reg::CTRL_START);
            wait_irq(*n);
            EXPECT_EQ(c.rd64(reg::CYCLES), ref.cycles);
            EXPECT_EQ(c.rd64(reg::THREAD_INSTS), ref.thread_insts);
            ran = true;
        },
        std::move(g));
    sc_core::sc_start();
    EXPECT_TRUE(ran);
}

// START with KERNEL past the list ends at once: STATUS DONE | ERROR, the interrupt, and one
// warning naming the index.
TEST(GpuControl, StartPastTheKernelListIsAnError)
{
    std::vector<std::string> warnings;
    sc_core::sc_report_handler::set_actions("smtlm/ctrl", sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
    std::vector<std::unique_ptr<GpuNode>> g;
    g.push_back(node("gpu", "vectoradd-100-32-trace"));
    GpuNode *n = g[0].get();
    Soc soc(
        [&](Cpu &c) {
            c.wr(reg::IRQ_EN, 1);
            c.wr(reg::KERNEL, 1);
            c.wr(reg::CTRL, reg::CTRL_START);
            wait_irq(*n);
            EXPECT_EQ(c.rd(reg::STATUS),
                      reg::STATUS_DONE | reg::STATUS_ERROR | SMTLM_RUN_ERROR << reg::STATUS_CODE_SHIFT);
            EXPECT_EQ(c.rd64(reg::CYCLES), 0u);
        },
        std::move(g));
    sc_core::sc_start();
    EXPECT_EQ(sc_core::sc_report_handler::get_count("smtlm/ctrl"), 1);
}

// Two Gpus in one simulation, started together, each running its own kernel list: each
// counts exactly what the C engine counts for its trace, and each interrupts on its own.
TEST(GpuControl, TwoGpusRunIndependently)
{
    const Reference a = reference("vectoradd-100-32-trace"), b = reference("lud");
    std::vector<std::unique_ptr<GpuNode>> g;
    g.push_back(node("gpu0", "vectoradd-100-32-trace"));
    g.push_back(node("gpu1", "lud", 1)); // and a different quantum
    GpuNode *n0 = g[0].get(), *n1 = g[1].get();
    Soc soc(
        [&](Cpu &c) {
            const uint64_t g1 = kCtrlBase + kCtrlSize;
            c.wr(reg::IRQ_EN, 1);
            c.wr(reg::IRQ_EN, 1, g1);
            c.wr(reg::CTRL, reg::CTRL_START);
            c.wr(reg::CTRL, reg::CTRL_START, g1);
            EXPECT_TRUE(c.rd(reg::STATUS) & reg::STATUS_BUSY);
            EXPECT_TRUE(c.rd(reg::STATUS, g1) & reg::STATUS_BUSY);
            wait_irq(*n0);
            wait_irq(*n1);
            EXPECT_EQ(c.rd64(reg::CYCLES), a.cycles);
            EXPECT_EQ(c.rd64(reg::WARP_INSTS), a.warp_insts);
            EXPECT_EQ(c.rd64(reg::CYCLES, g1), b.cycles);
            EXPECT_EQ(c.rd64(reg::WARP_INSTS, g1), b.warp_insts);
            EXPECT_EQ(c.rd64(reg::BANK_WAITS, g1), b.bank_waits);
            EXPECT_EQ(c.rd64(reg::STALLS, g1), b.stalls);
        },
        std::move(g));
    sc_core::sc_start();
    EXPECT_GT(n1->gpu.syncs(), 10 * n0->gpu.syncs()); // quantum 1 against the default
}

// The watchdog: one SC_REPORT_ERROR (id smtlm/watchdog) naming the stuck warp and why, and
// STATUS shows DONE | ERROR with the deadlock code. With the specialized collector sets and no
// input port at all, nothing reads the SFU's ID_OC set: the first MUFU waits there forever and
// the second finds no free slot.
TEST(GpuControl, WatchdogReportsTheStuckWarpsAndSetsError)
{
    static std::string report;
    sc_core::sc_report_handler::set_handler([](const sc_core::sc_report &r, const sc_core::sc_actions &) {
        if (std::string(r.get_msg_type()) == "smtlm/watchdog")
            report = r.get_msg();
    });
    smtlm_gpu_cfg c;
    smtlm_gpu_cfg_qv100(&c);
    c.n_clusters = 1;
    c.sm.oc.enable_specialized = 1;
    c.sm.oc.num_in_ports[SMTLM_CUS_GEN] = 0;
    c.watchdog_cycles = 500;
    smtlm::Gpu gpu("gpu", c, sc_core::sc_time(1, sc_core::SC_NS));
    ASSERT_EQ(gpu.status(), SMTLM_OK);
    smtlm::Memory mem("mem", sc_core::sc_time(100, sc_core::SC_NS));
    gpu.mem_socket(0).bind(mem.socket);
    ktu::WarpPrograms prog;
    prog.set({ktu::prog({ktu::mufu(20, {3}), ktu::mufu(21, {3})})});
    gpu.set_source(prog.source(), nullptr);
    ASSERT_EQ(gpu.run_kernel(smtlm_kernel_desc{1, 32, 0, 32}), SMTLM_OK);
    sc_core::sc_start();
    EXPECT_EQ(gpu.run_status(), SMTLM_RUN_DEADLOCK);
    uint32_t st = 0;
    ASSERT_TRUE(gpu.read_reg(reg::STATUS, &st));
    EXPECT_EQ(st, reg::STATUS_DONE | reg::STATUS_ERROR | SMTLM_RUN_DEADLOCK << reg::STATUS_CODE_SHIFT);
    EXPECT_NE(report.find("gpu: deadlock: nothing issued, retired or answered by memory for 500 cycles"), std::string::npos)
        << report;
    EXPECT_NE(report.find("sm 0 warp 0 (CTA 0): waiting for a free pipeline slot at pc 0x0010"), std::string::npos) << report;
}

// A trace that breaks mid-kernel: the kernel ends with an error, STATUS says so, and one
// SC_REPORT_ERROR (id smtlm/kernel) carries the reader's file:line message.
TEST(GpuControl, ATraceErrorIsReportedWithFileAndLine)
{
    static std::string report;
    sc_core::sc_report_handler::set_handler([](const sc_core::sc_report &r, const sc_core::sc_actions &) {
        if (std::string(r.get_msg_type()) == "smtlm/kernel")
            report = r.get_msg();
    });
    const std::string dir = e2e::scratch("ctrl_bad_trace");
    std::ifstream in(e2e::data("traces/vectoradd-100-32-trace/kernel-1.traceg"));
    std::string text, line;
    unsigned n = 0, bad_line = 0;
    while (std::getline(in, line)) {
        n++;
        if (!bad_line && line.find(" FADD") != std::string::npos && n > 40) { // a later instruction
            line.replace(line.find(" FADD"), 5, " NOSUCHOP");
            bad_line = n;
        }
        text += line + "\n";
    }
    ASSERT_GT(bad_line, 0u);
    std::ofstream(dir + "/kernel-1.traceg") << text;
    std::ofstream(dir + "/kernelslist.g") << "kernel-1.traceg\n";
    smtlm_run_cfg cfg = default_machine();
    smtlm::TraceKernels kernels(dir + "/kernelslist.g", cfg.lat);
    ASSERT_TRUE(kernels.ok()) << kernels.error();
    GpuNode *np = nullptr;
    std::vector<std::unique_ptr<GpuNode>> g;
    g.push_back(std::unique_ptr<GpuNode>(new GpuNode("gpu", dir + "/kernelslist.g", cfg)));
    np = g[0].get();
    Soc soc(
        [&](Cpu &c) {
            c.wr(reg::IRQ_EN, 1);
            c.wr(reg::CTRL, reg::CTRL_START);
            wait_irq(*np);
            EXPECT_EQ(c.rd(reg::STATUS), reg::STATUS_DONE | reg::STATUS_ERROR | SMTLM_RUN_ERROR << reg::STATUS_CODE_SHIFT);
        },
        std::move(g));
    sc_core::sc_start();
    EXPECT_NE(report.find("kernel-1.traceg:" + std::to_string(bad_line)), std::string::npos) << report;
}

// An instruction the machine cannot run (lud's kernel on titanx.config, which does not enable the
// specialized unit it needs) ends the kernel with an error: STATUS says so, and one
// SC_REPORT_ERROR (id smtlm/kernel) carries the Gpu's name and the line smsim prints for the same
// run: the trace's file:line and why.
TEST(GpuControl, AnInstructionTheMachineCannotRunIsReportedWithFileAndLine)
{
    static std::vector<std::string> reports;
    sc_core::sc_report_handler::set_handler([](const sc_core::sc_report &r, const sc_core::sc_actions &) {
        if (r.get_severity() == sc_core::SC_ERROR)
            reports.push_back(std::string(r.get_msg_type()) + ": " + r.get_msg());
    });
    const std::string list = e2e::data("traces/lud/kernelslist.g"), titanx = e2e::project_config("titanx.config");
    const e2e::Result r = e2e::smsim({"-trace", list, "-config", titanx, "-smtlm_engine", "c"});
    ASSERT_EQ(r.status, 2) << r.err;
    ASSERT_EQ(r.err.rfind("smsim: ", 0), 0u) << r.err;
    const std::string smsim_says = r.err.substr(7, r.err.find('\n') - 7);
    EXPECT_NE(smsim_says.find("kernel-8.traceg:"), std::string::npos) << smsim_says;
    EXPECT_NE(smsim_says.find("specialized unit"), std::string::npos) << smsim_says;
    std::vector<std::unique_ptr<GpuNode>> g;
    g.push_back(std::unique_ptr<GpuNode>(new GpuNode("gpu", list, default_machine({"-config", titanx.c_str()}))));
    GpuNode *n = g[0].get();
    bool ran = false;
    Soc soc(
        [&](Cpu &c) {
            start_and_wait_irq(c, *n);
            EXPECT_EQ(c.rd(reg::STATUS), reg::STATUS_DONE | reg::STATUS_ERROR | SMTLM_RUN_ERROR << reg::STATUS_CODE_SHIFT);
            ran = true;
        },
        std::move(g));
    sc_core::sc_start();
    EXPECT_TRUE(ran);
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_EQ(reports[0], "smtlm/kernel: gpu: " + smsim_says);
}

} // namespace
