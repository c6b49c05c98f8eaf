// What smsim accepts as a trace, end to end: header values above CUDA's limits stop the run at
// their header line (never a crash, never a kernel that cannot fit running anyway); a trace cut
// short, or one whose thread blocks repeat, stray outside the grid or lack warps, stops it with
// one message at its line and exit status 2, never a normal result, whichever way the trace is
// read (reader thread or not, thread blocks held whole or streamed, plain or xz).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "trace_files.hpp"

using namespace e2e;

namespace {

// Every way of reading: plain and xz, the reader thread off and on, thread blocks held whole
// (-smtlm_trace_stream_mib 100000) and streamed (0).
struct Way {
    bool xz;
    const char *reader, *mib;
};
const Way kWays[] = {{false, "0", "100000"}, {false, "1", "100000"}, {false, "0", "0"}, {false, "1", "0"},
                     {true, "0", "100000"},  {true, "1", "100000"},  {true, "0", "0"},  {true, "1", "0"}};

// Each way: exit status 2, one line "smsim: <kernel-`kernel` file>:<line>: ...<what>...", and no
// normal end (Accel-Sim's last line; a kernel before the bad one may report its statistics).
void expect_error_every_way(const std::string &name, const std::vector<std::string> &traces, unsigned kernel,
                            unsigned line, const std::string &what)
{
    for (const Way &w : kWays) {
        SCOPED_TRACE(std::string(w.xz ? "xz" : "plain") + ", -smtlm_reader_thread " + w.reader +
                     ", -smtlm_trace_stream_mib " + w.mib);
        const std::string list = write_list(name, traces, w.xz);
        const e2e::Result r =
            e2e::smsim({"-trace", list, "-smtlm_reader_thread", w.reader, "-smtlm_trace_stream_mib", w.mib});
        const std::string where = "smsim: " + dir_of(list) + "/kernel-" + std::to_string(kernel) + ".traceg" +
                                  (w.xz ? ".xz" : "") + ":" + std::to_string(line) + ": ";
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(r.err.rfind(where, 0), 0u) << r.err << "\nwanted " << where;
        EXPECT_NE(r.err.find(what), std::string::npos) << r.err << "\nwanted " << what;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_EQ(r.out.find("exit detected"), std::string::npos) << "a normal end";
        if (kernel == 1) {
            EXPECT_EQ(r.out.find("gpu_sim_cycle"), std::string::npos) << "statistics of a kernel cut short";
        }
    }
}

// smsim in a child process (it must exit, not die of a signal): exit status 2 and a message
// matching `re` on stderr.
void run_main(std::vector<std::string> args)
{
    args.insert(args.begin(), "smsim");
    std::vector<const char *> argv;
    for (const std::string &a : args)
        argv.push_back(a.c_str());
    std::exit(smtlm_smsim((int)argv.size(), argv.data(), stdout, stderr));
}

} // namespace

// -nregs = 4194304 with 1024 threads made the occupancy rule divide by a 32-bit product of 0.
TEST(TraceInputLimits, RegistersThatWrappedTheOccupancyRuleStopAtTheHeaderLine)
{
    const std::string text = header("(1,1,1)", "(1024,1,1)", "4194304") + block("0,0,0", 32);
    const std::string list = write_list("regs_fpe", {text}, false);
    const std::string re = "kernel-1\\.traceg:" + std::to_string(line_of(text, "-nregs")) +
                           ": nregs = 4194304 is above 255, the most registers a thread may have";
    EXPECT_EXIT(run_main({"-trace", list}), ::testing::ExitedWithCode(2), re);
    EXPECT_EXIT(run_main({"-trace", list, "-smtlm_check_options", "1"}), ::testing::ExitedWithCode(2), re);
}

