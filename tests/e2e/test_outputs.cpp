// smsim's output files: never an input of the run or another output (refused, naming both, in
// a run and under -smtlm_check_options), written whole or not at all, every write checked; and
// a run that did not complete says so in its stats JSON.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "one_warp_trace.hpp"
#include "scratch_files.hpp"

namespace {

using e2e::fresh_dir;
using e2e::json_leaf;
using e2e::listing;
using e2e::read;

// vectoradd's kernel list and trace copied into dir (a user's own copy, free to spoil).
std::string copy_vectoradd(const std::string &dir)
{
    const std::string from = e2e::data("traces/vectoradd-100-32-trace");
    e2e::write_file(dir + "/kernel-1.traceg", read(from + "/kernel-1.traceg"));
    e2e::write_file(dir + "/kernelslist.g", read(from + "/kernelslist.g"));
    return dir + "/kernelslist.g";
}

// vectoradd's kernel, then a second one that cannot run (its thread block needs more shared
// memory than a QV100 SM has: 100000 B against 98304), listed in dir; returns the list.
std::string list_with_a_kernel_that_cannot_run(const std::string &dir)
{
    copy_vectoradd(dir);
    std::string k2 = read(dir + "/kernel-1.traceg");
    const size_t at = k2.find("-shmem = 0\n");
    if (at == std::string::npos)
        return "";
    k2.replace(at, 11, "-shmem = 100000\n");
    e2e::write_file(dir + "/kernel-2.traceg", k2);
    e2e::write_file(dir + "/kernelslist.g", "kernel-1.traceg\nkernel-2.traceg\n");
    return dir + "/kernelslist.g";
}

// What a run says of that second kernel.
std::string cannot_run(const std::string &dir)
{
    return dir + "/kernel-2.traceg: a thread block (1024 threads, 100000 B shared memory, 8 registers/thread) cannot "
                 "run on an SM: its shared memory exceeds -gpgpu_shmem_size";
}

const char *const k_full = "/dev/full";

} // namespace

// ---------------------------------------------------------------- an output that is an input

TEST(Outputs, AnOutputOnAKernelTraceIsRefusedAndTheTraceKept)
{
    const std::string dir = fresh_dir("outputs_on_trace");
    const std::string list = copy_vectoradd(dir), trace = dir + "/kernel-1.traceg";
    const std::string before = read(trace);
    for (const char *check : {"0", "1"}) {
        const e2e::Result r =
            e2e::smsim({"-trace", list, "-smtlm_stats_json", trace, "-smtlm_check_options", check});
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(r.err, "smsim: <command line>:3: -smtlm_stats_json " + trace + ": is the kernel trace " + trace + " (" +
                             list + ":4); an output never replaces an input\n");
        EXPECT_EQ(read(trace), before);
    }
    EXPECT_EQ(listing(dir), (std::vector<std::string>{"kernel-1.traceg", "kernelslist.g"}));
}

TEST(Outputs, AnOutputOnTheTraceListOrASingleTraceIsRefused)
{
    const std::string dir = fresh_dir("outputs_on_list");
    const std::string list = copy_vectoradd(dir), trace = dir + "/kernel-1.traceg";
    const std::string list_text = read(list), trace_text = read(trace);
    e2e::Result r = e2e::smsim({"-trace", list, "-smtlm_event_log", list});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "smsim: <command line>:3: -smtlm_event_log " + list + ": is the trace given by -trace "
                     "(<command line>:1); an output never replaces an input\n");
    r = e2e::smsim({"-trace", trace, "-smtlm_report", trace});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find(": is the trace given by -trace (<command line>:1)"), std::string::npos) << r.err;
    EXPECT_EQ(read(list), list_text);
    EXPECT_EQ(read(trace), trace_text);
}

