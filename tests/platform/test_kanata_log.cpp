// The Kanata log writer: commands in cycle order whatever the order instructions are added in,
// file ids in the order instructions start, retire ids in the order they leave, stage order
// within a cycle, dependencies on producers already written, texts made safe for the format.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "file_text.hpp"

extern "C" {
#include "smtlm/kanata_log.h"
}

namespace {

std::string text(FILE *f) { return file_text(f); }

// An instruction with stages A [start, mid) and B [mid, end), retiring at end.
struct Two {
    smtlm_kanata_stage st[2];
    smtlm_kanata_inst in;
    Two(uint64_t id, const char *name, uint64_t start, uint64_t mid, uint64_t end)
    {
        st[0] = {start, mid, 0, "A", nullptr};
        st[1] = {mid, end, 0, "B", nullptr};
        in = {id, 7, start, end, name, nullptr, 2, st, 0, nullptr, 0};
    }
};

TEST(KanataLog, CommandsComeInCycleOrderWithIdsInStartOrder)
{
    FILE *f = std::tmpfile();
    smtlm_kanata *k = smtlm_kanata_new(f);
    Two late(20, "late", 12, 13, 14), early(10, "early", 10, 11, 16);
    ASSERT_EQ(smtlm_kanata_add(k, &late.in, 0), 0);  // retired first, started second
    ASSERT_EQ(smtlm_kanata_add(k, &early.in, 0), 0);
    EXPECT_EQ(smtlm_kanata_count(k), 2u);
    ASSERT_EQ(smtlm_kanata_close(k), 0);
    EXPECT_EQ(text(f), "Kanata\t0004\n"
                       "C=\t10\nI\t0\t10\t7\nL\t0\t0\tearly\nS\t0\t0\tA\n"
                       "C\t1\nE\t0\t0\tA\nS\t0\t0\tB\n"
                       "C\t1\nI\t1\t20\t7\nL\t1\t0\tlate\nS\t1\t0\tA\n"
                       "C\t1\nE\t1\t0\tA\nS\t1\t0\tB\n"
                       "C\t1\nE\t1\t0\tB\nR\t1\t0\t0\n"
                       "C\t2\nE\t0\t0\tB\nR\t0\t1\t0\n");
}

TEST(KanataLog, AZeroLengthStageStartsBeforeItEndsAndLabelsFollowTheirStage)
{
    FILE *f = std::tmpfile();
    smtlm_kanata *k = smtlm_kanata_new(f);
    const smtlm_kanata_stage st[3] = {{5, 5, 0, "Z", "empty"}, {5, 7, 0, "X", "two\tcycles\nhere"}, {6, 7, 1, "st", nullptr}};
    const smtlm_kanata_inst in = {1, 0, 5, 7, "a\tb", "line1\nline2", 3, st, 0, nullptr, 0};
    ASSERT_EQ(smtlm_kanata_add(k, &in, 0), 0);
    ASSERT_EQ(smtlm_kanata_close(k), 0);
    EXPECT_EQ(text(f), "Kanata\t0004\n"
                       "C=\t5\nI\t0\t1\t0\nL\t0\t0\ta b\nL\t0\t1\tline1\\nline2\n"
                       "S\t0\t0\tZ\nL\t0\t2\tempty\nE\t0\t0\tZ\nS\t0\t0\tX\nL\t0\t2\ttwo cycles\\nhere\n"
                       "C\t1\nS\t0\t1\tst\n"
                       "C\t1\nE\t0\t0\tX\nE\t0\t1\tst\nR\t0\t0\t0\n");
}

TEST(KanataLog, ADependencyNamesAProducerWrittenLongBefore)
{
    FILE *f = std::tmpfile();
    smtlm_kanata *k = smtlm_kanata_new(f);
    Two prod(1, "p", 0, 1, 2);
    const int h = smtlm_kanata_add(k, &prod.in, 1);
    ASSERT_GT(h, 0);
    smtlm_kanata_flush(k, 3); // the producer is written, its commands freed; nothing starts before 3
    Two cons(2, "c", 3, 4, 5);
    const int deps[2] = {h, 0}; // 0: no producer
    cons.in.n_deps = 2;
    cons.in.dep = deps;
    cons.in.dep_cycle = 4;
    ASSERT_EQ(smtlm_kanata_add(k, &cons.in, 0), 0);
    EXPECT_EQ(smtlm_kanata_late(k), 0u);
    smtlm_kanata_release(k, h);
    ASSERT_EQ(smtlm_kanata_close(k), 0);
    EXPECT_EQ(text(f), "Kanata\t0004\n"
                       "C=\t0\nI\t0\t1\t7\nL\t0\t0\tp\nS\t0\t0\tA\n"
                       "C\t1\nE\t0\t0\tA\nS\t0\t0\tB\n"
                       "C\t1\nE\t0\t0\tB\nR\t0\t0\t0\n"
                       "C\t1\nI\t1\t2\t7\nL\t1\t0\tc\nS\t1\t0\tA\n"
                       "C\t1\nE\t1\t0\tA\nS\t1\t0\tB\nW\t1\t0\t0\n"
                       "C\t1\nE\t1\t0\tB\nR\t1\t1\t0\n");
}

TEST(KanataLog, FlushWritesOnlyEarlierCyclesAndALateInstructionIsMoved)
{
    FILE *f = std::tmpfile();
    smtlm_kanata *k = smtlm_kanata_new(f);
    Two a(1, "a", 10, 12, 20);
    smtlm_kanata_add(k, &a.in, 0);
    smtlm_kanata_flush(k, 12);
    EXPECT_EQ(std::ftell(f), (long)std::string("Kanata\t0004\nC=\t10\nI\t0\t1\t7\nL\t0\t0\ta\nS\t0\t0\tA\n").size());
    Two b(2, "b", 11, 11, 13); // starts before the flushed cycle: moved to 12
    smtlm_kanata_add(k, &b.in, 0);
    EXPECT_EQ(smtlm_kanata_late(k), 1u);
    ASSERT_EQ(smtlm_kanata_close(k), 0);
    EXPECT_EQ(text(f), "Kanata\t0004\nC=\t10\nI\t0\t1\t7\nL\t0\t0\ta\nS\t0\t0\tA\n"
                       "C\t2\nE\t0\t0\tA\nS\t0\t0\tB\nI\t1\t2\t7\nL\t1\t0\tb\nS\t1\t0\tA\nE\t1\t0\tA\nS\t1\t0\tB\n"
                       "C\t1\nE\t1\t0\tB\nR\t1\t0\t0\n"
                       "C\t7\nE\t0\t0\tB\nR\t0\t1\t0\n");
}

TEST(KanataLog, ManyInstructionsStayInOrder)
{
    FILE *f = std::tmpfile();
    smtlm_kanata *k = smtlm_kanata_new(f);
    // instruction i starts at i and retires at i + 1 + (i * 7) % 13: added in retirement order
    std::vector<std::pair<uint64_t, uint64_t>> order;
    for (uint64_t i = 0; i < 500; i++)
        order.push_back({i + 1 + (i * 7) % 13, i});
    std::sort(order.begin(), order.end());
    uint64_t now = 0;
    for (const auto &[retire, i] : order) {
        if (retire > now) { // at cycle `retire` nothing added later starts before retire - 13
            now = retire;
            smtlm_kanata_flush(k, now > 13 ? now - 13 : 0);
        }
        Two t(i, "x", i, i + 1, retire);
        smtlm_kanata_add(k, &t.in, 0);
    }
    EXPECT_EQ(smtlm_kanata_late(k), 0u);
    ASSERT_EQ(smtlm_kanata_close(k), 0);
    // reading it back: cycles never go back, ids appear in start order
    const std::string s = text(f);
    uint64_t cycle = 0, next_id = 0;
    size_t pos = s.find('\n') + 1;
    while (pos < s.size()) {
        const size_t eol = s.find('\n', pos);
        const std::string line = s.substr(pos, eol - pos);
        pos = eol + 1;
        if (line.rfind("C=\t", 0) == 0)
            cycle = std::stoull(line.substr(3));
        else if (line.rfind("C\t", 0) == 0)
            cycle += std::stoull(line.substr(2));
        else if (line.rfind("I\t", 0) == 0) {
            unsigned long long id, sim;
            ASSERT_EQ(std::sscanf(line.c_str(), "I\t%llu\t%llu", &id, &sim), 2);
            EXPECT_EQ(id, next_id++);
            EXPECT_EQ(sim, cycle); // instruction i starts at cycle i
        }
    }
    EXPECT_EQ(next_id, 500u);
}

} // namespace
