// Equivalence of the two engines end to end: smsim run with -smtlm_engine c and with
// -smtlm_engine systemc on the same input (and the C engine with and without the trace reader
// thread, -smtlm_reader_thread 0|1, and both engines with every thread block of a trace
// streamed, -smtlm_trace_stream_mib 0) must write the same per-instruction event log
// (-smtlm_event_log: every retired instruction with the cycle of each pipeline event), the
// same pipeline log and VCD of SMs 0-3 (-smtlm_pipeline_log, -smtlm_vcd: read from the kernels'
// state after every cycle), print the same statistics (all but the wall-clock lines), write
// the same JSON (all but wall_seconds), the same CSV (-smtlm_stats_csv) and HTML report
// (-smtlm_report), report the same errors and exit with the same status. Inputs: the real
// traces, all 47 Accel-Sim microbenchmarks as traces, synthetic workloads over configurations
// and switches, limits, a deadlock, bad input. One case per input; each runs in a process of
// its own (one SystemC elaboration per process).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <tuple>

#include "micro_trace.hpp"
#include "smsim_outputs.hpp"
#include "smsim_run.hpp"
#include "smtlm/tlm/systemc_engine.h"
#include "tracez_writer.hpp"

namespace {

using equiv::Input;
using equiv::read_json;
using equiv::slurp;
using equiv::without_wall_clock;

std::vector<std::string> stock(const char *dir, const char *trace)
{
    std::vector<std::string> a = {"-trace", e2e::data(std::string("traces/") + trace + "/kernelslist.g")};
    for (const std::string &s : e2e::stock(dir))
        a.push_back(s);
    return a;
}

std::vector<Input> inputs()
{
    std::vector<Input> v = {
        {"lud_qv100", stock("SM7_QV100", "lud")},
        {"vectoradd_titanx", stock("SM6_TITANX", "vectoradd-100-32-trace")},
        {"matrixmul_titanx", stock("SM6_TITANX", "matrixmul-32-32-trace")},
        {"lud_perfect_memory", {"-trace", e2e::data("traces/lud/kernelslist.g"), "-gpgpu_perfect_mem", "1"}},
        {"synthetic_default", {}},
        {"synthetic_80sm_memory_bound", {"-smtlm_synth_mix", "sp=40,int=20,ldg=40", "-smtlm_synth_ctas", "160", "-smtlm_synth_insts", "60"}},
        {"synthetic_subcore_off", {"-config", e2e::project_config("titanx.config"), "-smtlm_synth_mix", "sp=60,sfu=10,ldst=30"}},
        {"synthetic_port_throughput_1", {"-gpgpu_reg_file_port_throughput", "1", "-smtlm_synth_seed", "7"}},
        {"synthetic_wavefront", {"-smtlm_oc_allocator", "wavefront", "-smtlm_synth_seed", "3"}},
        {"synthetic_fix_subcore_hol", {"-smtlm_fix_subcore_hol", "1"}},
        {"synthetic_fix_optype_priority", {"-smtlm_fix_optype_priority", "1", "-smtlm_synth_mix", "sp=40,int=30,sfu=15,dp=15"}},
        {"synthetic_fix_wb_bank_conflict", {"-smtlm_fix_wb_bank_conflict", "1", "-smtlm_synth_regs", "8"}},
        {"synthetic_slow_memory_skips", {"-smtlm_synth_mix", "sp=50,ldg=50", "-smtlm_mem_latency", "3000", "-smtlm_synth_insts", "200"}},
        {"limit_max_cycle", {"-gpgpu_max_cycle", "7000"}},
        {"limit_max_insn", {"-gpgpu_max_insn", "100000"}},
        {"deadlock", {"-gpgpu_enable_specialized_operand_collector", "1", "-gpgpu_operand_collector_num_units_mem", "4",
                      "-gpgpu_operand_collector_num_in_ports_gen", "0", "-smtlm_watchdog_cycles", "3000",
                      "-smtlm_synth_insts", "100"}}, // nothing reads the INT instructions' ID_OC set
        {"bad_config", {"-gpgpu_num_reg_banks", "10"}},
    };
    // the published microbenchmarks: 7 ALU kinds x N 64|128 x 1|4|8 warps, and 5 shared-memory ones
    static std::vector<std::string> names; // the Input names point into it
    names.reserve(64);
    auto micro = [&](const char *kind, unsigned n, unsigned warps) {
        std::vector<std::string> a = {"-trace", e2e::write_micro_trace(kind, n, warps)};
        for (const std::string &s : e2e::stock("SM7_QV100"))
            a.push_back(s);
        names.push_back(std::string("micro_") + kind + "_n" + std::to_string(n) + "_w" + std::to_string(warps));
        v.push_back({names.back().c_str(), a});
    };
    for (const char *kind : {"indep", "indep3", "sfu", "imix", "dep_nc", "dep", "dep3"})
        for (unsigned n : {64u, 128u})
            for (unsigned warps : {1u, 4u, 8u})
                micro(kind, n, warps);
    for (const char *kind : {"lds1", "lds2", "lds32", "sts1"})
        micro(kind, 64, 1);
    micro("ldsdep1", 32, 1);
    // lud as Accel-Sim 2.0's .tracez, sub-chunks of 1, 7 and 4,096 instructions (the C engine
    // gives the text trace's outputs for each: tests/e2e/test_tracez_input.cpp)
    std::ifstream f(e2e::data("traces/lud/kernel-8.traceg"));
    std::stringstream text;
    text << f.rdbuf();
    for (unsigned sc : {1u, 7u, 4096u}) {
        tracez::Options o;
        o.subchunk = sc;
        const std::string dir = e2e::scratch("equiv_tracez_" + std::to_string(sc));
        e2e::write_file(dir + "/kernel-8.tracez", tracez::write(text.str(), o));
        e2e::write_file(dir + "/kernelslist.g", "kernel-8.tracez\n");
        names.push_back("lud_tracez_subchunk_" + std::to_string(sc));
        std::vector<std::string> a = {"-trace", dir + "/kernelslist.g"};
        for (const std::string &s : e2e::stock("SM7_QV100"))
            a.push_back(s);
        v.push_back({names.back().c_str(), a});
    }
    return v;
}

class SmsimEquivalence : public ::testing::TestWithParam<Input> {};

TEST_P(SmsimEquivalence, BothEnginesGiveIdenticalOutput)
{
    const Input &in = GetParam();
    const smtlm_engine *const engines[] = {smtlm_systemc_engine(), smtlm_c_engine()};
    const std::string dir = e2e::scratch(std::string("equiv_") + in.name);
    // the SystemC engine with the trace reader thread, the C engine without and with it; for a
    // trace, the C engine again and the SystemC engine (one elaboration per process: its only
    // run) with every thread block streamed through per-warp cursors
    auto run = [&](const std::string &engine, const char *reader, const char *stream) {
        const std::string base = dir + "/" + engine + reader + stream;
        std::vector<std::string> a = in.args;
        a.insert(a.end(), {"-smtlm_engine", engine, "-smtlm_reader_thread", reader, "-smtlm_trace_stream_mib", stream,
                           "-smtlm_stats_json", base + ".json", "-smtlm_event_log", base + ".events",
                           "-smtlm_stats_csv", base + ".csv", "-smtlm_report", base + ".html", "-smtlm_pipeline_log",
                           base + ".kanata", "-smtlm_vcd", base + ".vcd", "-smtlm_log_sms", "0-3"});
        return e2e::smsim(a, engines, 2);
    };
    const e2e::Result c = run("c", "0", "-1");
    const bool trace = std::find(in.args.begin(), in.args.end(), "-trace") != in.args.end();
    std::vector<std::tuple<const char *, const char *, const char *>> others = {{"systemc", "1", trace ? "0" : "-1"},
                                                                                {"c", "1", "-1"}};
    if (trace)
        others.push_back({"c", "0", "0"});
    for (const auto &[engine, reader, stream] : others) {
        SCOPED_TRACE(std::string(engine) + " engine, -smtlm_reader_thread " + reader + ", -smtlm_trace_stream_mib " + stream);
        const e2e::Result s = run(engine, reader, stream);
        EXPECT_EQ(c.status, s.status);
        EXPECT_EQ(without_wall_clock(c.out), without_wall_clock(s.out));
        EXPECT_EQ(c.err, s.err);
        if (c.status != 2) {
            EXPECT_NE(c.out.find("gpu_sim_cycle = "), std::string::npos) << c.out;
            const std::string other = dir + "/" + engine + reader + stream;
            EXPECT_EQ(read_json(dir + "/c0-1.json"), read_json(other + ".json"));
            const std::string events = slurp(dir + "/c0-1.events");
            EXPECT_GT(std::count(events.begin(), events.end(), '\n'), 1) << "no instruction retired";
            EXPECT_TRUE(events == slurp(other + ".events")) << "the per-instruction event logs differ";
            EXPECT_TRUE(slurp(dir + "/c0-1.csv") == slurp(other + ".csv")) << "the CSV files differ";
            const std::string page = slurp(dir + "/c0-1.html");
            EXPECT_NE(page.find("hm-cell"), std::string::npos) << "no heat map drawn";
            EXPECT_TRUE(page == slurp(other + ".html")) << "the HTML reports differ";
            const std::string kanata = slurp(dir + "/c0-1.kanata"), vcd = slurp(dir + "/c0-1.vcd");
            EXPECT_NE(kanata.find("\nR\t"), std::string::npos) << "no instruction in the pipeline log";
            EXPECT_NE(vcd.find("$dumpvars"), std::string::npos) << "no value in the VCD";
            EXPECT_TRUE(kanata == slurp(other + ".kanata")) << "the pipeline logs differ";
            EXPECT_TRUE(vcd == slurp(other + ".vcd")) << "the VCDs differ";
            std::remove((other + ".kanata").c_str()); // large: only their equality matters
            std::remove((other + ".vcd").c_str());
        }
    }
    std::remove((dir + "/c0-1.kanata").c_str());
    std::remove((dir + "/c0-1.vcd").c_str());
}

// The inputs are built at registration (they write trace files), once per process.
INSTANTIATE_TEST_SUITE_P(Inputs, SmsimEquivalence, ::testing::ValuesIn(inputs()),
                         [](const ::testing::TestParamInfo<Input> &i) { return std::string(i.param.name); });

// The SystemC engine with every pipeline hand-off a b_transport call (-smtlm_tlm_dmi 0) against
// the C engine: the same output as with direct access (the suite above), on the non-micro inputs
// and one microbenchmark of each kind.
std::vector<Input> no_dmi_inputs()
{
    std::vector<Input> v;
    for (const Input &in : inputs()) {
        const std::string n = in.name;
        if (n.rfind("micro_", 0) != 0 || n.find("_n64_w4") != std::string::npos || n.find("_n64_w1") != std::string::npos)
            v.push_back(in);
    }
    return v;
}

class SmsimNoDmi : public ::testing::TestWithParam<Input> {};

TEST_P(SmsimNoDmi, TransactionsEverywhereGiveTheSameOutput)
{
    const Input &in = GetParam();
    const smtlm_engine *const engines[] = {smtlm_systemc_engine(), smtlm_c_engine()};
    const std::string dir = e2e::scratch(std::string("nodmi_") + in.name);
    auto run = [&](const char *engine) {
        const std::string base = dir + "/" + engine;
        std::vector<std::string> a = in.args;
        a.insert(a.end(), {"-smtlm_engine", engine, "-smtlm_stats_json", base + ".json", "-smtlm_event_log",
                           base + ".events"});
        if (!strcmp(engine, "systemc"))
            a.insert(a.end(), {"-smtlm_tlm_dmi", "0"}); // an option of the SystemC engine: the C engine refuses it
        return e2e::smsim(a, engines, 2);
    };
    const e2e::Result c = run("c"), s = run("systemc");
    EXPECT_EQ(c.status, s.status);
    EXPECT_EQ(without_wall_clock(c.out), without_wall_clock(s.out));
    EXPECT_EQ(c.err, s.err);
    if (c.status != 2) {
        EXPECT_EQ(read_json(dir + "/c.json"), read_json(dir + "/systemc.json"));
        const std::string events = slurp(dir + "/c.events");
        EXPECT_GT(std::count(events.begin(), events.end(), '\n'), 1) << "no instruction retired";
        EXPECT_TRUE(events == slurp(dir + "/systemc.events")) << "the per-instruction event logs differ";
    }
}

INSTANTIATE_TEST_SUITE_P(Inputs, SmsimNoDmi, ::testing::ValuesIn(no_dmi_inputs()),
                         [](const ::testing::TestParamInfo<Input> &i) { return std::string(i.param.name); });

std::string many_cta_trace_with_tex()
{
    const std::string dir = e2e::scratch("threads_tex_error");
    std::string t = "-kernel name = many_tex\n-kernel id = 1\n-grid dim = (200,1,1)\n-block dim = (32,1,1)\n"
                    "-shmem = 0\n-nregs = 32\n-binary version = 70\n-accelsim tracer version = 4\n"
                    "-enable lineinfo = 0\n\n#traces format\n\n";
    char line[96];
    for (unsigned c = 0; c < 200; c++) {
        t += "#BEGIN_TB\nthread block = " + std::to_string(c) + ",0,0\nwarp = 0\ninsts = 31\n";
        for (unsigned i = 0; i < 30; i++) {
            if (c == 199 && i == 15)
                std::snprintf(line, sizeof line, "%04x ffffffff 1 R%u TEX 1 R3 0\n", i * 16, 20 + i % 8);
            else
                std::snprintf(line, sizeof line, "%04x ffffffff 1 R%u FFMA 3 R3 R4 R5 0\n", i * 16, 20 + i % 8);
            t += line;
        }
        std::snprintf(line, sizeof line, "%04x ffffffff 0 EXIT 0 0\n#END_TB\n", 30 * 16);
        t += line;
    }
    e2e::write_file(dir + "/kernel-1.traceg", t);
    e2e::write_file(dir + "/kernelslist.g", "kernel-1.traceg\n");
    return dir + "/kernelslist.g";
}

// The C engine's SMs stepped in windows (-smtlm_sm_windows 1, the default) on 1, 2, 3 and 4 host
// threads, and smsim's default run (its engine and thread count), give the event logs, stdout, stderr, JSON, report and exit status of the
// cycle-by-cycle loop (-smtlm_sm_windows 0) on every input above (real traces: the trace
// source's binder releases a CTA's cursors when it completes) and on many-CTA inputs that stop
// inside the windowed tail of a kernel (a cycle or instruction limit, a deadlock, an SM
// rejecting an instruction).
std::vector<Input> thread_inputs()
{
    std::vector<Input> v = inputs();
    const std::vector<std::string> many = {"-smtlm_synth_ctas", "200", "-smtlm_synth_insts", "30", "-smtlm_synth_mix",
                                           "sp=40,int=20,sfu=10,ldg=30"};
    auto with = [&](const char *name, std::vector<std::string> extra) {
        std::vector<std::string> a = many;
        a.insert(a.end(), extra.begin(), extra.end());
        v.push_back({name, a});
    };
    with("threads_many_ctas", {});
    with("threads_many_ctas_max_cycle", {"-gpgpu_max_cycle", "7400"});
    with("threads_many_ctas_max_insn", {"-gpgpu_max_insn", "4000000"});
    with("threads_many_ctas_deadlock", {"-gpgpu_enable_specialized_operand_collector", "1", "-gpgpu_operand_collector_num_units_mem",
                                        "4", "-gpgpu_operand_collector_num_in_ports_gen", "0", "-smtlm_watchdog_cycles", "2000"});
    with("threads_many_ctas_slow_memory", {"-smtlm_mem_latency", "1500"});
    // an SM error inside a parallel window: 200 one-warp CTAs of 30 FFMAs; the last CTA's 16th
    // instruction is a TEX and the texture unit (specialized unit 2) is switched off, so that
    // SM rejects it at decode while every CTA is already issued and the SMs run in windows
    v.push_back({"threads_many_ctas_sm_error",
                 {"-trace", many_cta_trace_with_tex(), "-specialized_unit_2", "0,4,200,4,4,TEX"}});
    return v;
}

class SmsimThreads : public ::testing::TestWithParam<Input> {};

TEST_P(SmsimThreads, OneToFourThreadsAndTheDefaultRunGiveIdenticalOutput)
{
    const Input &in = GetParam();
    const smtlm_engine *const engines[] = {smtlm_c_engine()};
    const std::string dir = e2e::scratch(std::string("threads_") + in.name);
    auto run = [&](const char *n, const char *windows) {
        const std::string base = dir + "/t" + n + "w" + windows;
        std::vector<std::string> a = in.args;
        a.insert(a.end(), {"-smtlm_engine", "c", "-smtlm_reader_thread", "0", "-smtlm_threads", n, "-smtlm_sm_windows",
                           windows, "-smtlm_stats_json", base + ".json", "-smtlm_event_log", base + ".events",
                           "-smtlm_report", base + ".html"});
        return e2e::smsim(a, engines, 1);
    };
    const e2e::Result cycle_order = run("1", "0");
    const std::string ref = dir + "/t1w0";
    // smsim as users run it: no -smtlm_engine, -smtlm_threads or -smtlm_reader_thread (the C
    // engine on every core of this host), with both engines built in as in smsim
    auto as_default = [&] {
        const smtlm_engine *const both[] = {smtlm_systemc_engine(), smtlm_c_engine()};
        std::vector<std::string> a = in.args;
        const std::string base = dir + "/tdefault";
        a.insert(a.end(), {"-smtlm_stats_json", base + ".json", "-smtlm_event_log", base + ".events", "-smtlm_report",
                           base + ".html"});
        return e2e::smsim(a, both, 2);
    };
    for (const char *n : {"1", "2", "3", "4", "default"}) {
        SCOPED_TRACE(std::string("-smtlm_threads ") + n);
        const bool deflt = !strcmp(n, "default");
        const e2e::Result r = deflt ? as_default() : run(n, "1");
        const std::string got = deflt ? dir + "/tdefault" : dir + "/t" + n + "w1";
        EXPECT_EQ(cycle_order.status, r.status);
        EXPECT_EQ(without_wall_clock(cycle_order.out), without_wall_clock(r.out));
        EXPECT_EQ(cycle_order.err, r.err);
        EXPECT_EQ(read_json(ref + ".json"), read_json(got + ".json"));
        EXPECT_TRUE(slurp(ref + ".events") == slurp(got + ".events")) << "the event logs differ";
        EXPECT_TRUE(slurp(ref + ".html") == slurp(got + ".html")) << "the HTML reports differ";
    }
}

INSTANTIATE_TEST_SUITE_P(Inputs, SmsimThreads, ::testing::ValuesIn(thread_inputs()),
                         [](const ::testing::TestParamInfo<Input> &i) { return std::string(i.param.name); });

TEST(SmsimThreads, BadThreadCountsAndTheSystemCEngineAreRefused)
{
    const smtlm_engine *const engines[] = {smtlm_systemc_engine(), smtlm_c_engine()};
    EXPECT_EQ(e2e::smsim({"-smtlm_engine", "c", "-smtlm_threads", "-1"}, engines, 2).status, 0); // automatic
    for (const char *bad : {"0", "-2", "65"}) {
        const e2e::Result r = e2e::smsim({"-smtlm_engine", "c", "-smtlm_threads", bad}, engines, 2);
        EXPECT_EQ(r.status, 2) << bad;
        EXPECT_NE(r.err.find("-smtlm_threads"), std::string::npos) << r.err;
    }
    const e2e::Result s = e2e::smsim({"-smtlm_engine", "systemc", "-smtlm_threads", "2"}, engines, 2);
    EXPECT_NE(s.status, 0);
    EXPECT_NE(s.err.find("-smtlm_threads"), std::string::npos) << s.err;
    // threads share out windows: without them there is nothing to share
    const e2e::Result w = e2e::smsim({"-smtlm_engine", "c", "-smtlm_threads", "2", "-smtlm_sm_windows", "0"}, engines, 2);
    EXPECT_EQ(w.status, 2);
    EXPECT_NE(w.err.find("<command line>:"), std::string::npos) << w.err;
    EXPECT_NE(w.err.find(": -smtlm_sm_windows: 0 with -smtlm_threads 2: the threads need the SMs stepped in windows"), std::string::npos) << w.err;
}

// smsim's engine: the C engine unless named or unless an option only the SystemC engine reads is
// set; such an option is never ignored. Which engine ran shows in -smtlm_threads 2, which only
// the C engine takes.
TEST(SmsimEngineChoice, TheCEngineByDefaultAndTheSystemCEngineForItsOwnOptions)
{
    const smtlm_engine *const both[] = {smtlm_systemc_engine(), smtlm_c_engine()};
    const e2e::Result c = e2e::smsim({"-smtlm_threads", "2"}, both, 2);
    EXPECT_EQ(c.status, 0) << c.err;
    EXPECT_NE(c.out.find("gpu_sim_cycle = 29631"), std::string::npos);
    const e2e::Result sc = e2e::smsim({"-smtlm_threads", "2", "-smtlm_quantum_cycles", "100"}, both, 2);
    EXPECT_NE(sc.status, 0);
    EXPECT_NE(sc.err.find("the SystemC engine runs on one thread"), std::string::npos) << sc.err;
    const e2e::Result sc1 = e2e::smsim({"-smtlm_tlm_dmi", "0"}, both, 2);
    EXPECT_EQ(sc1.status, 0) << sc1.err;
    EXPECT_EQ(without_wall_clock(sc1.out), without_wall_clock(c.out));
    const e2e::Result ignored = e2e::smsim({"-smtlm_engine", "c", "-smtlm_addr_map", "0:4096:0"}, both, 2);
    EXPECT_EQ(ignored.status, 2);
    EXPECT_NE(ignored.err.find("<command line>:3: -smtlm_addr_map is an option of the SystemC engine; -smtlm_engine c "
                               "(<command line>:1) would ignore it"),
              std::string::npos)
        << ignored.err;
    const smtlm_engine *const c_only[] = {smtlm_c_engine()};
    const e2e::Result absent = e2e::smsim({"-smtlm_mem_waits", "1"}, c_only, 1);
    EXPECT_EQ(absent.status, 2);
    EXPECT_NE(absent.err.find("<command line>:1: -smtlm_mem_waits is an option of the SystemC engine, which this "
                              "program does not have"),
              std::string::npos)
        << absent.err;
}

// The TLM quantum changes when the Gpu synchronises, never a cycle: quantum 1 and 10000.
TEST(SmsimEquivalence, QuantumOneAndTenThousandGiveTheSameCycles)
{
    const smtlm_engine *const engines[] = {smtlm_systemc_engine()};
    const std::vector<std::string> base = {"-smtlm_synth_mix", "sp=50,ldg=50", "-smtlm_synth_insts", "300"};
    std::vector<std::string> q1 = base, q10k = base;
    q1.insert(q1.end(), {"-smtlm_quantum_cycles", "1"});
    q10k.insert(q10k.end(), {"-smtlm_quantum_cycles", "10000"});
    const e2e::Result c = e2e::smsim(base); // the C engine, for reference
    const e2e::Result a = e2e::smsim(q1, engines, 1);
    ASSERT_EQ(a.status, 0) << a.err;
    EXPECT_EQ(without_wall_clock(a.out), without_wall_clock(c.out));
    // a second SystemC elaboration is not possible in this process: compare the other quantum
    // against the C engine in its own test
}

TEST(SmsimEquivalence, QuantumTenThousandGivesTheSameCycles)
{
    const smtlm_engine *const engines[] = {smtlm_systemc_engine()};
    const std::vector<std::string> base = {"-smtlm_synth_mix", "sp=50,ldg=50", "-smtlm_synth_insts", "300"};
    std::vector<std::string> q = base;
    q.insert(q.end(), {"-smtlm_quantum_cycles", "10000"});
    const e2e::Result c = e2e::smsim(base);
    const e2e::Result a = e2e::smsim(q, engines, 1);
    ASSERT_EQ(a.status, 0) << a.err;
    EXPECT_EQ(without_wall_clock(a.out), without_wall_clock(c.out));
}

} // namespace
