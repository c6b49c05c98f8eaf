// Per-instruction event cycles against Accel-Sim's instrumented timelines
// (tests/data/timelines, see SOURCES.md): issue, CU allocation, operands collected, OC->EX
// dispatch, FU issue and writeback of every dynamic instruction, plus the final gpu_sim_cycle.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "micro.hpp"

namespace {

struct Case {
    const char *file, *kind;
    unsigned n, warps;
};
void PrintTo(const Case &c, std::ostream *os) { *os << c.file; }

const Case kCases[] = {
    {"dep_nc_4_w1", "dep_nc", 4, 1}, {"dep_4_w1", "dep", 4, 1},     {"dep3_4_w1", "dep3", 4, 1},
    {"indep_8_w1", "indep", 8, 1},   {"sfu_4_w1", "sfu", 4, 1},     {"imix_8_w1", "imix", 8, 1},
    {"dep_4_w8", "dep", 4, 8},       {"indep_8_w4", "indep", 8, 4}, {"indep_64_w1", "indep", 64, 1},
};

class Timeline : public ::testing::TestWithParam<Case> {};

TEST_P(Timeline, EveryEventCycleMatchesAccelSim)
{
    const Case &c = GetParam();
    std::ifstream in(std::string(SMTLM_TEST_DATA) + "/timelines/" + c.file + ".tsv");
    ASSERT_TRUE(in.good());
    std::string header, line;
    std::getline(in, header);
    const size_t at = header.find("final gpu_sim_cycle = ");
    ASSERT_NE(at, std::string::npos);
    const uint64_t final_cycle = std::stoull(header.substr(at + 22));
    std::getline(in, line); // column names

    micro::Runner r(micro::Runner::qv100());
    ASSERT_EQ(r.run(micro::program(c.kind, c.n), c.warps), SMTLM_RUN_DONE);
    EXPECT_EQ(r.cycles(), final_cycle);
    unsigned rows = 0;
    while (std::getline(in, line)) {
        std::istringstream f(line);
        unsigned warp;
        std::string pc, op;
        uint64_t want[SMTLM_EV_COUNT];
        f >> warp >> pc >> op;
        for (uint64_t &w : want)
            f >> w;
        const micro::Event *e = r.find(warp, (uint32_t)std::stoul(pc, nullptr, 16));
        ASSERT_NE(e, nullptr) << line;
        for (int k = 0; k < SMTLM_EV_COUNT; k++)
            EXPECT_EQ(r.rel(e->ev[k]), want[k]) << c.file << " warp " << warp << " pc " << pc << " event " << k;
        rows++;
    }
    EXPECT_EQ(rows, r.events.size());
}

INSTANTIATE_TEST_SUITE_P(AccelSim, Timeline, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case> &i) { return std::string(i.param.file); });

} // namespace
