// Streamed thread blocks (smtlm_trace_set_stream_limit, smtlm_trace_feed): a TB read through
// per-warp cursors gives exactly the instructions of the same TB held whole, for every line
// shape the reader takes (memory modes, labels and blank lines inside sections, CRLF, lines
// longer than a cursor's chunk, old and lineinfo formats, sections out of warp order), plain
// and xz (one block or several), from a file or memory; errors are the same message at the
// same line whether the TB streams or not; memory does not grow with the trace.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "smtlm/trace.h"
#include "test_trace_util.h"
extern "C" {
#include "trace_internal.h"
}

using namespace trace_test;

namespace {

struct Gen {
    unsigned tbs = 1, warps = 4, insts = 300;
    bool reverse = false;  // warp sections in reverse order
    bool noise = false;    // blank lines, labels and CRLF inside sections
    bool long_line = false; // one instruction line of 70,000 bytes per warp
    int tracer = 4;        // < 3: tb/warp prefix on every line
    int lineinfo = -1;     // 1: a line number first
};

// Instruction i of warp w: ALU, global loads (list_all, base_delta), shared stores (base_stride),
// a generic load, an immediate, a partial mask.
std::string inst(const Gen &g, unsigned tb, unsigned w, unsigned i)
{
    char pc[16];
    snprintf(pc, sizeof pc, "%04x", i * 16);
    std::string body;
    switch ((i + w) % 7) {
    case 0: body = std::string(pc) + " ffffffff 1 R" + std::to_string(20 + i % 8) + " FFMA 3 R3 R4 R5 0"; break;
    case 1: body = std::string(pc) + " ffffffff 1 R21 IADD3 3 R3 R4 R5 0 -17"; break;
    case 2: {
        body = std::string(pc) + " 0000000f 1 R4 LDG.E 1 R2 4 0";
        for (unsigned lane = 0; lane < 4; lane++)
            body += " 0x" + std::to_string(7000 + 4 * lane + i);
        break;
    }
    case 3: body = std::string(pc) + " ffffffff 1 R4 LDG.E.64 1 R2 8 2 0x7f0000002000 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8"; break;
    case 4: body = std::string(pc) + " ffffffff 0 STS 2 R1 R2 4 1 0x100 4"; break;
    case 5: body = std::string(pc) + " 00ff00ff 1 R6 LD.E 1 R2 4 1 0x7f0000000040 4"; break;
    default: body = std::string(pc) + " 0000ffff 1 R7 IMAD.WIDE.U32 2 R0 R1 0"; break;
    }
    std::string pre;
    if (g.tracer < 3)
        pre += std::to_string(tb) + " 0 0 " + std::to_string(w) + " ";
    if (g.lineinfo == 1)
        pre += std::to_string(100 + i) + " ";
    if (g.long_line && i == g.insts / 2)
        body.insert(body.find(' '), std::string(70000, ' '));
    return pre + body;
}

std::string gen_trace(const Gen &g)
{
    Hdr h;
    h.grid = "(" + std::to_string(g.tbs) + ",1,1)";
    h.block = "(" + std::to_string(32 * g.warps) + ",1,1)";
    h.tracer = g.tracer;
    h.lineinfo = g.lineinfo;
    h.shmem_base = "0x00007f0000000000";
    h.local_base = "0x00007f1000000000";
    const char *eol = g.noise ? "\r\n" : "\n";
    std::string s = h.str();
    for (unsigned b = 0; b < g.tbs; b++) {
        s += "#BEGIN_TB\n\nthread block = " + std::to_string(b) + ",0,0\n\n";
        for (unsigned k = 0; k < g.warps; k++) {
            const unsigned w = g.reverse ? g.warps - 1 - k : k;
            const unsigned n = w == 1 && g.warps > 2 ? 0 : g.insts + w; // one empty warp, others differ
            s += "warp = " + std::to_string(w) + eol + "insts = " + std::to_string(n + 1) + eol;
            for (unsigned i = 0; i < n; i++) {
                s += inst(g, b, w, i) + eol;
                if (g.noise && i % 9 == 4)
                    s += std::string(i % 2 ? "\r\n" : "  \t\n") + "thread block = " + std::to_string(b) + ",0,0" + eol;
            }
            s += std::string(g.tracer < 3 ? std::to_string(b) + " 0 0 " + std::to_string(w) + " " : "") +
                 (g.lineinfo == 1 ? "999 " : "") + "0ff0 ffffffff 0 EXIT 0 0" + eol + eol;
        }
        s += "#END_TB\n\n";
    }
    return s;
}

struct FeedRun {
    std::vector<std::vector<smtlm_inst_desc>> warps; // per TB and warp, in file order of TBs
    int rc = 0;
    std::string err;
    unsigned streamed = 0;
    size_t max_feed = 0, max_tb = 0;
};

// Every instruction of every TB through a feed, warps taken in an interleaved order (so that
// cursors run side by side); descriptors zeroed first, so bytes a record leaves alone compare.
FeedRun read_all(smtlm_trace *t, size_t limit)
{
    FeedRun r;
    char err[512] = "";
    smtlm_trace_set_stream_limit(t, limit);
    smtlm_trace_tb *tb = smtlm_trace_tb_new();
    smtlm_trace_feed *f = smtlm_trace_feed_new();
    uint32_t lcg = 12345;
    while ((r.rc = smtlm_trace_next_tb(t, tb, err, sizeof err)) == 1) {
        r.streamed += smtlm_trace_tb_streamed(tb);
        r.max_tb = std::max(r.max_tb, smtlm_trace_tb_footprint(tb));
        if ((r.rc = smtlm_trace_feed_bind(f, t, tb, err, sizeof err)) < 0)
            break;
        const unsigned n = smtlm_trace_tb_n_warps(tb);
        std::vector<std::vector<smtlm_inst_desc>> got(n);
        for (bool any = true; any;) {
            any = false;
            for (unsigned w = 0; w < n; w++) {
                lcg = lcg * 1103515245u + 12345u;
                for (unsigned k = 1 + (lcg >> 16) % 3; k > 0 && smtlm_trace_feed_has_more(f, w); k--) {
                    smtlm_inst_desc d;
                    std::memset(&d, 0, sizeof d);
                    uint32_t pc = 0;
                    EXPECT_EQ(smtlm_trace_feed_peek_pc(f, w, &pc), 1);
                    const int rc = smtlm_trace_feed_next(f, w, &d);
                    EXPECT_EQ(rc, 1) << smtlm_trace_feed_error(f);
                    if (rc != 1)
                        return r;
                    EXPECT_EQ(pc, d.pc);
                    got[w].push_back(d);
                    any = true;
                }
            }
        }
        for (unsigned w = 0; w < n; w++) {
            smtlm_inst_desc d;
            EXPECT_EQ(smtlm_trace_feed_next(f, w, &d), 0);
            EXPECT_EQ(got[w].size(), smtlm_trace_tb_warp_count(tb, w));
            r.warps.push_back(got[w]);
        }
        r.max_feed = std::max(r.max_feed, smtlm_trace_feed_footprint(f));
    }
    r.err = err;
    smtlm_trace_feed_free(f);
    smtlm_trace_tb_free(tb);
    return r;
}

bool same(const FeedRun &a, const FeedRun &b)
{
    if (a.rc != b.rc || a.err != b.err || a.warps.size() != b.warps.size())
        return false;
    for (size_t i = 0; i < a.warps.size(); i++) {
        if (a.warps[i].size() != b.warps[i].size())
            return false;
        for (size_t k = 0; k < a.warps[i].size(); k++)
            if (std::memcmp(&a.warps[i][k], &b.warps[i][k], sizeof(smtlm_inst_desc)) != 0) {
                ADD_FAILURE() << "sequence " << i << " instruction " << k << " (line " << a.warps[i][k].line << ")";
                return false;
            }
    }
    return true;
}

// Opens `text` from memory (as `name`) or as a file and reads it with `limit`.
FeedRun run_text(const std::string &text, const std::string &name, bool file, size_t limit)
{
    smtlm_trace *t = nullptr;
    char err[512] = "";
    FeedRun r;
    std::unique_ptr<TempFile> tf;
    if (file) {
        tf.reset(new TempFile(name, text));
        r.rc = smtlm_trace_open(tf->path.c_str(), nullptr, &t, err, sizeof err);
    } else {
        r.rc = smtlm_trace_open_mem(text.data(), text.size(), name.c_str(), nullptr, &t, err, sizeof err);
    }
    if (r.rc < 0) {
        r.err = err;
        return r;
    }
    r = read_all(t, limit);
    smtlm_trace_close(t);
    if (file) { // messages name the file: make them comparable across temp names
        const size_t at = r.err.find(tf->path);
        if (at != std::string::npos)
            r.err.replace(at, tf->path.size(), name);
    }
    return r;
}

// Whole against streamed (every TB, and TBs that switch part way) for one text, all encodings.
void expect_streaming_changes_nothing(const std::string &plain, const std::string &what)
{
    const std::vector<std::pair<std::string, std::string>> forms = {
        {"plain", plain}, {"xz", xz_compress(plain, 1)}, {"xz-blocks", xz_compress(plain, 1, 20000)}};
    for (const auto &[form, text] : forms)
        for (bool file : {false, true}) {
            SCOPED_TRACE(what + ", " + form + (file ? ", file" : ", memory"));
            const FeedRun whole = run_text(text, "k.traceg", file, SIZE_MAX);
            ASSERT_EQ(whole.rc, 0) << whole.err;
            ASSERT_FALSE(whole.warps.empty());
            EXPECT_EQ(whole.streamed, 0u);
            for (size_t limit : {(size_t)0, (size_t)3000, (size_t)40000}) {
                SCOPED_TRACE("limit " + std::to_string(limit));
                const FeedRun s = run_text(text, "k.traceg", file, limit);
                if (limit < whole.max_tb / 2) {
                    EXPECT_GT(s.streamed, 0u);
                }
                EXPECT_TRUE(same(whole, s));
            }
        }
}

} // namespace

