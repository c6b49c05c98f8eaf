// Sim and Result: the command line a Sim builds, and what a run on either engine returns.
#include <gmock/gmock.h>

#include <systemc>

#include "kit_data.hpp"

using namespace smtlm::testing;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(RunSpec, BuildsSmsimsCommandLineInOrder)
{
    const Sim base = Sim::Trace("t/kernelslist.g").config("a.config").config("b.config");
    const Sim r = base.option("-gpgpu_num_reg_banks", 8).option("smtlm_oc_allocator", "wavefront").on(Engine::SystemC);
    kit::ScopedEnv no_extra("SMTLM_EXTRA_OPTIONS", nullptr);
    EXPECT_THAT(r.args(), ElementsAre("-trace", "t/kernelslist.g", "-config", "a.config", "-config", "b.config",
                                      "-gpgpu_num_reg_banks", "8", "-smtlm_oc_allocator", "wavefront"));
    EXPECT_EQ(r.describe(), "trace t, config a.config, config b.config, -gpgpu_num_reg_banks 8, "
                            "-smtlm_oc_allocator wavefront, engine systemc");
    // every call made a copy: the base is unchanged
    EXPECT_EQ(base.options().size(), 0u);
    EXPECT_EQ(base.engine(), Engine::C);
    EXPECT_FALSE(base.events());
    EXPECT_TRUE(base.with_events().events());
}

TEST(RunSpec, SyntheticSettingsAreSynthOptions)
{
    kit::ScopedEnv no_extra("SMTLM_EXTRA_OPTIONS", nullptr);
    EXPECT_THAT(Sim::Synthetic({{"mix", "sp=100"}, {"insts", "10"}}).args(),
                ElementsAre("-smtlm_synth_mix", "sp=100", "-smtlm_synth_insts", "10"));
    EXPECT_THAT(Sim::Synthetic().args(), ElementsAre());
    EXPECT_EQ(Sim::Synthetic().describe(), "synthetic workload, engine c");
}

TEST(RunSpec, ExtraOptionsFromTheEnvironmentComeLast)
{
    kit::ScopedEnv extra("SMTLM_EXTRA_OPTIONS", " -gpgpu_num_reg_banks  8 ");
    const Sim r = Sim::Trace("x.traceg").option("gpgpu_num_reg_banks", 16);
    EXPECT_THAT(r.args(), ElementsAre("-trace", "x.traceg", "-gpgpu_num_reg_banks", "16", "-gpgpu_num_reg_banks", "8"));
    EXPECT_THAT(r.describe(), HasSubstr("SMTLM_EXTRA_OPTIONS: -gpgpu_num_reg_banks 8"));
}

TEST(Runs, LudOnQv100ReturnsEveryStatistic)
{
    const Result r = run(kit::lud_qv100());
    ASSERT_EQ(r.exit_status(), 0) << r.err();
    EXPECT_EQ(r.cycles(), 8952u);
    EXPECT_EQ(r.instructions(), 16080u);
    EXPECT_EQ(r.warp_instructions(), 1027u);
    EXPECT_EQ(r.stat("kernels[0].gpu_sim_cycle"), 8952);
    EXPECT_EQ(r.stat("schema_version"), 3);
    EXPECT_EQ(r.stat_text("kernels[0].kernel_name"), "_Z13lud_perimeterPfii");
    EXPECT_THAT(r.out(), HasSubstr("\ngpu_sim_cycle = 8952\n"));
    EXPECT_TRUE(r.events().empty()); // not asked for
    EXPECT_NE(r.find("wall_seconds"), nullptr);
    EXPECT_EQ(r.find("kernels[1].gpu_sim_cycle"), nullptr); // one kernel
}

