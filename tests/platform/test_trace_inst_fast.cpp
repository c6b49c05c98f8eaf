// The instruction-line fast path (platform/lib/src/trace_inst.c fast_line) against the general
// parser: every line, well-formed or not, must give the same record or the same message with
// the fast path on (ctx.plain_fields = 1) as with the general parser alone, and so must the
// fast path's memo of line tails (the fixture keeps one memo across all lines: a line is parsed
// twice, the second time usually from the memo, often filled by another line with that tail).
// The corpus mutates each field of real line shapes: hex forms, 0x prefixes, long digit runs,
// register forms, counts, opcode suffixes and dots, memory widths, immediates, odd spaces.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "line_parser_rig.hpp"

namespace {

using tpr::Parsed;

class FastPath : public ::testing::Test {
protected:
    Parsed parse(const std::string &line, int fast, trace_memo *memo = nullptr) { return rig_.parse(line, fast, memo); }

    // Parses `line` both ways; true when they agree. *well_formed: the general parser took it.
    bool same_both_ways(const std::string &line, bool *well_formed)
    {
        const Parsed slow = parse(line, 0), fast = parse(line, 1), memo1 = parse(line, 1, &memo_),
                     memo2 = parse(line, 1, &memo_);
        *well_formed = slow.rc == 0;
        for (const Parsed *m : {&memo1, &memo2}) {
            EXPECT_EQ(m->rc, slow.rc);
            EXPECT_EQ(m->err, slow.err);
            if (m->rc != slow.rc || m->err != slow.err ||
                (slow.rc == 0 && (std::memcmp(&m->rec, &slow.rec, sizeof slow.rec) != 0 || m->pool != slow.pool))) {
                ADD_FAILURE() << "the memo's record differs";
                return false;
            }
        }
        EXPECT_EQ(fast.rc, slow.rc);
        EXPECT_EQ(fast.err, slow.err);
        if (fast.rc != slow.rc || fast.err != slow.err)
            return false;
        if (slow.rc != 0)
            return true;
        EXPECT_EQ(0, std::memcmp(&fast.rec, &slow.rec, sizeof slow.rec));
        EXPECT_EQ(fast.pool, slow.pool);
        return std::memcmp(&fast.rec, &slow.rec, sizeof slow.rec) == 0 && fast.pool == slow.pool;
    }