// The config files count, nested ones too (a relative -config found beside the file that
// includes it), however the output path reaches them (another spelling, a symbolic link).
TEST(Outputs, AnOutputOnAConfigFileIsRefusedNestedOnesToo)
{
    const std::string dir = fresh_dir("outputs_on_config");
    e2e::write_file(dir + "/top.config", "-config inner.config\n");
    e2e::write_file(dir + "/inner.config", "-gpgpu_num_reg_banks 8\n");
    ASSERT_EQ(symlink((dir + "/inner.config").c_str(), (dir + "/link.csv").c_str()), 0);
    const std::string inner = read(dir + "/inner.config");
    for (const std::string &out : {dir + "/inner.config", dir + "/./inner.config", dir + "/link.csv"})
        for (const char *check : {"0", "1"}) {
            const e2e::Result r =
                e2e::smsim({"-config", dir + "/top.config", "-smtlm_stats_csv", out, "-smtlm_check_options", check});
            EXPECT_EQ(r.status, 2) << out;
            EXPECT_EQ(r.err, "smsim: <command line>:3: -smtlm_stats_csv " + out + ": is the config file " + dir +
                                 "/inner.config; an output never replaces an input\n");
        }
    EXPECT_EQ(read(dir + "/inner.config"), inner);
}

TEST(Outputs, TwoOutputsOnOneFileAreRefused)
{
    const std::string dir = fresh_dir("outputs_two");
    for (const char *check : {"0", "1"}) {
        const e2e::Result r = e2e::smsim({"-smtlm_stats_json", dir + "/x", "-smtlm_stats_csv", dir + "/./x",
                                          "-smtlm_check_options", check});
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(r.err, "smsim: <command line>:3: -smtlm_stats_csv " + dir + "/./x: is the same file as "
                         "-smtlm_stats_json " + dir + "/x (<command line>:1); each output needs a file of its own\n");
    }
    EXPECT_TRUE(listing(dir).empty());
}

// A character device is a sink, not a file an output could spoil: several outputs may share it.
TEST(Outputs, DevNullTakesSeveralOutputs)
{
    const e2e::Result r = e2e::smsim({"-smtlm_synth_insts", "20", "-smtlm_stats_json", "/dev/null", "-smtlm_stats_csv",
                                      "/dev/null"});
    EXPECT_EQ(r.status, 0) << r.err;
}

// ---------------------------------------------------------------- files that are not replaced

// A file the user may not write is never replaced, whoever runs smsim: one with no write
// permission bit (read-only) neither, even for root, who may write any file. The run and
// -smtlm_check_options decide it by one rule; the file keeps its contents, inode and mode.
TEST(Outputs, AReadOnlyFileIsNeverReplaced)
{
    const std::string dir = fresh_dir("outputs_read_only");
    const std::string path = dir + "/kept.json";
    e2e::write_file(path, "{\"an earlier\": \"run\"}\n");
    ASSERT_EQ(chmod(path.c_str(), 0444), 0);
    struct stat before, after;
    ASSERT_EQ(stat(path.c_str(), &before), 0);
    for (const char *check : {"0", "1"}) {
        const e2e::Result r =
            e2e::smsim({"-smtlm_synth_insts", "20", "-smtlm_stats_json", path, "-smtlm_check_options", check});
        EXPECT_EQ(r.status, 2) << check;
        EXPECT_EQ(r.err, "smsim: " + path + ": cannot open for writing: Permission denied\n") << check;
    }
    ASSERT_EQ(stat(path.c_str(), &after), 0);
    EXPECT_EQ(read(path), "{\"an earlier\": \"run\"}\n");
    EXPECT_EQ(after.st_ino, before.st_ino);
    EXPECT_EQ(after.st_mode & 07777, 0444u);
    EXPECT_EQ(listing(dir), (std::vector<std::string>{"kept.json"}));
}

