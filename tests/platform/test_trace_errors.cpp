// Every class of bad input gives a negative status and one "<file>:<line>: <what>" message.
#include <gtest/gtest.h>

#include <string>

#include "smtlm/trace.h"
#include "test_trace_util.h"

using namespace trace_test;

namespace {

// Reads TBs until the end or an error; returns the status and the message.
struct Outcome {
    int rc = 0;
    std::string msg;
};

Outcome read_all(const std::string &text)
{
    Outcome o;
    MemTrace m(text);
    if (m.rc < 0) {
        o.rc = m.rc;
        o.msg = m.err;
        return o;
    }
    smtlm_trace_tb *tb = smtlm_trace_tb_new();
    char err[512] = "";
    int rc;
    while ((rc = smtlm_trace_next_tb(m.t, tb, err, sizeof err)) == 1) {
    }
    smtlm_trace_tb_free(tb);
    o.rc = rc;
    o.msg = err;
    return o;
}

// The message starts with mem.traceg:<line of needle>: and contains `what`.
void expect_error(const std::string &text, const std::string &needle, const std::string &what,
                  int code = SMTLM_TRACE_ERR_FORMAT)
{
    Outcome o = read_all(text);
    unsigned ln = line_of(text, needle);
    ASSERT_GT(ln, 0u) << needle;
    EXPECT_EQ(o.rc, code) << o.msg;
    std::string prefix = "mem.traceg:" + std::to_string(ln) + ": ";
    EXPECT_EQ(o.msg.rfind(prefix, 0), 0u) << o.msg << "\nwanted prefix " << prefix;
    EXPECT_NE(o.msg.find(what), std::string::npos) << o.msg << "\nwanted " << what;
}

std::string volta(const std::vector<std::string> &lines)
{
    return Hdr().str() + one_warp_tb(lines);
}

} // namespace

TEST(TraceError, MalformedLines)
{
    expect_error(volta({"0010 ffffffff 1 R1 FFMA"}), "FFMA", "missing sources");
    expect_error(volta({"0010 ffffffff 1 R1 FFMA 2 R2"}), "FFMA", "missing register");
    expect_error(volta({"0010 ffffffff 1 R1 FFMA 2 R2 R3"}), "FFMA", "missing mem_width");
    expect_error(volta({"0010"}), "0010", "missing mask");
    expect_error(volta({"zz10 ffffffff 1 R1 MOV 0 0"}), "zz10", "bad hex PC 'zz10'");
    expect_error(volta({"0010 1ffffffff 1 R1 MOV 0 0"}), "0010", "bad hex mask");
    expect_error(volta({"0010 ffffffff 1 X1 MOV 0 0"}), "X1", "bad register token 'X1'");
    expect_error(volta({"0010 ffffffff 1 R256 MOV 0 0"}), "R256", "bad register token 'R256'");
    expect_error(volta({"0010 ffffffff 1 R1 MOV 0 0 0 7"}), "MOV", "unexpected trailing field '7'");
    expect_error(volta({"0010 ffffffff 1 R1 MOV 0 0 x"}), "MOV", "bad immediate 'x'");
    expect_error(volta({"0010 ffffffff 1 R1 LDG.E 1 R2 4 0 0xg0"}), "LDG", "bad hex address");
}

TEST(TraceError, UnknownOpcodeNamesTheBinaryVersion)
{
    expect_error(volta({"0010 ffffffff 1 R1 FOO.BAR 0 0"}), "FOO", "unknown opcode FOO for binary version 70");
    Hdr p;
    p.binary = 61;
    expect_error(p.str() + one_warp_tb({"0010 ffffffff 1 R1 HMMA.884 0 0"}), "HMMA",
                 "unknown opcode HMMA for binary version 61");
    Hdr h;
    h.binary = 90;
    expect_error(h.str() + one_warp_tb({"0010 ffffffff 1 R1 FFMA 3 R2 R3 R4 0", "0020 ffffffff 1 R1 XMAD.MRG 0 0"}),
                 "XMAD", "unknown opcode XMAD for binary version 90"); // Pascal's, not Hopper's
}

TEST(TraceError, TooManyRegisters)
{
    expect_error(volta({"0010 ffffffff 1 R1 FFMA 5 R1 R2 R3 R4 R5 0"}), "FFMA", "too many sources (5, at most 4)");
    expect_error(volta({"0010 ffffffff 2 R1 R2 FFMA 0 0"}), "FFMA", "too many destinations (2, at most 1)");
}

