// Configuring a Gpu in a virtual platform: GpuConfig from smsim's option text, and named
// per-instance parameters (presets "<instance>.<option>" from code, a VP's command line and a
// preset file) taken by Gpu(name, kernels); listing them; SC_REPORT_ERROR("smtlm/config") for an
// unknown parameter, a bad value and a preset nothing took.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "scratch_files.hpp"
#include "smsim_run.hpp"
#include "smtlm/tlm/gpu.h"
#include "smtlm/tlm/gpu_config.h"
#include "smtlm/tlm/memory.h"
#include "smtlm/tlm/router.h"
#include "smtlm/tlm/trace_kernels.h"

extern "C" {
#include "smtlm/engine_config.h"
}

namespace {

std::string write_file(const std::string &dir, const std::string &name, const std::string &text)
{
    const std::string path = dir + "/" + name;
    std::ofstream(path) << text;
    return path;
}

// A Gpu built from the presets under its name, running its kernel list on a memory with the
// latency its configuration gives.
struct Node {
    smtlm::GpuConfig cfg;
    std::unique_ptr<smtlm::TraceKernels> kernels;
    std::unique_ptr<smtlm::Gpu> gpu;
    std::unique_ptr<smtlm::Router> bus;
    std::unique_ptr<smtlm::Memory> dram;
    Node(const std::string &name, const std::string &list)
    {
        EXPECT_EQ(cfg.from_presets(name), "");
        kernels.reset(new smtlm::TraceKernels(list, cfg.lat));
        EXPECT_TRUE(kernels->ok()) << kernels->error();
        gpu.reset(new smtlm::Gpu(name.c_str(), kernels.get()));
        bus.reset(new smtlm::Router((name + "_bus").c_str()));
        dram.reset(new smtlm::Memory((name + "_dram").c_str(), gpu->config()->mem_latency));
        for (unsigned i = 0; i < gpu->n_sm(); i++)
            gpu->mem_socket(i).bind(bus->in);
        bus->out.bind(dram->socket);
        bus->map(0, ~0ull, 0);
    }
    uint64_t cycles() const
    {
        uint32_t lo = 0, hi = 0;
        EXPECT_TRUE(gpu->read_reg(smtlm::reg::CYCLES, &lo));
        EXPECT_TRUE(gpu->read_reg(smtlm::reg::CYCLES + 4, &hi));
        return (uint64_t)hi << 32 | lo;
    }
};

// Starts kernel 0 of every Gpu from a thread of its own.
struct Starter : sc_core::sc_module {
    std::vector<smtlm::Gpu *> gpus;
    SC_HAS_PROCESS(Starter);
    Starter(sc_core::sc_module_name n, std::vector<smtlm::Gpu *> g) : sc_core::sc_module(n), gpus(std::move(g))
    {
        SC_THREAD(run);
    }
    void run()
    {
        for (smtlm::Gpu *g : gpus)
            EXPECT_EQ(g->start_kernel(0), SMTLM_OK);
    }
};

// The report a callable raised: its id and message ("" when none).
template <class F> std::pair<std::string, std::string> report_of(F f)
{
    try {
        f();
    } catch (const sc_core::sc_report &r) {
        return {r.get_msg_type(), r.get_msg()};
    }
    return {"", ""};
}

std::string vectoradd() { return e2e::data("traces/vectoradd-100-32-trace/kernelslist.g"); }

// gpu0 takes 4 clusters from a preset set in code, gpu1 a config file with 2 clusters and a
// 300-cycle memory. The cycles are the C engine's for the same machines:
//   smsim -smtlm_engine c -trace vectoradd-100-32-trace/kernelslist.g -gpgpu_n_clusters 4  -> 5677
//   smsim -smtlm_engine c -trace vectoradd-100-32-trace/kernelslist.g -config <gpu1.config> -> 5797
// (checked again below by running smsim).
TEST(GpuParams, TwoGpusWithTheirOwnPresetsGetTheirOwnMachines)
{
    const std::string dir = e2e::fresh_dir("gpu_params_two");
    const std::string g1 = write_file(dir, "gpu1.config", "-gpgpu_n_clusters 2\n-smtlm_mem_latency 300\n");
    smtlm::param_broker().set_preset("gpu0.gpgpu_n_clusters", "4");
    smtlm::param_broker().set_preset("gpu1.config", g1);
    Node n0("gpu0", vectoradd()), n1("gpu1", vectoradd());
    EXPECT_EQ(n0.gpu->n_sm(), 4u);
    EXPECT_EQ(n1.gpu->n_sm(), 2u);
    EXPECT_EQ(n0.gpu->config()->mem_latency, n0.gpu->config()->period * 240.0);
    EXPECT_EQ(n1.gpu->config()->mem_latency, n1.gpu->config()->period * 300.0);
    Starter s("starter", {n0.gpu.get(), n1.gpu.get()});
    sc_core::sc_start();
    EXPECT_EQ(n0.cycles(), 5677u);
    EXPECT_EQ(n1.cycles(), 5797u);
    const e2e::Result r0 = e2e::smsim({"-trace", vectoradd(), "-smtlm_engine", "c", "-gpgpu_n_clusters", "4"});
    const e2e::Result r1 = e2e::smsim({"-trace", vectoradd(), "-smtlm_engine", "c", "-config", g1});
    EXPECT_EQ(r0.stat("gpu_tot_sim_cycle"), 5677) << r0.err;
    EXPECT_EQ(r1.stat("gpu_tot_sim_cycle"), 5797) << r1.err;
}

TEST(GpuParams, PresetFileAndCommandLine)
{
    const std::string dir = e2e::fresh_dir("gpu_params_file");
    const std::string f = write_file(dir, "vp.params",
                                     "# two GPUs\n\ngpu0.gpgpu_n_clusters = 4   # four\n  top.gpu1.smtlm_quantum_cycles=100\n");
    smtlm::Parameters p;
    EXPECT_EQ(p.read_file(f), "");
    ASSERT_EQ(p.presets().size(), 2u);
    EXPECT_EQ(p.presets()[0].name, "gpu0.gpgpu_n_clusters");
    EXPECT_EQ(p.presets()[0].value, "4");
    EXPECT_EQ(p.presets()[0].line, 3);
    EXPECT_EQ(p.presets()[1].name, "top.gpu1.smtlm_quantum_cycles");
    EXPECT_EQ(p.presets()[1].value, "100");
    EXPECT_EQ(p.presets()[1].where, f);
    EXPECT_EQ(p.presets()[1].line, 4);

    const char *args[] = {"vp", "a.g", "gpu0.gpgpu_n_clusters=2", "--param", "gpu1.config=x.config", "./b=c", "-x", "1",
                          nullptr};
    std::vector<char *> argv;
    for (const char *a : args)
        argv.push_back(const_cast<char *>(a));
    int argc = 8;
    EXPECT_EQ(p.take_args(&argc, argv.data()), "");
    ASSERT_EQ(argc, 5);
    EXPECT_STREQ(argv[1], "a.g");
    EXPECT_STREQ(argv[2], "./b=c"); // not a NAME: a path stays
    EXPECT_STREQ(argv[4], "1");
    EXPECT_EQ(argv[5], nullptr);
    ASSERT_EQ(p.presets().size(), 3u);
    EXPECT_EQ(p.presets()[0].value, "2"); // replaced in place
    EXPECT_EQ(p.presets()[0].where, "<command line>");
    EXPECT_EQ(p.presets()[0].line, 2);
    EXPECT_EQ(p.presets()[2].name, "gpu1.config");
    EXPECT_EQ(p.presets()[2].line, 4);

    const char *bad[] = {"vp", "--param", "nodot=1", nullptr};
    argc = 3;
    EXPECT_EQ(p.take_args(&argc, const_cast<char **>(bad)).rfind("<command line>:2: --param takes NAME=VALUE", 0), 0u);
    const std::string g = write_file(dir, "bad.params", "gpu0.gpgpu_n_clusters = 4\ngpu0 4\n");
    EXPECT_EQ(p.read_file(g).rfind(g + ":2: 'gpu0 4' is not NAME = VALUE", 0), 0u);
    EXPECT_EQ(p.read_file(dir + "/none").rfind(dir + "/none: cannot open", 0), 0u);
}

struct Top : sc_core::sc_module {
    smtlm::Gpu gpu1;
    Top(sc_core::sc_module_name n) : sc_core::sc_module(n), gpu1("gpu1") {}
};

TEST(GpuParams, ParametersAreListedWithNameValueDescriptionAndAsAttributes)
{
    const std::string dir = e2e::fresh_dir("gpu_params_list");
    const std::string f = write_file(dir, "vp.params", "top.gpu1.smtlm_quantum_cycles = 100\ntop.gpu1.gpgpu_n_clusters = 3\n");
    ASSERT_EQ(smtlm::param_broker().read_file(f), "");
    Top top("top");
    EXPECT_EQ(top.gpu1.quantum_cycles(), 100u);
    EXPECT_EQ(top.gpu1.n_sm(), 3u);
    const std::vector<smtlm::ParamInfo> ps = top.gpu1.parameters();
    const smtlm::ParamInfo *q = nullptr, *c = nullptr, *cfg = nullptr;
    for (const smtlm::ParamInfo &p : ps) {
        if (p.name == "top.gpu1.gpgpu_n_clusters")
            c = &p;
        if (p.name == "top.gpu1.smtlm_quantum_cycles")
            q = &p;
        if (p.name == "top.gpu1.config")
            cfg = &p;
        EXPECT_NE(p.name, "top.gpu1.trace"); // smsim's own options are not a Gpu's
    }
    ASSERT_TRUE(q && c && cfg);
    EXPECT_EQ(c->value, "3");
    EXPECT_EQ(c->origin, f + ":2");
    EXPECT_EQ(c->description, smtlm_option_lookup("gpgpu_n_clusters")->desc);
    EXPECT_EQ(q->value, "100");
    EXPECT_EQ(cfg->value, "");
    std::ostringstream os;
    smtlm::print_parameters(os, ps);
    EXPECT_NE(os.str().find("top.gpu1.gpgpu_n_clusters = 3  # " + std::string(c->description) + " [" + f + ":2]\n"),
              std::string::npos);
    // the same through SystemC's attributes
    const auto *a = dynamic_cast<const sc_core::sc_attribute<std::string> *>(top.gpu1.get_attribute("gpgpu_n_clusters"));
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->value, "3");
    EXPECT_EQ(top.gpu1.attr_cltn().size(), ps.size());
}

