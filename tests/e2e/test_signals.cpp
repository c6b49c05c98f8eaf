// SIGINT and SIGTERM on the real smsim: the first stops the run after the current cycle step
// with the statistics so far, marked incomplete, one line and exit status 128 + the signal;
// the second ends the process at once and leaves no temporary file. A killed run never spoils
// the file it would have replaced.
#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <regex>
#include <string>
#include <vector>

#include <sys/stat.h>

#include "scratch_files.hpp"
#include "smsim_process.hpp"

extern "C" {
#include "smtlm/gpu.h"
}

namespace {

using e2e::fresh_dir;
using e2e::json_leaf;
using e2e::listing;

// A file of dir named name.tmp* (an output being written) that is not empty.
bool temp_written(const std::string &dir, const std::string &name)
{
    for (const std::string &f : listing(dir))
        if (f.rfind(name + ".tmp", 0) == 0) {
            struct stat st;
            if (stat((dir + "/" + f).c_str(), &st) == 0 && st.st_size > 0)
                return true;
        }
    return false;
}

// A synthetic run far longer than any test waits (32 warps of 10^8 instructions: minutes on any
// machine), with its stats JSON in dir; returns once the kernel runs, however loaded the machine:
// smsim handles SIGINT and SIGTERM (it installs its handlers after opening its outputs, and a
// signal between then and the kernel's start stops it "before kernel 1"), and the run's
// pipeline log of one warp has written its first 64 KiB (its buffer) to its temporary file.
e2e::Process start_long_run(const std::string &dir, const std::string &engine)
{
    const e2e::Process p = e2e::start_smsim({"-smtlm_engine", engine, "-smtlm_synth_insts", "100000000",
                                             "-smtlm_stats_json", dir + "/s.json", "-smtlm_pipeline_log",
                                             dir + "/p.log", "-smtlm_log_sms", "0", "-smtlm_log_warps", "0"},
                                            dir);
    EXPECT_TRUE(e2e::wait_until([&] {
        return e2e::catches(p.pid, SIGINT) && e2e::catches(p.pid, SIGTERM) && temp_written(dir, "p.log");
    })) << "the run's kernel never started";
    return p;
}

struct StopCase {
    int sig;
    const char *name, *engine;
};

void PrintTo(const StopCase &c, std::ostream *os) { *os << c.name << " on " << c.engine; }

class FirstSignal : public ::testing::TestWithParam<StopCase> {};

} // namespace

TEST_P(FirstSignal, StopsAfterTheCurrentCycleStepWithTheStatisticsSoFar)
{
    const StopCase c = GetParam();
    const std::string dir = fresh_dir("signals_" + std::string(c.name) + "_" + c.engine);
    const e2e::Process p = start_long_run(dir, c.engine);
    kill(p.pid, c.sig);
    const e2e::Ended e = e2e::wait_smsim(p);
    ASSERT_TRUE(e.exited) << "ended by signal " << e.code;
    EXPECT_EQ(e.code, 128 + c.sig);
    // one line, naming the signal and the cycle: the stop comes at the GPU's poll, after a step
    std::smatch m;
    ASSERT_TRUE(std::regex_match(e.err, m, std::regex(std::string("smsim: ") + c.name + ": stopped at cycle ([0-9]+) of "
                                                      "kernel 1 \\(smtlm_synthetic\\); the statistics so far are marked "
                                                      "incomplete\n")))
        << e.err;
    const std::string cycle = m[1];
    EXPECT_EQ(std::stoull(cycle) % SMTLM_POLL_CYCLES, 0u) << cycle;
    // the statistics of the cycles run, on stdout and in the JSON, which says the run is incomplete
    EXPECT_NE(e.out.find("gpu_sim_cycle = " + cycle + "\n"), std::string::npos);
    EXPECT_EQ(e.out.find("exit detected"), std::string::npos);
    const std::string json = dir + "/s.json";
    EXPECT_EQ(json_leaf(json, "kernels[0].gpu_sim_cycle"), cycle);
    EXPECT_EQ(json_leaf(json, "complete"), "false");
    EXPECT_EQ(json_leaf(json, "exit_status"), std::to_string(128 + c.sig));
    EXPECT_EQ(json_leaf(json, "error"), e.err.substr(7, e.err.size() - 8));
    EXPECT_EQ(listing(dir), (std::vector<std::string>{"p.log", "s.json", "stderr", "stdout"}));
}