TEST(TraceError, AddressModesAndCounts)
{
    expect_error(volta({"0010 ffffffff 1 R1 LDG.E 1 R2 4 3 0x10 4"}), "LDG", "unknown address mode '3'");
    expect_error(volta({"0010 00000007 1 R1 LDG.E 1 R2 4 0 0x10 0x20"}), "LDG",
                 "fewer addresses than active lanes (2 of 3)");
    expect_error(volta({"0010 0000000f 1 R1 LDG.E 1 R2 4 2 0x10 4 4"}), "LDG",
                 "fewer addresses than active lanes (3 of 4)");
    expect_error(volta({"0010 0000000f 1 R1 LDG.E 1 R2 4 1 0x10"}), "LDG", "base_stride without stride");
    expect_error(volta({"0010 ffffffff 1 R1 LDG.E 1 R2 0"}), "LDG", "mem_width 0");
    expect_error(volta({"0010 ffffffff 1 R1 LDG.E.2048 1 R2 4 1 0x10 4"}), "LDG", "unsupported memory width 256");
}

TEST(TraceError, InstsCountMismatch)
{
    // fewer lines than declared: reported at the `insts =` line
    std::string fewer = Hdr().str() + "#BEGIN_TB\nwarp = 0\ninsts = 3\n0000 ffffffff 0 NOP 0 0\n#END_TB\n";
    expect_error(fewer, "insts = 3", "warp 0: insts = 3 but 1 instruction lines follow");
    // also when EOF ends the TB
    std::string eof = Hdr().str() + "#BEGIN_TB\nwarp = 0\ninsts = 2\n0000 ffffffff 0 NOP 0 0\n";
    expect_error(eof, "insts = 2", "insts = 2 but 1");
    // more lines than declared: reported at the first extra line
    std::string more = Hdr().str() + "#BEGIN_TB\nwarp = 0\ninsts = 1\n0000 ffffffff 0 NOP 0 0\n0010 ffffffff 0 EXIT 0 0\n";
    expect_error(more, "EXIT", "more instruction lines than insts = 1");
}

TEST(TraceError, WarpStructure)
{
    EXPECT_EQ(read_all(volta({})).rc, 0); // a warp with `insts = 0` is fine
    std::string out_of_range = Hdr().str() + "#BEGIN_TB\nwarp = 1\ninsts = 0\n#END_TB\n";
    expect_error(out_of_range, "warp = 1", "warp 1 out of range: block dim (32,1,1) has 1 warps");
    std::string twice = Hdr().str() + "#BEGIN_TB\nwarp = 0\ninsts = 0\nwarp = 0\ninsts = 0\n#END_TB\n";
    Outcome o = read_all(twice);
    EXPECT_NE(o.msg.find(":" + std::to_string(line_of(twice, "#END_TB") - 2) + ": warp 0 listed twice"),
              std::string::npos)
        << o.msg;
    std::string no_warp = Hdr().str() + "#BEGIN_TB\n0000 ffffffff 0 NOP 0 0\n#END_TB\n";
    expect_error(no_warp, "NOP", "instruction line before 'warp =' / 'insts ='");
    std::string no_insts = Hdr().str() + "#BEGIN_TB\nwarp = 0\n#END_TB\n";
    expect_error(no_insts, "#END_TB", "warp 0 has no 'insts =' line");
    std::string bad_warp = Hdr().str() + "#BEGIN_TB\nwarp = x\n#END_TB\n";
    expect_error(bad_warp, "warp = x", "expected 'warp = <n>'");
    std::string nested = Hdr().str() + "#BEGIN_TB\nwarp = 0\ninsts = 0\n#BEGIN_TB\n";
    unsigned second = line_of(nested, "insts = 0") + 1;
    o = read_all(nested);
    EXPECT_EQ(o.msg, "mem.traceg:" + std::to_string(second) +
                         ": #BEGIN_TB before the previous thread block's #END_TB");
    std::string stray = Hdr().str() + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 0\n#END_TB\nwarp = 7\n";
    expect_error(stray, "warp = 7", "expected #BEGIN_TB, found 'warp'");
    std::string label = Hdr().str() + "#BEGIN_TB\nthread block = 0,0\n#END_TB\n";
    expect_error(label, "thread block", "expected 'thread block = x,y,z'");
}

