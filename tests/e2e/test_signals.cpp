// The stop signals on the real smsim (SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ): the first
// stops the run after the current cycle step with the statistics so far, marked incomplete,
// one line and exit status 128 + the signal; the second ends the process at once and leaves no
// temporary file. SIGPIPE and SIGXFSZ from failed writes (standard output to a closed pipe, a
// file over the size limit) stop the run the same way, and their repeats are no second signal.
// A killed run never spoils the file it would have replaced.
#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <regex>
#include <string>
#include <vector>

#include <sys/resource.h>
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
// smsim handles its stop signals (it installs its handlers after opening its outputs, and a
// signal between then and the kernel's start stops it "before kernel 1"), and the run's
// pipeline log of one warp has written its first 64 KiB (its buffer) to its temporary file.
e2e::Process start_long_run(const std::string &dir, const std::string &engine)
{
    const e2e::Process p = e2e::start_smsim({"-smtlm_engine", engine, "-smtlm_synth_insts", "100000000",
                                             "-smtlm_stats_json", dir + "/s.json", "-smtlm_pipeline_log",
                                             dir + "/p.log", "-smtlm_log_sms", "0", "-smtlm_log_warps", "0"},
                                            dir);
    EXPECT_TRUE(e2e::wait_until([&] {
        for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ})
            if (!e2e::catches(p.pid, sig))
                return false;
        return temp_written(dir, "p.log");
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
                                           StopCase{SIGHUP, "SIGHUP", "c"}, StopCase{SIGPIPE, "SIGPIPE", "c"},
                                           StopCase{SIGXFSZ, "SIGXFSZ", "c"}, StopCase{SIGINT, "SIGINT", "systemc"},
                                           StopCase{SIGTERM, "SIGTERM", "systemc"},
                                           StopCase{SIGHUP, "SIGHUP", "systemc"},
                                           StopCase{SIGPIPE, "SIGPIPE", "systemc"},
                                           StopCase{SIGXFSZ, "SIGXFSZ", "systemc"}),
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

namespace {

class Engine : public ::testing::TestWithParam<const char *> {};

// vectoradd's trace `copies` times in a list in dir.
std::string vectoradd_list(const std::string &dir, int copies)
{
    const std::string from = e2e::data("traces/vectoradd-100-32-trace/kernel-1.traceg");
    e2e::write_file(dir + "/kernel-1.traceg", e2e::read(from));
    std::string list;
    for (int i = 0; i < copies; i++)
        list += "kernel-1.traceg\n";
    e2e::write_file(dir + "/kernelslist.g", list);
    return dir + "/kernelslist.g";
}

// Standard output to a pipe nobody reads any more (`smsim ... | head` once head is gone).
void stdout_to_a_closed_pipe()
{
    int fds[2];
    if (pipe(fds) != 0 || close(fds[0]) != 0 || dup2(fds[1], 1) < 0)
        _exit(126);
    close(fds[1]);
}

} // namespace

// Standard output closed while kernels remain: the first failed write's SIGPIPE stops the run
// before the next kernel (its repeats, at every later write, are no second signal: the process
// exits, it is not killed), the JSON and the CSV are written with the kernels that ran, marked
// incomplete, and the write error is said too. Where the run stops depends on when stdio's
// buffer first goes out: vectoradd's six kernels print more than one buffer.
TEST_P(Engine, StandardOutputToAClosedPipeStopsTheRun)
{
    const std::string dir = fresh_dir(std::string("signals_pipe_") + GetParam());
    const std::string list = vectoradd_list(dir, 6);
    e2e::ChildSetup setup;
    setup.before_exec = stdout_to_a_closed_pipe;
    const e2e::Ended e = e2e::wait_smsim(e2e::start_smsim({"-smtlm_engine", GetParam(), "-trace", list, "-smtlm_stats_json",
                                                            dir + "/s.json", "-smtlm_stats_csv", dir + "/s.csv"},
                                                           dir, setup));
    ASSERT_TRUE(e.exited) << "ended by signal " << e.code;
    EXPECT_EQ(e.code, 128 + SIGPIPE);
    std::smatch m;
    ASSERT_TRUE(std::regex_match(e.err, m, std::regex("smsim: SIGPIPE: stopped before kernel ([2-6]); the statistics so far are "
                                                      "marked incomplete\nsmsim: standard output: write error: Broken pipe\n")))
        << e.err;
    const int ran = std::stoi(m[1]) - 1;
    const std::string json = dir + "/s.json";
    EXPECT_EQ(json_leaf(json, "complete"), "false");
    EXPECT_EQ(json_leaf(json, "exit_status"), std::to_string(128 + SIGPIPE));
    EXPECT_EQ(json_leaf(json, "kernels[" + std::to_string(ran - 1) + "].kernel_launch_uid"), std::to_string(ran));
    EXPECT_EQ(json_leaf(json, "kernels[" + std::to_string(ran) + "].kernel_launch_uid"), "<none>");
    const std::string csv = e2e::read(dir + "/s.csv");
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), ran + 1) << csv; // + the header
    EXPECT_EQ(listing(dir), (std::vector<std::string>{"kernel-1.traceg", "kernelslist.g", "s.csv", "s.json", "stderr", "stdout"}));
}