TEST(TraceFeed, StreamedTbsGiveTheSameInstructionsAsWholeOnes)
{
    Gen g;
    expect_streaming_changes_nothing(gen_trace(g), "plain shape");
    g.tbs = 3;
    g.reverse = true;
    expect_streaming_changes_nothing(gen_trace(g), "sections in reverse warp order, 3 TBs");
    g = Gen();
    g.noise = true;
    g.long_line = true;
    expect_streaming_changes_nothing(gen_trace(g), "labels, blank lines, CRLF, 70 KB lines");
    g = Gen();
    g.tracer = 2;
    expect_streaming_changes_nothing(gen_trace(g), "tracer version 2 (tb/warp prefix)");
    g = Gen();
    g.lineinfo = 1;
    expect_streaming_changes_nothing(gen_trace(g), "lineinfo");
}

TEST(TraceFeed, RealTracesStreamLikeWhole)
{
    for (const char *p : {"lud/kernel-8.traceg", "matrixmul-32-32-trace/kernel-1.traceg",
                          "vectoradd-100-32-trace/kernel-1.traceg"})
        expect_streaming_changes_nothing(read_file(data_path(p)), p);
}

TEST(TraceFeed, WholeTbFeedMatchesTheTbItself)
{
    FirstTb f(gen_trace(Gen()));
    ASSERT_EQ(f.rc, 1) << f.err;
    smtlm_trace_feed *feed = smtlm_trace_feed_new();
    char err[256];
    ASSERT_EQ(smtlm_trace_feed_bind(feed, f.m.t, f.tb, err, sizeof err), 0) << err;
    for (unsigned w = 0; w < smtlm_trace_tb_n_warps(f.tb); w++)
        for (unsigned i = 0; i < smtlm_trace_tb_warp_count(f.tb, w); i++) {
            smtlm_inst_desc a = f.inst(w, i), b;
            std::memset(&b, 0xAB, sizeof b);
            ASSERT_EQ(smtlm_trace_feed_next(feed, w, &b), 1);
            ASSERT_EQ(std::memcmp(&a, &b, sizeof a), 0) << "warp " << w << " inst " << i;
        }
    smtlm_trace_feed_free(feed);
}

