// GoogleMock matchers on a Result: EXPECT_THAT(r, Cycles(8952)), EXPECT_THAT(r, HasStat(
// "kernels[0].stall", Lt(100))), EXPECT_THAT(a, SameStatsAs(b)). A failed match explains
// itself: the value found, the run's error, a "did you mean" for an unknown stat name, or the
// table of differing counters.
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

ResultMatcher Succeeded();                                 // exit status 0
ResultMatcher ExitStatus(::testing::Matcher<int> m);
ResultMatcher Cycles(::testing::Matcher<uint64_t> m);           // gpu_tot_sim_cycle
ResultMatcher Instructions(::testing::Matcher<uint64_t> m);     // gpu_tot_sim_insn (thread)
ResultMatcher WarpInstructions(::testing::Matcher<uint64_t> m); // gpu_sim_warp_insn, all kernels
// any statistic by its JSON path (docs/STATS.md): "kernels[0].warp_stall.scoreboard"
ResultMatcher HasStat(std::string path, ::testing::Matcher<double> m);
ResultMatcher HasStatText(std::string path, ::testing::Matcher<const std::string &> m);
// every counter equal (host time aside), or only those named in paths
ResultMatcher SameStatsAs(Result other, std::vector<std::string> paths = {});
// the same per-instruction event log (both runs asked with_events())
ResultMatcher SameEventsAs(Result other);

} // namespace testing
} // namespace smtlm

#endif
