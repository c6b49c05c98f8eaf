// An output that is where smsim's own standard output or standard error already goes (the
// same file: device and inode, whatever name reaches it) is refused, in a run and under
// -smtlm_check_options: it would be mixed with smsim's text, or renamed over the file the shell
// appends that text to. Two outputs on one stream are refused naming both. Only a whole process
// shows this: its descriptors 1 and 2 are what the shell gave it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include "scratch_files.hpp"
#include "smsim_process.hpp"

namespace {

using e2e::fresh_dir;

// smsim with stdout and stderr appended to dir/stdout and dir/stderr (`>> stdout 2>> stderr`),
// which hold `before` and nothing.
e2e::Ended run_appending(const std::string &dir, const std::vector<std::string> &args, const std::string &before)
{
    e2e::write_file(dir + "/stdout", before);
    e2e::write_file(dir + "/stderr", "");
    e2e::ChildSetup setup;
    setup.append = true;
    return e2e::wait_smsim(e2e::start_smsim(args, dir, setup));
}

const char *const k_earlier = "an earlier run's text\n";

} // namespace

TEST(OutputStreams, AnOutputOnStandardOutputIsRefusedWhateverNameReachesIt)
{
    const std::string dir = fresh_dir("streams_stdout");
    ASSERT_EQ(symlink((dir + "/stdout").c_str(), (dir + "/link").c_str()), 0);
    for (const std::string &name : {dir + "/stdout", std::string("/dev/stdout"), std::string("/dev/fd/1"),
                                    std::string("/proc/self/fd/1"), dir + "/link"})
        for (const char *check : {"0", "1"}) {
            const e2e::Ended e = run_appending(
                dir, {"-smtlm_synth_insts", "20", "-smtlm_stats_json", name, "-smtlm_check_options", check}, k_earlier);
            ASSERT_TRUE(e.exited) << name;
            EXPECT_EQ(e.code, 2) << name;
            EXPECT_EQ(e.err, "smsim: <command line>:3: -smtlm_stats_json " + name + ": is smsim's standard output, which "
                             "carries its text; an output never shares a stream with it (-smtlm_stats_json - puts the "
                             "JSON alone on standard output)\n");
            EXPECT_EQ(e.out, k_earlier) << name; // kept, not replaced
        }
}

TEST(OutputStreams, AnOutputOnStandardErrorIsRefused)
{
    const std::string dir = fresh_dir("streams_stderr");
    for (const std::string &name : {dir + "/stderr", std::string("/dev/stderr"), std::string("/dev/fd/2")})
        for (const char *check : {"0", "1"}) {
            const e2e::Ended e = run_appending(
                dir, {"-smtlm_synth_insts", "20", "-smtlm_event_log", name, "-smtlm_check_options", check}, "");
            ASSERT_TRUE(e.exited) << name;
            EXPECT_EQ(e.code, 2) << name;
            EXPECT_EQ(e.err, "smsim: <command line>:3: -smtlm_event_log " + name + ": is smsim's standard error, which "
                             "carries its messages; an output never shares a stream with it\n");
            EXPECT_EQ(e.out, "") << name;
        }
}

// `-smtlm_stats_json -` takes standard output for the JSON alone: another output there, or
// standard error on the same file (2>&1), would interleave with it.
TEST(OutputStreams, TheJsonOnStandardOutputHasItAlone)
{
    const std::string dir = fresh_dir("streams_two");
    for (const char *check : {"0", "1"}) {
        const e2e::Ended e = run_appending(dir, {"-smtlm_synth_insts", "20", "-smtlm_stats_json", "-", "-smtlm_stats_csv",
                                                 "/dev/stdout", "-smtlm_check_options", check},
                                           "");
        ASSERT_TRUE(e.exited);
        EXPECT_EQ(e.code, 2);
        EXPECT_EQ(e.err, "smsim: <command line>:5: -smtlm_stats_csv /dev/stdout: is standard output, which "
                         "-smtlm_stats_json - (<command line>:3) takes; each output needs a file of its own\n");
        EXPECT_EQ(e.out, "");
    }
    e2e::ChildSetup both; // 2>&1
    both.before_exec = [] {
        if (dup2(1, 2) < 0)
            _exit(126);
    };
    const e2e::Ended e = e2e::wait_smsim(
        e2e::start_smsim({"-smtlm_synth_insts", "20", "-smtlm_stats_json", "-"}, dir, both));
    ASSERT_TRUE(e.exited);
    EXPECT_EQ(e.code, 2);
    EXPECT_EQ(e.out, "smsim: <command line>:3: -smtlm_stats_json -: standard output is also smsim's standard error, "
                     "which carries its text when the JSON is on standard output; the JSON needs a stream of its own\n");
}

// A character device is a sink, not a file: /dev/null as smsim's standard output and as an
// output loses nothing that was kept.
TEST(OutputStreams, ASinkIsNoStreamOfSmsims)
{
    const std::string dir = fresh_dir("streams_sink");
    e2e::ChildSetup null_out;
    null_out.before_exec = [] {
        const int fd = open("/dev/null", O_WRONLY);
        if (fd < 0 || dup2(fd, 1) < 0)
            _exit(126);
    };
    const e2e::Ended e = e2e::wait_smsim(
        e2e::start_smsim({"-smtlm_synth_insts", "20", "-smtlm_stats_csv", "/dev/stdout"}, dir, null_out));
    ASSERT_TRUE(e.exited);
    EXPECT_EQ(e.code, 0) << e.err;
}