TEST(GpuParams, UnknownParameterIsAConfigError)
{
    smtlm::param_broker().set_preset("gpu0.gpgpu_n_clustrs", "4");
    const auto r = report_of([] { smtlm::Gpu g("gpu0"); });
    EXPECT_EQ(r.first, "smtlm/config");
    EXPECT_EQ(r.second, "<api>:0: gpu0.gpgpu_n_clustrs: unknown option -gpgpu_n_clustrs (did you mean -gpgpu_n_clusters?)");
}

TEST(GpuParams, BadValueIsAConfigErrorWithItsLine)
{
    const std::string dir = e2e::fresh_dir("gpu_params_bad");
    const std::string f = write_file(dir, "vp.params", "# machine\ngpu0.gpgpu_n_clusters = four\n");
    ASSERT_EQ(smtlm::param_broker().read_file(f), "");
    const auto r = report_of([] { smtlm::Gpu g("gpu0"); });
    EXPECT_EQ(r.first, "smtlm/config");
    EXPECT_EQ(r.second, f + ":2: gpu0.gpgpu_n_clusters: bad value 'four' for -gpgpu_n_clusters (expects an unsigned integer)");
    // smsim's own options are not parameters
    smtlm::param_broker().clear();
    smtlm::param_broker().set_preset("gpu1.trace", "k.g");
    EXPECT_EQ(report_of([] { smtlm::Gpu g("gpu1"); }).second.rfind("<api>:0: gpu1.trace: -trace is smsim's", 0), 0u);
}

