// The kit used as a user would: two real traces pinned in both engines, each against a golden
// file of every counter (goldens/, written by --smtlm_update_goldens). The test
// smtlm_testing_deliberate_change runs these with a changed option and expects them to fail
// with the table of what changed.
#include "kit_data.hpp"

using namespace smtlm::testing;

class Pinned : public EngineTest {};

// docs/VALIDATION.md: lud on QV100 8952 cycles, 16080 thread instructions
TEST_P(Pinned, LudOnQv100)
{
    const Result r = run(kit::lud_qv100());
    EXPECT_THAT(r, Cycles(8952));
    EXPECT_THAT(r, Instructions(16080));
    EXPECT_MATCHES_GOLDEN(r, "lud_qv100.json");
}

// vectoradd on the project's TITAN X config: 5618 cycles, 344 warp instructions (as on the
// stock TITAN X pair, docs/VALIDATION.md)
TEST_P(Pinned, VectoraddOnTitanx)
{
    const Result r = run(Sim::Trace(kit::trace("vectoradd-100-32-trace")).config(project_config("titanx")));
    EXPECT_THAT(r, Cycles(5618));
    EXPECT_THAT(r, WarpInstructions(344));
    EXPECT_MATCHES_GOLDEN(r, "vectoradd_titanx.json");
}

SMTLM_INSTANTIATE_ENGINES(Pinned);
