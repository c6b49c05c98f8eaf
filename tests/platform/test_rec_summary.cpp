// The trace reader's register summary and read slots (trace_rec_summarize, at parse) against
// the ones the pool computes at commit (smtlm_pool_reg_summary): the engine copies the reader's (the trace source
// sets sets_summary), so the two must never differ. Random records (registers inside and
// outside 1..63, 255/256 as RZ, 511/512, negatives, every count), then random trace lines
// through the parser, its fast path and its tail memo.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

#include "line_parser_rig.hpp"

namespace {

// The entry trace_rec_fill makes of r (its summary copied), and the same entry with the summary
// the commit would compute: the two words must agree.
void expect_same_summary(const trace_rec &r, const char *what)
{
    smtlm_inst copied, computed;
    uint64_t addr[SMTLM_WARP_SIZE];
    std::memset(&copied, 0xA5, sizeof copied); // the fill must set the words itself
    const trace_ref ref = {0, r.mask, r.line, 0};
    trace_feed_warp window = {&ref, &ref + 1, &r, nullptr, 0, 1}; // r is its own shape
    trace_rec_fill(&window, &copied, addr);
    computed = copied;
    computed.sb_regs = computed.sb_dsts = ~0ull;
    computed.rd_ops = 0xFF;
    smtlm_pool_reg_summary(&computed);
    ASSERT_EQ(copied.rd_ops, computed.rd_ops) << what << ": n_src " << (unsigned)r.n_src;
    ASSERT_EQ(copied.sb_regs, computed.sb_regs) << what << ": n_dst " << (unsigned)r.n_dst << " n_src " << (unsigned)r.n_src;
    ASSERT_EQ(copied.sb_dsts, computed.sb_dsts) << what << ": n_dst " << (unsigned)r.n_dst << " n_src " << (unsigned)r.n_src;
}

int16_t random_reg(std::mt19937 &g)
{
    static const int16_t edge[] = {0, 1, 2, 62, 63, 64, 65, 127, 128, 254, 255, 256, 257, 511, 512, 1024, -1, -64, INT16_MIN, INT16_MAX};
    switch (g() % 3) {
    case 0: return edge[g() % (sizeof edge / sizeof edge[0])];
    case 1: return (int16_t)(g() % 257); // what a trace holds: 0 (none), R0..R255 as 1..256
    default: return (int16_t)g();
    }
}

TEST(RecSummary, RandomRecordsAsThePoolComputes)
{
    std::mt19937 g(8);
    for (int i = 0; i < 200000; i++) {
        trace_rec r;
        std::memset(&r, 0, sizeof r);
        r.addr = TRACE_NO_ADDR;
        r.mem_space = SMTLM_MEM_NONE;
        r.n_dst = (uint8_t)(g() % (TRACE_MAX_DST + 1));
        r.n_src = (uint8_t)(g() % (TRACE_MAX_SRC + 1));
        const bool junk = g() % 4 == 0; // slots past the counts: 0 in a record, but not looked at
        for (unsigned k = 0; k < TRACE_MAX_DST; k++)
            r.dst[k] = k < r.n_dst || junk ? random_reg(g) : 0;
        for (unsigned k = 0; k < TRACE_MAX_SRC; k++)
            r.src[k] = k < r.n_src || junk ? random_reg(g) : 0;
        trace_rec_summarize(&r);
        expect_same_summary(r, "random record");
        if (HasFatalFailure())
            return;
    }
}

class ParsedSummary : public ::testing::Test {
protected:
    // Parses and stores `line` (fast: the fast path and the memo); the stored record.
    trace_rec parse(const std::string &line, bool fast)
    {
        const tpr::Parsed p = rig_.parse(line, fast, fast ? &rig_.memo : nullptr);
        EXPECT_EQ(p.rc, 0) << line << ": " << p.err;
        return p.rec;
    }

    tpr::LineParser rig_;
};

TEST_F(ParsedSummary, RandomLinesAsThePoolComputes)
{
    static const char *const ops[] = {"FFMA", "IADD3", "MOV", "ISETP.GE.AND", "HMMA.884.F32.F32", "SHFL.BFLY", "BAR.SYNC", "EXIT"};
    std::mt19937 g(9);
    for (int i = 0; i < 20000; i++) {
        const unsigned nd = g() % (TRACE_MAX_DST + 1), ns = g() % (TRACE_MAX_SRC + 1);
        // registers: mostly a few (tails repeat, so the memo hits), else any of R0..R255
        auto reg = [&g]() {
            static const unsigned edge[] = {0, 1, 61, 62, 63, 64, 127, 254, 255};
            const unsigned r = g() % 2 ? edge[g() % (sizeof edge / sizeof edge[0])] : g() % 256;
            return " R" + std::to_string(r);
        };
        std::string line = "0" + std::to_string(g() % 10000) + " ffffffff " + std::to_string(nd);
        for (unsigned k = 0; k < nd; k++)
            line += reg();
        line += std::string(" ") + ops[g() % (sizeof ops / sizeof ops[0])] + " " + std::to_string(ns);
        for (unsigned k = 0; k < ns; k++)
            line += reg();
        line += g() % 5 ? " 0" : " 0 17"; // an immediate: the general tail
        for (bool fast : {true, false}) {
            const trace_rec r = parse(line, fast);
            ASSERT_FALSE(HasFailure());
            expect_same_summary(r, line.c_str());
            if (HasFatalFailure())
                return;
        }
    }
}

} // namespace
