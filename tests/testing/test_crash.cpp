// An engine that crashes fails the test that ran it, saying which signal killed its process,
// and the test binary goes on. The crashing engines are the tests' own: each builds the GPU as
// the real engine of its name does and dies in its run, as a bug in the model would (smsim
// offers no way to crash, so the tests hand their engines to the kit's run_with_engines).
#include <gmock/gmock.h>
#include <gtest/gtest-spi.h>

#include <csignal>
#include <cstdlib>

#include <sys/resource.h>

#include "failing_runs.hpp"
#include "run_engines.h"
#include "smtlm/tlm/systemc_engine.h"

using namespace smtlm::testing;
using ::testing::HasSubstr;
using ::testing::StartsWith;

namespace {

void no_core_file()
{
    const struct rlimit none = {0, 0};
    setrlimit(RLIMIT_CORE, &none);
}

smtlm_run_status segfault(void *)
{
    no_core_file();
    std::signal(SIGSEGV, SIG_DFL); // as the kernel delivers it, whatever a sanitizer installed
    std::raise(SIGSEGV);
    return SMTLM_RUN_ERROR;
}

smtlm_run_status abort_run(void *)
{
    no_core_file();
    std::abort();
}

// The real engine of e's name with the given run.
const smtlm_engine *crashing(Engine e, smtlm_run_status (*crash)(void *))
{
    static smtlm_engine engines[2][2];
    const smtlm_engine *real = e == Engine::C ? smtlm_c_engine() : smtlm_systemc_engine();
    smtlm_engine &x = engines[e == Engine::C][crash == segfault];
    x = {real->name, real->create, crash, real->destroy, real->max_threads};
    return &x;
}

Result crash(const Sim &sim, smtlm_run_status (*how)(void *))
{
    const smtlm_engine *const engines[] = {crashing(sim.engine(), how)};
    return run_with_engines(sim, engines, 1);
}

class Crashes : public ::testing::TestWithParam<Engine> {};

} // namespace

TEST_P(Crashes, ASegfaultFailsTheTestWithTheSignal)
{
    const Result r = crash(kit::lud_qv100().on(GetParam()), segfault);
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.exit_status(), -1);
    EXPECT_EQ(r.term_signal(), SIGSEGV);
    EXPECT_EQ(r.error(), "the run's process was killed by signal 11 (Segmentation fault)");
    EXPECT_THAT(r.err(), HasSubstr("smtlm::testing: the run's process was killed by signal 11 (Segmentation fault)\n"));
    EXPECT_THAT(r, FailedWith(-1, StartsWith("the run's process was killed by signal 11")));
    // an expectation on its figures is a failure of this test, naming the signal
    EXPECT_NONFATAL_FAILURE(EXPECT_THAT(r, Cycles(8952)),
                            "the run did not complete (exit status -1): the run's process was killed by signal 11");
    // and the process goes on: the same run on the real engine, in the same test
    EXPECT_THAT(run(kit::lud_qv100().on(GetParam())), Cycles(8952));
}

TEST_P(Crashes, AnAbortFailsTheTestWithTheSignal)
{
    const Result r = crash(kit::lud_qv100().on(GetParam()), abort_run);
    EXPECT_EQ(r.term_signal(), SIGABRT);
    EXPECT_THAT(r, FailedWith(-1, "the run's process was killed by signal 6 (Aborted)"));
}

TEST_P(Crashes, ACrashedRunIsNoGoldenAndNoComparison)
{
    const kit::ScratchDir dir;
    const Result r = crash(kit::lud_qv100().on(GetParam()), segfault), good = run(kit::lud_qv100());
    const std::string why = "the run did not complete (exit status -1): the run's process was killed by signal 11";
    bool matched = true;
    EXPECT_THAT(kit::explain(SameStatsAs(good), r, &matched), StartsWith(why));
    EXPECT_FALSE(matched);
    const kit::UpdateMode on(true);
    const ::testing::AssertionResult a = matches_golden(dir.path().c_str(), r, "crash.json");
    EXPECT_FALSE(a);
    EXPECT_THAT(a.message(), HasSubstr(why));
    EXPECT_FALSE(kit::exists(dir.path() + "/crash.json"));
}

SMTLM_INSTANTIATE_ENGINES(Crashes);
