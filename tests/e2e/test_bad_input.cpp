// Bad input of every class: smsim answers with exit status 2 and ONE message naming the file
// and line, never a crash, hang or silent skip.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "smsim_run.hpp"

namespace {

const char *kHeader = "-kernel name = bad\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n"
                      "-nregs = 16\n-binary version = 70\n-cuda stream id = 0\n-shmem base_addr = 0x0\n"
                      "-local mem base_addr = 0x0\n-nvbit version = 1.5.5\n-accelsim tracer version = 4\n"
                      "-enable lineinfo = 0\n\n#traces format = PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
                      "mem_width [adrrescompress?] [mem_addresses]\n\n#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\n"
                      "insts = 2\n";
const unsigned kFirstLine = 23; // line number of the first instruction in kHeader + body

// A one-warp trace whose first instruction is `line`, then EXIT.
std::string trace_with(const std::string &name, const std::string &line)
{
    const std::string dir = e2e::scratch("bad_" + name);
    e2e::write_file(dir + "/kernel-1.traceg", std::string(kHeader) + line + "\n0010 ffffffff 0 EXIT 0 0\n#END_TB\n");
    e2e::write_file(dir + "/kernelslist.g", "kernel-1.traceg\n");
    return dir;
}

int lines(const std::string &s) { return (int)std::count(s.begin(), s.end(), '\n'); }

void expect_one_error(const e2e::Result &r, const std::string &where, const std::string &what)
{
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(where), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
}

e2e::Result run_trace(const std::string &dir, std::vector<std::string> extra = {})
{
    std::vector<std::string> args = {"-trace", dir + "/kernelslist.g"};
    args.insert(args.end(), extra.begin(), extra.end());
    return e2e::smsim(args);
}

const std::string at_line(const std::string &dir) { return dir + "/kernel-1.traceg:" + std::to_string(kFirstLine); }

TEST(BadInput, MalformedTraceLine)
{
    std::string dir = trace_with("malformed", "0000 ffffffff 1 R2 FFMA three R2 R4 R6 0");
    expect_one_error(run_trace(dir), at_line(dir), "malformed");
}

TEST(BadInput, UnknownOpcode)
{
    std::string dir = trace_with("opcode", "0000 ffffffff 1 R2 FROB 2 R2 R4 0");
    expect_one_error(run_trace(dir), at_line(dir), "unknown opcode FROB");
}

TEST(BadInput, TooManySources)
{
    std::string dir = trace_with("sources", "0000 ffffffff 1 R2 FFMA 5 R2 R4 R6 R8 R10 0");
    expect_one_error(run_trace(dir), at_line(dir), "source");
}

TEST(BadInput, UnknownAddressMode)
{
    std::string dir = trace_with("addrmode", "0000 ffffffff 1 R2 LDG.E 1 R4 4 7 0x1000 4");
    expect_one_error(run_trace(dir), at_line(dir), "address mode");
}

TEST(BadInput, MissingTraceFile)
{
    const std::string dir = e2e::scratch("bad_missing");
    e2e::write_file(dir + "/kernelslist.g", "kernel-1.traceg\n");
    expect_one_error(run_trace(dir), dir + "/kernelslist.g:1", "kernel-1.traceg");
}

TEST(BadInput, MissingKernelList)
{
    e2e::Result r = e2e::smsim({"-trace", "/nonexistent/kernelslist.g"});
    expect_one_error(r, "/nonexistent/kernelslist.g", "cannot open");
}

TEST(BadInput, UnreadableTraceIsADirectory)
{
    const std::string dir = e2e::scratch("bad_dir");
    ASSERT_EQ(std::system(("mkdir -p '" + dir + "/kernel-1.traceg'").c_str()), 0);
    e2e::write_file(dir + "/kernelslist.g", "kernel-1.traceg\n");
    e2e::Result r = run_trace(dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("kernel-1.traceg"), std::string::npos) << r.err;
}

// Options set in a config file, so errors name that file and line.
std::string config_with(const std::string &name, const std::string &text)
{
    const std::string dir = e2e::scratch("cfg_" + name);
    e2e::write_file(dir + "/bad.config", "# a config with one bad line\n-gpgpu_kernel_launch_latency 0\n" + text + "\n");
    return dir + "/bad.config";
}

TEST(BadInput, UnknownOptionNamesNearest)
{
    std::string cfg = config_with("unknown", "-gpgpu_num_reg_bank 8");
    e2e::Result r = e2e::smsim({"-config", e2e::project_config("qv100.config"), "-config", cfg});
    expect_one_error(r, cfg + ":3", "unknown option -gpgpu_num_reg_bank (did you mean -gpgpu_num_reg_banks?)");
}

TEST(BadInput, BadValue)
{
    std::string cfg = config_with("value", "-gpgpu_num_reg_banks sixteen");
    e2e::Result r = e2e::smsim({"-config", e2e::project_config("qv100.config"), "-config", cfg});
    expect_one_error(r, cfg + ":3", "bad value 'sixteen'");
}

TEST(BadInput, BanksNotDivisibleBySchedulers)
{
    std::string cfg = config_with("banks", "-gpgpu_num_reg_banks 10");
    e2e::Result r = e2e::smsim({"-config", e2e::project_config("qv100.config"), "-config", cfg});
    expect_one_error(r, cfg + ":3", "-gpgpu_num_reg_banks: 10 register banks cannot be split over 4 schedulers");
}

TEST(BadInput, ZeroCollectorUnits)
{
    std::string cfg = config_with("cus", "-gpgpu_operand_collector_num_units_gen 0");
    e2e::Result r = e2e::smsim({"-config", e2e::project_config("qv100.config"), "-config", cfg});
    expect_one_error(r, cfg + ":3", "no collector unit");
}

TEST(BadInput, LatencyBelowInitiationInterval)
{
    std::string cfg = config_with("lat", "-trace_opcode_latency_initiation_sp 1,2");
    e2e::Result r = e2e::smsim({"-config", e2e::project_config("qv100.config"), "-config", cfg});
    expect_one_error(r, cfg + ":3", "latency 1 is below the initiation interval 2");
}

TEST(BadInput, LatencyBeyondThePipeline)
{
    std::string cfg = config_with("depth", "-trace_opcode_latency_initiation_sfu 400,8");
    e2e::Result r = e2e::smsim({"-config", e2e::project_config("qv100.config"), "-config", cfg});
    expect_one_error(r, cfg + ":3", "latency 400 (initiation interval 8) does not fit the SFU");
}

TEST(BadInput, ThreadBlockThatCannotFit)
{
    // 16 KiB of shared memory per CTA on an SM configured with 8 KiB.
    std::string dir = trace_with("fit", "0000 ffffffff 1 R2 FFMA 3 R2 R4 R6 0");
    std::string text = std::string(kHeader);
    text.replace(text.find("-shmem = 0"), 10, "-shmem = 16384");
    e2e::write_file(dir + "/kernel-1.traceg", text + "0000 ffffffff 0 EXIT 0 0\n0010 ffffffff 0 EXIT 0 0\n#END_TB\n");
    expect_one_error(run_trace(dir, {"-gpgpu_shmem_size", "8192"}), dir + "/kernel-1.traceg", "shared memory");
}

} // namespace