// A held TB keeps each shape (an instruction's every field but mask, line and addresses) once for
// all its warps: 8 warps running a loop of three instructions three times and an EXIT hold four
// shapes, and one more for warp 7, whose instruction at pc 0x10 is another; every instruction
// expands to its own line's mask, line and addresses.
TEST(TraceFeed, AHeldTbKeepsEachShapeOnceForAllItsWarps)
{
    Hdr h;
    h.block = "(256,1,1)";
    std::string s = h.str() + "#BEGIN_TB\n\nthread block = 0,0,0\n\n";
    for (unsigned w = 0; w < 8; w++) {
        char mask[16], addr[32];
        snprintf(mask, sizeof mask, "%08x", 0xffu << w);
        snprintf(addr, sizeof addr, "0x%x", 0x7000 + 0x100 * w);
        s += "warp = " + std::to_string(w) + "\ninsts = 10\n";
        for (unsigned it = 0; it < 3; it++) {
            s += "0000 " + std::string(mask) + " 1 R20 FFMA 3 R3 R4 R5 0\n";
            s += w == 7 ? "0010 " + std::string(mask) + " 1 R4 IADD3 3 R3 R4 R5 0\n"
                        : "0010 " + std::string(mask) + " 1 R4 LDG.E 1 R2 4 1 " + addr + " 4\n";
            s += "0020 " + std::string(mask) + " 0 STS 2 R1 R4 4 1 0x100 4\n";
        }
        s += "0030 " + std::string(mask) + " 0 EXIT 0 0\n\n";
    }
    s += "#END_TB\n\n";
    FirstTb f(s);
    ASSERT_EQ(f.rc, 1) << f.err;
    ASSERT_FALSE(smtlm_trace_tb_streamed(f.tb));
    EXPECT_EQ(f.tb->n_shapes, 5u);
    for (unsigned w = 0; w < 8; w++) {
        ASSERT_EQ(smtlm_trace_tb_warp_count(f.tb, w), 10u);
        for (unsigned i = 0; i < 10; i++) {
            const smtlm_inst_desc d = f.inst(w, i);
            const unsigned line = line_of(s, "warp = " + std::to_string(w)) + 2 + i;
            EXPECT_EQ(d.mask, 0xffu << w) << w << " " << i;
            EXPECT_EQ(d.line, line) << w << " " << i;
            EXPECT_EQ(d.pc, i == 9 ? 0x30u : 0x10u * (i % 3)) << w << " " << i;
            if (i % 3 == 1 && w < 7) { // the warp's own addresses, from its first active lane
                EXPECT_EQ(d.op, SMTLM_OP_LOAD);
                EXPECT_EQ(d.addr[w], 0x7000u + 0x100 * w) << w << " " << i;
                if (w > 0) {
                    EXPECT_EQ(d.addr[w - 1], 0u) << w << " " << i;
                }
            }
        }
    }
}