// 4194305 wrapped to a product that seemed to fit: the kernel ran. At the limit (255 registers
// x 1024 threads) the header is fine and the run refuses the kernel at launch, as always.
TEST(TraceInputLimits, RegistersAboveTheLimitNeverRunAndAtItTheLaunchDecides)
{
    const std::string above = header("(1,1,1)", "(1024,1,1)", "4194305") + block("0,0,0", 32);
    const std::string at = header("(1,1,1)", "(1024,1,1)", "255") + block("0,0,0", 32);
    for (const char *check : {"0", "1"}) {
        SCOPED_TRACE(std::string("-smtlm_check_options ") + check);
        std::string list = write_list("regs_wrap", {above}, false);
        e2e::Result r = e2e::smsim({"-trace", list, "-smtlm_check_options", check});
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(r.err, "smsim: " + dir_of(list) + "/kernel-1.traceg:" + std::to_string(line_of(above, "-nregs")) +
                             ": nregs = 4194305 is above 255, the most registers a thread may have\n");
        EXPECT_EQ(r.out, "");
        list = write_list("regs_at", {at}, false);
        r = e2e::smsim({"-trace", list, "-smtlm_check_options", check});
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(r.err, "smsim: " + dir_of(list) +
                             "/kernel-1.traceg: a thread block (1024 threads, 0 B shared memory, 255 registers/thread) "
                             "cannot run on an SM: its registers exceed -gpgpu_shader_registers\n");
    }
}

TEST(TraceInputLimits, SharedMemoryBlockAndGridLimitsAtTheirLines)
{
    struct Case {
        std::string text, key, what;
    };
    const std::vector<Case> cases = {
        {header("(1,1,1)", "(32,1,1)", "16", "1000000") + block("0,0,0", 1), "-shmem",
         "shmem = 1000000 is above 232448, the most bytes of shared memory a block may have"},
        {header("(1,1,1)", "(2048,1,1)") + block("0,0,0", 64), "-block dim",
         "block dim has 2048 threads in x (at most 1024"},
        {header("(1,1,1)", "(32,32,2)") + block("0,0,0", 64), "-block dim",
         "has 2048 threads (allowed 1..1024 per block)"},
        {header("(0,1,1)", "(32,1,1)"), "-grid dim", "grid dim (0,1,1) has 0 thread blocks"},
        {header("(4,0,1)", "(32,1,1)") + block("0,0,0", 1), "-grid dim", "grid dim (4,0,1) has 0 thread blocks"},
        {header("(1,70000,1)", "(32,1,1)"), "-grid dim",
         "70000 thread blocks in y (at most 2147483647 in x, 65535 in y"},
    };
    for (const Case &c : cases)
        for (const char *check : {"0", "1"}) {
            SCOPED_TRACE(c.what + ", -smtlm_check_options " + check);
            const std::string list = write_list("limits", {c.text}, false);
            const e2e::Result r = e2e::smsim({"-trace", list, "-smtlm_check_options", check});
            EXPECT_EQ(r.status, 2);
            const std::string where =
                "smsim: " + dir_of(list) + "/kernel-1.traceg:" + std::to_string(line_of(c.text, c.key)) + ": ";
            EXPECT_EQ(r.err.rfind(where, 0), 0u) << r.err << "\nwanted " << where;
            EXPECT_NE(r.err.find(c.what), std::string::npos) << r.err;
            EXPECT_EQ(r.out, "");
        }
}

TEST(TraceInputLimits, InstructionCountAboveItsLimitIsNamed)
{
    std::string text = block("0,0,0", 1);
    text = header("(1,1,1)", "(32,1,1)") + text.replace(text.find("insts = 2"), 9, "insts = 1000000000000");
    expect_error_every_way("insts_big", {text}, 1, line_of(text, "insts ="),
                           "insts = 1000000000000 is above 4294967294, the most instructions a warp may have");
}