// Every preset nothing took is reported when the simulation starts, whatever it names: a Gpu
// built before it was set, no module at all, or another module that did not take it (one that
// did, with take(), is not).
TEST(GpuParams, APresetNothingTookIsAConfigErrorAtTheStartOfSimulation)
{
    Node n("gpu0", vectoradd());
    smtlm::param_broker().set_preset("gpu0.gpgpu_n_clusters", "2", "late.params", 7); // after gpu0 was built
    smtlm::param_broker().set_preset("gpu7.gpgpu_n_clusters", "2");                   // no such module
    smtlm::param_broker().set_preset("gpu0_bus.anything", "1");                       // another module's, not taken
    smtlm::param_broker().set_preset("gpu0_dram.size", "4096");                       // another module's, taken
    EXPECT_EQ(smtlm::param_broker().take("gpu0_dram.size")->value, "4096");
    const auto r = report_of([] { sc_core::sc_start(); });
    EXPECT_EQ(r.first, "smtlm/config");
    EXPECT_EQ(r.second, "presets nothing took:\n"
                        "late.params:7: gpu0.gpgpu_n_clusters = 2: no Gpu took it (set after gpu0 was built, or gpu0 "
                        "was not built with Gpu(name, kernels))\n"
                        "<api>:0: gpu7.gpgpu_n_clusters = 2: there is no module gpu7\n"
                        "<api>:0: gpu0_bus.anything = 1: nothing took it (gpu0_bus is not a Gpu, and did not take it "
                        "with param_broker().take())");
}

