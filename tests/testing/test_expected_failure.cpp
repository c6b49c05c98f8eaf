// Failed and FailedWith: a test that wants a run to fail says how, and passes only on that
// failure; Not() of a run's figures and a run compared with one that failed never pass; and a
// SystemC memory error (the C engine has no SoC memory to refuse an access) does not let one
// engine write the golden file the other then fails.
#include <gmock/gmock.h>

#include "failing_runs.hpp"

using namespace smtlm::testing;
using ::testing::_;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

namespace {

// kind's run on the C engine, its inputs in dir
Result failing(const char *kind, const kit::ScratchDir &dir) { return run(kit::failure_kind(kind).sim(dir.path())); }

const Result &lud()
{
    static const Result r = run(kit::lud_qv100().with_events());
    return r;
}

std::string description(const ResultMatcher &m)
{
    std::ostringstream s;
    m.DescribeTo(&s);
    return s.str();
}

} // namespace

TEST(ExpectedFailure, PassesOnTheFailureAskedFor)
{
    const kit::ScratchDir dir;
    const Result big = failing("BlockTooBigForAnSm", dir), stuck = failing("Watchdog", dir);
    EXPECT_THAT(big, Failed());
    EXPECT_THAT(big, Failed(HasSubstr("cannot run on an SM: its registers exceed -gpgpu_shader_registers")));
    EXPECT_THAT(big, FailedWith(2, HasSubstr("cannot run on an SM")));
    EXPECT_THAT(big, FailedWith(2));
    EXPECT_THAT(stuck, FailedWith(1, StartsWith("deadlock: nothing issued, retired or answered by memory for 2000 cycles")));
    // no statistics at all: the error is smsim's message, without its "smsim: "
    const Result missing = failing("MissingTrace", dir);
    EXPECT_EQ(missing.error(), dir.path() + "/nonexistent/kernelslist.g: cannot open: No such file or directory");
    EXPECT_THAT(missing, FailedWith(2, HasSubstr("cannot open")));
    EXPECT_EQ(missing.term_signal(), 0);
}

TEST(ExpectedFailure, FailsOnARunThatCompleted)
{
    bool matched = true;
    EXPECT_EQ(kit::explain(Failed(), lud(), &matched), "the run completed");
    EXPECT_FALSE(matched);
    EXPECT_EQ(kit::explain(FailedWith(0), lud(), &matched), "the run completed");
    EXPECT_FALSE(matched);
    EXPECT_TRUE(lud().ok());
    EXPECT_EQ(lud().error(), "");
}

TEST(ExpectedFailure, FailsOnAnotherFailure)
{
    const kit::ScratchDir dir;
    const Result big = failing("BlockTooBigForAnSm", dir), stuck = failing("Watchdog", dir);
    bool matched = true;
    // another message
    EXPECT_THAT(kit::explain(Failed(HasSubstr("cannot run on an SM")), stuck, &matched),
                StartsWith("the run did not complete (exit status 1): deadlock: "));
    EXPECT_FALSE(matched);
    // the same message, another exit status
    EXPECT_THAT(kit::explain(FailedWith(1, HasSubstr("cannot run on an SM")), big, &matched),
                StartsWith("the run did not complete (exit status 2): " + kit::vectoradd_kernel() + ": a thread block"));
    EXPECT_FALSE(matched);
    EXPECT_THAT(big, Not(FailedWith(1)));
    EXPECT_THAT(big, Not(Failed(HasSubstr("deadlock"))));
}

TEST(ExpectedFailure, DescribesWhatItWants)
{
    EXPECT_EQ(description(Failed()), "did not complete, with an error that is anything");
    EXPECT_EQ(description(FailedWith(2, HasSubstr("cannot run"))),
              "did not complete, with an exit status that is equal to 2, with an error that has substring \"cannot run\"");
    EXPECT_EQ(description(Succeeded()), "completed (exit status 0, statistics complete)");
}