// The automatic limit holds the blocks of a kernel of few blocks up to 16 MiB among them (at least
// 4 MiB each): one block of two warps x 150,000 instructions (4.8 MB of refs) is held when it is
// the grid's only block and streamed in a grid of four (the same block, the others absent).
TEST(TraceFeed, TheAutomaticLimitSharesSixteenMiBAmongAKernelsBlocks)
{
    for (const unsigned grid : {1u, 4u}) {
        Hdr h;
        h.block = "(64,1,1)";
        h.grid = "(" + std::to_string(grid) + ",1,1)";
        std::string s = h.str() + "#BEGIN_TB\n\nthread block = 0,0,0\n\n";
        for (unsigned w = 0; w < 2; w++) {
            s += "warp = " + std::to_string(w) + "\ninsts = 150000\n";
            char line[64];
            for (unsigned i = 0; i < 150000; i++) {
                snprintf(line, sizeof line, "%04x ffffffff 1 R20 FFMA 3 R3 R4 R5 0\n", 16 * (i % 64));
                s += line;
            }
        }
        s += "#END_TB\n\n";
        FirstTb f(s);
        ASSERT_EQ(f.rc, 1) << f.err;
        EXPECT_EQ(smtlm_trace_tb_streamed(f.tb), grid == 4) << "grid " << grid;
    }
}