// What GpuConfig builds is what smsim hands its engine (smtlm_engine_config +
// smtlm_engine_params_config), in SystemC terms.
TEST(GpuParams, GpuConfigFromOptionTextIsWhatSmsimsEngineGets)
{
    const std::vector<const char *> argv = {"vp", "-gpgpu_clock_domains", "1000.0:1000.0:1000.0:1000.0",
                                            "-smtlm_quantum_cycles", "100", "-smtlm_addr_map",
                                            "0x1000:0x100:0x80000000,4096:16:0", "-smtlm_tlm_dmi", "0",
                                            "-smtlm_mem_real_access", "1", "-gpgpu_n_clusters", "6"};
    smtlm::GpuConfig c;
    ASSERT_EQ(c.from_argv((int)argv.size(), argv.data()), "");
    smtlm_options *o = smtlm_options_new();
    char err[512];
    ASSERT_EQ(smtlm_options_parse_argv(o, (int)argv.size(), argv.data(), err, sizeof err), SMTLM_OPT_OK);
    smtlm_run_cfg rc;
    smtlm_engine_params p;
    ASSERT_EQ(smtlm_engine_config(o, &rc, err, sizeof err), 0) << err;
    ASSERT_EQ(smtlm_engine_params_config(o, rc.core_clock_mhz, &p, err, sizeof err), 0) << err;
    smtlm_options_free(o);
    EXPECT_EQ(c.period, sc_core::sc_time(1000, sc_core::SC_PS));
    EXPECT_EQ(c.mem_latency, sc_core::sc_time(240 * 1000, sc_core::SC_PS));
    EXPECT_EQ(smtlm_gpu_num_sms(&c.gpu), 6u);
    EXPECT_EQ(smtlm_gpu_num_sms(&c.gpu), smtlm_gpu_num_sms(&rc.gpu));
    EXPECT_EQ(c.gpu.mem_latency, rc.gpu.mem_latency);
    EXPECT_EQ(c.core_clock_mhz, 1000.0);
    EXPECT_EQ(c.params.quantum_cycles, 100u);
    EXPECT_EQ(c.params.quantum_cycles, p.quantum_cycles);
    EXPECT_FALSE(c.params.stage_dmi);
    EXPECT_TRUE(c.params.real_access);
    ASSERT_EQ(c.params.addr_map.size(), 2u);
    ASSERT_EQ(p.n_map, 2u);
    for (unsigned i = 0; i < 2; i++) {
        EXPECT_EQ(c.params.addr_map[i].trace_base, p.map[i].trace_base);
        EXPECT_EQ(c.params.addr_map[i].size, p.map[i].size);
        EXPECT_EQ(c.params.addr_map[i].soc_base, p.map[i].soc_base);
    }
    EXPECT_EQ(c.params.addr_map[0].trace_base, 0x1000u);
    EXPECT_EQ(c.params.addr_map[0].soc_base, 0x80000000u);
    EXPECT_EQ(c.params.addr_map[1].size, 16u);

    // the same messages as smsim's
    const std::vector<const char *> bad = {"vp", "-smtlm_addr_map", "1:0:2"};
    EXPECT_EQ(c.from_argv((int)bad.size(), bad.data()).rfind("<command line>:1: -smtlm_addr_map: '1:0:2' is not", 0), 0u);
    const std::vector<const char *> threads = {"vp", "-smtlm_threads", "2"};
    EXPECT_EQ(c.from_argv((int)threads.size(), threads.data()),
              "<command line>:1: -smtlm_threads 2: the SystemC engine runs on one thread (use -smtlm_engine c for more)");
    EXPECT_EQ(c.from_text("\n-gpgpu_n_clusters x\n", "my.config"),
              "my.config:2: bad value 'x' for -gpgpu_n_clusters (expects an unsigned integer)");
}