// One kernel: its statistics go out at the end, after the GPU's last poll; the run still ends
// as a stopped one, and its files are written and marked.
TEST_P(Engine, StandardOutputToAClosedPipeAfterTheLastKernel)
{
    const std::string dir = fresh_dir(std::string("signals_pipe_end_") + GetParam());
    e2e::ChildSetup setup;
    setup.before_exec = stdout_to_a_closed_pipe;
    const e2e::Ended e = e2e::wait_smsim(e2e::start_smsim(
        {"-smtlm_engine", GetParam(), "-smtlm_synth_insts", "20", "-smtlm_stats_json", dir + "/s.json"}, dir, setup));
    ASSERT_TRUE(e.exited) << "ended by signal " << e.code;
    EXPECT_EQ(e.code, 128 + SIGPIPE);
    EXPECT_EQ(e.err, "smsim: standard output: write error: Broken pipe\nsmsim: SIGPIPE: came after the last kernel ran; "
                     "the statistics are marked incomplete\n");
    const std::string json = dir + "/s.json";
    EXPECT_EQ(json_leaf(json, "complete"), "false");
    EXPECT_EQ(json_leaf(json, "exit_status"), std::to_string(128 + SIGPIPE));
    EXPECT_EQ(json_leaf(json, "error"), "standard output: write error: Broken pipe");
    EXPECT_EQ(json_leaf(json, "kernels[0].kernel_name"), "smtlm_synthetic");
    EXPECT_EQ(listing(dir), (std::vector<std::string>{"s.json", "stderr", "stdout"}));
}

// An output over the file-size limit (ulimit -f): its SIGXFSZ stops the run at the next poll;
// that output is not put in place (its write failed) and leaves no temporary file, the JSON
// is written, marked incomplete. The event log of a long run passes 1 MiB within its first
// thousands of cycles; the JSON and the text stay far below.
TEST_P(Engine, AnOutputOverTheFileSizeLimitStopsTheRun)
{
    const std::string dir = fresh_dir(std::string("signals_fsize_") + GetParam());
    e2e::ChildSetup setup;
    setup.before_exec = [] {
        const struct rlimit mib = {1 << 20, 1 << 20};
        if (setrlimit(RLIMIT_FSIZE, &mib) != 0)
            _exit(126);
    };
    const e2e::Ended e = e2e::wait_smsim(e2e::start_smsim({"-smtlm_engine", GetParam(), "-smtlm_synth_insts", "100000000",
                                                            "-smtlm_stats_json", dir + "/s.json", "-smtlm_event_log",
                                                            dir + "/e.log"},
                                                           dir, setup));
    ASSERT_TRUE(e.exited) << "ended by signal " << e.code;
    EXPECT_EQ(e.code, 128 + SIGXFSZ);
    EXPECT_TRUE(std::regex_match(e.err, std::regex("smsim: SIGXFSZ: stopped at cycle [0-9]+ of kernel 1 \\(smtlm_synthetic\\); the "
                                                   "statistics so far are marked incomplete\nsmsim: " + dir +
                                                   "/e.log: write error: File too large\n")))
        << e.err;
    EXPECT_EQ(json_leaf(dir + "/s.json", "complete"), "false");
    EXPECT_EQ(json_leaf(dir + "/s.json", "exit_status"), std::to_string(128 + SIGXFSZ));
    EXPECT_EQ(listing(dir), (std::vector<std::string>{"s.json", "stderr", "stdout"}));
}

INSTANTIATE_TEST_SUITE_P(Signals, Engine, ::testing::Values("c", "systemc"),
                         [](const ::testing::TestParamInfo<const char *> &i) { return std::string(i.param); });