// A streamed TB's memory (the TB and its feed) is the same for 1x and 10x the instructions.
TEST(TraceFeed, MemoryDoesNotGrowWithTheTrace)
{
    Gen g;
    g.warps = 16;
    g.insts = 2000;
    const std::string one = gen_trace(g);
    g.insts = 20000;
    const std::string ten = gen_trace(g);
    for (bool xz : {false, true}) {
        SCOPED_TRACE(xz ? "xz" : "plain");
        const FeedRun a = run_text(xz ? xz_compress(one, 1) : one, "a.traceg", true, 0);
        const FeedRun b = run_text(xz ? xz_compress(ten, 1) : ten, "b.traceg", true, 0);
        ASSERT_EQ(a.rc, 0) << a.err;
        ASSERT_EQ(b.rc, 0) << b.err;
        EXPECT_EQ(b.streamed, 1u);
        EXPECT_EQ(b.max_tb, a.max_tb);
        EXPECT_LE(b.max_feed, a.max_feed + a.max_feed / 10) << a.max_feed;
        EXPECT_LT(b.max_tb, 16u * 1024u);
        if (!xz) { // 16 cursors of a 16 KiB chunk and 128 records each
            EXPECT_LT(b.max_feed, 16u * 64u * 1024u);
        }
        // and the whole TB would have taken megabytes
        const FeedRun w = run_text(ten, "c.traceg", true, SIZE_MAX);
        EXPECT_GT(w.max_tb, 10u * 1024u * 1024u);
    }
}

// The first error in file order, with its message and line, whatever streams: late in the last
// warp's section, and in warp 0's section stored after every other warp's.
TEST(TraceFeed, ErrorsAreTheSameWhetherTheTbStreamsOrNot)
{
    Gen g;
    g.warps = 16;
    g.insts = 300;
    for (bool reverse : {false, true}) {
        g.reverse = reverse;
        std::string text = gen_trace(g);
        // the last instruction line of the section last in the file gets a bad opcode, and, when
        // reversed, that section is warp 0's; a second error follows in a later TB-less tail
        const size_t exit_at = text.rfind("0ff0 ffffffff 0 EXIT 0 0");
        const size_t bad_at = text.rfind("\n", text.rfind("\n", exit_at) - 1) + 1;
        text.replace(bad_at, text.find('\n', bad_at) - bad_at, "0f00 ffffffff 1 R2 FROB 2 R2 R4 0");
        const unsigned bad_line = line_of(text, "FROB");
        text += "#BEGIN_TB\nwarp = 0\ninsts = 1\n0000 ffffffff 1 R2 FROB2 2 R2 R4 0\n#END_TB\n";
        for (const std::string &form : {std::string("plain"), std::string("xz")}) {
            const std::string data = form == "xz" ? xz_compress(text, 1) : text;
            const FeedRun whole = run_text(data, "k.traceg", true, SIZE_MAX);
            EXPECT_EQ(whole.rc, SMTLM_TRACE_ERR_FORMAT);
            EXPECT_EQ(whole.err, "k.traceg:" + std::to_string(bad_line) + ": unknown opcode FROB for binary version 70");
            EXPECT_TRUE(whole.warps.empty());
            for (size_t limit : {(size_t)0, (size_t)3000}) {
                SCOPED_TRACE(form + (reverse ? ", reversed" : "") + ", limit " + std::to_string(limit));
                const FeedRun s = run_text(data, "k.traceg", true, limit);
                EXPECT_EQ(s.rc, whole.rc);
                EXPECT_EQ(s.err, whole.err);
                EXPECT_TRUE(s.warps.empty()); // nothing of the TB is handed out
            }
        }
    }
}