namespace {

// A mode that does not exist.
TEST(BadInput, UnknownModeIsRefused)
{
    std::string cfg = config_with("mode", "-smtlm_mode muon2");
    e2e::Result r = e2e::smsim({"-config", e2e::project_config("qv100.config"), "-config", cfg});
    expect_one_error(r, cfg + ":3", "-smtlm_mode: 'muon2': the modes are gpgpusim and muon");
}

} // namespace

namespace {

// A Volta trace (BSSY is specialized unit 1 on Volta) on the Pascal TITAN X config, which has
// no specialized units: one precise message naming the unit and the trace line.
TEST(BadInput, TraceNeedsAUnitTheConfigLacks)
{
    e2e::Result r = e2e::smsim({"-trace", e2e::data("traces/lud/kernelslist.g"), "-config", e2e::project_config("titanx.config")});
    expect_one_error(r, e2e::data("traces/lud/kernel-8.traceg") + ":23", "needs specialized unit 1");
}

} // namespace

// The trace reader thread parses thread blocks ahead of the engine: an error in a later block
// (here blocks 40 and 45 of 60 both have one; 40's comes first in the file) must be reported
// exactly as the engine's own thread reports it: the same single message, file:line and exit
// status, after the same simulated work (stdout up to the error is the same too).
TEST(BadInput, ReaderThreadReportsTheFirstErrorInFileOrder)
{
    const std::string dir = e2e::scratch("bad_reader_thread");
    std::string text = "-kernel name = bad\n-kernel id = 1\n-grid dim = (60,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n"
                       "-nregs = 16\n-binary version = 70\n-cuda stream id = 0\n-shmem base_addr = 0x0\n"
                       "-local mem base_addr = 0x0\n-nvbit version = 1.5.5\n-accelsim tracer version = 4\n"
                       "-enable lineinfo = 0\n\n";
    unsigned line = 15, bad_line = 0;
    for (unsigned tb = 0; tb < 60; tb++) {
        text += "#BEGIN_TB\nthread block = " + std::to_string(tb) + ",0,0\nwarp = 0\ninsts = 2\n";
        line += 4;
        const bool bad = tb == 40 || tb == 45;
        text += bad ? "0000 ffffffff 1 R2 FROB 2 R2 R4 0\n" : "0000 ffffffff 1 R2 FFMA 3 R2 R4 R6 0\n";
        if (tb == 40)
            bad_line = line;
        text += "0010 ffffffff 0 EXIT 0 0\n#END_TB\n";
        line += 3;
    }
    e2e::write_file(dir + "/kernel-1.traceg", text);
    e2e::write_file(dir + "/kernelslist.g", "kernel-1.traceg\n");
    // one SM with one CTA slot: blocks are taken one by one while the reader runs ahead
    const std::vector<std::string> small = {"-gpgpu_n_clusters", "1", "-gpgpu_shader_cta", "1"};
    auto run = [&](const char *reader) {
        std::vector<std::string> a = small;
        a.insert(a.end(), {"-smtlm_reader_thread", reader, "-smtlm_engine", "c"});
        return run_trace(dir, a);
    };
    const e2e::Result serial = run("0"), threaded = run("1");
    expect_one_error(serial, dir + "/kernel-1.traceg:" + std::to_string(bad_line) + ":", "unknown opcode FROB");
    EXPECT_EQ(threaded.status, serial.status);
    EXPECT_EQ(threaded.err, serial.err);
    EXPECT_EQ(threaded.out, serial.out);
}

