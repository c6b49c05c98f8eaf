// Runs against runs, no golden files: the two engines instruction by instruction, and a design
// option against the config's own value.
#include "example_traces.hpp"

using namespace smtlm::testing;
using ::testing::Gt;
using ::testing::Not;

TEST(Compare, EnginesAgreeOnEveryInstruction)
{
    const Sim mm = trace_on("matrixmul-32-32-trace", "qv100").with_events();
    const Result c = run(mm.on(Engine::C)), systemc = run(mm.on(Engine::SystemC));
    EXPECT_THAT(systemc, SameStatsAs(c));
    EXPECT_THAT(systemc, SameEventsAs(c));
}

// Half the register banks: the same instructions, more bank conflicts, so more cycles.
TEST(Compare, FewerBanksMoreConflicts)
{
    const Sim base = trace_on("matrixmul-32-32-trace", "qv100");
    const Result a = run(base), b = run(base.option("gpgpu_num_reg_banks", 8));
    EXPECT_THAT(b, SameStatsAs(a, {"gpu_tot_sim_insn", "kernels[0].gpu_sim_warp_insn"}));
    const char *conflicts = "kernels[0].gpu_reg_bank_conflict_stalls";
    EXPECT_THAT(b, HasStat(conflicts, Gt(a.stat(conflicts))));
    EXPECT_THAT(b, Not(SameStatsAs(a)));
}
