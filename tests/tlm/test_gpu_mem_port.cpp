// The Gpu's single memory port (GpuParams::single_mem_port): the SMs' requests funnelled through
// the one socket Gpu::mem reach a target exactly as they do through the per-SM sockets (the
// same transactions in the same order at the same times, the same cycles), with only that
// socket bound; a target that wait()s inside b_transport works behind it; an unbound `mem` is
// reported at elaboration; smsim's -smtlm_mem_single_port 1 gives the C engine's output.
#include <gtest/gtest.h>

#include <cstring>

#include <tlm_utils/multi_passthrough_target_socket.h>

#include <map>
#include <set>
#include <utility>

#include "kernel_test_util.hpp"
#include "soc_test_util.hpp"
#include "smsim_outputs.hpp"
#include "smsim_run.hpp"
#include "smtlm/tlm/gpu.h"
#include "smtlm/tlm/mem_order.h"
#include "smtlm/tlm/systemc_engine.h"

namespace {

// One transaction as the target saw it, with when it came (SystemC time and the delay passed in).
struct Seen {
    soc::Access a;
    sc_core::sc_time at, delay_in;
    bool operator==(const Seen &o) const
    {
        const smtlm::MemAccessExtension &e = a.ext, &f = o.a.ext;
        return a.cmd == o.a.cmd && a.addr == o.a.addr && a.len == o.a.len && a.be == o.a.be && a.has_ext == o.a.has_ext &&
               e.sm == f.sm && e.warp == f.warp && e.pc == f.pc && e.space == f.space && e.atomic == f.atomic &&
               e.lanes == f.lanes && at == o.at && delay_in == o.delay_in;
    }
};

std::ostream &operator<<(std::ostream &os, const Seen &s)
{
    return os << "addr 0x" << std::hex << s.a.addr << std::dec << " SM " << s.a.ext.sm << " warp " << s.a.ext.warp
              << " pc 0x" << std::hex << s.a.ext.pc << std::dec << " at " << s.at << " + " << s.delay_in;
}

// A target for any number of initiators that records every transaction and answers after
// `latency`: annotated (added to the delay) or, with `waits`, by wait()ing it out inside
// b_transport (the local time first, then the latency; the delay goes back as zero).
struct Recorder : sc_core::sc_module {
    tlm_utils::multi_passthrough_target_socket<Recorder> socket;
    std::vector<Seen> seen;
    sc_core::sc_time latency;
    bool waits;
    unsigned dbg_calls = 0, order_questions = 0; // debug calls, and the Gpu's order question (mem_order.h)
    Recorder(sc_core::sc_module_name n, sc_core::sc_time lat, bool wait_it = false)
        : sc_core::sc_module(n), socket("socket"), latency(lat), waits(wait_it)
    {
        socket.register_b_transport(this, &Recorder::b_transport);
        socket.register_transport_dbg(this, &Recorder::transport_dbg);
    }
    void b_transport(int, tlm::tlm_generic_payload &gp, sc_core::sc_time &delay)
    {
        seen.push_back(Seen{soc::record(gp), sc_core::sc_time_stamp(), delay});
        EXPECT_TRUE(seen.back().a.has_ext);
        if (waits) {
            sc_core::wait(delay + latency);
            delay = sc_core::SC_ZERO_TIME;
        } else {
            delay += latency;
        }
        gp.set_response_status(tlm::TLM_OK_RESPONSE);
    }
    unsigned transport_dbg(int, tlm::tlm_generic_payload &gp)
    {
        if (gp.get_extension<smtlm::MemOrderQuery>()) { // not answered: cycle order
            order_questions++;
            return 0;
        }
        dbg_calls++;
        return gp.get_data_length();
    }
};

// Every warp of every SM runs the same program of loads and stores at addresses of its own
// (offset by SM and warp), so that several SMs reach memory in the same cycle.
struct Workload {
    std::vector<smtlm_inst_desc> prog = ktu::prog({
        ktu::global(SMTLM_OP_LOAD, 5, {3}, 0x10000, 4),
        ktu::with_mask(ktu::global(SMTLM_OP_LOAD, 6, {3}, 0x20010, 4), 0x0000ffff), // a partial warp
        ktu::global(SMTLM_OP_LOAD, 7, {3}, 0x30000, 64),                            // a sector per lane
        ktu::ffma(8, {5, 6, 7}),
        ktu::global(SMTLM_OP_STORE, -1, {3, 8}, 0x40000, 4),
        ktu::global(SMTLM_OP_LOAD, 9, {3}, 0x50000, 8),
        ktu::ffma(10, {9, 9, 9}),
    });
    std::map<std::pair<unsigned, unsigned>, size_t> pos; // (SM, hardware warp) -> next instruction
    static int next(void *ctx, unsigned sm, unsigned warp, smtlm_inst_desc *d)
    {
        Workload *w = static_cast<Workload *>(ctx);
        size_t &p = w->pos[{sm, warp}];
        if (p >= w->prog.size())
            return 0;
        *d = w->prog[p++];
        for (uint64_t &a : d->addr)
            a += (uint64_t)sm << 24 | (uint64_t)warp << 16;
        return 1;
    }
    static int more(void *ctx, unsigned sm, unsigned warp)
    {
        Workload *w = static_cast<Workload *>(ctx);
        const auto it = w->pos.find({sm, warp});
        return it == w->pos.end() || it->second < w->prog.size();
    }
    static int cta_start(void *ctx, unsigned sm, unsigned, unsigned first_warp, unsigned n_warps, uint32_t)
    {
        for (unsigned k = 0; k < n_warps; k++)
            static_cast<Workload *>(ctx)->pos[{sm, first_warp + k}] = 0;
        return SMTLM_OK;
    }
};

// A 4-SM QV100 Gpu (1 ns cycles, no launch latency) that runs 8 CTAs of 4 warps of the
// workload, bound to `target` through its single port or every SM's socket (or not at all).
struct Node {
    Workload work;
    smtlm::Gpu gpu;
    Node(const char *name, bool single, Recorder *target = nullptr)
        : gpu(name, soc::qv100_gpu(4), sc_core::sc_time(1, sc_core::SC_NS), params(single))
    {
        EXPECT_EQ(gpu.status(), SMTLM_OK);
        const smtlm_inst_source src = {&work, &Workload::next, &Workload::more, nullptr, 0, 0, nullptr, nullptr, nullptr};
        const smtlm_cta_binder binder = {&work, &Workload::cta_start, nullptr};
        gpu.set_source(src, &binder);
        if (target && single)
            gpu.mem.bind(target->socket);
        else if (target)
            for (unsigned i = 0; i < gpu.n_sm(); i++)
                gpu.mem_socket(i).bind(target->socket);
    }
    static smtlm::GpuParams params(bool single)
    {
        smtlm::GpuParams p;
        p.single_mem_port = single;
        return p;
    }
    void start() { EXPECT_EQ(gpu.run_kernel(smtlm_kernel_desc{8, 128, 0, 32}), SMTLM_OK); }
};

// Several SMs in one cycle: the order across SMs is what the funnel must keep.
bool some_cycle_has_two_sms(const std::vector<Seen> &v)
{
    std::map<sc_core::sc_time, std::set<unsigned>> sms; // by the request's time (stamp + delay)
    for (const Seen &s : v)
        sms[s.at + s.delay_in].insert(s.a.ext.sm);
    for (const auto &c : sms)
        if (c.second.size() > 1)
            return true;
    return false;
}

void expect_same_traffic(const Recorder &per_sm, const Recorder &single)
{
    ASSERT_EQ(per_sm.seen.size(), single.seen.size());
    for (size_t i = 0; i < per_sm.seen.size(); i++)
        ASSERT_EQ(per_sm.seen[i], single.seen[i]) << "transaction " << i;
}

// Two Gpus side by side on the same kernel, one bound per SM and one through its single port,
// each to a recording target with a 100 ns latency (annotated, or waited out with `waits`):
// both complete with the same cycles, and their targets see the same transactions (command,
// address, length, byte enables, every extension field) in the same order at the same times.
// Returns what the single port carried.
std::vector<Seen> expect_same_as_per_sm(bool waits)
{
    Recorder rec_a("rec_a", sc_core::sc_time(100, sc_core::SC_NS), waits),
        rec_b("rec_b", sc_core::sc_time(100, sc_core::SC_NS), waits);
    Node a("gpu_a", false, &rec_a), b("gpu_b", true, &rec_b);
    a.start();
    b.start();
    sc_core::sc_start();
    EXPECT_EQ(a.gpu.run_status(), SMTLM_RUN_DONE);
    EXPECT_EQ(b.gpu.run_status(), SMTLM_RUN_DONE);
    EXPECT_EQ(a.gpu.engine().sim_cycle, b.gpu.engine().sim_cycle);
    EXPECT_EQ(smtlm_gpu_sim_insn(&a.gpu.engine()), smtlm_gpu_sim_insn(&b.gpu.engine()));
    // 32 warps x 32-byte sectors: 4 (stride 4) + 3 (16 lanes from 0x..10) + 32 (stride 64)
    // + 4 (the store) + 8 (stride 8)
    EXPECT_EQ(rec_a.seen.size(), 32u * 51u);
    expect_same_traffic(rec_a, rec_b);
    return rec_b.seen;
}

// The target sees every SM, and requests of several SMs in one cycle.
TEST(GpuMemPort, TheSinglePortCarriesTheSameTransactionsInTheSameOrder)
{
    const std::vector<Seen> seen = expect_same_as_per_sm(false);
    std::set<unsigned> sms;
    for (const Seen &s : seen)
        sms.insert(s.a.ext.sm);
    EXPECT_EQ(sms, (std::set<unsigned>{0, 1, 2, 3}));
    EXPECT_TRUE(some_cycle_has_two_sms(seen));
}

// A target that waits out its latency inside b_transport works behind the single port: the
// funnel is a plain forward from the Gpu's thread.
TEST(GpuMemPort, AWaitingTargetWorksBehindTheSinglePort) { expect_same_as_per_sm(true); }

// With single_mem_port the Gpu has bound every SM's socket itself: binding only `mem` (and
// nothing else of the Gpu) elaborates and runs, and debug transport goes through it too.
TEST(GpuMemPort, OnlyTheOneSocketIsBound)
{
    Recorder rec("rec", sc_core::sc_time(100, sc_core::SC_NS));
    Node g("gpu", true);
    g.gpu.mem.bind(rec.socket);
    g.start();
    sc_core::sc_start();
    ASSERT_EQ(g.gpu.run_status(), SMTLM_RUN_DONE);
    EXPECT_EQ(rec.seen.size(), 32u * 51u);
    tlm::tlm_generic_payload gp;
    unsigned char buf[8] = {};
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_address(0x1234);
    gp.set_data_ptr(buf);
    gp.set_data_length(sizeof buf);
    EXPECT_EQ(g.gpu.mem_socket(3)->transport_dbg(gp), sizeof buf);
    EXPECT_EQ(rec.dbg_calls, 1u);
    EXPECT_EQ(rec.order_questions, 1u); // asked once, through the one socket
    EXPECT_FALSE(g.gpu.windows());
}

// With single_mem_port and `mem` left unbound, elaboration stops with one error naming it.
TEST(GpuMemPort, AnUnboundSinglePortIsReported)
{
    Node g("gpu", true);
    std::string msg;
    try {
        sc_core::sc_start();
    } catch (const sc_core::sc_report &r) {
        msg = std::string(r.get_msg_type()) + ": " + r.get_msg();
    }
    EXPECT_EQ(msg, "smtlm/mem_port: gpu.mem is not bound (GpuParams::single_mem_port: every SM's memory requests "
                   "leave through it)");
}

// smsim: `option` 1 (SystemC engine) gives the C engine's output, statistics and
// per-instruction event log, on real traces and on a memory-bound synthetic run over 80 SMs.
void expect_c_engine_output(const equiv::Input &in, const char *option)
{
    const smtlm_engine *const engines[] = {smtlm_systemc_engine(), smtlm_c_engine()};
    const std::string dir = e2e::scratch(std::string(option + 1) + "_" + in.name);
    auto run = [&](const char *engine) {
        const std::string base = dir + "/" + engine;
        std::vector<std::string> a = in.args;
        a.insert(a.end(), {"-smtlm_engine", engine, "-smtlm_stats_json", base + ".json", "-smtlm_event_log",
                           base + ".events"});
        if (!strcmp(engine, "systemc"))
            a.insert(a.end(), {option, "1"}); // an option of the SystemC engine: the C engine refuses it
        return e2e::smsim(a, engines, 2);
    };
    const e2e::Result c = run("c"), s = run("systemc");
    EXPECT_EQ(c.status, 0) << c.err;
    EXPECT_EQ(c.status, s.status);
    EXPECT_EQ(equiv::without_wall_clock(c.out), equiv::without_wall_clock(s.out));
    EXPECT_EQ(c.err, s.err);
    EXPECT_EQ(equiv::read_json(dir + "/c.json"), equiv::read_json(dir + "/systemc.json"));
    const std::string events = equiv::slurp(dir + "/c.events");
    EXPECT_GT(std::count(events.begin(), events.end(), '\n'), 1) << "no instruction retired";
    EXPECT_TRUE(events == equiv::slurp(dir + "/systemc.events")) << "the per-instruction event logs differ";
}

class SmsimSinglePort : public ::testing::TestWithParam<equiv::Input> {};
TEST_P(SmsimSinglePort, TheSameOutputAsTheCEngine) { expect_c_engine_output(GetParam(), "-smtlm_mem_single_port"); }

// Every access in a process of its own (what a memory that waits gets): the same cycles and
// statistics as accesses made in the Gpu's thread.
class SmsimMemoryWaits : public ::testing::TestWithParam<equiv::Input> {};
TEST_P(SmsimMemoryWaits, TheSameOutputAsTheCEngine) { expect_c_engine_output(GetParam(), "-smtlm_mem_waits"); }

std::vector<std::string> trace(const char *dir, const char *name)
{
    std::vector<std::string> a = {"-trace", e2e::data(std::string("traces/") + name + "/kernelslist.g")};
    for (const std::string &s : e2e::stock(dir))
        a.push_back(s);
    return a;
}

const auto kSmsimInputs =
    ::testing::Values(equiv::Input{"lud_qv100", trace("SM7_QV100", "lud")},
                      equiv::Input{"matrixmul_titanx", trace("SM6_TITANX", "matrixmul-32-32-trace")},
                      equiv::Input{"synthetic_80sm_memory_bound",
                                   {"-smtlm_synth_mix", "sp=40,int=20,ldg=40", "-smtlm_synth_ctas", "160", "-smtlm_synth_insts", "60"}});
std::string input_name(const ::testing::TestParamInfo<equiv::Input> &i) { return i.param.name; }
INSTANTIATE_TEST_SUITE_P(Inputs, SmsimSinglePort, kSmsimInputs, input_name);
INSTANTIATE_TEST_SUITE_P(Inputs, SmsimMemoryWaits, kSmsimInputs, input_name);

} // namespace