// Streamed thread blocks (-smtlm_trace_stream_mib): the reader checks every line of a TB before
// it is bound, so an error is reported exactly as when the TB is held whole, with or without
// the reader thread: same message, file:line, exit status, stdout and event log.
struct StreamCase {
    std::string dir;
    unsigned bad_line = 0;
};

// One SM, one CTA slot; n_tbs TBs of 16 warps x `insts` instructions, each warp's section after
// the other's (in reverse warp order when `reverse`); the instruction `from_end` lines before the
// end of TB `bad_tb`'s last section gets an unknown opcode.
StreamCase stream_case(const std::string &name, unsigned n_tbs, unsigned insts, bool reverse, unsigned bad_tb,
                       unsigned from_end)
{
    StreamCase c;
    c.dir = e2e::scratch("bad_stream_" + name);
    std::vector<std::string> lines = {"-kernel name = bad", "-kernel id = 1", "-grid dim = (" + std::to_string(n_tbs) + ",1,1)",
                                      "-block dim = (512,1,1)", "-shmem = 0", "-nregs = 16", "-binary version = 70",
                                      "-cuda stream id = 0", "-shmem base_addr = 0x0", "-local mem base_addr = 0x0",
                                      "-nvbit version = 1.5.5", "-accelsim tracer version = 4", "-enable lineinfo = 0", ""};
    for (unsigned tb = 0; tb < n_tbs; tb++) {
        lines.push_back("#BEGIN_TB");
        lines.push_back("thread block = " + std::to_string(tb) + ",0,0");
        for (unsigned k = 0; k < 16; k++) {
            lines.push_back("warp = " + std::to_string(reverse ? 15 - k : k));
            lines.push_back("insts = " + std::to_string(insts + 1));
            for (unsigned i = 0; i < insts; i++) {
                char pc[16];
                snprintf(pc, sizeof pc, "%04x", i * 16);
                lines.push_back(std::string(pc) + (i % 2 ? " ffffffff 1 R21 IADD3 3 R3 R4 R5 0" : " ffffffff 1 R20 FFMA 3 R3 R4 R5 0"));
            }
            lines.push_back("ffff0 ffffffff 0 EXIT 0 0");
        }
        if (tb == bad_tb) {
            const size_t at = lines.size() - 1 - from_end;
            lines[at] = lines[at].substr(0, 4) + " ffffffff 1 R2 FROB 2 R2 R4 0";
            c.bad_line = (unsigned)at + 1;
        }
        lines.push_back("#END_TB");
    }
    std::string text;
    for (const std::string &l : lines)
        text += l + "\n";
    e2e::write_file(c.dir + "/kernel-1.traceg", text);
    e2e::write_file(c.dir + "/kernelslist.g", "kernel-1.traceg\n");
    return c;
}

