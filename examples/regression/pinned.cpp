// Two traces on two configs, each test run in both engines (C and SystemC), each pinned by a
// golden file of every counter in goldens/. A change to the model, a config or an option that
// moves any counter fails here with a table of what moved.
#include "example_traces.hpp"

using namespace smtlm::testing;

class Pinned : public EngineTest {};

TEST_P(Pinned, VectoraddQv100)
{
    EXPECT_MATCHES_GOLDEN(run(trace_on("vectoradd-100-32-trace", "qv100")), "vectoradd_qv100.json");
}

TEST_P(Pinned, VectoraddTitanx)
{
    EXPECT_MATCHES_GOLDEN(run(trace_on("vectoradd-100-32-trace", "titanx")), "vectoradd_titanx.json");
}

TEST_P(Pinned, MatrixmulQv100)
{
    const Result r = run(trace_on("matrixmul-32-32-trace", "qv100"));
    EXPECT_THAT(r, Instructions(139264)); // 4416 warp instructions x 32 threads
    EXPECT_MATCHES_GOLDEN(r, "matrixmul_qv100.json");
}

TEST_P(Pinned, MatrixmulTitanx)
{
    const Result r = run(trace_on("matrixmul-32-32-trace", "titanx"));
    EXPECT_THAT(r, WarpInstructions(4416));
    // a golden file of chosen counters only: the headline numbers
    EXPECT_MATCHES_GOLDEN(r, "matrixmul_titanx_headline.json",
                          {"gpu_tot_sim_cycle", "gpu_tot_sim_insn", "kernels[0].stall"});
    EXPECT_MATCHES_GOLDEN(r, "matrixmul_titanx.json");
}

SMTLM_INSTANTIATE_ENGINES(Pinned); // Engines/Pinned.<test>/c and .../systemc
