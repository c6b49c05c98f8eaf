// Accel-Sim's measured back-end microbenchmarks (Accel-Sim run by the project, SM7_QV100 stock
// configs, one CTA): gpu_sim_cycle, gpu_sim_insn and the per-scheduler stall breakdown
// (Stall / W0_Idle / W0_Scoreboard) pinned exactly, through the C engine.
#include <gtest/gtest.h>

#include "../param_names.hpp"

#include "micro.hpp"

namespace {

struct Golden {
    const char *kind;
    unsigned n, warps;
    uint64_t cycles, insn;
    int64_t stall, idle, scoreboard; // -1: not published
};
void PrintTo(const Golden &g, std::ostream *os) { *os << g.kind << " N=" << g.n << " warps=" << g.warps << " cycles=" << g.cycles; }

const Golden kGolden[] = {
    {"indep", 64, 1, 5161, 2080, 28, 492, 55},      {"indep", 128, 1, 5319, 4128, 56, 966, 121},
    {"indep", 64, 4, 5162, 8320, 115, 51, 218},     {"indep", 128, 4, 5320, 16512, 230, 51, 479},
    {"indep", 64, 8, 5290, 16640, 371, 51, 214},    {"indep", 128, 8, 5576, 33024, 742, 51, 475},
    {"indep3", 64, 1, 5161, 2080, 39, 492, 44},     {"indep3", 128, 1, 5319, 4128, 80, 964, 99},
    {"indep3", 64, 4, 5162, 8320, 162, 57, 165},    {"indep3", 128, 4, 5320, 16512, 334, 63, 363},
    {"indep3", 64, 8, 5290, 16640, 425, 74, 137},   {"indep3", 128, 8, 5576, 33024, 849, 114, 305},
    {"sfu", 64, 1, 5617, 2080, 232, 1902, 265},     {"sfu", 128, 1, 6231, 4128, 464, 3744, 583},
    {"sfu", 64, 4, 5618, 8320, 949, 213, 1046},     {"sfu", 128, 4, 6232, 16512, 1898, 220, 2290},
    {"sfu", 64, 8, 6130, 16640, 2741, 213, 1042},   {"sfu", 128, 8, 7256, 33024, 5482, 220, 2286},
    {"imix", 64, 1, 5074, 2080, 0, 227, 0},         {"imix", 128, 1, 5138, 4128, 0, 419, 0},
    {"imix", 64, 4, 5075, 8320, 0, 36, 0},          {"imix", 128, 4, 5139, 16512, 0, 36, 0},
    {"imix", 64, 8, 5141, 16640, 0, 40, 0},         {"imix", 128, 8, 5269, 33024, 0, 40, 0},
    {"dep_nc", 64, 1, 5451, 2080, 0, 1357, 378},    {"dep_nc", 128, 1, 5899, 4128, 0, 2701, 762},
    {"dep_nc", 64, 4, 5452, 8320, 0, 32, 1512},     {"dep_nc", 128, 4, 5900, 16512, 0, 32, 3048},
    {"dep_nc", 64, 8, 5454, 16640, 0, 32, 1260},    {"dep_nc", 128, 8, 5902, 33024, 0, 32, 2540},
    {"dep", 64, 1, 5451, 2080, 0, 1357, 378},       {"dep", 128, 1, 5899, 4128, 0, 2701, 762},
    {"dep", 64, 4, 5452, 8320, 0, 32, 1512},        {"dep", 128, 4, 5900, 16512, 0, 32, 3048},
    {"dep", 64, 8, 5517, 16640, 0, 36, 1508},       {"dep", 128, 8, 6029, 33024, 0, 36, 3044},
    {"dep3", 64, 1, 5515, 2080, 0, 1550, 441},      {"dep3", 128, 1, 6027, 4128, 0, 3086, 889},
    {"dep3", 64, 4, 5516, 8320, 0, 36, 1764},       {"dep3", 128, 4, 6028, 16512, 0, 36, 3556},
    {"dep3", 64, 8, 5518, 16640, 0, 36, 1512},      {"dep3", 128, 8, 6030, 33024, 0, 36, 3048},
    {"lds1", 64, 1, 5210, 2080, -1, -1, -1},        {"lds2", 64, 1, 5235, 2080, -1, -1, -1},
    {"lds32", 64, 1, 7195, 2080, -1, -1, -1},       {"ldsdep1", 32, 1, 5803, 1056, -1, -1, -1},
    {"sts1", 64, 1, 5072, 2080, -1, -1, -1},
};

class GoldenMicro : public ::testing::TestWithParam<Golden> {};

TEST_P(GoldenMicro, ReproducesAccelSimExactly)
{
    const Golden &g = GetParam();
    micro::Runner r(micro::Runner::qv100());
    ASSERT_EQ(r.init_rc, SMTLM_OK);
    const std::string kind = g.kind;
    const unsigned shmem = (kind.rfind("lds", 0) == 0 || kind.rfind("sts", 0) == 0) ? 16384 : 0;
    ASSERT_EQ(r.run(micro::program(kind, g.n), g.warps, shmem), SMTLM_RUN_DONE);
    EXPECT_EQ(r.cycles(), g.cycles);
    EXPECT_EQ(r.insn(), g.insn);
    if (g.stall >= 0) {
        EXPECT_EQ(r.distro(SMTLM_DISTRO_STALL), (uint64_t)g.stall);
        EXPECT_EQ(r.distro(SMTLM_DISTRO_IDLE), (uint64_t)g.idle);
        EXPECT_EQ(r.distro(SMTLM_DISTRO_SCOREBOARD), (uint64_t)g.scoreboard);
    }
}

std::string name(const ::testing::TestParamInfo<Golden> &i)
{
    return std::string(i.param.kind) + "_" + std::to_string(i.param.n) + "_w" + std::to_string(i.param.warps);
}

INSTANTIATE_TEST_SUITE_P(AccelSim, GoldenMicro, ::testing::ValuesIn(kGolden), name);

// Launch latency only shifts an ALU-only kernel (Accel-Sim measured 161, 162, 163, 168
// and 5161 for L = 0, 1, 2, 7, 5000 on indep_64_1).
TEST(GoldenMicro, LaunchLatencyAddsExactly)
{
    const unsigned lat[] = {0, 1, 2, 7, 5000};
    const uint64_t want[] = {161, 162, 163, 168, 5161};
    for (int i = 0; i < 5; i++) {
        smtlm_gpu_cfg c = micro::Runner::qv100();
        c.kernel_launch_latency = lat[i];
        micro::Runner r(c);
        ASSERT_EQ(r.run(micro::program("indep", 64), 1), SMTLM_RUN_DONE);
        EXPECT_EQ(r.cycles(), want[i]) << "launch latency " << lat[i];
    }
}

// Smallest kernel: one warp, only EXIT = L + 8 (measured with Accel-Sim).
TEST(GoldenMicro, ExitOnlyKernelIsLaunchLatencyPlus8)
{
    micro::Runner r(micro::Runner::qv100());
    ASSERT_EQ(r.run({micro::exit_inst()}, 1), SMTLM_RUN_DONE);
    EXPECT_EQ(r.cycles(), 5008u);
}

} // namespace

namespace {
SMTLM_PARAM_NAMES_GUARD()
} // namespace