// Runs `c` held whole, streamed and with the automatic limit, reader thread off and on: all
// report the same single error, print the same stdout and retire the same instructions.
void expect_same_error_streamed_or_not(const StreamCase &c, bool work_before)
{
    const std::string where = c.dir + "/kernel-1.traceg:" + std::to_string(c.bad_line) + ":";
    auto run = [&](const char *mib, const char *reader) {
        const std::string events = c.dir + "/events_" + mib + "_" + reader;
        e2e::Result r = run_trace(c.dir, {"-gpgpu_n_clusters", "1", "-gpgpu_shader_cta", "1", "-smtlm_engine", "c",
                                          "-smtlm_reader_thread", reader, "-smtlm_trace_stream_mib", mib,
                                          "-smtlm_event_log", events});
        std::ifstream f(events);
        std::stringstream ss;
        ss << f.rdbuf();
        return std::make_pair(r, ss.str());
    };
    const auto whole = run("100000", "0");
    expect_one_error(whole.first, where, "unknown opcode FROB");
    EXPECT_EQ(lines(whole.second) > 1, work_before) << "instructions retired before the error (a header line first)";
    for (const char *mib : {"100000", "0", "-1"})
        for (const char *reader : {"0", "1"}) {
            SCOPED_TRACE(std::string("-smtlm_trace_stream_mib ") + mib + " -smtlm_reader_thread " + reader);
            const auto r = run(mib, reader);
            EXPECT_EQ(r.first.status, whole.first.status);
            EXPECT_EQ(r.first.err, whole.first.err);
            EXPECT_EQ(r.first.out, whole.first.out);
            EXPECT_TRUE(r.second == whole.second) << "the event logs differ";
        }
}

// Late in the last warp's section of a one-TB kernel: nothing runs.
TEST(BadInput, StreamedTbErrorLateInTheLastWarpSection)
{
    expect_same_error_streamed_or_not(stream_case("late", 1, 2000, false, 0, 1), false);
}

// Warp 0's section stored last, after every other warp's; the bad line is in it and the TB
// before it ran (streamed) first: reported when the bad TB is bound, after the first one's work.
TEST(BadInput, StreamedTbErrorInAnEarlierWarpStoredAfterLaterOnes)
{
    expect_same_error_streamed_or_not(stream_case("reversed", 2, 1000, true, 1, 300), true);
}

TEST(BadInput, ReaderThreadValueOutOfRange)
{
    const e2e::Result r = e2e::smsim({"-smtlm_reader_thread", "2"});
    expect_one_error(r, "<command line>", "-smtlm_reader_thread: 2 is not 0, 1 or -1");
}
