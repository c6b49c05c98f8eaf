// What a trace may declare and what a thread block must hold: header values above CUDA's limits
// are refused at their line, naming the limit; a thread block ends with #END_TB, names one block
// of the grid that no other block named, and lists every warp of its block dimension. Each case
// is read held whole and streamed, from plain text and from xz.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "smtlm/trace.h"
#include "test_trace_util.h"

using namespace trace_test;

namespace {

// Reads every block of `text` with the given stream limit (SIZE_MAX: held whole, 0: streamed).
Counts read_all(const std::string &text, size_t stream_limit)
{
    MemTrace m(text);
    if (m.rc < 0) {
        Counts c;
        c.rc = m.rc;
        c.err = m.err;
        return c;
    }
    smtlm_trace_set_stream_limit(m.t, stream_limit);
    return count_all(m.t);
}

// Every way of reading `text` (plain and xz, held whole and streamed) gives the message
// "mem.traceg:<line>: <what...>", after `tbs_before` whole blocks.
void expect_error_at(const std::string &text, unsigned line, const std::string &what, unsigned tbs_before = 0)
{
    ASSERT_GT(line, 0u);
    const std::string prefix = "mem.traceg:" + std::to_string(line) + ": ";
    for (const auto &[form, bytes] : {std::pair<std::string, std::string>{"plain", text}, {"xz", xz_compress(text, 1)}})
        for (size_t limit : {SIZE_MAX, (size_t)0}) {
            SCOPED_TRACE(form + (limit ? ", whole" : ", streamed"));
            const Counts c = read_all(bytes, limit);
            EXPECT_EQ(c.rc, SMTLM_TRACE_ERR_FORMAT) << c.err;
            EXPECT_EQ(c.err.rfind(prefix, 0), 0u) << c.err << "\nwanted prefix " << prefix;
            EXPECT_NE(c.err.find(what), std::string::npos) << c.err << "\nwanted " << what;
            EXPECT_EQ(c.tbs, tbs_before);
        }
}

// The same at the first line holding `needle`.
void expect_error(const std::string &text, const std::string &needle, const std::string &what, unsigned tbs_before = 0)
{
    ASSERT_GT(line_of(text, needle), 0u) << needle;
    expect_error_at(text, line_of(text, needle), what, tbs_before);
}

// Lines of a text ending in a newline: the number of its last line.
unsigned last_line(const std::string &text) { return (unsigned)std::count(text.begin(), text.end(), '\n'); }

void expect_whole(const std::string &text, unsigned tbs)
{
    for (const auto &[form, bytes] : {std::pair<std::string, std::string>{"plain", text}, {"xz", xz_compress(text, 1)}})
        for (size_t limit : {SIZE_MAX, (size_t)0}) {
            SCOPED_TRACE(form + (limit ? ", whole" : ", streamed"));
            const Counts c = read_all(bytes, limit);
            EXPECT_EQ(c.rc, 0) << c.err;
            EXPECT_EQ(c.tbs, tbs);
        }
}

// A header with these dims, -nregs and -shmem (Volta, tracer 4).
std::string header(const std::string &grid, const std::string &block, const std::string &nregs = "16",
                   const std::string &shmem = "0")
{
    Hdr h;
    h.grid = grid;
    h.block = block;
    h.nregs = nregs;
    h.shmem = shmem;
    return h.str();
}

// A whole block `label` of `warps` warps, each one EXIT.
std::string block(const std::string &label, unsigned warps)
{
    std::string s = "#BEGIN_TB\nthread block = " + label + "\n";
    for (unsigned w = 0; w < warps; w++)
        s += "warp = " + std::to_string(w) + "\ninsts = 1\n0000 ffffffff 0 EXIT 0 0\n";
    return s + "#END_TB\n";
}

// Opening only: 0, or the message.
std::string open_error(const std::string &text)
{
    MemTrace m(text);
    return m.rc < 0 ? std::string(m.err) : std::string();
}

// The open fails at the line of `needle` with `what`.
void expect_header_error(const std::string &text, const std::string &needle, const std::string &what)
{
    const std::string msg = open_error(text);
    const std::string prefix = "mem.traceg:" + std::to_string(line_of(text, needle)) + ": ";
    EXPECT_EQ(msg.rfind(prefix, 0), 0u) << msg << "\nwanted prefix " << prefix;
    EXPECT_NE(msg.find(what), std::string::npos) << msg << "\nwanted " << what;
}

} // namespace

