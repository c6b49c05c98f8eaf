// A run that did not complete is never a result, whatever the kind of failure and the engine:
// no golden file is compared with it or written from it (update mode included), two such runs
// are not "the same statistics", and no check of its figures passes; each says the run did not
// complete, with its exit status and error.
#include <gmock/gmock.h>

#include "failing_runs.hpp"

using namespace smtlm::testing;
using ::testing::_;
using ::testing::StartsWith;

namespace {

class FailedRuns : public ::testing::TestWithParam<std::tuple<kit::FailureKind, Engine>> {
protected:
    const kit::FailureKind &kind() const { return std::get<0>(GetParam()); }
    Engine engine() const { return std::get<1>(GetParam()); }
    // "the run did not complete (exit status N): <the start of its error>"
    std::string why() const
    {
        return "the run did not complete (exit status " + std::to_string(kind().status) + "): " + kind().error(dir_.path());
    }
    Result run_it() const { return run(kind().sim(dir_.path()).on(engine())); }
    kit::ScratchDir dir_;
};

std::string name(const ::testing::TestParamInfo<std::tuple<kit::FailureKind, Engine>> &i)
{
    return std::string(std::get<0>(i.param).name) + "_" + engine_name(std::get<1>(i.param));
}

// the run's gpu_tot_sim_cycle as written, 0 when it wrote no statistics
std::string cycles_written(const Result &r)
{
    const Stat *s = r.find("gpu_tot_sim_cycle");
    return s ? s->text : "0";
}

} // namespace

TEST_P(FailedRuns, NoCheckOfItsFiguresPasses)
{
    const Result r = run_it();
    ASSERT_EQ(r.exit_status(), kind().status) << r.err();
    EXPECT_FALSE(r.ok());
    bool matched = true;
    EXPECT_THAT(kit::explain(Cycles(_), r, &matched), StartsWith(why()));
    EXPECT_FALSE(matched);
    EXPECT_THAT(kit::explain(Instructions(_), r, &matched), StartsWith(why()));
    EXPECT_FALSE(matched);
    EXPECT_THAT(kit::explain(WarpInstructions(_), r, &matched), StartsWith(why()));
    EXPECT_FALSE(matched);
    EXPECT_THAT(kit::explain(HasStat("gpu_tot_sim_cycle", _), r, &matched), StartsWith(why()));
    EXPECT_FALSE(matched);
    EXPECT_THAT(kit::explain(HasStatText("gpu_tot_sim_cycle", _), r, &matched), StartsWith(why()));
    EXPECT_FALSE(matched);
    try {
        r.cycles();
        ADD_FAILURE() << "a run that did not complete gave its cycles";
    } catch (const std::out_of_range &e) {
        EXPECT_THAT(e.what(), StartsWith(why()));
    }
}

// The same input fails the same way twice: the two runs are still no comparison.
TEST_P(FailedRuns, TwoRunsThatFailAlikeAreNotTheSameStatistics)
{
    const Result a = run_it(), b = run_it();
    ASSERT_EQ(a.exit_status(), kind().status) << a.err();
    bool matched = true;
    EXPECT_THAT(kit::explain(SameStatsAs(a), b, &matched), StartsWith(why()));
    EXPECT_FALSE(matched);
    EXPECT_THAT(kit::explain(SameStatsAs(a, {"gpu_tot_sim_cycle"}), b, &matched), StartsWith(why()));
    EXPECT_FALSE(matched);
}

// Compared: even a golden file holding the run's own figures fails, with the run's error.
TEST_P(FailedRuns, NoGoldenIsComparedWithIt)
{
    const kit::UpdateMode off(false);
    const Result r = run_it();
    ASSERT_EQ(r.exit_status(), kind().status) << r.err();
    const std::string golden = dir_.write("own.json", "{\"gpu_tot_sim_cycle\": " + cycles_written(r) + "}\n");
    const std::string expected = "golden " + golden + ": " + r.spec().describe() + ": " + why();
    for (const std::vector<std::string> &stats : {std::vector<std::string>{}, {"gpu_tot_sim_cycle"}}) {
        const ::testing::AssertionResult a = matches_golden(dir_.path().c_str(), r, "own.json", stats);
        EXPECT_FALSE(a);
        EXPECT_THAT(a.message(), StartsWith(expected));
    }
}

// Update mode: it fails too, and writes nothing: no new golden file, no change to an old one,
// no copy of this run's statistics for people to take.
TEST_P(FailedRuns, NoGoldenIsWrittenFromIt)
{
    const kit::UpdateMode on(true);
    const Result r = run_it();
    ASSERT_EQ(r.exit_status(), kind().status) << r.err();
    const std::string old_text = "{\"gpu_tot_sim_cycle\": 5677}\n";
    const std::string old = dir_.write("old.json", old_text), fresh = dir_.path() + "/" + dir_.name() + ".json";
    const std::string expected = ": " + r.spec().describe() + ": " + why();
    for (const std::vector<std::string> &stats : {std::vector<std::string>{}, {"gpu_tot_sim_cycle"}}) {
        const ::testing::AssertionResult created = matches_golden(dir_.path().c_str(), r, fresh, stats);
        EXPECT_FALSE(created);
        EXPECT_THAT(created.message(), StartsWith("golden " + fresh + expected));
        EXPECT_FALSE(kit::exists(fresh));
        const ::testing::AssertionResult updated = matches_golden(dir_.path().c_str(), r, "old.json", stats);
        EXPECT_FALSE(updated);
        EXPECT_THAT(updated.message(), StartsWith("golden " + old + expected));
        EXPECT_EQ(kit::slurp(old), old_text);
    }
    EXPECT_FALSE(kit::exists(::testing::TempDir() + "smtlm_actual/" + dir_.name() + "." + engine_name(engine()) + ".json"));
}

INSTANTIATE_TEST_SUITE_P(Kinds, FailedRuns,
                         ::testing::Combine(::testing::ValuesIn(kit::failure_kinds()),
                                            ::testing::Values(Engine::C, Engine::SystemC)),
                         name);