// Not() of a run's figures is no way around a failed run: it fails on it (and on a failed run
// compared with), and passes on a completed run whose figures differ.
TEST(ExpectedFailure, NotOfTheFiguresOfAFailedRunFails)
{
    const kit::ScratchDir dir;
    const Result csv = failing("CsvWriteFails", dir); // vectoradd's real figures, then a failed write
    const std::string why = "the run did not complete (exit status 2): " + kit::no_space();
    bool matched = true;
    EXPECT_EQ(kit::explain(Not(Cycles(1)), csv, &matched), why);
    EXPECT_FALSE(matched);
    EXPECT_EQ(kit::explain(Not(HasStat("gpu_tot_sim_cycle", 1)), csv, &matched), why);
    EXPECT_FALSE(matched);
    EXPECT_EQ(kit::explain(Not(SameStatsAs(lud())), csv, &matched), why);
    EXPECT_FALSE(matched);
    EXPECT_EQ(kit::explain(Not(SameStatsAs(csv)), lud(), &matched), "the other run (" + csv.spec().describe() + "): " + why);
    EXPECT_FALSE(matched);
    EXPECT_EQ(kit::explain(Not(Not(Cycles(8952))), csv, &matched), why);
    EXPECT_FALSE(matched);
    const Result fine = run(Sim::Trace(kit::trace("vectoradd-100-32-trace")));
    EXPECT_THAT(fine, Not(SameStatsAs(lud())));
    EXPECT_THAT(fine, Not(Cycles(1)));
    EXPECT_THAT(fine, Not(Not(SameStatsAs(fine))));
}

// Both runs stopped by the watchdog, each with its event log up to there: not the same events.
TEST(ExpectedFailure, TwoRunsThatFailAlikeAreNotTheSameEvents)
{
    const kit::ScratchDir dir;
    const Sim stuck = kit::failure_kind("Watchdog").sim(dir.path()).with_events();
    const Result c = run(stuck), systemc = run(stuck.on(Engine::SystemC));
    bool matched = true;
    EXPECT_THAT(kit::explain(SameEventsAs(c), systemc, &matched),
                StartsWith("the run did not complete (exit status 1): deadlock: "));
    EXPECT_FALSE(matched);
    EXPECT_THAT(kit::explain(SameEventsAs(lud()), c, &matched), StartsWith("the run did not complete (exit status 1): "));
    EXPECT_FALSE(matched);
}

// An access moved by -smtlm_addr_map (an option of the SystemC engine's SoC side) to the top
// sector of the 64-bit address space, past the end of the SystemC platform's memory: the SystemC
// run fails where the C engine's run of the trace (no SoC memory) completes. The C run writes the
// golden file; the SystemC run neither passes against it nor rewrites it, in update mode too, and
// is not the same statistics as the C run.
TEST(ExpectedFailure, ASystemCMemoryErrorDoesNotAlternateTheGolden)
{
    const kit::ScratchDir dir;
    const Sim sim = Sim::Trace(kit::trace("vectoradd-100-32-trace"));
    const Result c = run(sim),
                 systemc = run(sim.on(Engine::SystemC).option("smtlm_addr_map", "0x7f2b2d500000:0x20:0xffffffffffffffe0"));
    ASSERT_THAT(c, Succeeded());
    const std::string error = kit::vectoradd_kernel() + ":39: memory error response at address 0x7f2b2d500000 (sm 0 warp 0 "
                                                        "pc 0x0098, load) in kernel _Z6vecAddIfEvPT_S1_S1_i";
    EXPECT_THAT(systemc, FailedWith(2, error));
    const std::string why = "the run did not complete (exit status 2): " + error;
    bool matched = true;
    EXPECT_EQ(kit::explain(SameStatsAs(c), systemc, &matched), why);
    EXPECT_FALSE(matched);
    EXPECT_EQ(kit::explain(SameStatsAs(systemc), c, &matched), "the other run (" + systemc.spec().describe() + "): " + why);
    EXPECT_FALSE(matched);
    for (bool update : {true, false}) {
        const kit::UpdateMode mode(update);
        EXPECT_TRUE(matches_golden(dir.path().c_str(), c, "mem.json"));
        const std::string written = kit::slurp(dir.path() + "/mem.json");
        const ::testing::AssertionResult a = matches_golden(dir.path().c_str(), systemc, "mem.json");
        EXPECT_FALSE(a);
        EXPECT_THAT(a.message(), HasSubstr(why));
        EXPECT_EQ(kit::slurp(dir.path() + "/mem.json"), written);
    }
}
