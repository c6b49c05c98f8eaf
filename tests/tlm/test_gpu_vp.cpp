// The Gpu in a virtual platform as a VP engineer builds one: memory targets that annotate or
// wait in b_transport, software polling the registers in time, START with the CPU's local
// time, the reset line as a level, errors that need a reset, a refused configuration, and a
// memory whose contents the model must never change. Every timing figure is the C engine's
// (smsim -smtlm_engine c on the same built-in machine) or derived from it in a comment.
#include <gtest/gtest.h>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstring>
#include <map>

#include "smtlm/tlm/bus_width_bridge.h"
#include "smtlm/tlm/mem_order.h"
#include "vp_harness.hpp"

namespace {

using namespace vp;
namespace reg = smtlm::reg;

// How a memory target spends its latency in b_transport; all three are legal LT.
enum class Kind {
    Annotates,        // adds it to the delay
    WaitsDelayThenIt, // synchronises (wait(delay), delay = 0), then waits the latency
    OnlyWaits         // waits the latency, leaves the delay as it came
};
const char *kind_name(Kind k)
{
    return k == Kind::Annotates ? "Annotates" : k == Kind::WaitsDelayThenIt ? "WaitsDelayThenIt" : "OnlyWaits";
}

// A DRAM holding a pattern (byte at a = pattern(a)) that applies every write it gets, byte
// enables or not (a careless target), answers reads from its contents, and fails the first
// `fail_first` accesses with an address error.
struct Dram : sc_core::sc_module {
    tlm_utils::simple_target_socket<Dram> socket;
    Kind kind;
    sc_core::sc_time latency;
    std::map<uint64_t, uint8_t> written; // bytes that differ from the pattern's
    uint64_t reads = 0, writes = 0, ignores = 0;
    unsigned fail_first = 0;
    static uint8_t pattern(uint64_t a) { return (uint8_t)(a * 131 + 7); }
    Dram(sc_core::sc_module_name n, Kind k, const sc_core::sc_time &lat) : sc_core::sc_module(n), socket("socket"), kind(k), latency(lat)
    {
        socket.register_b_transport(this, &Dram::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay)
    {
        if (fail_first) {
            fail_first--;
            gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
            return;
        }
        switch (kind) {
        case Kind::Annotates: delay += latency; break;
        case Kind::WaitsDelayThenIt:
            wait(delay);
            delay = sc_core::SC_ZERO_TIME;
            wait(latency);
            break;
        case Kind::OnlyWaits: wait(latency); break;
        }
        const uint64_t a = gp.get_address();
        unsigned char *d = gp.get_data_ptr();
        if (gp.is_read()) {
            reads++;
            for (unsigned i = 0; i < gp.get_data_length(); i++) {
                auto it = written.find(a + i);
                d[i] = it == written.end() ? pattern(a + i) : it->second;
            }
        } else if (gp.is_write()) {
            writes++;
            for (unsigned i = 0; i < gp.get_data_length(); i++)
                if (d[i] != pattern(a + i))
                    written[a + i] = d[i];
        } else
            ignores++;
        gp.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};

// Reports of one id, with the simulation time they came at.
struct Reports {
    static std::vector<std::pair<std::string, sc_core::sc_time>> &seen()
    {
        static std::vector<std::pair<std::string, sc_core::sc_time>> s;
        return s;
    }
    static void handler(const sc_core::sc_report &r, const sc_core::sc_actions &)
    {
        seen().emplace_back(std::string(r.get_msg_type()) + ": " + r.get_msg(), sc_core::sc_time_stamp());
    }
    static unsigned count(const std::string &part)
    {
        unsigned n = 0;
        for (auto &s : seen())
            n += s.first.find(part) != std::string::npos;
        return n;
    }
};

struct TimingCase {
    Kind kind;
    double quantum_ns; // the TLM global quantum, set after the Gpu is built (as a VP does)
    bool memory_waits; // GpuParams::memory_waits
};
class WaitingTargets : public ::testing::TestWithParam<TimingCase> {};

// lud on the default machine (QV100 at 1132 MHz: 883 ps a cycle; memory latency 240 cycles,
// -smtlm_mem_latency): the C engine runs it in 8952 cycles. Whichever way the memory spends
// its latency, the kernel takes those cycles and the interrupt comes at START + 8952 x 883 ps,
// at every quantum.
TEST_P(WaitingTargets, SameCyclesAndInterruptTime)
{
    const TimingCase tc = GetParam();
    const Reference ref = reference("lud");
    ASSERT_EQ(ref.cycles, 8952u);
    const smtlm_run_cfg cfg = default_machine();
    Dram dram("dram", tc.kind, period_of(cfg) * (double)cfg.gpu.mem_latency);
    smtlm::GpuParams p;
    p.memory_waits = tc.memory_waits;
    std::vector<std::unique_ptr<GpuNode>> g;
    g.emplace_back(new GpuNode("gpu", e2e::data("traces/lud/kernelslist.g"), cfg, p, &dram.socket));
    GpuNode *n = g[0].get();
    sc_core::sc_time t0, t1;
    uint64_t cycles = 0;
    Soc soc(
        [&](Cpu &c) {
            sc_core::wait(100, sc_core::SC_NS); // a start that is not at time 0
            c.wr(reg::IRQ_EN, 1);
            t0 = sc_core::sc_time_stamp();
            c.wr(reg::CTRL, reg::CTRL_START);
            wait_irq(*n);
            t1 = sc_core::sc_time_stamp();
            cycles = c.rd64(reg::CYCLES);
            EXPECT_EQ(c.rd(reg::STATUS), reg::STATUS_DONE | SMTLM_RUN_DONE << reg::STATUS_CODE_SHIFT);
        },
        std::move(g));
    tlm::tlm_global_quantum::instance().set(sc_core::sc_time(tc.quantum_ns, sc_core::SC_NS));
    sc_core::sc_start();
    EXPECT_EQ(cycles, ref.cycles);
    EXPECT_EQ(t1 - t0, period_of(cfg) * (double)ref.cycles) << "interrupt at " << t1 << ", START at " << t0;
    EXPECT_GT(dram.reads + dram.ignores, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Memories, WaitingTargets,
    ::testing::Values(TimingCase{Kind::Annotates, 1, false}, TimingCase{Kind::Annotates, 1000, false},
                      TimingCase{Kind::Annotates, 10000, false}, TimingCase{Kind::Annotates, 1000, true},
                      TimingCase{Kind::WaitsDelayThenIt, 1, true}, TimingCase{Kind::WaitsDelayThenIt, 1000, true},
                      TimingCase{Kind::WaitsDelayThenIt, 10000, true}, TimingCase{Kind::OnlyWaits, 1, true},
                      TimingCase{Kind::OnlyWaits, 1000, true}, TimingCase{Kind::OnlyWaits, 10000, true}),
    [](const ::testing::TestParamInfo<TimingCase> &i) {
        return std::string(kind_name(i.param.kind)) + "_" + std::to_string((long)i.param.quantum_ns) + "ns" +
               (i.param.memory_waits ? "_MemoryWaits" : "");
    });

// A memory whose latency depends on the address: 240 cycles plus up to 60 more. It either adds
// it to the delay or waits it out, so that answers come back in another order than the
// requests went out.
struct VariedMemory : sc_core::sc_module {
    tlm_utils::simple_target_socket<VariedMemory> socket;
    sc_core::sc_time period;
    bool waits;
    uint64_t accesses = 0;
    VariedMemory(sc_core::sc_module_name n, const sc_core::sc_time &p, bool w) : sc_core::sc_module(n), socket("socket"), period(p), waits(w)
    {
        socket.register_b_transport(this, &VariedMemory::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay)
    {
        accesses++;
        const sc_core::sc_time lat = period * (double)(240 + (gp.get_address() >> 5) * 7 % 61);
        if (waits)
            wait(lat);
        else
            delay += lat;
        gp.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};

// Many accesses outstanding at once (64 thread blocks of 8 warps, 24 loads of 32 sectors each:
// 393,216 accesses, thousands in flight) behind a memory that waits out a latency depending on the
// address, every access in a process of its own: the same cycles and counters as behind a memory
// that annotates the same latencies (a one-cycle quantum, so that the annotating Gpu's interrupt
// is on its last cycle). The waiting Gpu's interrupt is no earlier, and late by less than one
// memory latency: each time its thread waits for an access's bound it runs on one tick after
// that cycle's time, and the requests of that cycle leave that late.
TEST(WaitingTargets, ManyOutstandingAccessesOfVariedLatencyGiveTheAnnotatingRun)
{
    const std::string list = write_loads_trace("many_outstanding", 64, 8, 24);
    const smtlm_run_cfg cfg = default_machine();
    VariedMemory waiting("waiting", period_of(cfg), true), annotating("annotating", period_of(cfg), false);
    smtlm::GpuParams p;
    p.memory_waits = true;
    std::vector<std::unique_ptr<GpuNode>> g;
    g.emplace_back(new GpuNode("gpu_waits", list, cfg, p, &waiting.socket));
    g.emplace_back(new GpuNode("gpu_annotates", list, cfg, smtlm::GpuParams(), &annotating.socket));
    GpuNode *w = g[0].get(), *a = g[1].get();
    sc_core::sc_time tw, ta;
    Soc soc(
        [&](Cpu &c) {
            c.wr(reg::IRQ_EN, 1);
            c.wr(reg::IRQ_EN, 1, kCtrlBase + kCtrlSize);
            c.wr(reg::CTRL, reg::CTRL_START);
            c.wr(reg::CTRL, reg::CTRL_START, kCtrlBase + kCtrlSize);
            wait_irq(*a);
            ta = sc_core::sc_time_stamp();
            wait_irq(*w);
            tw = sc_core::sc_time_stamp();
        },
        std::move(g));
    tlm::tlm_global_quantum::instance().set(period_of(cfg));
    sc_core::sc_start();
    EXPECT_EQ(waiting.accesses, 64u * 8 * 24 * 32);
    EXPECT_EQ(annotating.accesses, waiting.accesses);
    const smtlm_gpu &x = w->gpu.engine(), &y = a->gpu.engine();
    EXPECT_EQ(x.tot_cycle, y.tot_cycle);
    EXPECT_EQ(x.tot_warp_insn, y.tot_warp_insn);
    EXPECT_EQ(ta, period_of(cfg) * (double)y.tot_cycle);
    EXPECT_GE(tw, ta);
    EXPECT_LT(tw, ta + period_of(cfg) * 240.0);
    for (unsigned i = 0; i < x.n_sm; i++) {
        smtlm_sm_view u, v;
        smtlm_gpu_sm_view(&x, i, &u);
        smtlm_gpu_sm_view(&y, i, &v);
        EXPECT_EQ(0, std::memcmp(&u.stats, &v.stats, sizeof u.stats)) << "SM " << i;
    }
}

// Without GpuParams::memory_waits the first access that waits is made in the Gpu's thread: the
// cycles stay exact (its latency is the time the call took), one warning says so, and every
// later access runs in a process of its own. Only that first wait is not overlapped, so the
// interrupt comes late by less than one memory latency.
TEST(WaitingTargetsSeenLate, TheCyclesStayExactAndOneWarningSaysSo)
{
    sc_core::sc_report_handler::set_handler(Reports::handler);
    const Reference ref = reference("lud");
    const smtlm_run_cfg cfg = default_machine();
    Dram dram("dram", Kind::OnlyWaits, period_of(cfg) * (double)cfg.gpu.mem_latency);
    std::vector<std::unique_ptr<GpuNode>> g;
    g.emplace_back(new GpuNode("gpu", e2e::data("traces/lud/kernelslist.g"), cfg, smtlm::GpuParams(), &dram.socket));
    GpuNode *n = g[0].get();
    sc_core::sc_time t1;
    uint64_t cycles = 0;
    Soc soc(
        [&](Cpu &c) {
            c.wr(reg::IRQ_EN, 1);
            c.wr(reg::CTRL, reg::CTRL_START);
            wait_irq(*n);
            t1 = sc_core::sc_time_stamp();
            cycles = c.rd64(reg::CYCLES);
        },
        std::move(g));
    tlm::tlm_global_quantum::instance().set(sc_core::sc_time(1, sc_core::SC_US));
    sc_core::sc_start();
    EXPECT_EQ(cycles, ref.cycles);
    EXPECT_EQ(Reports::count("smtlm/memory: gpu: the memory target of gpu.sm_"), 1u);
    EXPECT_GE(t1, period_of(cfg) * (double)ref.cycles);
    EXPECT_LT(t1, period_of(cfg) * (double)(ref.cycles + cfg.gpu.mem_latency));
}

// At a quantum of one cycle (the global quantum set after the Gpu is built, as a VP sets it
// from its configuration) software polling half-way through each cycle sees every cycle's
// count: k cycles after START it reads CYCLES = k, through the 5000-cycle launch latency too;
// STATUS says BUSY until the kernel's last cycle and DONE from then on, with the final counts.
TEST(RegistersInTime, PollingSeesEveryCycleAtAOneCycleQuantum)
{
    const Reference ref = reference("vectoradd-100-32-trace");
    const smtlm_run_cfg cfg = default_machine();
    std::vector<std::unique_ptr<GpuNode>> g;
    g.emplace_back(new GpuNode("gpu", e2e::data("traces/vectoradd-100-32-trace/kernelslist.g"), cfg));
    GpuNode *n = g[0].get();
    const sc_core::sc_time period = period_of(cfg);
    uint64_t polls = 0, wrong = 0, first_done = 0, warp_insts_seen = 0;
    Soc soc(
        [&](Cpu &c) {
            c.wr(reg::CTRL, reg::CTRL_START); // at time 0: cycle k ends at (k + 1) x period
            sc_core::wait(period * 0.5);
            for (uint64_t k = 0;; k++, sc_core::wait(period)) {
                const uint32_t status = c.rd(reg::STATUS);
                const uint64_t cyc = c.rd64(reg::CYCLES), wi = c.rd64(reg::WARP_INSTS);
                polls++;
                if (status & reg::STATUS_BUSY) { // (the last stores' acknowledgements come after the last instruction)
                    wrong += cyc != k || wi > ref.warp_insts || wi < warp_insts_seen;
                    warp_insts_seen = wi;
                    continue;
                }
                first_done = k;
                EXPECT_EQ(cyc, ref.cycles);
                EXPECT_EQ(wi, ref.warp_insts);
                break;
            }
        },
        std::move(g));
    tlm::tlm_global_quantum::instance().set(period);
    sc_core::sc_start();
    EXPECT_EQ(n->gpu.quantum_cycles(), 1u);
    EXPECT_EQ(wrong, 0u) << "of " << polls << " polls";
    EXPECT_EQ(first_done, ref.cycles);
    EXPECT_GT(warp_insts_seen, 0u);
}

// With the default quantum (10000 cycles, more than the whole kernel) a read never shows the
// kernel's final cycle count while STATUS says BUSY: the registers show the last
// synchronisation (here the start, with no instruction yet).
TEST(RegistersInTime, NoFinalCountsWhileBusyAtTheDefaultQuantum)
{
    const Reference ref = reference("vectoradd-100-32-trace");
    std::vector<std::unique_ptr<GpuNode>> g;
    g.emplace_back(node("gpu", "vectoradd-100-32-trace"));
    unsigned busy_polls = 0, final_while_busy = 0;
    Soc soc(
        [&](Cpu &c) {
            c.wr(reg::CTRL, reg::CTRL_START);
            while (c.rd(reg::STATUS) & reg::STATUS_BUSY) {
                busy_polls++;
                final_while_busy += c.rd64(reg::CYCLES) == ref.cycles || c.rd64(reg::WARP_INSTS) != 0;
                sc_core::wait(100, sc_core::SC_NS);
            }
            EXPECT_EQ(c.rd64(reg::CYCLES), ref.cycles);
            EXPECT_EQ(c.rd64(reg::WARP_INSTS), ref.warp_insts);
        },
        std::move(g));
    sc_core::sc_start();
    EXPECT_GT(busy_polls, 40u); // 5677 cycles x 883 ps = 5.0 us of polls every 100 ns
    EXPECT_EQ(final_while_busy, 0u);
}

// A CPU running 1 us ahead of the simulation time writes START with that delay: the kernel
// starts at the CPU's time, so the interrupt comes 1 us + cycles x period after the write.
TEST(StartInTime, StartHonoursTheAnnotatedDelay)
{
    const Reference ref = reference("vectoradd-100-32-trace");
    const smtlm_run_cfg cfg = default_machine();
    std::vector<std::unique_ptr<GpuNode>> g;
    g.emplace_back(node("gpu", "vectoradd-100-32-trace"));
    GpuNode *n = g[0].get();
    sc_core::sc_time t0, t1;
    Soc soc(
        [&](Cpu &c) {
            c.wr(reg::IRQ_EN, 1);
            uint32_t start = reg::CTRL_START;
            t0 = sc_core::sc_time_stamp();
            EXPECT_EQ(c.access(tlm::TLM_WRITE_COMMAND, kCtrlBase + reg::CTRL, &start, 4, nullptr, 0,
                               sc_core::sc_time(1, sc_core::SC_US)),
                      tlm::TLM_OK_RESPONSE);
            wait_irq(*n);
            t1 = sc_core::sc_time_stamp();
        },
        std::move(g));
    sc_core::sc_start();
    EXPECT_EQ(t1 - t0, sc_core::sc_time(1, sc_core::SC_US) + period_of(cfg) * (double)ref.cycles);
}

// `rst` high from time 0 holds the GPU in reset: START is refused with a warning and nothing
// runs, and every register holds its reset value (writes to IRQ_EN, KERNEL and IRQ_STATUS are
// ignored with a warning each, and none shows after the release); once it falls, START runs the
// kernel as usual.
TEST(ResetLevel, HeldHighFromTimeZeroHoldsTheGpu)
{
    sc_core::sc_report_handler::set_handler(Reports::handler);
    const Reference ref = reference("vectoradd-100-32-trace");
    const smtlm_run_cfg cfg = default_machine();
    std::vector<std::unique_ptr<GpuNode>> g;
    g.emplace_back(new GpuNode("gpu", e2e::data("traces/vectoradd-100-32-trace/kernelslist.g"), cfg, smtlm::GpuParams(),
                               nullptr, true));
    GpuNode *n = g[0].get();
    bool ran = false;
    Soc soc(
        [&](Cpu &c) {
            sc_core::wait(10, sc_core::SC_NS);
            c.wr(reg::IRQ_EN, 1);
            c.wr(reg::KERNEL, 3);
            c.wr(reg::IRQ_STATUS, 1);
            c.wr(reg::CTRL, reg::CTRL_START);
            EXPECT_EQ(c.rd(reg::STATUS), 0u);
            EXPECT_EQ(c.rd(reg::IRQ_EN), 0u);
            EXPECT_EQ(c.rd(reg::KERNEL), 0u);
            for (const char *r : {"IRQ_EN", "KERNEL", "IRQ_STATUS"})
                EXPECT_EQ(Reports::count(std::string("smtlm/ctrl: gpu: write to ") + r + " ignored: held in reset by `rst`"), 1u);
            EXPECT_EQ(Reports::count("smtlm/ctrl: gpu: CTRL.START of kernel 0: held in reset"), 1u);
            sc_core::wait(20, sc_core::SC_US); // longer than the kernel
            EXPECT_EQ(c.rd(reg::IRQ_STATUS), 0u);
            EXPECT_EQ(c.rd64(reg::CYCLES), 0u);
            n->rst.write(false);
            sc_core::wait(sc_core::SC_ZERO_TIME);
            sc_core::wait(sc_core::SC_ZERO_TIME);
            EXPECT_EQ(c.rd(reg::IRQ_EN), 0u); // nothing written while held is left
            EXPECT_EQ(c.rd(reg::KERNEL), 0u);
            c.wr(reg::IRQ_EN, 1);
            c.wr(reg::CTRL, reg::CTRL_START);
            wait_irq(*n);
            EXPECT_EQ(c.rd64(reg::CYCLES), ref.cycles);
            ran = true;
        },
        std::move(g));
    sc_core::sc_start();
    EXPECT_TRUE(ran);
}

// A memory error response ends the kernel: STATUS (DONE | ERROR, code 5) and the interrupt are
// set before the report (id smtlm/memory), which comes at the kernel's end time. The GPU keeps
// that state: a START is refused with a warning until a reset, after which the kernel runs
// cleanly in the C engine's cycles.
TEST(ErrorsAndReset, AfterAMemoryErrorStartWaitsForAReset)
{
    static smtlm::Gpu *gpu = nullptr;
    static uint32_t status_at_report = 0, irq_status_at_report = 0;
    static sc_core::sc_time report_time;
    static std::string report;
    sc_core::sc_report_handler::set_handler([](const sc_core::sc_report &r, const sc_core::sc_actions &a) {
        Reports::handler(r, a);
        if (std::string(r.get_msg_type()) == "smtlm/memory" && r.get_severity() == sc_core::SC_ERROR) {
            gpu->read_reg(reg::STATUS, &status_at_report);
            gpu->read_reg(reg::IRQ_STATUS, &irq_status_at_report);
            report_time = sc_core::sc_time_stamp();
            report = r.get_msg();
        }
    });
    const Reference ref = reference("vectoradd-100-32-trace");
    const smtlm_run_cfg cfg = default_machine();
    Dram dram("dram", Kind::Annotates, period_of(cfg) * (double)cfg.gpu.mem_latency);
    dram.fail_first = 1;
    std::vector<std::unique_ptr<GpuNode>> g;
    g.emplace_back(new GpuNode("gpu", e2e::data("traces/vectoradd-100-32-trace/kernelslist.g"), cfg, smtlm::GpuParams(),
                               &dram.socket));
    GpuNode *n = g[0].get();
    gpu = &n->gpu;
    const uint32_t failed = reg::STATUS_DONE | reg::STATUS_ERROR | SMTLM_RUN_ERROR << reg::STATUS_CODE_SHIFT;
    bool ran = false;
    Soc soc(
        [&](Cpu &c) {
            c.wr(reg::IRQ_EN, 1);
            c.wr(reg::CTRL, reg::CTRL_START);
            wait_irq(*n);
            EXPECT_EQ(c.rd(reg::STATUS), failed);
            EXPECT_EQ(report_time, period_of(cfg) * (double)c.rd64(reg::CYCLES));
            c.wr(reg::IRQ_STATUS, 1);
            c.wr(reg::CTRL, reg::CTRL_START);
            EXPECT_EQ(Reports::count("smtlm/ctrl: gpu: CTRL.START of kernel 0: the last kernel did not complete"), 1u);
            EXPECT_EQ(c.rd(reg::STATUS), failed);
            sc_core::wait(20, sc_core::SC_US);
            EXPECT_EQ(c.rd(reg::IRQ_STATUS), 0u);
            c.wr(reg::CTRL, reg::CTRL_SOFT_RESET);
            c.wr(reg::IRQ_EN, 1);
            c.wr(reg::CTRL, reg::CTRL_START);
            wait_irq(*n);
            EXPECT_EQ(c.rd(reg::STATUS), reg::STATUS_DONE | SMTLM_RUN_DONE << reg::STATUS_CODE_SHIFT);
            EXPECT_EQ(c.rd64(reg::CYCLES), ref.cycles);
            ran = true;
        },
        std::move(g));
    sc_core::sc_start();
    EXPECT_TRUE(ran);
    EXPECT_EQ(status_at_report, failed);
    EXPECT_EQ(irq_status_at_report, (uint32_t)reg::IRQ_KERNEL_END);
    EXPECT_NE(report.find("TLM_ADDRESS_ERROR_RESPONSE at address 0x"), std::string::npos) << report;
    EXPECT_GT(report_time, sc_core::SC_ZERO_TIME);
}

// A configuration the engine refuses (no memory bandwidth: the memory port could never accept
// a request) is an error at construction, id smtlm/config, naming the field.
TEST(RefusedConfiguration, IsAnErrorAtConstruction)
{
    smtlm_gpu_cfg c;
    smtlm_gpu_cfg_qv100(&c);
    c.mem_bytes_per_cycle = 0;
    std::string msg;
    try {
        smtlm::Gpu gpu("gpu", c, sc_core::sc_time(1, sc_core::SC_NS));
    } catch (const sc_core::sc_report &r) {
        msg = std::string(r.get_msg_type()) + ": " + r.get_msg();
    }
    EXPECT_EQ(msg.rfind("smtlm/config: gpu: the configuration is refused (", 0), 0u) << msg;
}

// A platform that lets the error return keeps a module that starts nothing: no kernel runs,
// the simulation ends instead of spinning.
TEST(RefusedConfiguration, AModuleLeftBehindStartsNothing)
{
    sc_core::sc_report_handler::set_actions("smtlm/config", sc_core::SC_ERROR, sc_core::SC_DO_NOTHING);
    smtlm_gpu_cfg c;
    smtlm_gpu_cfg_qv100(&c);
    c.n_clusters = 1;
    c.mem_bytes_per_cycle = 0;
    smtlm::Gpu gpu("gpu", c, sc_core::sc_time(1, sc_core::SC_NS));
    smtlm::Memory mem("mem", sc_core::sc_time(100, sc_core::SC_NS));
    gpu.mem_socket(0).bind(mem.socket);
    EXPECT_NE(gpu.status(), SMTLM_OK);
    EXPECT_NE(gpu.run_kernel(smtlm_kernel_desc{1, 32, 0, 32}), SMTLM_OK);
    gpu.start();
    EXPECT_FALSE(gpu.busy());
    sc_core::sc_start(1, sc_core::SC_MS);
    EXPECT_FALSE(gpu.busy());
}

// With real accesses, loads read the SoC's memory and stores never write it: a memory holding
// a pattern keeps it after a kernel full of stores, even one that applies writes without
// looking at byte enables.
TEST(SafeMemoryTraffic, StoresNeverChangeTheSocsMemory)
{
    const smtlm_run_cfg cfg = default_machine();
    Dram dram("dram", Kind::Annotates, period_of(cfg) * (double)cfg.gpu.mem_latency);
    smtlm::GpuParams p;
    p.real_access = true;
    std::vector<std::unique_ptr<GpuNode>> g;
    g.emplace_back(new GpuNode("gpu", e2e::data("traces/vectoradd-100-32-trace/kernelslist.g"), cfg, p, &dram.socket));
    GpuNode *n = g[0].get();
    Soc soc(
        [&](Cpu &c) {
            c.wr(reg::IRQ_EN, 1);
            c.wr(reg::CTRL, reg::CTRL_START);
            wait_irq(*n);
            EXPECT_EQ(c.rd(reg::STATUS), reg::STATUS_DONE | SMTLM_RUN_DONE << reg::STATUS_CODE_SHIFT);
        },
        std::move(g));
    sc_core::sc_start();
    EXPECT_GT(dram.reads, 0u);   // vectoradd's loads
    EXPECT_GT(dram.ignores, 0u); // its stores, as timing-only transactions
    EXPECT_EQ(dram.writes, 0u);
    EXPECT_TRUE(dram.written.empty());
}

// The control target's small rules: `irq` falls in the delta cycle after the W1C write, byte
// enables that enable every byte are accepted (partial ones are not), and a START while busy or
// with undefined CTRL bits is reported.
TEST(ControlRules, IrqByteEnablesAndReportedStarts)
{
    sc_core::sc_report_handler::set_handler(Reports::handler);
    std::vector<std::unique_ptr<GpuNode>> g;
    g.push_back(node("gpu", "vectoradd-100-32-trace"));
    GpuNode *n = g[0].get();
    bool ran = false;
    Soc soc(
        [&](Cpu &c) {
            unsigned char all[4] = {0xff, 0xff, 0xff, 0xff}, part[4] = {0xff, 0, 0xff, 0xff};
            uint32_t v = 1;
            EXPECT_EQ(c.access(tlm::TLM_WRITE_COMMAND, kCtrlBase + reg::IRQ_EN, &v, 4, all, 4), tlm::TLM_OK_RESPONSE);
            EXPECT_EQ(c.access(tlm::TLM_READ_COMMAND, kCtrlBase + reg::IRQ_EN, &v, 4, all, 4), tlm::TLM_OK_RESPONSE);
            EXPECT_EQ(v, 1u);
            EXPECT_EQ(c.access(tlm::TLM_READ_COMMAND, kCtrlBase + reg::IRQ_EN, &v, 4, part, 4),
                      tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
            c.wr(reg::CTRL, reg::CTRL_START | 0x10);
            EXPECT_EQ(Reports::count("smtlm/ctrl: gpu: undefined CTRL bits 0x10 ignored"), 1u);
            c.wr(reg::CTRL, reg::CTRL_START);
            EXPECT_EQ(Reports::count("smtlm/ctrl: gpu: CTRL.START of kernel 0: busy"), 1u);
            wait_irq(*n);
            c.wr(reg::IRQ_STATUS, 1);
            sc_core::wait(sc_core::SC_ZERO_TIME);
            EXPECT_FALSE(n->irq.read());
            ran = true;
        },
        std::move(g));
    sc_core::sc_start();
    EXPECT_TRUE(ran);
}

// A memory on a 64-bit bus: it annotates a fixed latency and declares itself order-independent.
struct Memory64 : sc_core::sc_module {
    tlm_utils::simple_target_socket<Memory64, 64> socket;
    sc_core::sc_time latency;
    uint64_t accesses = 0;
    Memory64(sc_core::sc_module_name n, const sc_core::sc_time &lat) : sc_core::sc_module(n), socket("socket"), latency(lat)
    {
        socket.register_b_transport(this, &Memory64::b_transport);
        socket.register_transport_dbg(this, &Memory64::transport_dbg);
    }
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay)
    {
        accesses++;
        delay += latency;
        gp.set_response_status(tlm::TLM_OK_RESPONSE);
    }
    unsigned transport_dbg(tlm::tlm_generic_payload &gp)
    {
        return smtlm::answer_order_query(gp, &socket.get_base_interface(), true) ? 0 : gp.get_data_length();
    }
};

// A CPU on a 64-bit bus: starts kernel 0, waits for the end, reads the counters whole.
struct Cpu64 : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<Cpu64, 64> bus;
    smtlm::Gpu &gpu;
    uint64_t cycles = 0, warp_insts = 0;
    uint32_t status = 0;
    SC_HAS_PROCESS(Cpu64);
    Cpu64(sc_core::sc_module_name n, smtlm::Gpu &g) : sc_core::sc_module(n), bus("bus"), gpu(g) { SC_THREAD(run); }
    void access(tlm::tlm_command cmd, uint64_t off, void *data, unsigned len)
    {
        tlm::tlm_generic_payload gp;
        gp.set_command(cmd);
        gp.set_address(off);
        gp.set_data_ptr(static_cast<unsigned char *>(data));
        gp.set_data_length(len);
        gp.set_streaming_width(len);
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        bus->b_transport(gp, delay);
        EXPECT_EQ(gp.get_response_status(), tlm::TLM_OK_RESPONSE) << "offset 0x" << std::hex << off;
    }
    void run()
    {
        uint32_t start = reg::CTRL_START;
        access(tlm::TLM_WRITE_COMMAND, reg::CTRL, &start, 4);
        while (gpu.busy())
            sc_core::wait(gpu.done_event());
        access(tlm::TLM_READ_COMMAND, reg::STATUS, &status, 4);
        access(tlm::TLM_READ_COMMAND, reg::CYCLES, &cycles, 8);
        access(tlm::TLM_READ_COMMAND, reg::WARP_INSTS, &warp_insts, 8);
    }
};

// The Gpu's sockets are 32 bits wide; on a platform whose buses are 64 bits wide a CPU reaches
// its registers through BusWidthBridge<64, 32>, and every SM its memory through
// BusWidthBridge<32, 64>. The kernel runs in the C engine's cycles, the counters read whole over
// the 64-bit bus, and the memory's order-independence passes the bridge (the SMs keep their
// windows).
TEST(BusWidth, AGpuOnSixtyFourBitBusesThroughBridges)
{
    const Reference ref = reference("matrixmul-32-32-trace");
    const smtlm_run_cfg cfg = default_machine();
    smtlm::TraceKernels kernels(e2e::data("traces/matrixmul-32-32-trace/kernelslist.g"), cfg.lat);
    smtlm::Gpu gpu("gpu", cfg.gpu, period_of(cfg), smtlm::GpuParams(), &kernels);
    Memory64 dram("dram", period_of(cfg) * (double)cfg.gpu.mem_latency);
    smtlm::BusWidthBridge<32, 64> mem_bridge("mem_bridge");
    smtlm::BusWidthBridge<64, 32> ctrl_bridge("ctrl_bridge");
    for (unsigned i = 0; i < gpu.n_sm(); i++)
        gpu.mem_socket(i).bind(mem_bridge.in);
    mem_bridge.out.bind(dram.socket);
    Cpu64 cpu("cpu", gpu);
    cpu.bus.bind(ctrl_bridge.in);
    ctrl_bridge.out.bind(gpu.ctrl);
    sc_core::sc_start();
    EXPECT_EQ(cpu.status, reg::STATUS_DONE | SMTLM_RUN_DONE << reg::STATUS_CODE_SHIFT);
    EXPECT_EQ(cpu.cycles, ref.cycles);
    EXPECT_EQ(cpu.warp_insts, ref.warp_insts);
    EXPECT_GT(dram.accesses, 0u);
    EXPECT_TRUE(gpu.windows());
}

} // namespace
