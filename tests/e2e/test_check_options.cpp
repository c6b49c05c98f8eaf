// -smtlm_check_options 1: every check a run makes before its first cycle (options, config files,
// the engine's configuration, output paths, the kernel list and each kernel's fit), with the
// run's own message, and nothing simulated, written or printed otherwise. smsweep's dry run
// relies on this being silent on success and identical to the run's first error on failure.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include "smsim_run.hpp"

namespace {

bool exists(const std::string &path)
{
    struct stat st;
    return stat(path.c_str(), &st) == 0;
}

std::vector<std::string> with_check(std::vector<std::string> args)
{
    args.push_back("-smtlm_check_options");
    args.push_back("1");
    return args;
}

// A run may print its not-modelled warning before its error, which is its last line.
std::string last_line(const std::string &s)
{
    const size_t p = s.size() < 2 ? std::string::npos : s.rfind('\n', s.size() - 2);
    return p == std::string::npos ? s : s.substr(p + 1);
}

std::string lud() { return e2e::data("traces/lud/kernelslist.g"); }

TEST(CheckOptions, AValidRunIsCheckedSilentlyAndNothingIsWritten)
{
    const std::string dir = e2e::scratch("check_silent");
    const std::string json = dir + "/stats.json", csv = dir + "/k.csv", log = dir + "/events.log";
    std::remove(json.c_str());
    std::remove(csv.c_str());
    std::remove(log.c_str());
    std::vector<std::string> args = e2e::stock("SM7_QV100");
    for (const std::string &a : {std::string("-trace"), lud(), std::string("-smtlm_stats_json"), json,
                                 std::string("-smtlm_stats_csv"), csv, std::string("-smtlm_event_log"), log})
        args.push_back(a);
    e2e::Result r = e2e::smsim(with_check(args));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, ""); // not even the not-modelled warning a run of the stock config prints
    EXPECT_FALSE(exists(json));
    EXPECT_FALSE(exists(csv));
    EXPECT_FALSE(exists(log));
    // the synthetic workload too
    e2e::Result synth = e2e::smsim(with_check({"-gpgpu_num_reg_banks", "8"}));
    EXPECT_EQ(synth.status, 0) << synth.err;
    EXPECT_EQ(synth.out + synth.err, "");
}

// Each bad input fails the check with exactly the message (and status) of the run.
TEST(CheckOptions, EachBadInputGivesTheRunsOwnMessage)
{
    const std::string dir = e2e::scratch("check_bad");
    const std::string typo_cfg = dir + "/typo.config";
    e2e::write_file(typo_cfg, "-gpgpu_num_reg_banks 8\n-gpgpu_num_reg_bnks 8\n");
    const std::vector<std::vector<std::string>> bad = {
        {"-gpgpu_num_reg_bank", "8"},                                   // unknown option, with the nearest name
        {"-gpgpu_num_reg_banks", "eight"},                              // bad value
        {"-gpgpu_num_reg_banks", "7"},                                  // banks over 4 sub-cores
        {"-config", typo_cfg},                                          // a typo at a file's line 2
        {"-trace", e2e::data("no-such/kernelslist.g")},                 // no kernel list
        {"-trace", lud(), "-gpgpu_shmem_size", "100"},                  // lud's 3072 B blocks cannot fit
        {"-smtlm_synth_mix", "foo=3"},                                  // synthetic workload option
        {"-smtlm_engine", "verilog"},                                   // no such engine
        {"-smtlm_threads", "0"},                                        // engine parameters
        {"-smtlm_stats_json", dir + "/no-such-dir/stats.json"},         // an output that cannot be opened
        {"-smtlm_mode", "muon", "-smtlm_vcd", dir + "/muon.vcd"},       // a view muon mode refuses
    };
    for (const std::vector<std::string> &args : bad) {
        e2e::Result run = e2e::smsim(args);
        e2e::Result check = e2e::smsim(with_check(args));
        EXPECT_EQ(run.status, 2) << args[0];
        EXPECT_EQ(check.status, 2) << args[0];
        EXPECT_EQ(check.out, "") << args[0];
        ASSERT_FALSE(check.err.empty()) << args[0];
        EXPECT_EQ(check.err, last_line(run.err)) << args[0];
        EXPECT_EQ(check.err.find("smsim: "), 0u) << check.err;
    }
    e2e::Result typo = e2e::smsim(with_check({"-config", typo_cfg}));
    EXPECT_EQ(typo.err, "smsim: " + typo_cfg + ":2: unknown option -gpgpu_num_reg_bnks (did you mean -gpgpu_num_reg_banks?)\n");
}

TEST(CheckOptions, ReportsOnlyCheckTheirOptions)
{
    e2e::Result list = e2e::smsim(with_check({"-smtlm_list_options", "1"}));
    EXPECT_EQ(list.status, 0);
    EXPECT_EQ(list.out + list.err, ""); // nothing listed
    e2e::Result cost = e2e::smsim(with_check({"-smtlm_cost_report", "1"}));
    EXPECT_EQ(cost.status, 0) << cost.err;
    EXPECT_EQ(cost.out + cost.err, "");
    e2e::Result bad = e2e::smsim(with_check({"-smtlm_analytic_banks", "65"}));
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("-smtlm_analytic_banks"), std::string::npos) << bad.err;
}

} // namespace
