// The matchers: what they accept, and the explanation a mismatch prints.
#include <gmock/gmock.h>

#include "kit_data.hpp"

using namespace smtlm::testing;
using ::testing::AllOf;
using ::testing::DoubleNear;
using ::testing::HasSubstr;
using ::testing::Lt;
using ::testing::Not;
using ::testing::StartsWith;

namespace {

const Result &lud()
{
    static const Result r = run(kit::lud_qv100().with_events());
    return r;
}

} // namespace

TEST(Matchers, CountsAndStatsByJsonName)
{
    EXPECT_THAT(lud(), Succeeded());
    EXPECT_THAT(lud(), Cycles(8952));
    EXPECT_THAT(lud(), Cycles(Lt(9000u)));
    EXPECT_THAT(lud(), Instructions(16080));
    EXPECT_THAT(lud(), WarpInstructions(1027));
    EXPECT_THAT(lud(), HasStat("kernels[0].stall", 79));
    EXPECT_THAT(lud(), HasStat("kernels[0].gpu_ipc", DoubleNear(1.7962, 1e-4)));
    EXPECT_THAT(lud(), HasStatText("kernels[0].cta_limit", "grid size"));
    EXPECT_THAT(lud(), Not(Cycles(8953)));
}

TEST(Matchers, MismatchSaysWhatWasFound)
{
    bool ok = true;
    EXPECT_EQ(kit::explain(Cycles(9047), lud(), &ok), "gpu_tot_sim_cycle is 8952");
    EXPECT_FALSE(ok);
    EXPECT_EQ(kit::explain(HasStat("kernels[0].w0_idle", 1), lud(), &ok), "kernels[0].w0_idle is 12104");
    EXPECT_FALSE(ok);
    EXPECT_EQ(kit::explain(HasStat("kernels[0].kernel_name", 1), lud(), &ok), "kernels[0].kernel_name is _Z13lud_perimeterPfii, not a number");
    EXPECT_FALSE(ok);
    EXPECT_EQ(kit::explain(HasStat("gpu_sim_insn", 1), lud(), &ok), "no stat named \"gpu_sim_insn\" (did you mean kernels[0].gpu_sim_insn?)");
    EXPECT_FALSE(ok);
    EXPECT_EQ(kit::explain(HasStat("stall", 79), lud(), &ok),
              "no stat named \"stall\" (did you mean kernels[0].stall, kernels[0].sms[0].schedulers[0].stall, "
              "kernels[0].sms[0].schedulers[1].stall, kernels[0].sms[0].schedulers[2].stall, ... (5 in all)?)");
    EXPECT_FALSE(ok);
    ::testing::StringMatchResultListener l;
    std::ostringstream d;
    HasStat("kernels[0].stall", Lt(10)).DescribeTo(&d);
    EXPECT_EQ(d.str(), "has kernels[0].stall that is < 10");
}

TEST(Matchers, FailedRunExplainsItsError)
{
    const Result bad = run(kit::lud_qv100().option("gpgpu_num_reg_banks", 10));
    bool ok = true;
    const std::string error = "<command line>:7: -gpgpu_num_reg_banks: 10 register banks cannot be split over 4 "
                              "schedulers (sub-core model)";
    EXPECT_EQ(kit::explain(Cycles(8952), bad, &ok), "the run did not complete (exit status 2): " + error);
    EXPECT_FALSE(ok);
    EXPECT_THAT(kit::explain(Succeeded(), bad, &ok),
                AllOf(StartsWith("the run did not complete (exit status 2): " + error + "; stderr:\n"),
                      HasSubstr("\nsmsim: " + error + "\n")));
    EXPECT_FALSE(ok);
    EXPECT_THAT(bad, ExitStatus(2));
}

TEST(Matchers, EnginesGiveTheSameStatsAndEvents)
{
    const Result sc = run(kit::lud_qv100().with_events().on(Engine::SystemC));
    EXPECT_THAT(sc, SameStatsAs(lud()));
    EXPECT_THAT(sc, SameEventsAs(lud()));
    EXPECT_EQ(kit::explain(SameEventsAs(lud()), sc), "1027 identical events");
}

// Option A against B: a slower register file. The table names each counter that changed with
// both values, the difference and the relative change.
TEST(Matchers, OptionChangeShowsTheDifferingCounters)
{
    const Result eight = run(kit::lud_qv100().with_events().option("gpgpu_num_reg_banks", 8));
    bool ok = true;
    const std::string why = kit::explain(SameStatsAs(lud()), eight, &ok);
    EXPECT_FALSE(ok);
    EXPECT_THAT(why, HasSubstr("statistics differ:\nA = trace lud, config gpgpusim.config, config trace.config, engine c\n"
                               "B = this run: trace lud, config gpgpusim.config, config trace.config, "
                               "-gpgpu_num_reg_banks 8, engine c\n"));
    EXPECT_THAT(why, testing::ContainsRegex("\ngpu_tot_sim_cycle +8952 +8996 +\\+44 +\\+0\\.49%\n"));
    EXPECT_THAT(why, testing::ContainsRegex("\n\\.\\.\\. [0-9]+ more\n[0-9]+ counters in both: [0-9]+ differ"));
    // the instruction counts did not change
    EXPECT_THAT(eight, SameStatsAs(lud(), {"gpu_tot_sim_insn", "kernels[0].gpu_sim_warp_insn"}));
    // the event logs differ from some instruction on
    EXPECT_THAT(kit::explain(SameEventsAs(lud()), eight, &ok),
                HasSubstr("1027 events against 1027; "));
    EXPECT_FALSE(ok);
    EXPECT_THAT(kit::explain(SameEventsAs(lud()), eight), HasSubstr("the first difference, event "));
}

TEST(Matchers, EventsMustBeAskedFor)
{
    const Result plain = run(kit::lud_qv100());
    bool ok = true;
    EXPECT_EQ(kit::explain(SameEventsAs(lud()), plain, &ok),
              "the run of trace lud, config gpgpusim.config, config trace.config, engine c kept no event log "
              "(Sim::with_events())");
    EXPECT_FALSE(ok);
}

TEST(Matchers, SubsetNamesAnUnknownStat)
{
    bool ok = true;
    EXPECT_EQ(kit::explain(SameStatsAs(lud(), {"cycles"}), lud(), &ok),
              "the other run (trace lud, config gpgpusim.config, config trace.config, engine c): no stat named \"cycles\"");
    EXPECT_FALSE(ok);
}
