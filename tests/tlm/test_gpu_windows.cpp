// The SystemC Gpu steps its SMs in windows (GpuParams::sm_windows, the default) once no thread
// block is left to issue, as the C engine does: two Gpus side by side in one platform, one in
// windows and one every SM each cycle, each with its own memory, run the same kernels to the
// same cycle, counters and interrupt time, at quanta that cut the windows and the idle skips
// inside them. A memory that waits in b_transport turns the windows off (its accesses then run
// in processes of their own) and the cycles stay the C engine's.
#include <gtest/gtest.h>

#include <tlm_utils/simple_target_socket.h>

#include <cstring>

#include "vp_harness.hpp"

namespace {

using namespace vp;

const uint64_t kGpu1 = kCtrlBase + kCtrlSize;

smtlm::GpuParams params(bool windows, uint64_t quantum)
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
    const std::string dir = e2e::scratch("gpu_windows_blocks");
    std::string t = "-kernel name = blocks\n-kernel id = 1\n-grid dim = (12,1,1)\n-block dim = (64,1,1)\n-shmem = 0\n"
                    "-nregs = 32\n-binary version = 70\n-cuda stream id = 0\n-shmem base_addr = 0x00007f0000000000\n"
                    "-local mem base_addr = 0x00007f1000000000\n-nvbit version = 1.5.5\n-accelsim tracer version = 4\n"
                    "-enable lineinfo = 0\n\n#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num "
                    "[reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n\n";
    char line[128];
    for (unsigned b = 0; b < 12; b++) {
        t += "#BEGIN_TB\n\nthread block = " + std::to_string(b) + ",0,0\n\n";
        const unsigned n = 40 + 25 * b;
        for (unsigned w = 0; w < 2; w++) {
            t += "warp = " + std::to_string(w) + "\ninsts = " + std::to_string(n + 1) + "\n";
            for (unsigned i = 0; i < n; i++) {
                if (i % 5 == 0)
                    std::snprintf(line, sizeof line, "%04x ffffffff 1 R4 LDG.E 1 R2 4 1 0x%llx 4\n", i * 16,
                                  0x10000000ull + (b * 2 + w) * 0x1000 + i * 0x80);
                else if (i % 5 == 1)
                    std::snprintf(line, sizeof line, "%04x ffffffff 1 R5 FFMA 3 R4 R4 R5 0\n", i * 16);
                else
                    std::snprintf(line, sizeof line, "%04x ffffffff 1 R%u FFMA 3 R6 R7 R8 0\n", i * 16, 10 + i % 8);
                t += line;
            }
            std::snprintf(line, sizeof line, "%04x ffffffff 0 EXIT 0 0\n\n", n * 16);
            t += line;
        }
        t += "#END_TB\n\n";
    }
    e2e::write_file(dir + "/kernel-1.traceg", t);
    e2e::write_file(dir + "/kernelslist.g", "kernel-1.traceg\n");
    return dir + "/kernelslist.g";
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
    g.emplace_back(new GpuNode("gpu_windows", list, cfg, params(true, quantum)));
    g.emplace_back(new GpuNode("gpu_cycles", list, cfg, params(false, quantum)));
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

// A memory that spends its latency waiting in b_transport (legal LT), counting the accesses.
struct WaitingMemory : sc_core::sc_module {
    tlm_utils::simple_target_socket<WaitingMemory> socket;
    sc_core::sc_time latency;
    uint64_t accesses = 0;
    WaitingMemory(sc_core::sc_module_name n, const sc_core::sc_time &lat) : sc_core::sc_module(n), socket("socket"), latency(lat)
    {
        socket.register_b_transport(this, &WaitingMemory::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &)
    {
        accesses++;
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
    static void handler(const sc_core::sc_report &r, const sc_core::sc_actions &)
    {
        memory_warnings() += std::string(r.get_msg_type()) == "smtlm/memory";
    }
};

// The blocks kernel on one Gpu whose memory waits; returns the Gpu's cycles and window cycles.
void run_on_waiting_memory(bool memory_waits, uint64_t *cycles, uint64_t *window_cycles, uint64_t *ref_cycles)
{
    sc_core::sc_report_handler::set_handler(Reports::handler);
    const std::string list = write_blocks_trace();
    const e2e::Result r = e2e::smsim({"-trace", list, "-smtlm_engine", "c"});
    ASSERT_EQ(r.status, 0) << r.err;
    *ref_cycles = (uint64_t)r.stat("gpu_tot_sim_cycle");
    const smtlm_run_cfg cfg = default_machine();
    WaitingMemory mem("mem", period_of(cfg) * (double)cfg.gpu.mem_latency);
    smtlm::GpuParams p;
    p.memory_waits = memory_waits;
    std::vector<std::unique_ptr<GpuNode>> g;
    g.emplace_back(new GpuNode("gpu", list, cfg, p, &mem.socket));
    GpuNode *n = g[0].get();
    Soc soc(
        [&](Cpu &cpu) {
            cpu.wr(reg::IRQ_EN, 1);
            cpu.wr(reg::CTRL, reg::CTRL_START);
            wait_irq(*n);
            *cycles = cpu.rd64(reg::CYCLES);
        },
        std::move(g));
    sc_core::sc_start();
    *window_cycles = n->gpu.window_cycles();
    EXPECT_GT(mem.accesses, 0u);
}

// The kernel's first access comes after its last block is issued, inside a window: that window
// makes every access in the Gpu's thread (each answered when its wait ends, so the cycles stay
// exact), one warning says the target waits, and no window runs after it: from then on the
// accesses run in processes of their own and the SMs every cycle.
TEST(GpuWindows, AMemoryThatWaitsEndsThemAfterTheWindowItWasSeenIn)
{
    uint64_t cycles = 0, window_cycles = 0, ref = 0;
    run_on_waiting_memory(false, &cycles, &window_cycles, &ref);
    EXPECT_EQ(cycles, ref);
    EXPECT_EQ(Reports::memory_warnings(), 1u);
    EXPECT_GT(window_cycles, 0u);
    EXPECT_LE(window_cycles, (uint64_t)SMTLM_SERIES_CYCLES); // the one window the wait was seen in
}

// GpuParams::memory_waits: every access in a process of its own from the first, so no window.
TEST(GpuWindows, NoneWithMemoryWaits)
{
    uint64_t cycles = 0, window_cycles = 0, ref = 0;
    run_on_waiting_memory(true, &cycles, &window_cycles, &ref);
    EXPECT_EQ(cycles, ref);
    EXPECT_EQ(window_cycles, 0u);
}

} // namespace