TEST(TraceInputStructure, BlockWithoutEndTb)
{
    const std::string text = header("(2,1,1)", "(64,1,1)") + block("0,0,0", 2) + open_block("1,0,0", 2);
    expect_error_every_way("no_end", {text}, 1, last_line(text),
                           "the file ends inside the thread block begun at line " +
                               std::to_string(line_of(text, "thread block = 1,0,0") - 1) + " (no #END_TB)");
}

TEST(TraceInputStructure, BlockMissingWarpsOrEmpty)
{
    const std::string missing = header("(1,1,1)", "(128,1,1)") + block("0,0,0", 2);
    expect_error_every_way("missing_warps", {missing}, 1, line_of(missing, "#END_TB"),
                           "thread block 0,0,0 ends without warp 2: block dim (128,1,1) has 4 warps");
    const std::string empty = header("(2,1,1)", "(32,1,1)") + block("0,0,0", 1) + block("1,0,0", 0);
    expect_error_every_way("empty_block", {empty}, 1, last_line(empty), "thread block 1,0,0 ends without warp 0");
}

// Counted twice: block 0,0,0 ran as the grid's second block.
TEST(TraceInputStructure, BlockRepeated)
{
    const std::string text = header("(2,1,1)", "(32,1,1)") + block("0,0,0", 1) + block("0,0,0 ", 1);
    expect_error_every_way("repeated", {text}, 1, line_of(text, "0,0,0 \n"),
                           "thread block 0,0,0 appears a second time");
    // one block more than a grid of one: the run checks that the trace ends after the grid's last
    const std::string extra = header("(1,1,1)", "(32,1,1)") + block("0,0,0", 1) + block("0,0,0 ", 1);
    expect_error_every_way("extra", {extra}, 1, line_of(extra, "0,0,0 \n"),
                           "thread block 0,0,0 appears a second time");
}

TEST(TraceInputStructure, BlockOutsideTheGrid)
{
    const std::string text = header("(2,1,1)", "(32,1,1)") + block("0,0,0", 1) + block("0,1,0", 1);
    expect_error_every_way("outside", {text}, 1, line_of(text, "0,1,0"),
                           "thread block 0,1,0 lies outside the grid (2,1,1)");
}

// Kernel 2 of a list cut short: inside a warp, after a whole warp (kernel 1 ran, its statistics
// are out; the run ends with the error at kernel 2's line), or between blocks.
TEST(TraceInputStructure, LaterKernelTruncated)
{
    const std::string first = header("(1,1,1)", "(32,1,1)") + block("0,0,0", 1);
    const std::string whole = header("(3,1,1)", "(64,1,1)") + block("0,0,0", 2) + block("1,0,0", 2) + block("2,0,0", 2);
    const size_t tb1 = whole.find("#BEGIN_TB\nthread block = 1,0,0");
    // in warp 1 of block 1, after its first instruction: at that warp's count
    const size_t count = whole.find("insts = 2", whole.find("warp = 1", tb1));
    std::string cut = whole.substr(0, whole.find('\n', whole.find("0000 ffffffff", count)) + 1);
    expect_error_every_way("cut_warp", {first, cut}, 2, line_at(cut, count),
                           "warp 1: insts = 2 but 1 instruction lines follow");
    // after the whole of block 1's warps, before its #END_TB
    cut = whole.substr(0, whole.find("#END_TB", tb1));
    expect_error_every_way("cut_block", {first, cut}, 2, last_line(cut),
                           "the file ends inside the thread block begun at line " +
                               std::to_string(line_of(cut, "thread block = 1,0,0") - 1));
    // between blocks: two of the grid's three, as when the tracer omits a block that traced
    // nothing: the third runs as an empty block, with a note (test_tracez_input.cpp)
    cut = whole.substr(0, whole.find("#BEGIN_TB\nthread block = 2,0,0"));
    const e2e::Result r = e2e::smsim({"-trace", write_list("cut_between", {first, cut}, false)});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("kernel-2.traceg: 1 of the grid's 3 thread blocks is absent from the trace"), std::string::npos)
        << r.err;
}
