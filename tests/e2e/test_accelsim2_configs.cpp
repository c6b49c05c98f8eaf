// Accel-Sim 2.0's SM90_H100 configuration (tests/data/configs/SM90_H100, unchanged) is accepted:
// its new options are known and listed as not modelled, and its initiation intervals of 0
// ("-trace_opcode_latency_initiation_tensor 1,0", "_spec_op_3 1,0") run.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "smsim_run.hpp"

namespace {

std::vector<std::string> sm90(std::vector<std::string> more)
{
    std::vector<std::string> a = e2e::stock("SM90_H100");
    a.insert(a.end(), more.begin(), more.end());
    return a;
}

} // namespace

TEST(AccelSim2Configs, Sm90H100IsAcceptedUnchanged)
{
    e2e::Result r = e2e::smsim(sm90({"-smtlm_check_options", "1"}));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
}

TEST(AccelSim2Configs, ItsNewOptionsAreListedAsNotModelled)
{
    e2e::Result r = e2e::smsim(sm90({"-smtlm_list_options", "1"}));
    ASSERT_EQ(r.status, 0) << r.err;
    for (const char *o : {"-gpgpu_n_chiplet_partition", "-inter_chiplet_queue_size", "-gpgpu_chiplet_interleave",
                          "-gpgpu_opndcoll_model", "-gpgpu_lrc_enabled", "-gpgpu_lrc_max_entries", "-gpgpu_lrc_max_merged",
                          "-gpgpu_simple_dram_clock_multiplier"}) {
        const size_t at = r.out.find(std::string(o) + " ");
        ASSERT_NE(at, std::string::npos) << o;
        const std::string line = r.out.substr(at, r.out.find('\n', at) - at);
        EXPECT_NE(line.find("[not modelled]"), std::string::npos) << line;
    }
}

// A Hopper trace of the kit (one warp, a dependent MUFU.RCP chain) on the configuration as
// Accel-Sim 2.0 ships it: it runs, and the options it sets that the model does not use are named.
TEST(AccelSim2Configs, Sm90H100RunsAHopperTraceAndNamesWhatItDoesNotModel)
{
    e2e::Result r = e2e::smsim(
        sm90({"-trace", e2e::data("silicon-h100/traces/dep_mufu_rcp_n128.w1/kernelslist.g"), "-smtlm_verbose", "1"}));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_GT(r.stat("gpu_sim_cycle"), 0);
    const size_t warn = r.err.find("options accepted but not modelled");
    ASSERT_NE(warn, std::string::npos) << r.err;
    const std::string line = r.err.substr(warn, r.err.find('\n', warn) - warn);
    for (const char *o : {"-gpgpu_n_chiplet_partition", "-gpgpu_opndcoll_model", "-gpgpu_lrc_enabled"})
        EXPECT_NE(line.find(o), std::string::npos) << o << " in " << line;
}

// An interval of 0 is refused only where the two cycles past the latency would leave the ring of
// cycles (smtlm_ii_fits); an unknown option stays an error.
TEST(AccelSim2Configs, IntervalZeroLimitsAndUnknownOptionsStayRefused)
{
    e2e::Result r = e2e::smsim({"-trace_opcode_latency_initiation_sp", "510,0", "-smtlm_check_options", "1"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("-trace_opcode_latency_initiation_sp: latency 510 with an initiation interval of 0 must be at most 509"),
              std::string::npos) << r.err;
    r = e2e::smsim({"-gpgpu_n_chiplet_partitions", "2", "-smtlm_check_options", "1"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("unknown option -gpgpu_n_chiplet_partitions"), std::string::npos) << r.err;
}
