// Equivalence of the two engines with the silicon core: smsim with -smtlm_engine c and with
// -smtlm_engine systemc (SiliconSm: SiliconIssue and LdSt on TLM sockets) on the same input must
// print the same statistics (all but the wall-clock lines), write the same JSON, CSV and
// per-instruction event log, report the same errors and exit with the same status. The inputs:
// kit traces with their listings (barriers with stall 1, shared-memory wavefronts of 4 warps,
// two warps per sub-core, the reuse caches), a trace without a listing (the bits derived) and
// the synthetic workload with global loads and stores (the LDST). One case per process.
#include <gtest/gtest.h>

#include <algorithm>

#include "smsim_outputs.hpp"
#include "smsim_run.hpp"
#include "smtlm/tlm/systemc_engine.h"

namespace {

using equiv::Input;
using equiv::read_json;
using equiv::slurp;
using equiv::without_wall_clock;

std::vector<Input> inputs()
{
    const std::string h100 = e2e::project_config("h100.config");
    auto kit = [&](const char *trace) {
        return std::vector<std::string>{"-config", h100, "-trace", e2e::data(std::string("silicon-h100/traces/") + trace + "/kernelslist.g")};
    };
    return {
        {"mufu_chain_stall1", kit("dep_mufu_rcp_n256.stall1.w1")},
        {"lds_conflicts_4_warps", kit("lds_tput_s8_n128.w4")},
        {"banks_8_warps", kit("bank_base_n128.w8")},
        {"reuse_and_yield", kit("ind_dfma_n128.w1")},
        {"derived_bits", {"-config", h100, "-trace", e2e::data("traces/hopper-mini/kernelslist.g")}},
        {"synthetic_memory", {"-config", h100, "-gpgpu_n_clusters", "4", "-smtlm_synth_mix", "sp=40,int=20,sfu=10,ldg=20,ldst=10",
                              "-smtlm_synth_insts", "300", "-smtlm_synth_warps", "16"}},
    };
}

class SiliconEquivalence : public ::testing::TestWithParam<Input> {};

TEST_P(SiliconEquivalence, BothEnginesGiveIdenticalOutput)
{
    const Input &in = GetParam();
    const smtlm_engine *const engines[] = {smtlm_systemc_engine(), smtlm_c_engine()};
    const std::string dir = e2e::scratch(std::string("silicon_equiv_") + in.name);
    auto run = [&](const std::string &engine) {
        const std::string base = dir + "/" + engine;
        std::vector<std::string> a = in.args;
        a.insert(a.end(), {"-smtlm_engine", engine, "-smtlm_stats_json", base + ".json", "-smtlm_event_log", base + ".events",
                           "-smtlm_stats_csv", base + ".csv"});
        return e2e::smsim(a, engines, 2);
    };
    const e2e::Result c = run("c"), s = run("systemc");
    ASSERT_EQ(c.status, 0) << c.err;
    EXPECT_EQ(c.status, s.status);
    EXPECT_EQ(without_wall_clock(c.out), without_wall_clock(s.out));
    EXPECT_EQ(c.err, s.err);
    EXPECT_NE(c.out.find("gpu_sim_cycle = "), std::string::npos) << c.out;
    EXPECT_EQ(read_json(dir + "/c.json"), read_json(dir + "/systemc.json"));
    const std::string events = slurp(dir + "/c.events");
    EXPECT_GT(std::count(events.begin(), events.end(), '\n'), 10) << "too few instructions retired";
    EXPECT_TRUE(events == slurp(dir + "/systemc.events")) << "the per-instruction event logs differ";
    EXPECT_TRUE(slurp(dir + "/c.csv") == slurp(dir + "/systemc.csv")) << "the CSV files differ";
}

INSTANTIATE_TEST_SUITE_P(Inputs, SiliconEquivalence, ::testing::ValuesIn(inputs()),
                         [](const ::testing::TestParamInfo<Input> &i) { return std::string(i.param.name); });

} // namespace