// A generated trace read as one streamed TB bound to a feed, and the file rewritten under it
// with every FFMA renamed FROB (same inode: the reader's descriptor sees the new text; the
// cursors read only when an instruction is asked for).
struct ChangedTrace {
    std::string text;
    TempFile f;
    smtlm_trace *t = nullptr;
    smtlm_trace_tb *tb = smtlm_trace_tb_new();
    smtlm_trace_feed *feed = smtlm_trace_feed_new();
    explicit ChangedTrace(const char *name) : text(gen_trace(gen())), f(name, text) {}
    ~ChangedTrace()
    {
        smtlm_trace_feed_free(feed);
        smtlm_trace_tb_free(tb);
        smtlm_trace_close(t);
    }
    static Gen gen()
    {
        Gen g;
        g.insts = 400;
        return g;
    }
    void open_and_bind()
    {
        char err[512] = "";
        ASSERT_EQ(smtlm_trace_open(f.path.c_str(), nullptr, &t, err, sizeof err), 0) << err;
        smtlm_trace_set_stream_limit(t, 0);
        ASSERT_EQ(smtlm_trace_next_tb(t, tb, err, sizeof err), 1) << err;
        ASSERT_TRUE(smtlm_trace_tb_streamed(tb));
        ASSERT_EQ(smtlm_trace_feed_bind(feed, t, tb, err, sizeof err), 0) << err;
    }
    void rewrite()
    {
        std::string changed = text;
        for (size_t at = changed.find("FFMA"); at != std::string::npos; at = changed.find("FFMA", at))
            changed.replace(at, 4, "FROB");
        std::ofstream(f.path, std::ios::binary) << changed;
    }
    int drain(unsigned warp)
    {
        smtlm_inst_desc d;
        int rc;
        while ((rc = smtlm_trace_feed_next(feed, warp, &d)) == 1)
            ;
        return rc;
    }
};

// A trace rewritten after its TB was checked: the feed reports it instead of handing out
// something else; the error stays in that feed.
TEST(TraceFeed, ATraceChangedAfterTheCheckIsAnErrorOfTheFeed)
{
    ChangedTrace c("changed.traceg");
    ASSERT_NO_FATAL_FAILURE(c.open_and_bind());
    c.rewrite();
    EXPECT_LT(c.drain(0), 0);
    ASSERT_NE(smtlm_trace_feed_error(c.feed), nullptr);
    EXPECT_NE(std::string(smtlm_trace_feed_error(c.feed)).find("unknown opcode FROB"), std::string::npos)
        << smtlm_trace_feed_error(c.feed);
    smtlm_inst_desc d;
    EXPECT_EQ(smtlm_trace_feed_next(c.feed, 0, &d), -1); // sticky
}

// A failure ends the whole feed: a warp that already holds parsed records (its cursor refilled
// before the trace changed; warp 1 of the generated trace is empty, warp 2 is not) hands out no
// more once another warp found the change.
TEST(TraceFeed, AFailureStopsEveryWarpOfTheFeed)
{
    ChangedTrace c("changed2.traceg");
    ASSERT_NO_FATAL_FAILURE(c.open_and_bind());
    smtlm_inst_desc d;
    ASSERT_EQ(smtlm_trace_feed_next(c.feed, 2, &d), 1); // warp 2 parses its first records now
    c.rewrite();
    EXPECT_LT(c.drain(0), 0);
    EXPECT_EQ(smtlm_trace_feed_next(c.feed, 2, &d), -1);
    uint32_t pc = 0;
    EXPECT_EQ(smtlm_trace_feed_peek_pc(c.feed, 2, &pc), 0);
}

