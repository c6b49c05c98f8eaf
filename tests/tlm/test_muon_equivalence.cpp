// Equivalence of the two engines in muon mode: smsim with -smtlm_engine c and with
// -smtlm_engine systemc (MuonSm: MuonIssue, MuonCollector, MuonWriteback on TLM sockets) on the
// same input must print the same statistics (all but the wall-clock lines), write the same
// JSON (its "muon" sections included), CSV and per-instruction event log, report the same
// errors and exit with the same status. The inputs cover every Muon option value: the four WAR
// options, counter width, past-WAW, RS entries and per-warp limit, the three dispatch policies,
// in-order issue, forwarding, the five collector strategies with PRF banks and collector
// entries, both configs, the option2 deadlock and a refused option. One case per process.
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
    const std::string lud = e2e::data("traces/lud/kernelslist.g");
    const std::string rtl = e2e::project_config("muon-rtl.config"), design = e2e::project_config("muon.config");
    const std::vector<std::string> mix = {"-smtlm_mode", "muon", "-smtlm_synth_mix", "sp=40,int=20,sfu=10,ldg=20,ldst=10",
                                          "-smtlm_synth_insts", "200"};
    auto on_mix = [&](std::vector<std::string> extra) {
        std::vector<std::string> a = mix;
        a.insert(a.end(), extra.begin(), extra.end());
        return a;
    };
    return {
        {"muon_rtl_lud", {"-config", rtl, "-trace", lud}},
        {"muon_design_lud", {"-config", design, "-trace", lud}},
        {"muon_design_synthetic", {"-config", design, "-smtlm_synth_warps", "8", "-smtlm_synth_insts", "300"}},
        {"option1_duplicated", on_mix({"-smtlm_muon_war", "option1"})},
        {"option2_fwd_src_banked",
         on_mix({"-smtlm_muon_war", "option2_fwd", "-smtlm_muon_forwarding", "1", "-smtlm_muon_collector", "src_banked",
                 "-smtlm_muon_prf_banks", "4", "-smtlm_muon_collector_entries", "4"})},
        {"option2_epoch_caching",
         on_mix({"-smtlm_muon_war", "option2_epoch", "-smtlm_muon_forwarding", "1", "-smtlm_muon_collector", "caching",
                 "-smtlm_muon_prf_banks", "8", "-smtlm_muon_collector_entries", "4"})},
        {"inst_banked_fu_banks_oldest",
         on_mix({"-smtlm_muon_collector", "inst_banked", "-smtlm_muon_prf_banks", "4", "-smtlm_muon_collector_entries", "4",
                 "-smtlm_muon_collector_banks", "2", "-smtlm_muon_rs_policy", "oldest"})},
        {"src_banked_two_slot_banks",
         on_mix({"-smtlm_muon_collector", "src_banked", "-smtlm_muon_prf_banks", "2", "-smtlm_muon_collector_entries", "2",
                 "-smtlm_muon_collector_banks", "2"})},
        {"min_banked_gto_in_order",
         on_mix({"-smtlm_muon_collector", "min_banked", "-smtlm_muon_prf_banks", "2", "-smtlm_muon_collector_entries", "1",
                 "-smtlm_muon_rs_policy", "gto", "-smtlm_muon_in_order", "1", "-smtlm_muon_rs_entries", "48"})},
        {"past_waw_per_warp_two_bit_counters",
         on_mix({"-smtlm_muon_past_waw", "1", "-smtlm_muon_rs_entries", "16", "-smtlm_muon_rs_per_warp", "2",
                 "-smtlm_muon_pending_read_bits", "2", "-smtlm_synth_regs", "6"})},
        {"option2_deadlock",
         on_mix({"-smtlm_muon_war", "option2", "-smtlm_muon_forwarding", "1", "-smtlm_synth_regs", "6",
                 "-smtlm_watchdog_cycles", "3000"})},
        {"refused_option", on_mix({"-smtlm_muon_rs_entries", "0"})},
    };
}

class MuonEquivalence : public ::testing::TestWithParam<Input> {};

TEST_P(MuonEquivalence, BothEnginesGiveIdenticalOutput)
{
    const Input &in = GetParam();
    const smtlm_engine *const engines[] = {smtlm_systemc_engine(), smtlm_c_engine()};
    const std::string dir = e2e::scratch(std::string("muon_equiv_") + in.name);
    auto run = [&](const std::string &engine) {
        const std::string base = dir + "/" + engine;
        std::vector<std::string> a = in.args;
        a.insert(a.end(), {"-smtlm_engine", engine, "-smtlm_stats_json", base + ".json", "-smtlm_event_log", base + ".events",
                           "-smtlm_stats_csv", base + ".csv"});
        return e2e::smsim(a, engines, 2);
    };
    const e2e::Result c = run("c"), s = run("systemc");
    EXPECT_EQ(c.status, s.status);
    EXPECT_EQ(without_wall_clock(c.out), without_wall_clock(s.out));
    EXPECT_EQ(c.err, s.err);
    if (c.status == 2) {
        EXPECT_NE(c.err.find("-smtlm_muon"), std::string::npos) << c.err;
        return;
    }
    EXPECT_NE(c.out.find("gpu_sim_cycle = "), std::string::npos) << c.out;
    const std::string json = read_json(dir + "/c.json");
    EXPECT_NE(json.find("\"muon\":{\"rs\":"), std::string::npos) << "no muon section";
    EXPECT_EQ(json, read_json(dir + "/systemc.json"));
    const std::string events = slurp(dir + "/c.events");
    EXPECT_GT(std::count(events.begin(), events.end(), '\n'), 50) << "too few instructions retired";
    EXPECT_TRUE(events == slurp(dir + "/systemc.events")) << "the per-instruction event logs differ";
    EXPECT_TRUE(slurp(dir + "/c.csv") == slurp(dir + "/systemc.csv")) << "the CSV files differ";
}

INSTANTIATE_TEST_SUITE_P(Inputs, MuonEquivalence, ::testing::ValuesIn(inputs()),
                         [](const ::testing::TestParamInfo<Input> &i) { return std::string(i.param.name); });

} // namespace