TEST(TraceError, HeaderProblems)
{
    Hdr h;
    h.binary = 72;
    expect_error(h.str(), "-binary version", "unsupported binary version 72 (supported: 60, 61, 70, 75, 80, 86, 90)",
                 SMTLM_TRACE_ERR_UNSUPPORTED);
    std::string bad_grid = "-grid dim = (1,1)\n-block dim = (32,1,1)\n-binary version = 70\n#x\n";
    expect_error(bad_grid, "-grid dim", "malformed header line: -grid dim = (1,1)");
    std::string big_block = "-grid dim = (1,1,1)\n-block dim = (4096,1,1)\n-binary version = 70\n#x\n";
    expect_error(big_block, "-block dim", "4096 threads");
    Outcome o = read_all("-grid dim = (1,1,1)\n-binary version = 70\n#x\n");
    EXPECT_EQ(o.rc, SMTLM_TRACE_ERR_FORMAT);
    EXPECT_EQ(o.msg, "mem.traceg: missing -block dim in the header");
    o = read_all("-grid dim = (1,1,1)\n-block dim = (32,1,1)\n#x\n");
    EXPECT_EQ(o.msg, "mem.traceg: missing -binary version in the header");
    o = read_all("");
    EXPECT_EQ(o.msg, "mem.traceg: missing -binary version in the header");
    expect_error("-binary version = 7O\n", "-binary", "malformed header line");
}

TEST(TraceError, MissingAndUnreadableFiles)
{
    std::string path = testing::TempDir() + "smtlm_no_such_dir/kernel-1.traceg";
    smtlm_trace *t = nullptr;
    char err[512] = "";
    EXPECT_EQ(smtlm_trace_open(path.c_str(), nullptr, &t, err, sizeof err), SMTLM_TRACE_ERR_IO);
    EXPECT_EQ(t, nullptr);
    EXPECT_EQ(std::string(err), path + ": cannot open: No such file or directory");
    // A directory opens but cannot be read.
    std::string dir = testing::TempDir();
    EXPECT_LT(smtlm_trace_open(dir.c_str(), nullptr, &t, err, sizeof err), 0);
    EXPECT_EQ(std::string(err).rfind(dir + ": ", 0), 0u) << err;
    // NULL arguments are refused, not crashed on.
    EXPECT_EQ(smtlm_trace_open(nullptr, nullptr, &t, err, sizeof err), SMTLM_TRACE_ERR_ARG);
    EXPECT_EQ(smtlm_trace_next_tb(nullptr, nullptr, nullptr, 0), SMTLM_TRACE_ERR_ARG);
}

TEST(TraceError, LongLinesNulBytesAndStickyErrors)
{
    std::string text = volta({"0010 ffffffff 1 R1 MOV 0 0"});
    std::string long_line = Hdr().str() + "#BEGIN_TB\nwarp = 0\ninsts = 1\n0010 " + std::string(2u << 20, 'f') + "\n";
    Outcome o = read_all(long_line);
    EXPECT_EQ(o.rc, SMTLM_TRACE_ERR_FORMAT);
    EXPECT_NE(o.msg.find(":" + std::to_string(line_of(long_line, "0010 ")) + ": line longer than"),
              std::string::npos)
        << o.msg.substr(0, 200);

    std::string nul = Hdr().str() + "#BEGIN_TB\nwarp = 0\ninsts = 1\n0010 ffff";
    unsigned nul_line = line_of(nul, "0010 ffff");
    nul += std::string(1, '\0') + "ffff 0 NOP 0 0\n";
    o = read_all(nul);
    EXPECT_EQ(o.msg, "mem.traceg:" + std::to_string(nul_line) + ": malformed line: NUL byte");

    // After an error every further call repeats it.
    MemTrace m(volta({"0010 ffffffff 1 R1 FOO 0 0"}));
    ASSERT_EQ(m.rc, 0);
    smtlm_trace_tb *tb = smtlm_trace_tb_new();
    char e1[256] = "", e2[256] = "";
    EXPECT_EQ(smtlm_trace_next_tb(m.t, tb, e1, sizeof e1), SMTLM_TRACE_ERR_FORMAT);
    EXPECT_EQ(smtlm_trace_next_tb(m.t, tb, e2, sizeof e2), SMTLM_TRACE_ERR_FORMAT);
    EXPECT_STREQ(e1, e2);
    // A short buffer gets a truncated, terminated message.
    char tiny[12];
    EXPECT_EQ(smtlm_trace_next_tb(m.t, tb, tiny, sizeof tiny), SMTLM_TRACE_ERR_FORMAT);
    EXPECT_EQ(std::string(tiny), std::string(e1).substr(0, 11));
    smtlm_trace_tb_free(tb);
}