TEST(TraceFeed, BindRefusesAStreamedTbOfAnotherReader)
{
    const std::string text = gen_trace(Gen());
    MemTrace a(text), b(text);
    ASSERT_EQ(a.rc, 0);
    smtlm_trace_set_stream_limit(a.t, 0);
    smtlm_trace_tb *tb = smtlm_trace_tb_new();
    char err[256];
    ASSERT_EQ(smtlm_trace_next_tb(a.t, tb, err, sizeof err), 1) << err;
    smtlm_trace_feed *f = smtlm_trace_feed_new();
    EXPECT_EQ(smtlm_trace_feed_bind(f, b.t, tb, err, sizeof err), SMTLM_TRACE_ERR_ARG);
    EXPECT_EQ(smtlm_trace_feed_bind(f, a.t, tb, err, sizeof err), 0) << err;
    smtlm_trace_feed_unbind(f);
    EXPECT_FALSE(smtlm_trace_feed_has_more(f, 0));
    smtlm_trace_feed_free(f);
    smtlm_trace_tb_free(tb);
}

// xz written in several blocks: a cursor starts decoding at the block holding its offset (it
// decodes less than the offset), and reads the same lines as one decoding from the start.
TEST(TraceFeed, XzCursorsStartAtTheirBlock)
{
    Gen g;
    g.warps = 8;
    g.insts = 3000;
    const std::string plain = gen_trace(g);
    for (uint64_t block : {(uint64_t)0, (uint64_t)65536}) {
        SCOPED_TRACE(block ? "several blocks" : "one block");
        const std::string xz = xz_compress(plain, 1, block);
        MemTrace m(xz);
        ASSERT_EQ(m.rc, 0) << m.err;
        const trace_input *in = trace_reader_input(m.t);
        EXPECT_EQ(in->xz_index != nullptr, block != 0);
        const size_t off = plain.rfind("warp = 7");
        char err[256];
        trace_lines l;
        ASSERT_EQ(trace_lines_open_at(&l, in, off, 41, 4096, err, sizeof err), 0) << err;
        ASSERT_EQ(trace_lines_next(&l, err, sizeof err), 1) << err;
        EXPECT_EQ(std::string(l.line), "warp = 7");
        EXPECT_EQ(l.lineno, 42u);
        ASSERT_EQ(trace_lines_next(&l, err, sizeof err), 1) << err;
        EXPECT_EQ(std::string(l.line), "insts = " + std::to_string(g.insts + 7 + 1));
        if (block)
            EXPECT_LT(l.xz.total_out, 2 * block) << "decoded from its block";
        else
            EXPECT_GT(l.xz.total_out, off) << "decoded from the start";
        unsigned lines = 2;
        while (trace_lines_next(&l, err, sizeof err) == 1)
            lines++;
        EXPECT_EQ(lines, g.insts + 7 + 1 + 2 + 3) << "to the end, across block boundaries"; // + EXIT, blank, #END_TB, blank
        trace_lines_close(&l);
    }
}

