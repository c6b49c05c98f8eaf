// The SystemC Gpu steps its SMs in windows (GpuParams::sm_windows) once no thread block is left
// to issue, as the C engine does: two Gpus side by side in one platform, one in windows and one
// every SM each cycle, each with its own memory, run the same kernels to the same cycle,
// counters and interrupt time, at quanta that cut the windows and the idle skips inside them.
// By default (SmWindows::Auto) windows run only behind a memory that declares itself
// order-independent (mem_order.h): smtlm::Memory, a target of the platform's own that answers
// the question, not one behind a bus that only passes it on, and not a memory that models shared
// bandwidth, where windows would change the cycles. A memory that waits in b_transport turns the
// windows off (its accesses then run in processes of their own) and the cycles stay the C
// engine's; by default it gets none, so its interrupt comes within one memory latency of its
// exact time, and a reset while it holds the Gpu's thread takes effect at once.
#include <gtest/gtest.h>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <algorithm>
#include <cstring>

#include "smtlm/tlm/mem_order.h"
#include "vp_harness.hpp"

namespace {

using namespace vp;

const uint64_t kGpu1 = kCtrlBase + kCtrlSize;

smtlm::GpuParams params(smtlm::SmWindows windows, uint64_t quantum = 0)
{
    smtlm::GpuParams p;
    p.sm_windows = windows;
    p.quantum_cycles = quantum;
    return p;
}

// A kernel of 12 thread blocks of 2 warps whose lengths differ (block b: 40 + 25 b
// instructions a warp), so that SMs finish one after another once every block is issued; every
// fifth instruction a load (memory 240 cycles away) that the next one waits for, so that the SMs
// often all wait and the GPU skips idle cycles.
std::string write_blocks_trace()
{
    return write_kernel_trace("gpu_windows_blocks", 12, 2, [](unsigned b, unsigned w, unsigned i) {
        char line[96] = "";
        if (i >= 40 + 25 * b) // its EXIT
            return std::string();
        if (i % 5 == 0)
            std::snprintf(line, sizeof line, "ffffffff 1 R4 LDG.E 1 R2 4 1 0x%llx 4",
                          0x10000000ull + (b * 2 + w) * 0x1000 + i * 0x80);
        else if (i % 5 == 1)
            std::snprintf(line, sizeof line, "ffffffff 1 R5 FFMA 3 R4 R4 R5 0");
        else
            std::snprintf(line, sizeof line, "ffffffff 1 R%u FFMA 3 R6 R7 R8 0", 10 + i % 8);
        return std::string(line);
    });
}

// Runs the blocks kernel on both Gpus (windows, then cycle order) and compares them, SM by SM,
// and with the C engine's cycles.
void expect_same_as_cycle_order(uint64_t quantum)
{
    const std::string list = write_blocks_trace();
    const e2e::Result r = e2e::smsim({"-trace", list, "-smtlm_engine", "c"});
    ASSERT_EQ(r.status, 0) << r.err;
    const Reference ref{(uint64_t)r.stat("gpu_tot_sim_cycle"), (uint64_t)r.stat("gpgpu_n_tot_w_icount"), 0, 0, 0};
    const smtlm_run_cfg cfg = default_machine();
    std::vector<std::unique_ptr<GpuNode>> g;
    g.emplace_back(new GpuNode("gpu_windows", list, cfg, params(smtlm::SmWindows::On, quantum)));
    g.emplace_back(new GpuNode("gpu_cycles", list, cfg, params(smtlm::SmWindows::Off, quantum)));
    GpuNode *w = g[0].get(), *c = g[1].get();
    sc_core::sc_time tw, tc;
    Soc soc(
        [&](Cpu &cpu) {
            cpu.wr(reg::IRQ_EN, 1);
            cpu.wr(reg::IRQ_EN, 1, kGpu1);
            cpu.wr(reg::CTRL, reg::CTRL_START);
            cpu.wr(reg::CTRL, reg::CTRL_START, kGpu1);
            wait_irq(*w);
            tw = sc_core::sc_time_stamp();
            wait_irq(*c);
            tc = sc_core::sc_time_stamp();
        },
        std::move(g));
    sc_core::sc_start();
    const smtlm_gpu &x = w->gpu.engine(), &y = c->gpu.engine();
    EXPECT_EQ(x.tot_cycle, ref.cycles);
    EXPECT_EQ(y.tot_cycle, ref.cycles);
    EXPECT_EQ(x.skipped_cycles, y.skipped_cycles);
    EXPECT_EQ(x.tot_warp_insn, ref.warp_insts);
    EXPECT_EQ(y.tot_warp_insn, ref.warp_insts);
    EXPECT_GT(x.skipped_cycles, 0u);
    EXPECT_EQ(tw, tc);
    for (unsigned i = 0; i < x.n_sm; i++) {
        smtlm_sm_view u, v;
        smtlm_gpu_sm_view(&x, i, &u);
        smtlm_gpu_sm_view(&y, i, &v);
        EXPECT_EQ(0, std::memcmp(&u.stats, &v.stats, sizeof u.stats)) << "SM " << i;
        EXPECT_EQ(u.last_progress, v.last_progress) << "SM " << i;
    }
    EXPECT_GT(w->gpu.window_cycles(), 0u) << "no window ran";
    EXPECT_EQ(c->gpu.window_cycles(), 0u);
}

// Quanta: 10,000 cycles (the windows are cut only by the watchdog's 1,024-cycle checks), 300 and
// 37 (batches end inside windows and inside idle skips).
TEST(GpuWindows, SameRunAsCycleOrderAtTheDefaultQuantum) { expect_same_as_cycle_order(10000); }

TEST(GpuWindows, SameRunAsCycleOrderAtAQuantumOf300Cycles) { expect_same_as_cycle_order(300); }

TEST(GpuWindows, SameRunAsCycleOrderAtAQuantumOf37Cycles) { expect_same_as_cycle_order(37); }

// The blocks kernel's figures from the C engine, whose SMs and memory model are the Gpu's.
Reference blocks_reference(const std::string &list)
{
    const e2e::Result r = e2e::smsim({"-trace", list, "-smtlm_engine", "c"});
    EXPECT_EQ(r.status, 0) << r.err;
    return Reference{(uint64_t)r.stat("gpu_tot_sim_cycle"), (uint64_t)r.stat("gpgpu_n_tot_w_icount"), 0, 0, 0};
}

// One channel shared by every SM (a DRAM controller's data bus, a NoC link): an access arriving
// at time a holds it for its length / bandwidth from a or from when the channel frees, whichever
// is later, and is answered a fixed latency after that. It annotates (never waits), and its
// answers depend on the order the accesses arrive in: it does not say it is order-independent.
struct BandwidthMemory : sc_core::sc_module {
    tlm_utils::simple_target_socket<BandwidthMemory> socket;
    sc_core::sc_time per_byte, latency, free_at;
    BandwidthMemory(sc_core::sc_module_name n, const sc_core::sc_time &byte_time, const sc_core::sc_time &lat)
        : sc_core::sc_module(n), socket("socket"), per_byte(byte_time), latency(lat)
    {
        socket.register_b_transport(this, &BandwidthMemory::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay)
    {
        const sc_core::sc_time arrive = sc_core::sc_time_stamp() + delay;
        free_at = std::max(arrive, free_at) + per_byte * (double)gp.get_data_length();
        delay += free_at - arrive + latency;
        gp.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};

// Three Gpus, each behind a bandwidth memory of its own (8 bytes a cycle, so the blocks kernel's
// loads queue for the channel), run the blocks kernel: with windows vouched for
// (SmWindows::On) the memory sees each SM's accesses of a window before the next SM's, so the
// SMs that come later in a window find the channel taken by accesses of later cycles and the
// kernel takes more cycles than in cycle order (SmWindows::Off); by default the memory is asked,
// does not answer, and the Gpu runs cycle by cycle: the same cycles, counters and interrupt time
// as SmWindows::Off.
TEST(GpuWindows, BehindAStatefulMemoryTheDefaultGivesTheCycleOrderResults)
{
    const std::string list = write_blocks_trace();
    const smtlm_run_cfg cfg = default_machine();
    const sc_core::sc_time lat = period_of(cfg) * (double)cfg.gpu.mem_latency, per_byte = period_of(cfg) / 8.0;
    BandwidthMemory m_auto("m_auto", per_byte, lat), m_on("m_on", per_byte, lat), m_off("m_off", per_byte, lat);
    std::vector<std::unique_ptr<GpuNode>> g;
    g.emplace_back(new GpuNode("gpu_auto", list, cfg, smtlm::GpuParams(), &m_auto.socket));
    g.emplace_back(new GpuNode("gpu_on", list, cfg, params(smtlm::SmWindows::On), &m_on.socket));
    g.emplace_back(new GpuNode("gpu_off", list, cfg, params(smtlm::SmWindows::Off), &m_off.socket));
    GpuNode *a = g[0].get(), *on = g[1].get(), *off = g[2].get();
    sc_core::sc_time t[3];
    Soc soc(
        [&](Cpu &cpu) {
            for (unsigned i = 0; i < 3; i++) {
                cpu.wr(reg::IRQ_EN, 1, kCtrlBase + i * kCtrlSize);
                cpu.wr(reg::CTRL, reg::CTRL_START, kCtrlBase + i * kCtrlSize);
            }
            GpuNode *n[3] = {a, on, off};
            for (unsigned done = 0; done < 3;) {
                sc_core::wait(a->irq.posedge_event() | on->irq.posedge_event() | off->irq.posedge_event());
                for (unsigned i = 0; i < 3; i++)
                    if (n[i]->irq.read() && t[i] == sc_core::SC_ZERO_TIME) {
                        t[i] = sc_core::sc_time_stamp();
                        done++;
                    }
            }
        },
        std::move(g));
    sc_core::sc_start();
    const smtlm_gpu &x = a->gpu.engine(), &w = on->gpu.engine(), &y = off->gpu.engine();
    EXPECT_FALSE(a->gpu.windows());
    EXPECT_EQ(a->gpu.window_cycles(), 0u);
    EXPECT_TRUE(on->gpu.windows());
    EXPECT_GT(on->gpu.window_cycles(), 0u);
    EXPECT_GT(w.tot_cycle, y.tot_cycle) << "windows did not reorder the memory's view";
    RecordProperty("cycles_in_windows", std::to_string(w.tot_cycle));
    RecordProperty("cycles_in_cycle_order", std::to_string(y.tot_cycle));
    EXPECT_EQ(x.tot_cycle, y.tot_cycle);
    EXPECT_EQ(x.tot_warp_insn, y.tot_warp_insn);
    EXPECT_EQ(x.skipped_cycles, y.skipped_cycles);
    EXPECT_EQ(t[0], t[2]);
    for (unsigned i = 0; i < x.n_sm; i++) {
        smtlm_sm_view u, v;
        smtlm_gpu_sm_view(&x, i, &u);
        smtlm_gpu_sm_view(&y, i, &v);
        EXPECT_EQ(0, std::memcmp(&u.stats, &v.stats, sizeof u.stats)) << "SM " << i;
    }
}

// A memory of the platform's own that declares itself order-independent (mem_order.h): it adds
// a fixed latency, and answers the question for the socket it is reached through.
struct DeclaringMemory : sc_core::sc_module {
    tlm_utils::simple_target_socket<DeclaringMemory> socket;
    sc_core::sc_time latency;
    DeclaringMemory(sc_core::sc_module_name n, const sc_core::sc_time &lat) : sc_core::sc_module(n), socket("socket"), latency(lat)
    {
        socket.register_b_transport(this, &DeclaringMemory::b_transport);
        socket.register_transport_dbg(this, &DeclaringMemory::transport_dbg);
    }
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay)
    {
        delay += latency;
        gp.set_response_status(tlm::TLM_OK_RESPONSE);
    }
    unsigned transport_dbg(tlm::tlm_generic_payload &gp)
    {
        return smtlm::answer_order_query(gp, &socket.get_base_interface(), true) ? 0 : gp.get_data_length();
    }
};

// A bus that passes every transaction on as it is, debug ones too, knowing nothing of the
// question (as a bandwidth model in front of a memory would): what it passes on is no answer.
struct PassingBus : sc_core::sc_module {
    tlm_utils::simple_target_socket<PassingBus> in;
    tlm_utils::simple_initiator_socket<PassingBus> out;
    explicit PassingBus(sc_core::sc_module_name n) : sc_core::sc_module(n), in("in"), out("out")
    {
        in.register_b_transport(this, &PassingBus::b_transport);
        in.register_transport_dbg(this, &PassingBus::transport_dbg);
    }
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay) { out->b_transport(gp, delay); }
    unsigned transport_dbg(tlm::tlm_generic_payload &gp) { return out->transport_dbg(gp); }
};

// By default a Gpu keeps its windows behind smtlm::Memory (through smtlm::Router, which asks its
// targets) and behind a target of the platform's own that declares itself; behind that same
// target reached through a bus that only passes the question on, it runs cycle by cycle. All
// three run the blocks kernel in the C engine's cycles.
TEST(GpuWindows, AnOrderIndependentMemoryKeepsThemByDefault)
{
    const std::string list = write_blocks_trace();
    const Reference ref = blocks_reference(list);
    const smtlm_run_cfg cfg = default_machine();
    const sc_core::sc_time lat = period_of(cfg) * (double)cfg.gpu.mem_latency;
    DeclaringMemory declaring("declaring", lat), behind("behind", lat);
    PassingBus bus("passing_bus");
    bus.out.bind(behind.socket);
    std::vector<std::unique_ptr<GpuNode>> g;
    g.emplace_back(new GpuNode("gpu_memory", list, cfg, smtlm::GpuParams()));
    g.emplace_back(new GpuNode("gpu_declaring", list, cfg, smtlm::GpuParams(), &declaring.socket));
    g.emplace_back(new GpuNode("gpu_behind_bus", list, cfg, smtlm::GpuParams(), &bus.in));
    GpuNode *n[3] = {g[0].get(), g[1].get(), g[2].get()};
    Soc soc(
        [&](Cpu &cpu) {
            for (unsigned i = 0; i < 3; i++)
                cpu.wr(reg::CTRL, reg::CTRL_START, kCtrlBase + i * kCtrlSize);
            for (GpuNode *x : n)
                while (x->gpu.busy())
                    sc_core::wait(x->gpu.done_event());
        },
        std::move(g));
    sc_core::sc_start();
    EXPECT_TRUE(n[0]->gpu.windows());
    EXPECT_GT(n[0]->gpu.window_cycles(), 0u);
    EXPECT_TRUE(n[1]->gpu.windows());
    EXPECT_GT(n[1]->gpu.window_cycles(), 0u);
    EXPECT_FALSE(n[2]->gpu.windows());
    EXPECT_EQ(n[2]->gpu.window_cycles(), 0u);
    for (GpuNode *x : n) {
        EXPECT_EQ(x->gpu.engine().tot_cycle, ref.cycles) << x->gpu.name();
        EXPECT_EQ(x->gpu.engine().tot_warp_insn, ref.warp_insts) << x->gpu.name();
    }
}

// With a single memory socket (GpuParams::single_mem_port) the Gpu asks through it.
TEST(GpuWindows, ASingleMemorySocketIsAskedToo)
{
    const std::string list = write_blocks_trace();
    const Reference ref = blocks_reference(list);
    const smtlm_run_cfg cfg = default_machine();
    smtlm::TraceKernels kernels(list, cfg.lat);
    smtlm::GpuParams p;
    p.single_mem_port = true;
    smtlm::Gpu gpu("gpu", cfg.gpu, period_of(cfg), p, &kernels);
    smtlm::Router router("router");
    smtlm::Memory dram("dram", period_of(cfg) * (double)cfg.gpu.mem_latency);
    gpu.mem.bind(router.in);
    router.out.bind(dram.socket);
    router.map(0, ~0ull, 0);
    const std::unique_ptr<Soc> soc = run_kernel_0(gpu);
    EXPECT_TRUE(gpu.windows());
    EXPECT_GT(gpu.window_cycles(), 0u);
    EXPECT_EQ(gpu.engine().tot_cycle, ref.cycles);
}

// A memory that spends its latency waiting in b_transport (legal LT), counting the accesses;
// `entered` is notified as a call starts to wait (a state a test can wait for).
struct WaitingMemory : sc_core::sc_module {
    tlm_utils::simple_target_socket<WaitingMemory> socket;
    sc_core::sc_time latency;
    uint64_t accesses = 0;
    sc_core::sc_event entered;
    WaitingMemory(sc_core::sc_module_name n, const sc_core::sc_time &lat) : sc_core::sc_module(n), socket("socket"), latency(lat)
    {
        socket.register_b_transport(this, &WaitingMemory::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &)
    {
        accesses++;
        entered.notify();
        wait(latency);
        gp.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};

struct Reports {
    static unsigned &memory_warnings()
    {
        static unsigned n = 0;
        return n;
    }
    static unsigned &refused_starts()
    {
        static unsigned n = 0;
        return n;
    }
    static void handler(const sc_core::sc_report &r, const sc_core::sc_actions &)
    {
        memory_warnings() += std::string(r.get_msg_type()) == "smtlm/memory";
        refused_starts() += std::string(r.get_msg()).find("CTRL.START") != std::string::npos;
    }
};

// The blocks kernel started at time 0 on one Gpu whose memory waits.
struct WaitingRun {
    uint64_t cycles = 0, window_cycles = 0, ref = 0;
    bool windows = false;
    sc_core::sc_time irq_at, period, latency;
};
WaitingRun run_on_waiting_memory(const smtlm::GpuParams &p)
{
    sc_core::sc_report_handler::set_handler(Reports::handler);
    WaitingRun out;
    const std::string list = write_blocks_trace();
    out.ref = blocks_reference(list).cycles;
    const smtlm_run_cfg cfg = default_machine();
    out.period = period_of(cfg);
    out.latency = out.period * (double)cfg.gpu.mem_latency;
    WaitingMemory mem("mem", out.latency);
    std::vector<std::unique_ptr<GpuNode>> g;
    g.emplace_back(new GpuNode("gpu", list, cfg, p, &mem.socket));
    GpuNode *n = g[0].get();
    Soc soc(
        [&](Cpu &cpu) {
            start_and_wait_irq(cpu, *n);
            out.irq_at = sc_core::sc_time_stamp();
            out.cycles = cpu.rd64(reg::CYCLES);
        },
        std::move(g));
    sc_core::sc_start();
    out.window_cycles = n->gpu.window_cycles();
    out.windows = n->gpu.windows();
    EXPECT_GT(mem.accesses, 0u);
    return out;
}

// With windows vouched for (SmWindows::On): the kernel's first access comes after its last block
// is issued, inside a window: that window makes every access in the Gpu's thread (each answered
// when its wait ends, so the cycles stay exact), one warning says the target waits, and no
// window runs after it: from then on the accesses run in processes of their own and the SMs
// every cycle.
TEST(GpuWindows, AMemoryThatWaitsEndsThemAfterTheWindowItWasSeenIn)
{
    const WaitingRun r = run_on_waiting_memory(params(smtlm::SmWindows::On));
    EXPECT_EQ(r.cycles, r.ref);
    EXPECT_EQ(Reports::memory_warnings(), 1u);
    EXPECT_GT(r.window_cycles, 0u);
    EXPECT_LE(r.window_cycles, (uint64_t)SMTLM_SERIES_CYCLES); // the one window the wait was seen in
}

// GpuParams::memory_waits: every access in a process of its own from the first, so no window.
TEST(GpuWindows, NoneWithMemoryWaits)
{
    smtlm::GpuParams p;
    p.memory_waits = true;
    const WaitingRun r = run_on_waiting_memory(p);
    EXPECT_EQ(r.cycles, r.ref);
    EXPECT_EQ(r.window_cycles, 0u);
}

// By default a memory that waits says nothing of its order, so no window runs: only the
// kernel's first access is made in the Gpu's thread (its latency counted, one warning), the
// others in processes of their own, and the interrupt comes within one memory latency of the
// kernel's exact end (START at time 0: cycles x period).
TEST(GpuWindows, NoneByDefaultBehindAMemoryThatWaitsSoTheInterruptIsAtMostOneLatencyLate)
{
    const WaitingRun r = run_on_waiting_memory(smtlm::GpuParams());
    EXPECT_EQ(r.cycles, r.ref);
    EXPECT_FALSE(r.windows);
    EXPECT_EQ(r.window_cycles, 0u);
    EXPECT_EQ(Reports::memory_warnings(), 1u);
    EXPECT_GE(r.irq_at, r.period * (double)r.ref);
    EXPECT_LE(r.irq_at, r.period * (double)r.ref + r.latency);
}

// A reset while the memory holds the Gpu's thread inside its wait (the kernel's first access,
// made in the thread; with SmWindows::On inside a window): STATUS, the counters and the
// registers read as after a reset at once, a START right after it is accepted (BUSY, no
// warning), and that kernel runs in the C engine's cycles, starting once the memory's call
// returns: its interrupt comes within one memory latency of START + cycles x period.
void reset_while_the_memory_holds_the_thread(smtlm::SmWindows windows)
{
    sc_core::sc_report_handler::set_handler(Reports::handler);
    const std::string list = write_blocks_trace();
    const Reference ref = blocks_reference(list);
    const smtlm_run_cfg cfg = default_machine();
    const sc_core::sc_time period = period_of(cfg), lat = period * (double)cfg.gpu.mem_latency;
    WaitingMemory mem("mem", lat);
    std::vector<std::unique_ptr<GpuNode>> g;
    g.emplace_back(new GpuNode("gpu", list, cfg, params(windows), &mem.socket));
    GpuNode *n = g[0].get();
    sc_core::sc_time t0, t1;
    uint64_t cycles = 0;
    bool ran = false;
    Soc soc(
        [&](Cpu &cpu) {
            cpu.wr(reg::IRQ_EN, 1);
            cpu.wr(reg::CTRL, reg::CTRL_START);
            sc_core::wait(mem.entered); // the Gpu's thread is inside the memory's wait
            cpu.wr(reg::CTRL, reg::CTRL_SOFT_RESET);
            EXPECT_EQ(cpu.rd(reg::STATUS), 0u);
            EXPECT_EQ(cpu.rd(reg::IRQ_EN), 0u);
            for (uint64_t off = reg::CYCLES; off < reg::END; off += 8)
                EXPECT_EQ(cpu.rd64(off), 0u) << off;
            EXPECT_FALSE(n->gpu.busy());
            cpu.wr(reg::IRQ_EN, 1);
            t0 = sc_core::sc_time_stamp();
            cpu.wr(reg::CTRL, reg::CTRL_START);
            EXPECT_EQ(cpu.rd(reg::STATUS), reg::STATUS_BUSY);
            EXPECT_EQ(Reports::refused_starts(), 0u);
            wait_irq(*n);
            t1 = sc_core::sc_time_stamp();
            cycles = cpu.rd64(reg::CYCLES);
            EXPECT_EQ(cpu.rd(reg::STATUS), reg::STATUS_DONE | SMTLM_RUN_DONE << reg::STATUS_CODE_SHIFT);
            ran = true;
        },
        std::move(g));
    sc_core::sc_start();
    EXPECT_TRUE(ran);
    EXPECT_EQ(cycles, ref.cycles);
    EXPECT_GE(t1 - t0, period * (double)ref.cycles);
    EXPECT_LE(t1 - t0, period * (double)ref.cycles + lat);
}

TEST(GpuWindows, AResetWhileAWaitingMemoryHoldsTheThreadTakesEffectAtOnce)
{
    reset_while_the_memory_holds_the_thread(smtlm::SmWindows::Auto);
}

TEST(GpuWindows, AResetInAWindowAWaitingMemoryHoldsTakesEffectAtOnce)
{
    reset_while_the_memory_holds_the_thread(smtlm::SmWindows::On);
}

} // namespace
