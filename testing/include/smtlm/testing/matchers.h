// GoogleMock matchers on a Result: EXPECT_THAT(r, Cycles(8952)), EXPECT_THAT(r, HasStat(
// "kernels[0].stall", Lt(100))), EXPECT_THAT(a, SameStatsAs(b)), EXPECT_THAT(r, Failed(HasSubstr(
// "cannot run on an SM"))). A failed match explains itself: the value found, the run's error, a
// "did you mean" for an unknown stat name, or the table of differing counters.
#ifndef SMTLM_TESTING_MATCHERS_H
#define SMTLM_TESTING_MATCHERS_H

#include <cstdint>
#include <string>
#include <vector>

#include <gmock/gmock.h>

#include "smtlm/testing/run.h"

namespace smtlm {
namespace testing {

using ResultMatcher = ::testing::Matcher<const Result &>;

// A matcher of a run's figures: it never matches a run that did not complete (Result::ok()),
// nor, when it compares runs, against another run that did not complete; it says so, with that
// run's error. Its negation Not(m) (found for it by argument-dependent lookup, so unqualified
// `Not` after `using ::testing::Not` works) fails on those runs too: it matches when every run
// completed and m does not. A failure is asserted with Failed / FailedWith.
class RunMatcher : public ResultMatcher {
public:
    RunMatcher(ResultMatcher m, std::vector<Result> others) : ResultMatcher(std::move(m)), others_(std::move(others)) {}
    const std::vector<Result> &others() const { return others_; } // the runs compared with

private:
    std::vector<Result> others_;
};
RunMatcher Not(const RunMatcher &m);

// How the run ended
ResultMatcher Succeeded();                  // it completed (exit status 0, statistics complete)
ResultMatcher ExitStatus(::testing::Matcher<int> m);
// it did not complete, and its error() matches: Failed(HasSubstr("cannot run on an SM"))
ResultMatcher Failed(::testing::Matcher<const std::string &> error = ::testing::_);
// the same with its exit status: FailedWith(1, StartsWith("deadlock: ")); -1 a process killed
// by a signal (FailedWith(-1, HasSubstr("killed by signal 11")))
ResultMatcher FailedWith(::testing::Matcher<int> exit_status, ::testing::Matcher<const std::string &> error = ::testing::_);

// Its figures (a completed run's only)
RunMatcher Cycles(::testing::Matcher<uint64_t> m);           // gpu_tot_sim_cycle
RunMatcher Instructions(::testing::Matcher<uint64_t> m);     // gpu_tot_sim_insn (thread)
RunMatcher WarpInstructions(::testing::Matcher<uint64_t> m); // gpu_sim_warp_insn, all kernels
// any statistic by its JSON path (docs/STATS.md): "kernels[0].warp_stall.scoreboard"
RunMatcher HasStat(std::string path, ::testing::Matcher<double> m);
RunMatcher HasStatText(std::string path, ::testing::Matcher<const std::string &> m);
// every counter equal (host time and how the run ended aside), or only those named in paths
RunMatcher SameStatsAs(Result other, std::vector<std::string> paths = {});
// the same per-instruction event log (both runs asked with_events())
RunMatcher SameEventsAs(Result other);

} // namespace testing
} // namespace smtlm

#endif