TEST(TraceLimits, RegistersPerThreadAtMost255)
{
    expect_header_error(header("(1,1,1)", "(1024,1,1)", "4194304"), "-nregs",
                        "nregs = 4194304 is above 255, the most registers a thread may have");
    expect_header_error(header("(1,1,1)", "(1024,1,1)", "4194305"), "-nregs", "nregs = 4194305 is above 255");
    expect_header_error(header("(1,1,1)", "(32,1,1)", "256"), "-nregs", "nregs = 256 is above 255");
    expect_header_error(header("(1,1,1)", "(32,1,1)", "99999999999999999999999"), "-nregs",
                        "nregs = 99999999999999999999999 is above 255");
    EXPECT_EQ(open_error(header("(1,1,1)", "(1024,1,1)", "255")), "");
}

TEST(TraceLimits, SharedMemoryPerBlockAtMost227KiB)
{
    expect_header_error(header("(1,1,1)", "(32,1,1)", "16", "232449"), "-shmem",
                        "shmem = 232449 is above 232448, the most bytes of shared memory a block may have");
    expect_header_error(header("(1,1,1)", "(32,1,1)", "16", "4294967296"), "-shmem", "shmem = 4294967296 is above");
    EXPECT_EQ(open_error(header("(1,1,1)", "(32,1,1)", "16", "232448")), ""); // Hopper's most
}

TEST(TraceLimits, BlockDimensionsAndThreadsPerBlock)
{
    expect_header_error(header("(1,1,1)", "(2048,1,1)"), "-block dim",
                        "block dim has 2048 threads in x (at most 1024 in x, 1024 in y, 64 in z)");
    expect_header_error(header("(1,1,1)", "(1,1025,1)"), "-block dim", "1025 threads in y");
    expect_header_error(header("(1,1,1)", "(1,1,65)"), "-block dim", "65 threads in z");
    expect_header_error(header("(1,1,1)", "(1,1,99999999999999999999)"), "-block dim",
                        "99999999999999999999 threads in z");
    expect_header_error(header("(1,1,1)", "(32,32,2)"), "-block dim",
                        "block dim (32,32,2) has 2048 threads (allowed 1..1024 per block)");
    EXPECT_EQ(open_error(header("(1,1,1)", "(1024,1,1)")), "");
    EXPECT_EQ(open_error(header("(1,1,1)", "(1,16,64)")), "");
}

TEST(TraceLimits, GridDimensionsAndThreadBlocks)
{
    expect_header_error(header("(0,1,1)", "(32,1,1)"), "-grid dim",
                        "grid dim (0,1,1) has 0 thread blocks (allowed 1..");
    expect_header_error(header("(1,1,0)", "(32,1,1)"), "-grid dim", "grid dim (1,1,0) has 0 thread blocks");
    expect_header_error(header("(2147483648,1,1)", "(32,1,1)"), "-grid dim",
                        "grid dim has 2147483648 thread blocks in x (at most 2147483647 in x, 65535 in y, 65535 in z)");
    expect_header_error(header("(1,65536,1)", "(32,1,1)"), "-grid dim", "65536 thread blocks in y");
    expect_header_error(header("(1,1,65536)", "(32,1,1)"), "-grid dim", "65536 thread blocks in z");
    // within every dimension's limit, but more blocks than the engine numbers (32 bits)
    expect_header_error(header("(65536,65535,2)", "(32,1,1)"), "-grid dim",
                        "grid dim (65536,65535,2) has 8589803520 thread blocks (allowed 1..4294967295: the engine "
                        "numbers thread blocks in 32 bits)");
    MemTrace m(header("(65535,65535,1)", "(32,1,1)"));
    ASSERT_EQ(m.rc, 0) << m.err;
    EXPECT_EQ(smtlm_trace_info(m.t)->n_tbs, 65535ull * 65535ull);
}

TEST(TraceLimits, InstructionCountAboveItsLimitIsNamed)
{
    std::string text =
        header("(1,1,1)", "(32,1,1)") + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1000000000000\n";
    expect_error(text, "insts =", "insts = 1000000000000 is above 4294967294, the most instructions a warp may have");
    text = header("(1,1,1)", "(32,1,1)") + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 99999999999\n";
    expect_error(text, "warp =", "warp 99999999999 out of range: block dim (32,1,1) has 1 warps");
}

