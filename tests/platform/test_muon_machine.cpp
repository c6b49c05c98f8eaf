// The Muon machine options (platform/lib/src/muon_machine.c): defaults, the project's two Muon
// configs, and one precise error per impossible value, naming where it was set.
#include <gtest/gtest.h>

#include <string>
#include <vector>

extern "C" {
#include "smtlm/muon_machine.h"
#include "smtlm/options.h"
}

namespace {

const std::string kConfigs = SMTLM_CONFIGS_DIR;

struct Machine {
    smtlm_options *o = smtlm_options_new();
    smtlm_muon_machine m{};
    char err[512] = "";
    Machine() = default;
    Machine(const Machine &) = delete;
    Machine &operator=(const Machine &) = delete;
    ~Machine() { smtlm_options_free(o); }
    // Parses args as a command line; returns what the machine reader returns.
    int read(std::vector<const char *> args)
    {
        args.insert(args.begin(), "smsim");
        EXPECT_EQ(smtlm_options_parse_argv(o, (int)args.size(), args.data(), err, sizeof err), SMTLM_OPT_OK) << err;
        return smtlm_muon_machine_read(o, &m, err, sizeof err);
    }
    void expect_error(std::vector<const char *> args, const std::string &where, const std::string &what)
    {
        EXPECT_EQ(read(args), -1);
        EXPECT_NE(std::string(err).find(where), std::string::npos) << err;
        EXPECT_NE(std::string(err).find(what), std::string::npos) << err;
    }
};

const char *const kMuonOptions[] = {
    "smtlm_muon_war",       "smtlm_muon_pending_read_bits", "smtlm_muon_past_waw",   "smtlm_muon_rs_entries",
    "smtlm_muon_rs_per_warp", "smtlm_muon_rs_policy",       "smtlm_muon_in_order",   "smtlm_muon_forwarding",
    "smtlm_muon_phys_regs", "smtlm_muon_threads",           "smtlm_muon_xlen",       "smtlm_muon_collector",
    "smtlm_muon_prf_banks", "smtlm_muon_collector_entries",
};

TEST(MuonMachine, DefaultsAreWhatTheRtlBuilds)
{
    Machine d;
    ASSERT_EQ(d.read({}), 0) << d.err;
    EXPECT_EQ(d.m.war, SMTLM_MUON_OPT_WAR_OPTION1);
    EXPECT_EQ(d.m.pending_read_bits, 3u);
    EXPECT_EQ(d.m.rs_entries, 8u);
    EXPECT_EQ(d.m.rs_policy, SMTLM_MUON_OPT_POLICY_RR);
    EXPECT_EQ(d.m.forwarding, 0);
    EXPECT_EQ(d.m.collector, SMTLM_MUON_OPT_COLL_DUPLICATED);
    EXPECT_EQ(d.m.prf_banks, 1u);
    EXPECT_EQ(d.m.collector_entries, 2u);
    EXPECT_EQ(d.m.warps, 64u); // the built-in QV100's 2048 threads
    // configs/muon-rtl.config writes every Muon option out: each equals its default
    Machine rtl;
    ASSERT_EQ(rtl.read({"-config", (kConfigs + "/muon-rtl.config").c_str()}), 0) << rtl.err;
    for (const char *name : kMuonOptions) {
        char a[128], b[128];
        ASSERT_EQ(smtlm_options_value_text(d.o, name, a, sizeof a), SMTLM_OPT_OK) << name;
        ASSERT_EQ(smtlm_options_value_text(rtl.o, name, b, sizeof b), SMTLM_OPT_OK) << name;
        EXPECT_STREQ(a, b) << name;
        EXPECT_TRUE(smtlm_options_is_set(rtl.o, name)) << name;
    }
    EXPECT_EQ(rtl.m.warps, 8u);
}

TEST(MuonMachine, TheDesignConfig)
{
    Machine d;
    ASSERT_EQ(d.read({"-config", (kConfigs + "/muon.config").c_str()}), 0) << d.err;
    EXPECT_EQ(d.m.war, SMTLM_MUON_OPT_WAR_OPTION2_EPOCH);
    EXPECT_EQ(d.m.pending_read_bits, 2u);
    EXPECT_EQ(d.m.rs_entries, 16u);
    EXPECT_EQ(d.m.rs_per_warp, 2u);
    EXPECT_EQ(d.m.warps, 8u);
    EXPECT_EQ(d.m.forwarding, 1);
    EXPECT_EQ(d.m.phys_regs, 256u);
    EXPECT_EQ(d.m.threads, 16u);
    EXPECT_EQ(d.m.xlen, 32u);
    EXPECT_EQ(d.m.prf_banks, 8u);
    EXPECT_EQ(d.m.collector, SMTLM_MUON_OPT_COLL_SRC_BANKED);
    smtlm_muon_cost_cfg c;
    smtlm_muon_machine_cost_cfg(&d.m, &c);
    EXPECT_EQ(c.epochs, 1);
    EXPECT_EQ(c.rs_data, 1);
    EXPECT_EQ(c.prf_copies, 1u);
    EXPECT_EQ(c.collector_tags, 0);
    EXPECT_EQ(c.warps, 8u);
}

TEST(MuonMachine, CollectorStrategiesMapToTheCostModel)
{
    struct Case {
        const char *name;
        smtlm_muon_opt_collector kind;
        unsigned copies;
        int tags;
    } cases[] = {{"duplicated", SMTLM_MUON_OPT_COLL_DUPLICATED, 3, 0}, {"src_banked", SMTLM_MUON_OPT_COLL_SRC_BANKED, 1, 0},
                 {"inst_banked", SMTLM_MUON_OPT_COLL_INST_BANKED, 1, 0}, {"min_banked", SMTLM_MUON_OPT_COLL_MIN_BANKED, 1, 0},
                 {"caching", SMTLM_MUON_OPT_COLL_CACHING, 1, 1}};
    for (const Case &k : cases) {
        Machine d;
        ASSERT_EQ(d.read({"-smtlm_muon_collector", k.name}), 0) << d.err;
        EXPECT_EQ(d.m.collector, k.kind);
        EXPECT_STREQ(smtlm_muon_collector_name(d.m.collector), k.name);
        smtlm_muon_cost_cfg c;
        smtlm_muon_machine_cost_cfg(&d.m, &c);
        EXPECT_EQ(c.prf_copies, k.copies) << k.name;
        EXPECT_EQ(c.collector_tags, k.tags) << k.name;
    }
    EXPECT_STREQ(smtlm_muon_opt_war_name(SMTLM_MUON_OPT_WAR_OPTION2_FWD), "option2_fwd");
    EXPECT_STREQ(smtlm_muon_policy_name(SMTLM_MUON_OPT_POLICY_GTO), "gto");
}

TEST(MuonMachine, OutOfRangeValuesNameTheOptionAndWhereItWasSet)
{
    Machine a, b, c, d, e, f, g, h;
    a.expect_error({"-smtlm_muon_pending_read_bits", "0"}, "<command line>:1: -smtlm_muon_pending_read_bits", "outside 1..8");
    b.expect_error({"-smtlm_muon_pending_read_bits", "9"}, "<command line>:1", "outside 1..8");
    c.expect_error({"-smtlm_muon_rs_entries", "65"}, "-smtlm_muon_rs_entries", "outside 1..64");
    d.expect_error({"-smtlm_muon_threads", "0"}, "-smtlm_muon_threads", "outside 1..64");
    e.expect_error({"-smtlm_muon_xlen", "48"}, "-smtlm_muon_xlen", "32 or 64");
    f.expect_error({"-smtlm_muon_prf_banks", "65"}, "-smtlm_muon_prf_banks", "outside 1..64");
    g.expect_error({"-smtlm_muon_collector_entries", "0"}, "-smtlm_muon_collector_entries", "outside 1..64");
    h.expect_error({"-smtlm_muon_phys_regs", "70000"}, "-smtlm_muon_phys_regs", "outside 1..65536");
}

TEST(MuonMachine, ConflictsBlameTheOptionSetLast)
{
    Machine a, b, c, d, e, f;
    a.expect_error({"-smtlm_muon_rs_entries", "4", "-smtlm_muon_rs_per_warp", "5"}, "<command line>:3: -smtlm_muon_rs_per_warp",
                   "5 RS entries per warp exceed the 4 entries");
    b.expect_error({"-smtlm_muon_rs_per_warp", "5", "-smtlm_muon_rs_entries", "4"}, "<command line>:3: -smtlm_muon_rs_entries",
                   "exceed");
    // 8 RS entries for 16 warps (512 threads / 32)
    c.expect_error({"-gpgpu_shader_core_pipeline", "512:32", "-smtlm_muon_in_order", "1"}, "<command line>:3: -smtlm_muon_in_order",
                   "8 entries for 16 warps");
    d.expect_error({"-smtlm_muon_prf_banks", "8", "-smtlm_muon_phys_regs", "250"}, "<command line>:3: -smtlm_muon_phys_regs",
                   "8 banks do not split 250 registers");
    e.expect_error({"-smtlm_muon_phys_regs", "250", "-smtlm_muon_prf_banks", "8"}, "<command line>:3: -smtlm_muon_prf_banks",
                   "do not split");
    f.expect_error({"-smtlm_muon_war", "option2_fwd"}, "<command line>:1: -smtlm_muon_war", "needs -smtlm_muon_forwarding 1");
    Machine ok;
    EXPECT_EQ(ok.read({"-smtlm_muon_war", "option2_fwd", "-smtlm_muon_forwarding", "1"}), 0) << ok.err;
}

TEST(MuonMachine, StringsOutsideTheirChoicesAreRefusedWhenRead)
{
    struct Case {
        const char *name, *value;
    } cases[] = {{"smtlm_muon_war", "option3"}, {"smtlm_muon_rs_policy", "lrr"}, {"smtlm_muon_collector", "banked"}};
    for (const Case &k : cases) {
        smtlm_options *o = smtlm_options_new();
        char err[256] = "";
        std::string flag = std::string("-") + k.name;
        const char *argv[] = {"smsim", flag.c_str(), k.value};
        EXPECT_EQ(smtlm_options_parse_argv(o, 3, argv, err, sizeof err), SMTLM_OPT_E_BAD_VALUE) << k.name;
        EXPECT_NE(std::string(err).find("expects one of"), std::string::npos) << err;
        smtlm_options_free(o);
    }
}

TEST(MuonMachine, OptionTableRows)
{
    struct Want {
        const char *name;
        smtlm_opt_type type;
        const char *def, *choices;
    } want[] = {
        {"smtlm_muon_war", SMTLM_OPT_STRING, "option1", "option1|option2|option2_fwd|option2_epoch"},
        {"smtlm_muon_pending_read_bits", SMTLM_OPT_UINT32, "3", nullptr},
        {"smtlm_muon_past_waw", SMTLM_OPT_BOOL, "0", nullptr},
        {"smtlm_muon_rs_entries", SMTLM_OPT_UINT32, "8", nullptr},
        {"smtlm_muon_rs_per_warp", SMTLM_OPT_UINT32, "0", nullptr},
        {"smtlm_muon_rs_policy", SMTLM_OPT_STRING, "rr", "rr|oldest|gto"},
        {"smtlm_muon_in_order", SMTLM_OPT_BOOL, "0", nullptr},
        {"smtlm_muon_forwarding", SMTLM_OPT_BOOL, "0", nullptr},
        {"smtlm_muon_phys_regs", SMTLM_OPT_UINT32, "256", nullptr},
        {"smtlm_muon_threads", SMTLM_OPT_UINT32, "16", nullptr},
        {"smtlm_muon_xlen", SMTLM_OPT_UINT32, "32", nullptr},
        {"smtlm_muon_collector", SMTLM_OPT_STRING, "duplicated", "duplicated|src_banked|inst_banked|min_banked|caching"},
        {"smtlm_muon_prf_banks", SMTLM_OPT_UINT32, "1", nullptr},
        {"smtlm_muon_collector_entries", SMTLM_OPT_UINT32, "2", nullptr},
        {"smtlm_analytic_banks", SMTLM_OPT_UINT32, "0", nullptr},
        {"smtlm_analytic_entries", SMTLM_OPT_UINT32, "0", nullptr},
        {"smtlm_cost_report", SMTLM_OPT_BOOL, "0", nullptr},
    };
    for (const Want &w : want) {
        const smtlm_option_def *d = smtlm_option_lookup(w.name);
        ASSERT_NE(d, nullptr) << w.name;
        EXPECT_EQ(d->type, w.type) << w.name;
        EXPECT_STREQ(d->def, w.def) << w.name;
        EXPECT_EQ(d->modelled, 1) << w.name;
        if (w.choices) {
            EXPECT_STREQ(d->choices, w.choices) << w.name;
        } else {
            EXPECT_EQ(d->choices, nullptr) << w.name;
        }
    }
}

} // namespace