// A symbolic link to a file not there yet is followed like any link: the file is created at
// its target (relative to the link's directory, through a chain of links), the links stay.
// Two outputs reaching one file that way are one file.
TEST(Outputs, ALinkToAFileNotThereYetIsFollowed)
{
    const std::string dir = fresh_dir("outputs_dangling");
    ASSERT_EQ(mkdir((dir + "/sub").c_str(), 0755), 0);
    ASSERT_EQ(symlink("sub/s.json", (dir + "/s.json").c_str()), 0);
    ASSERT_EQ(symlink((dir + "/sub/k.csv").c_str(), (dir + "/k2.csv").c_str()), 0);
    ASSERT_EQ(symlink("k2.csv", (dir + "/k.csv").c_str()), 0);
    const e2e::Result r = e2e::smsim({"-smtlm_synth_insts", "20", "-smtlm_stats_json", dir + "/s.json", "-smtlm_stats_csv",
                                      dir + "/k.csv"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(json_leaf(dir + "/sub/s.json", "complete"), "true");
    EXPECT_EQ(read(dir + "/k.csv").rfind("kernel_name,", 0), 0u) << read(dir + "/k.csv");
    char target[64] = {0};
    EXPECT_EQ(readlink((dir + "/s.json").c_str(), target, sizeof target - 1), 10);
    EXPECT_STREQ(target, "sub/s.json");
    EXPECT_EQ(listing(dir), (std::vector<std::string>{"k.csv", "k2.csv", "s.json", "sub"}));
    EXPECT_EQ(listing(dir + "/sub"), (std::vector<std::string>{"k.csv", "s.json"}));
    ASSERT_EQ(symlink("sub/new.json", (dir + "/new.json").c_str()), 0);
    for (const char *check : {"0", "1"}) {
        const e2e::Result twice = e2e::smsim({"-smtlm_stats_json", dir + "/new.json", "-smtlm_stats_csv",
                                              dir + "/sub/new.json", "-smtlm_check_options", check});
        EXPECT_EQ(twice.status, 2);
        EXPECT_EQ(twice.err, "smsim: <command line>:3: -smtlm_stats_csv " + dir + "/sub/new.json: is the same file as "
                             "-smtlm_stats_json " + dir + "/new.json (<command line>:1); each output needs a file of its own\n");
    }
    EXPECT_EQ(listing(dir + "/sub"), (std::vector<std::string>{"k.csv", "s.json"}));
}

// ---------------------------------------------------------------- messages naming long paths

namespace {

// The path that ends at `length` characters under dir, made of directories (each name at most
// 200 characters); created.
std::string deep_dir(const std::string &dir, size_t length)
{
    std::string path = dir;
    bool made = true;
    while (made && path.size() < length) {
        const size_t n = std::min<size_t>(200, length - path.size() - 1);
        path.append(1, '/').append(n, 'd');
        made = mkdir(path.c_str(), 0755) == 0;
    }
    if (!made)
        path.clear();
    return path;
}

} // namespace

// A message keeps its reason however long the paths it names: an output path of 5000
// characters is said whole, with why it cannot be written; a kernel trace at a path of nearly
// PATH_MAX characters that cannot run is said whole on stderr and in the JSON's "error".
TEST(Outputs, AMessageKeepsItsReasonHoweverLongThePath)
{
    const std::string dir = fresh_dir("outputs_long_path");
    std::string out = dir;
    while (out.size() < 5000)
        out += "/abcdefghij";
    out += "/s.json";
    for (const char *check : {"0", "1"}) {
        const e2e::Result r = e2e::smsim({"-smtlm_stats_json", out, "-smtlm_check_options", check});
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(r.err, "smsim: " + out + ": cannot open for writing: File name too long\n");
    }
    const std::string deep = deep_dir(dir, PATH_MAX - 40);
    ASSERT_FALSE(deep.empty());
    const std::string list = list_with_a_kernel_that_cannot_run(deep);
    ASSERT_FALSE(list.empty());
    const e2e::Result r = e2e::smsim({"-trace", list, "-smtlm_stats_json", deep + "/s.json"});
    EXPECT_EQ(r.status, 2);
    const std::string error = cannot_run(deep);
    ASSERT_GT(error.size(), 4096u); // longer than the messages were cut at
    EXPECT_EQ(r.err, "smsim: " + error + "\n");
    EXPECT_EQ(json_leaf(deep + "/s.json", "error"), error);
}

// A value refused where a config file set it: the message names the file and the line, whole,
// however long the file's path (the line number came after a cut at 256 characters), for the
// option table's ranges and for the engine's own checks alike.
TEST(Outputs, AConfigFilesLineIsNamedHoweverLongItsPath)
{
    const std::string deep = deep_dir(fresh_dir("outputs_long_config"), PATH_MAX - 40);
    ASSERT_FALSE(deep.empty());
    const struct {
        const char *line, *reason;
    } cases[] = {{"-gpgpu_num_reg_banks 0", ": -gpgpu_num_reg_banks: must be in 1..64"},
                 {"-smtlm_threads 65", ": -smtlm_threads: 65 is not -1 (automatic) or a thread count from 1 to 64"},
                 {"-smtlm_addr_map 1:0:0", ": -smtlm_addr_map: '1:0:0' is not <trace_base>:<size>:<soc_base>"}};
    for (const auto &c : cases) {
        const std::string config = deep + "/c.config";
        e2e::write_file(config, std::string("# a comment first\n") + c.line + "\n");
        const e2e::Result r = e2e::smsim({"-smtlm_engine", "c", "-config", config, "-smtlm_check_options", "1"});
        EXPECT_EQ(r.status, 2) << c.line;
        EXPECT_EQ(r.err.rfind("smsim: " + config + ":2" + c.reason, 0), 0u) << c.line << ": " << r.err.substr(r.err.size() > 200 ? r.err.size() - 200 : 0);
    }
}

// ---------------------------------------------------------------- failed writes

// Every output: a write that fails is exit status 2 naming the file and the reason, and the
// stats JSON (when it could be written) says the run did not complete and why.
TEST(Outputs, AFailedWriteIsAnErrorForEveryOutput)
{
    const std::string dir = fresh_dir("outputs_full");
    const std::string json = dir + "/stats.json";
    for (const char *opt : {"-smtlm_stats_json", "-smtlm_stats_csv", "-smtlm_event_log", "-smtlm_report",
                            "-smtlm_pipeline_log", "-smtlm_vcd"}) {
        std::vector<std::string> args = {"-smtlm_synth_insts", "20", opt, k_full};
        if (std::string(opt) != "-smtlm_stats_json")
            args.insert(args.end(), {"-smtlm_stats_json", json});
        const e2e::Result r = e2e::smsim(args);
        EXPECT_EQ(r.status, 2) << opt;
        EXPECT_NE(r.err.find("smsim: /dev/full: write error: No space left on device\n"), std::string::npos)
            << opt << ": " << r.err;
        EXPECT_EQ(r.out.find("exit detected"), std::string::npos) << opt;
        if (std::string(opt) == "-smtlm_stats_json")
            continue;
        EXPECT_EQ(json_leaf(json, "complete"), "false") << opt;
        EXPECT_EQ(json_leaf(json, "exit_status"), "2") << opt;
        EXPECT_EQ(json_leaf(json, "error"), "/dev/full: write error: No space left on device") << opt;
    }
}

TEST(Outputs, AFailedWriteToStandardOutputIsAnError)
{
    FILE *out = std::fopen(k_full, "w");
    ASSERT_NE(out, nullptr);
    FILE *err = std::tmpfile();
    const char *argv[] = {"smsim", "-smtlm_synth_insts", "20"};
    const int status = smtlm_smsim(3, argv, out, err);
    std::fclose(out);
    EXPECT_EQ(status, 2);
    EXPECT_EQ(e2e::slurp(err), "smsim: standard output: write error: No space left on device\n");
    std::fclose(err);
}

// A run that fails before it ends leaves every file it would have replaced as it was: here the
// CSV cannot be created, after the stats JSON's and the report's paths were taken.
TEST(Outputs, ARunThatFailsKeepsTheFilesItWouldReplace)
{
    const std::string dir = fresh_dir("outputs_keep");
    e2e::write_file(dir + "/stats.json", "{\"an earlier\": \"run\"}\n");
    e2e::write_file(dir + "/report.html", "<p>an earlier run</p>\n");
    const e2e::Result r = e2e::smsim({"-smtlm_stats_json", dir + "/stats.json", "-smtlm_report", dir + "/report.html",
                                      "-smtlm_stats_csv", dir + "/no-such-dir/k.csv"});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "smsim: " + dir + "/no-such-dir/k.csv: cannot open for writing: No such file or directory\n");
    EXPECT_EQ(read(dir + "/stats.json"), "{\"an earlier\": \"run\"}\n");
    EXPECT_EQ(read(dir + "/report.html"), "<p>an earlier run</p>\n");
    EXPECT_EQ(listing(dir), (std::vector<std::string>{"report.html", "stats.json"}));
}

// A new file gets the usual permissions (the umask's), a replaced one keeps its own.
TEST(Outputs, AReplacedFileKeepsItsPermissions)
{
    const std::string dir = fresh_dir("outputs_mode");
    e2e::write_file(dir + "/kept.json", "{}\n");
    ASSERT_EQ(chmod((dir + "/kept.json").c_str(), 0640), 0);
    const mode_t mask = umask(022);
    const e2e::Result r = e2e::smsim({"-smtlm_synth_insts", "20", "-smtlm_stats_json", dir + "/kept.json",
                                      "-smtlm_stats_csv", dir + "/new.csv"});
    umask(mask);
    ASSERT_EQ(r.status, 0) << r.err;
    struct stat kept, fresh;
    ASSERT_EQ(stat((dir + "/kept.json").c_str(), &kept), 0);
    ASSERT_EQ(stat((dir + "/new.csv").c_str(), &fresh), 0);
    EXPECT_EQ(kept.st_mode & 0777, 0640u);
    EXPECT_EQ(fresh.st_mode & 0777, 0644u);
    EXPECT_EQ(json_leaf(dir + "/kept.json", "complete"), "true");
}

// ---------------------------------------------------------------- runs that did not complete

TEST(Outputs, ACompleteRunSaysSo)
{
    const std::string dir = fresh_dir("outputs_complete");
    const e2e::Result r = e2e::smsim({"-smtlm_synth_insts", "20", "-smtlm_stats_json", dir + "/s.json"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(json_leaf(dir + "/s.json", "complete"), "true");
    EXPECT_EQ(json_leaf(dir + "/s.json", "exit_status"), "0");
    EXPECT_EQ(json_leaf(dir + "/s.json", "error"), "");
}

// A later kernel of the list that cannot run: the kernels before it are in the file, which says
// the run did not complete, and why.
TEST(Outputs, ALaterKernelThatCannotRunMakesTheRunIncomplete)
{
    const std::string dir = fresh_dir("outputs_later_kernel");
    const std::string list = list_with_a_kernel_that_cannot_run(dir);
    ASSERT_FALSE(list.empty());
    const e2e::Result r = e2e::smsim({"-trace", list, "-smtlm_stats_json", dir + "/s.json"});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(json_leaf(dir + "/s.json", "complete"), "false");
    EXPECT_EQ(json_leaf(dir + "/s.json", "exit_status"), "2");
    EXPECT_EQ(json_leaf(dir + "/s.json", "kernels[0].kernel_name"), "_Z6vecAddIfEvPT_S1_S1_i");
    EXPECT_EQ(json_leaf(dir + "/s.json", "kernels[1].kernel_name"), "<none>");
    const std::string error = json_leaf(dir + "/s.json", "error");
    EXPECT_EQ(error, cannot_run(dir));
    EXPECT_EQ(r.err, "smsim: " + error + "\n");
    EXPECT_EQ(r.out.find("exit detected"), std::string::npos);
}

TEST(Outputs, AKernelThatCannotFitMakesTheRunIncomplete)
{
    const std::string dir = fresh_dir("outputs_no_fit");
    const e2e::Result r = e2e::smsim({"-trace", e2e::data("traces/vectoradd-100-32-trace/kernelslist.g"),
                                      "-gpgpu_shader_registers", "1024", "-smtlm_stats_json", dir + "/s.json"});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(json_leaf(dir + "/s.json", "complete"), "false");
    EXPECT_EQ(json_leaf(dir + "/s.json", "kernels[0].kernel_name"), "<none>");
    EXPECT_NE(json_leaf(dir + "/s.json", "error").find("cannot run on an SM: its registers exceed"), std::string::npos);
}

// The watchdog: the stuck kernel's statistics are in the file, which says the run did not
// complete (exit status 1) and why.
TEST(Outputs, TheWatchdogMakesTheRunIncomplete)
{
    const std::string dir = fresh_dir("outputs_watchdog");
    // Muon's option2 deadlock (docs/MUON.md): a reader's pending count holds a writer's writeback.
    const std::string trace = e2e::one_warp_trace(
        "outputs_watchdog_trace",
        {"1 R7 LDG.E 1 R5 4 1 0x7f2000000000 4", "1 R5 IADD3 1 R1 0", "1 R8 IADD3 1 R5 0"});
    const e2e::Result r = e2e::smsim({"-config", e2e::project_config("muon-rtl.config"), "-smtlm_muon_war", "option2",
                                      "-smtlm_watchdog_cycles", "2000", "-trace", trace, "-smtlm_stats_json",
                                      dir + "/s.json"});
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(json_leaf(dir + "/s.json", "complete"), "false");
    EXPECT_EQ(json_leaf(dir + "/s.json", "exit_status"), "1");
    EXPECT_EQ(json_leaf(dir + "/s.json", "kernels[0].kernel_name"), "outputs_watchdog_trace");
    EXPECT_EQ(json_leaf(dir + "/s.json", "error").rfind("deadlock: nothing issued, retired or answered by memory for 2000 cycles", 0), 0u);
}

// -smtlm_compare never takes the statistics of a run that did not complete for a result: it
// refuses the file, naming it and the run's error (exit 2), whichever side it is on.
TEST(Outputs, CompareRefusesARunThatDidNotComplete)
{
    const std::string dir = fresh_dir("outputs_compare");
    ASSERT_EQ(e2e::smsim({"-smtlm_synth_insts", "20", "-smtlm_stats_json", dir + "/good.json"}).status, 0);
    const e2e::Result failed = e2e::smsim({"-smtlm_synth_insts", "20", "-smtlm_stats_json", dir + "/failed.json",
                                           "-smtlm_event_log", k_full});
    ASSERT_EQ(failed.status, 2);
    const std::string why = "(exit status 2: /dev/full: write error: No space left on device); its statistics are "
                            "not a result to compare\n";
    e2e::Result r = e2e::smsim({"-smtlm_compare", dir + "/good.json", dir + "/failed.json"});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "smsim: " + dir + "/failed.json: the run did not complete " + why);
    r = e2e::smsim({"-smtlm_compare", dir + "/failed.json", dir + "/good.json"});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "smsim: " + dir + "/failed.json: the run did not complete " + why);
    // two complete runs compare as before: how a run ended is not a counter
    r = e2e::smsim({"-smtlm_compare", dir + "/good.json", dir + "/good.json"});
    EXPECT_EQ(r.status, 0) << r.out;
}
