// Accel-Sim's back-end microbenchmarks (measured cycles in docs/VALIDATION.md) as real trace files, generated
// here from their published description, run by smsim with the unchanged SM7_QV100 configs:
// every gpu_sim_cycle and gpu_sim_insn must equal Accel-Sim's.
#include <gtest/gtest.h>

#include "micro_trace.hpp"
#include "smsim_run.hpp"

namespace {

struct Micro {
    const char *kind;
    unsigned n, warps;
    long long cycles, insn;
};
void PrintTo(const Micro &m, std::ostream *os) { *os << m.kind << " N=" << m.n << " warps=" << m.warps; }

const Micro kMicro[] = {
    {"indep", 64, 1, 5161, 2080},   {"indep", 128, 8, 5576, 33024}, {"indep3", 128, 4, 5320, 16512},
    {"sfu", 64, 8, 6130, 16640},    {"sfu", 128, 1, 6231, 4128},    {"imix", 128, 8, 5269, 33024},
    {"dep_nc", 64, 4, 5452, 8320},  {"dep", 64, 8, 5517, 16640},    {"dep3", 128, 1, 6027, 4128},
    {"lds1", 64, 1, 5210, 2080},    {"lds2", 64, 1, 5235, 2080},    {"lds32", 64, 1, 7195, 2080},
    {"ldsdep1", 32, 1, 5803, 1056}, {"sts1", 64, 1, 5072, 2080},
};

class MicroTraces : public ::testing::TestWithParam<Micro> {};

TEST_P(MicroTraces, SmsimWithStockConfigsMatchesAccelSim)
{
    const Micro &m = GetParam();
    std::vector<std::string> args = e2e::stock("SM7_QV100");
    args.insert(args.begin(), {"-trace", e2e::write_micro_trace(m.kind, m.n, m.warps)});
    e2e::Result r = e2e::smsim(args);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.stat("gpu_sim_cycle"), m.cycles);
    EXPECT_EQ(r.stat("gpu_sim_insn"), m.insn);
}

INSTANTIATE_TEST_SUITE_P(AccelSim, MicroTraces, ::testing::ValuesIn(kMicro),
                         [](const ::testing::TestParamInfo<Micro> &i) {
                             return std::string(i.param.kind) + "_" + std::to_string(i.param.n) + "_w" +
                                    std::to_string(i.param.warps);
                         });

} // namespace