TEST(TraceStructure, BlockMustEndWithEndTb)
{
    const std::string two = header("(2,1,1)", "(32,1,1)") + block("0,0,0", 1);
    // cut after a whole warp: at the file's last line
    std::string cut = two + "#BEGIN_TB\nthread block = 1,0,0\nwarp = 0\ninsts = 1\n0000 ffffffff 0 EXIT 0 0\n";
    expect_error_at(cut, last_line(cut), "the file ends inside the thread block begun at line " +
                    std::to_string(line_of(cut, "thread block = 1,0,0") - 1) + " (no #END_TB)", 1);
    // the same without the last newline
    expect_error_at(cut.substr(0, cut.size() - 1), last_line(cut), "the file ends inside the thread block", 1);
    // in the first block
    std::string first = header("(1,1,1)", "(32,1,1)") + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 0\n\n";
    expect_error_at(first, last_line(first), "the file ends inside the thread block begun at line", 0);
}

TEST(TraceStructure, BlockMustListEveryWarp)
{
    const std::string h = header("(1,1,1)", "(96,1,1)"); // 3 warps
    std::string missing = h + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0000 ffffffff 0 EXIT 0 0\n"
                              "warp = 2\ninsts = 1\n0000 ffffffff 0 EXIT 0 0\n#END_TB\n";
    expect_error(missing, "#END_TB",
                 "thread block 0,0,0 ends without warp 1: block dim (96,1,1) has 3 warps, each listed ('insts = 0' for "
                 "one that ran nothing)");
    std::string empty = h + "#BEGIN_TB\nthread block = 0,0,0\n#END_TB\n";
    expect_error(empty, "#END_TB", "thread block 0,0,0 ends without warp 0");
    std::string bare = h + "#BEGIN_TB\n#END_TB\n";
    expect_error(bare, "#BEGIN_TB", "thread block without a 'thread block = x,y,z' line");
    std::string unlabelled = h + "#BEGIN_TB\nwarp = 0\ninsts = 0\nwarp = 1\ninsts = 0\nwarp = 2\ninsts = 0\n#END_TB\n";
    expect_error(unlabelled, "#BEGIN_TB", "thread block without a 'thread block = x,y,z' line");
    // as the tracer writes a warp that ran nothing: listed, with `insts = 0`, in any order
    expect_whole(h + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 2\ninsts = 0\nwarp = 0\ninsts = 1\n"
                     "0000 ffffffff 0 EXIT 0 0\nwarp = 1\ninsts = 0\n#END_TB\n",
                 1);
}

TEST(TraceStructure, BlockAppearsOnce)
{
    const std::string h = header("(3,1,1)", "(32,1,1)");
    std::string twice = h + block("0,0,0", 1) + block("1,0,0", 1) + "#BEGIN_TB\nthread block = 0,0,0 \n";
    expect_error(twice, "thread block = 0,0,0 ", "thread block 0,0,0 appears a second time", 2);
    std::string other = h + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 0\nthread block = 1,0,0\n";
    expect_error(other, "thread block = 1,0,0", "thread block 0,0,0 named again as 1,0,0");
    // a grid of a single block: the second is a repeat (Accel-Sim would run it as a second CTA)
    std::string one = header("(1,1,1)", "(32,1,1)") + block("0,0,0", 1) + block("0,0,0 ", 1);
    expect_error(one, "thread block = 0,0,0 ", "appears a second time", 1);
    // in any order; a block may repeat its own label (Accel-Sim reads every such line)
    expect_whole(header("(2,2,1)", "(32,1,1)") + block("1,1,0", 1) + block("0,0,0", 1) +
                     "#BEGIN_TB\nthread block = 1,0,0\nwarp = 0\ninsts = 1\nthread block = 1,0,0\n"
                     "0000 ffffffff 0 EXIT 0 0\n#END_TB\n" + block("0,1,0", 1),
                 4);
}

TEST(TraceStructure, BlockLiesInsideTheGrid)
{
    const std::string h = header("(2,3,4)", "(32,1,1)");
    expect_error(h + block("2,0,0", 1), "thread block = 2", "thread block 2,0,0 lies outside the grid (2,3,4)");
    expect_error(h + block("0,3,0", 1), "thread block = 0", "thread block 0,3,0 lies outside the grid (2,3,4)");
    expect_error(h + block("1,2,3", 1) + block("1,2,4", 1), "thread block = 1,2,4",
                 "thread block 1,2,4 lies outside the grid (2,3,4)", 1);
    // the grid's last and first block: both read, and the 22 the file lacks come as empty blocks
    expect_whole(h + block("1,2,3", 1) + block("0,0,0", 1), 24);
}