TEST(Runs, UnknownStatNamesSimilarOnes)
{
    const Result r = run(kit::lud_qv100());
    try {
        r.stat("gpu_sim_cycle");
        FAIL() << "no such top-level stat";
    } catch (const std::out_of_range &e) {
        EXPECT_STREQ(e.what(), "no stat named \"gpu_sim_cycle\" (did you mean kernels[0].gpu_sim_cycle?)");
    }
    EXPECT_THROW(r.stat("kernels[0].kernel_name"), std::out_of_range); // text, not a number
}

// One line per retired warp instruction; every instruction's six events in pipeline order.
TEST(Runs, EventLogOnRequest)
{
    const Result r = run(kit::lud_qv100().with_events());
    ASSERT_EQ(r.events().size(), 1027u);
    for (const Event &e : r.events()) {
        EXPECT_EQ(e.kernel, 1u);
        EXPECT_LE(e.issue, e.cu_alloc);
        EXPECT_LE(e.cu_alloc, e.operands);
        EXPECT_LE(e.operands, e.oc_ex);
        EXPECT_LE(e.oc_ex, e.fu_issue);
        EXPECT_LE(e.fu_issue, e.writeback);
    }
    // the first instruction issues 2 cycles after the kernel launch latency (5000), as smsim's own log
    std::ostringstream first;
    first << r.events()[0];
    EXPECT_EQ(first.str(), "1 0 0 0x0000 1 5002 5003 5003 5004 5005 5009");
}

// 4 warps x (200 instructions + EXIT) = 804 warp instructions, 32 lanes each = 25728.
TEST(Runs, SyntheticWorkload)
{
    const Result r = run(Sim::Synthetic({{"warps", "4"}, {"insts", "200"}}).with_events());
    ASSERT_TRUE(r.ok()) << r.err();
    EXPECT_EQ(r.warp_instructions(), 804u);
    EXPECT_EQ(r.instructions(), 25728u);
    EXPECT_EQ(r.events().size(), 804u);
}

// The SystemC engine runs in a child process: any number of SystemC runs in one test, the same
// figures as the C engine, and this process elaborates nothing.
TEST(Runs, SystemCRunsAnyNumberOfTimesInOneProcess)
{
    const Sim lud = kit::lud_qv100().on(Engine::SystemC);
    const Result a = run(lud), b = run(lud.option("gpgpu_num_reg_banks", 8)), c = run(lud);
    ASSERT_TRUE(a.ok()) << a.err();
    ASSERT_TRUE(b.ok()) << b.err();
    EXPECT_EQ(a.cycles(), 8952u);
    EXPECT_EQ(b.cycles(), run(kit::lud_qv100().option("gpgpu_num_reg_banks", 8)).cycles());
    EXPECT_EQ(c.cycles(), 8952u);
    EXPECT_TRUE(sc_core::sc_get_top_level_objects().empty());
}

TEST(Runs, BadInputGivesTheMessageInEitherEngine)
{
    for (Engine e : {Engine::C, Engine::SystemC}) {
        const Result r = run(kit::lud_qv100().option("gpgpu_num_reg_banks", 10).on(e));
        EXPECT_EQ(r.exit_status(), 2) << engine_name(e);
        EXPECT_THAT(r.err(), HasSubstr("gpgpu_num_reg_banks")) << engine_name(e);
        EXPECT_TRUE(r.stats().empty());
        try {
            r.cycles();
            ADD_FAILURE() << "a run without statistics has no cycles";
        } catch (const std::out_of_range &x) {
            EXPECT_EQ(std::string(x.what()), "the run did not complete (exit status 2): <command line>:7: "
                                             "-gpgpu_num_reg_banks: 10 register banks cannot be split over 4 "
                                             "schedulers (sub-core model)");
        }
    }
}

TEST(Runs, MissingTraceIsBadInput)
{
    const Result r = run(Sim::Trace("/nonexistent/kernelslist.g"));
    EXPECT_EQ(r.exit_status(), 2);
    EXPECT_THAT(r.err(), HasSubstr("/nonexistent/kernelslist.g"));
}