// What print_parameters writes reads back (Parameters::read_file) as the same parameters, GPGPU-Sim's
// option names with ':' (gpgpu_cache:dl1) and an empty `config` included, and builds the same
// machine: every value the same, the configuration from_presets gives the Gpu's.
TEST(GpuParams, PrintedParametersReadBackAsTheSameMachine)
{
    const std::string dir = e2e::fresh_dir("gpu_params_readback");
    smtlm::param_broker().set_preset("top.gpu1.gpgpu_n_clusters", "3");
    smtlm::param_broker().set_preset("top.gpu1.gpgpu_cache:dl1", "N:64:128:6,L:L:m:N:H,A:128:8,8");
    smtlm::param_broker().set_preset("top.gpu1.smtlm_sm_windows", "0");
    Top top("top");
    const std::vector<smtlm::ParamInfo> ps = top.gpu1.parameters();
    const std::string printed = dir + "/printed.params";
    {
        std::ofstream f(printed);
        smtlm::print_parameters(f, ps);
    }
    smtlm::Parameters back;
    ASSERT_EQ(back.read_file(printed), "");
    ASSERT_EQ(back.presets().size(), ps.size());
    for (const smtlm::ParamInfo &p : ps) {
        const smtlm::Parameters::Preset *b = back.find(p.name);
        ASSERT_NE(b, nullptr) << p.name;
        EXPECT_EQ(b->value, p.value) << p.name;
    }
    EXPECT_EQ(back.find("top.gpu1.gpgpu_cache:dl1")->value, "N:64:128:6,L:L:m:N:H,A:128:8,8");
    // the same machine, built from what was read back
    smtlm::param_broker().clear();
    ASSERT_EQ(smtlm::param_broker().read_file(printed), "");
    smtlm::GpuConfig c;
    ASSERT_EQ(c.from_presets("top.gpu1"), "");
    const smtlm::GpuConfig &orig = *top.gpu1.config();
    EXPECT_EQ(smtlm_gpu_num_sms(&c.gpu), 3u);
    EXPECT_EQ(0, std::memcmp(&c.gpu, &orig.gpu, sizeof c.gpu));
    EXPECT_EQ(c.period, orig.period);
    EXPECT_EQ(c.params.sm_windows, smtlm::SmWindows::Off);
    smtlm::param_broker().clear(); // nothing left over at the start of simulation
}

// A relative `config` in a preset file is read from the file's directory (as a nested -config is
// read from its includer's), whatever the working directory; the Gpu lists it as an absolute
// path. One set from code stays relative to the working directory.
TEST(GpuParams, ARelativeConfigInAPresetFileIsBesideTheFile)
{
    const std::string dir = e2e::fresh_dir("gpu_params_relative");
    write_file(dir, "machine.config", "-gpgpu_n_clusters 3\n");
    const std::string f = write_file(dir, "vp.params", "gpu0.config = machine.config\n");
    ASSERT_NE(dir.rfind('/'), std::string::npos);
    ASSERT_EQ(smtlm::param_broker().read_file(f), "");
    smtlm::GpuConfig c;
    ASSERT_EQ(c.from_presets("gpu0"), "");
    EXPECT_EQ(smtlm_gpu_num_sms(&c.gpu), 3u);
    smtlm::Gpu gpu("gpu0");
    EXPECT_EQ(gpu.n_sm(), 3u);
    std::string listed;
    for (const smtlm::ParamInfo &p : gpu.parameters())
        if (p.name == "gpu0.config")
            listed = p.value;
    EXPECT_EQ(listed, std::filesystem::absolute(dir + "/machine.config").lexically_normal().string());
    smtlm::param_broker().set_preset("gpu1.config", "machine.config"); // from code: the working directory's
    EXPECT_NE(c.from_presets("gpu1").find("machine.config"), std::string::npos);
}

} // namespace