    tpr::LineParser rig_;
    trace_memo &memo_ = rig_.memo;
};

std::vector<std::string> corpus()
{
    std::vector<std::string> lines = {
        "0010 ffffffff 1 R21 IADD3 3 R3 R4 R5 0",
        "0000 ffffffff 1 R2 FFMA 3 R2 R4 R6 0",
        "0140 ffffffff 0 EXIT 0 0",
        "0140 ffffffff 0 EXIT 0 0 ",
        "  0140\tffffffff  0   EXIT 0 0\r",
        "0x0140 ffffffff 0 EXIT 0 0",
        "0140 0xffffffff 0 EXIT 0 0",
        "000000140 ffffffff 0 EXIT 0 0",
        "100000000 ffffffff 0 EXIT 0 0",
        "0140 1ffffffff 0 EXIT 0 0",
        "014g ffffffff 0 EXIT 0 0",
        "ABCDEF01 FfFfFfFf 1 R255 IMAD.WIDE.U32 2 R0 R1 0",
        "0010 ffffffff 1 R256 IADD3 3 R3 R4 R5 0",
        "0010 ffffffff 1 R0021 IADD3 3 R3 R4 R5 0",
        "0010 ffffffff 1 R007 IADD3 3 R3 R4 R5 0",
        "0010 ffffffff 1 RZ IADD3 3 R3 R4 R5 0",
        "0010 ffffffff 1 R IADD3 3 R3 R4 R5 0",
        "0010 ffffffff 2 R1 R2 IADD3 3 R3 R4 R5 0",
        "0010 ffffffff 01 R1 IADD3 3 R3 R4 R5 0",
        "0010 ffffffff 1 R1 IADD3 5 R3 R4 R5 R6 R7 0",
        "0010 ffffffff 1 R1 IADD3 4 R3 R4 R5 R6 0",
        "0010 ffffffff 1 R1 IADD3 3 R3 R4 0",
        "0010 ffffffff 1 R1 IADD3 3 R3 R4",
        "0010 ffffffff 1 R1 IADD3",
        "0010 ffffffff 1 R1",
        "0010 ffffffff",
        "0010",
        "",
        "0010 ffffffff 1 R1 NOSUCHOP 0 0",
        "0010 ffffffff 1 R1 .IADD3 0 0",
        "0010 ffffffff 1 R1 ...IADD3 0 0",
        "0010 ffffffff 1 R1 ... 0 0",
        "0010 ffffffff 1 R1 IADD3. 0 0",
        "0010 ffffffff 1 R1 IADD3..X 0 0",
        "0010 ffffffff 0 BAR.SYNC 0 0",
        "0010 ffffffff 0 BAR.SYNC 0 0 -5",
        "0010 ffffffff 0 BAR.SYNC 0 0 +5",
        "0010 ffffffff 0 BAR.SYNC 0 0 5 6",
        "0010 ffffffff 0 BAR.SYNC 0 00",
        "0010 ffffffff 0 BAR.SYNC 0 0x",
        "0010 ffffffff 0 BAR.SYNC 0 1",
        "0010 0000000f 1 R4 LDG.E.64 1 R2 8 1 0x7f0000001000 8",
        "0010 00000003 0 STS 2 R2 R3 4 1 0x7f0000000000 4",
        "0010 00000003 0 STG.E 2 R2 R3 4 0 0x1000 0x2000",
        "0010 00000003 1 R4 LDL 1 R2 4 1 0x7f1000000000 4",
        "0010 00000001 1 R4 LD.E 1 R2 4 1 0x7f1000000000 4",
        "0010 ffffffff 1 R4 LDG.E 1 R2 0",
        "0010 ffffffff 1 R4 ATOMG.E.ADD 2 R2 R3 4 1 0x1000 4",
        "0010 ffffffff 1 R4 HFMA2 3 R3 R4 R5 0",
        "0010 ffffffff 1 R4 DFMA 3 R3 R4 R5 0",
        "0010 ffffffff 1 R4 MUFU.EX2 1 R3 0",
        "0010 ffffffff 1 R4 HMMA.884.F32.F32 3 R3 R4 R5 0",
        "0010 ffffffff 1 R4 IADD3\t3 R3\tR4 R5\t0",
        "0010 ffffffff 1 R4 IADD3 3 R3 R4 R5 0\v",
        "0010 ffffffff 1 R4 IADD3 3 R3 R4 R5 0\f 3",
    };
    return lines;
}

TEST_F(FastPath, GivesTheGeneralParsersRecordOrMessageForEveryLine)
{
    unsigned ok = 0, bad = 0;
    for (const std::string &line : corpus()) {
        SCOPED_TRACE("line: '" + line + "'");
        bool well_formed = false;
        EXPECT_TRUE(same_both_ways(line, &well_formed));
        (well_formed ? ok : bad)++;
    }
    EXPECT_GT(ok, 20u) << "well-formed shapes are covered";
    EXPECT_GT(bad, 15u) << "malformed shapes are covered";
}

TEST_F(FastPath, DecodesTheCommonShapeFieldByField)
{
    const Parsed p = parse("0a10 0000ffff 1 R21 IADD3 3 R3 R4 R255 0", 1);
    ASSERT_EQ(p.rc, 0) << p.err;
    EXPECT_EQ(p.rec.pc, 0xa10u);
    EXPECT_EQ(p.rec.mask, 0xffffu);
    ASSERT_EQ(p.rec.n_dst, 1u);
    EXPECT_EQ(p.rec.dst[0], 22); // registers are numbered from 1
    ASSERT_EQ(p.rec.n_src, 3u);
    EXPECT_EQ(p.rec.src[0], 4);
    EXPECT_EQ(p.rec.src[2], 256); // R255 (RZ)
    EXPECT_EQ(p.rec.line, 7u);
    EXPECT_EQ(p.rec.addr, TRACE_NO_ADDR);
}

// White box: a second line with the same tail takes its fields from the memo (a poisoned entry
// shows through), its own pc, mask and line number; a different tail does not.
TEST_F(FastPath, TheMemoServesLinesWithTheSameTail)
{
    const Parsed a = parse("0000 ffffffff 1 R2 FFMA 3 R2 R4 R6 0", 1, &memo_);
    ASSERT_EQ(a.rc, 0);
    unsigned used = 0;
    for (trace_memo_entry &e : memo_.e)
        if (e.len != 0) {
            e.rec.latency = 999;
            used++;
        }
    ASSERT_EQ(used, 1u);
    const Parsed b = parse("0a10  0000ffff 1 R2 FFMA 3 R2 R4 R6 0", 1, &memo_);
    ASSERT_EQ(b.rc, 0);
    EXPECT_EQ(b.rec.latency, 999u);
    EXPECT_EQ(b.rec.pc, 0xa10u);
    EXPECT_EQ(b.rec.mask, 0xffffu);
    EXPECT_EQ(b.rec.line, 7u);
    const Parsed c = parse("0a10 0000ffff 1 R2 FFMA 3 R2 R4 R7 0", 1, &memo_);
    EXPECT_NE(c.rec.latency, 999u);
}

TEST_F(FastPath, AgreesOnRandomMutationsOfRealLines)
{
    // Deterministic mutations: one to three bytes replaced, inserted or deleted, drawn from the
    // bytes that matter to the grammar.
    const std::string alphabet(" \t.0123456789abcdefxXRZ-+FGI\0", 29); // a NUL byte too
    uint64_t x = 0x9e3779b97f4a7c15ull;
    auto next = [&x](uint64_t n) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        return x % n;
    };
    const std::vector<std::string> base = corpus();
    unsigned ok = 0;
    for (unsigned i = 0; i < 20000; i++) {
        std::string line = base[next(base.size())];
        for (uint64_t k = 1 + next(3); k > 0; k--) {
            const size_t at = line.empty() ? 0 : next(line.size());
            const char ch = alphabet[next(alphabet.size())];
            switch (next(3)) {
            case 0: if (!line.empty()) line[at] = ch; break;
            case 1: line.insert(line.begin() + (long)at, ch); break;
            default: if (!line.empty()) line.erase(at, 1); break;
            }
        }
        SCOPED_TRACE("line: '" + line + "'");
        bool well_formed = false;
        ASSERT_TRUE(same_both_ways(line, &well_formed)); // stop at the first disagreement
        ok += well_formed;
    }
    EXPECT_GT(ok, 2000u) << "many mutations are still well-formed";
}

} // namespace