// smtlm_trace_feed_next_into writes into the pool exactly what smtlm_trace_feed_next and
// smtlm_pool_alloc write (entry and address payload), whole TBs and streamed ones.
TEST(TraceFeed, NextIntoFillsThePoolAsNextAndAllocDo)
{
    for (const char *p : {"vectoradd-100-32-trace/kernel-1.traceg", "lud/kernel-8.traceg"})
        for (size_t limit : {SIZE_MAX, (size_t)0}) {
            SCOPED_TRACE(std::string(p) + (limit ? ", whole" : ", streamed"));
            MemTrace m(read_file(data_path(p)));
            ASSERT_GE(m.rc, 0) << m.err;
            smtlm_trace_set_stream_limit(m.t, limit);
            smtlm_trace_tb *tb = smtlm_trace_tb_new();
            smtlm_trace_feed *fa = smtlm_trace_feed_new(), *fb = smtlm_trace_feed_new();
            std::unique_ptr<smtlm_inst_pool> pa(new smtlm_inst_pool()), pb(new smtlm_inst_pool());
            smtlm_pool_init(pa.get());
            smtlm_pool_init(pb.get());
            char err[512] = "";
            unsigned mem = 0, n = 0;
            ASSERT_EQ(smtlm_trace_next_tb(m.t, tb, err, sizeof err), 1) << err;
            ASSERT_EQ(smtlm_trace_tb_streamed(tb) != 0, limit == 0);
            ASSERT_EQ(smtlm_trace_feed_bind(fa, m.t, tb, err, sizeof err), 0) << err;
            ASSERT_EQ(smtlm_trace_feed_bind(fb, m.t, tb, err, sizeof err), 0) << err;
            for (unsigned w = 0; w < smtlm_trace_tb_n_warps(tb); w++) {
                for (;;) {
                    smtlm_inst_desc d;
                    const int got = smtlm_trace_feed_next(fa, w, &d);
                    ASSERT_EQ(smtlm_trace_feed_next_into(fb, w, smtlm_pool_next_entry(pb.get()),
                                                         smtlm_pool_next_addr(pb.get())),
                              got);
                    if (got == 0)
                        break;
                    const smtlm_iref ra = smtlm_pool_alloc(pa.get(), &d, (uint16_t)w);
                    const smtlm_iref rb = smtlm_pool_commit_summarized(pb.get(), (uint16_t)w); // the fill set the summary
                    ASSERT_EQ(ra, rb);
                    const smtlm_inst &a = pa->inst[ra], &b = pb->inst[rb];
                    ASSERT_EQ(std::memcmp(&a, &b, sizeof a), 0) << "warp " << w << " line " << d.line;
                    if (a.mem != SMTLM_NO_INST) {
                        mem++;
                        ASSERT_EQ(std::memcmp(pa->mem[a.mem].addr, pb->mem[b.mem].addr, sizeof d.addr), 0);
                    }
                    smtlm_pool_free(pa.get(), ra);
                    smtlm_pool_free(pb.get(), rb);
                    n++;
                }
            }
            EXPECT_GT(n, 0u);
            if (std::string(p).rfind("vectoradd", 0) == 0) {
                EXPECT_GT(mem, 0u); // its loads and stores carry addresses
            }
            smtlm_trace_feed_free(fa);
            smtlm_trace_feed_free(fb);
            smtlm_trace_tb_free(tb);
        }
}

// The trace source reads a warp's window (trace_feed_warp_of) without the feed: unbinding must
// empty every window, so that nothing more comes from it.
TEST(TraceFeed, UnbindEmptiesTheWindows)
{
    FirstTb f(gen_trace(Gen()));
    ASSERT_EQ(f.rc, 1) << f.err;
    smtlm_trace_feed *feed = smtlm_trace_feed_new();
    EXPECT_EQ(trace_feed_warp_of(feed, 0), nullptr); // not bound
    char err[256];
    ASSERT_EQ(smtlm_trace_feed_bind(feed, f.m.t, f.tb, err, sizeof err), 0) << err;
    trace_feed_warp *fw = trace_feed_warp_of(feed, 1);
    ASSERT_NE(fw, nullptr);
    EXPECT_EQ(trace_feed_warp_of(feed, smtlm_trace_tb_n_warps(f.tb)), nullptr);
    EXPECT_NE(fw->cur, fw->lim);
    smtlm_trace_feed_unbind(feed);
    EXPECT_EQ(fw->cur, fw->lim);
    smtlm_inst_desc d;
    EXPECT_EQ(smtlm_trace_feed_next(feed, 1, &d), 0);
    smtlm_trace_feed_free(feed);
}