INSTANTIATE_TEST_SUITE_P(Signals, FirstSignal,
                         ::testing::Values(StopCase{SIGINT, "SIGINT", "c"}, StopCase{SIGTERM, "SIGTERM", "c"},
                                           StopCase{SIGINT, "SIGINT", "systemc"},
                                           StopCase{SIGTERM, "SIGTERM", "systemc"}),
                         [](const ::testing::TestParamInfo<StopCase> &i) {
                             return std::string(i.param.name) + "_" + i.param.engine;
                         });

// A second signal before the run could stop: the process ends at once by that signal; the file
// the run would have replaced keeps what it had, and no temporary file is left. (Stopped while
// both signals arrive, so that both are pending when it goes on; either may be the second.)
TEST(Signals, TheSecondSignalEndsTheProcessAtOnce)
{
    const std::string dir = fresh_dir("signals_second");
    e2e::write_file(dir + "/s.json", "{\"an earlier\": \"run\"}\n");
    const e2e::Process p = start_long_run(dir, "c");
    kill(p.pid, SIGSTOP);
    kill(p.pid, SIGINT);
    kill(p.pid, SIGTERM);
    kill(p.pid, SIGCONT);
    const e2e::Ended e = e2e::wait_smsim(p);
    EXPECT_FALSE(e.exited);
    EXPECT_TRUE(e.code == SIGINT || e.code == SIGTERM) << e.code;
    EXPECT_EQ(e.err, "smsim: a second signal: stopped at once, nothing more written\n");
    EXPECT_EQ(e2e::read(dir + "/s.json"), "{\"an earlier\": \"run\"}\n");
    EXPECT_EQ(listing(dir), (std::vector<std::string>{"s.json", "stderr", "stdout"}));
}

// Killed outright (SIGKILL cannot be handled): the file the run would have replaced is as it was.
TEST(Signals, AKilledRunLeavesTheFileItWouldReplace)
{
    const std::string dir = fresh_dir("signals_killed");
    e2e::write_file(dir + "/s.json", "{\"an earlier\": \"run\"}\n");
    const e2e::Process p = start_long_run(dir, "c");
    kill(p.pid, SIGKILL);
    const e2e::Ended e = e2e::wait_smsim(p);
    EXPECT_FALSE(e.exited);
    EXPECT_EQ(e2e::read(dir + "/s.json"), "{\"an earlier\": \"run\"}\n");
}

// A signal the caller ignores (nohup, a background job of a script) stays ignored: SIGINT sent
// while the run simulates changes nothing, and SIGTERM after it is the run's first signal (had
// SIGINT been caught it would be the first, and SIGTERM the second that ends the process).
TEST(Signals, AnIgnoredSignalStaysIgnored)
{
    const std::string dir = fresh_dir("signals_ignored");
    const e2e::Process p = e2e::start_smsim({"-smtlm_engine", "c", "-smtlm_synth_insts", "100000000",
                                             "-smtlm_stats_json", dir + "/s.json"},
                                            dir, SIGINT);
    ASSERT_TRUE(e2e::wait_until([&] { return e2e::catches(p.pid, SIGTERM); }));
    EXPECT_FALSE(e2e::catches(p.pid, SIGINT));
    kill(p.pid, SIGINT);
    kill(p.pid, SIGTERM);
    const e2e::Ended e = e2e::wait_smsim(p);
    ASSERT_TRUE(e.exited) << "ended by signal " << e.code;
    EXPECT_EQ(e.code, 128 + SIGTERM) << e.err;
    EXPECT_TRUE(std::regex_match(e.err, std::regex("smsim: SIGTERM: stopped at cycle [0-9]+ of kernel 1 \\(smtlm_synthetic\\); "
                                                   "the statistics so far are marked incomplete\n")))
        << e.err;
    EXPECT_EQ(json_leaf(dir + "/s.json", "complete"), "false");
}
