// The VCD writer: declarations, identifiers, value formats, changes only, and the time window.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "file_text.hpp"

extern "C" {
#include "smtlm/vcd_writer.h"
}

namespace {

std::string text(FILE *f) { return file_text(f); }

const char *kHeader = "$version test $end\n$timescale 1 ns $end\n"
                      "$scope module sm0 $end\n"
                      "$var wire 1 ! busy $end\n"
                      "$var wire 4 \" queue [3:0] $end\n"
                      "$upscope $end\n"
                      "$enddefinitions $end\n";

// Declares sm0.busy (1 bit) and sm0.queue (4 bits).
smtlm_vcd *two_vars(FILE *f, uint64_t from, uint64_t to, int *busy, int *queue)
{
    smtlm_vcd *v = smtlm_vcd_new(f, "test", "1 ns", from, to);
    smtlm_vcd_scope(v, "sm0");
    *busy = smtlm_vcd_var(v, "busy", 1);
    *queue = smtlm_vcd_var(v, "queue", 4);
    smtlm_vcd_upscope(v);
    smtlm_vcd_end_header(v);
    return v;
}

TEST(VcdWriter, FirstTimeDumpsEverythingThenOnlyChanges)
{
    FILE *f = std::tmpfile();
    int busy, queue;
    smtlm_vcd *v = two_vars(f, 0, UINT64_MAX, &busy, &queue);
    EXPECT_EQ(busy, 0);
    EXPECT_EQ(queue, 1);
    smtlm_vcd_time(v, 10);
    smtlm_vcd_set(v, queue, 5);
    smtlm_vcd_time(v, 11);
    smtlm_vcd_set(v, busy, 1);
    smtlm_vcd_set(v, queue, 5); // unchanged: not written again
    smtlm_vcd_time(v, 12);
    smtlm_vcd_set(v, queue, 2);
    smtlm_vcd_set(v, queue, 5); // back to its old value within the time: no change at 12
    smtlm_vcd_time(v, 14);
    smtlm_vcd_set(v, queue, 0x13); // bits above the width are dropped: 3
    EXPECT_EQ(smtlm_vcd_get(v, queue), 3u);
    EXPECT_EQ(smtlm_vcd_close(v, 15), 0);
    EXPECT_EQ(text(f), std::string(kHeader) +
                           "#10\n$dumpvars\n0!\nb101 \"\n$end\n"
                           "#11\n1!\n"
                           "#14\nb11 \"\n"
                           "#15\n");
}

TEST(VcdWriter, TheWindowStartsWithTheValuesHeldAtItsFirstTime)
{
    FILE *f = std::tmpfile();
    int busy, queue;
    smtlm_vcd *v = two_vars(f, 20, 30, &busy, &queue);
    smtlm_vcd_time(v, 5);
    smtlm_vcd_set(v, queue, 7);
    smtlm_vcd_time(v, 18);
    smtlm_vcd_set(v, busy, 1); // held from 18 over 20: the dump at 20 shows it
    smtlm_vcd_time(v, 25);
    smtlm_vcd_set(v, queue, 0);
    smtlm_vcd_time(v, 31); // past the window: not written
    smtlm_vcd_set(v, busy, 0);
    EXPECT_EQ(smtlm_vcd_close(v, 40), 0);
    EXPECT_EQ(text(f), std::string(kHeader) +
                           "#20\n$dumpvars\n1!\nb111 \"\n$end\n"
                           "#25\nb0 \"\n"
                           "#31\n");
}

TEST(VcdWriter, AWindowBetweenTwoChangesIsOneDump)
{
    FILE *f = std::tmpfile();
    int busy, queue;
    smtlm_vcd *v = two_vars(f, 100, 200, &busy, &queue);
    smtlm_vcd_time(v, 50);
    smtlm_vcd_set(v, queue, 9);
    smtlm_vcd_time(v, 500);
    smtlm_vcd_set(v, queue, 1);
    EXPECT_EQ(smtlm_vcd_close(v, 600), 0);
    EXPECT_EQ(text(f), std::string(kHeader) + "#100\n$dumpvars\n0!\nb1001 \"\n$end\n#201\n");
}

TEST(VcdWriter, NothingInTheWindowWritesOnlyTheHeader)
{
    FILE *f = std::tmpfile();
    int busy, queue;
    smtlm_vcd *v = two_vars(f, 100, 200, &busy, &queue);
    smtlm_vcd_time(v, 10);
    smtlm_vcd_set(v, busy, 1);
    EXPECT_EQ(smtlm_vcd_close(v, 50), 0);
    EXPECT_EQ(text(f), kHeader);
}

TEST(VcdWriter, IdentifiersCountInBase94AndWidthsAreChecked)
{
    FILE *f = std::tmpfile();
    smtlm_vcd *v = smtlm_vcd_new(f, "test", "1 ns", 0, UINT64_MAX);
    for (int i = 0; i < 95; i++)
        ASSERT_EQ(smtlm_vcd_var(v, "x", 1), i);
    EXPECT_EQ(smtlm_vcd_var(v, "bad", 0), -1);
    EXPECT_EQ(smtlm_vcd_var(v, "bad", 65), -1);
    smtlm_vcd_end_header(v);
    EXPECT_EQ(smtlm_vcd_close(v, 0), -1); // a refused declaration is reported at the end
    const std::string s = text(f);
    EXPECT_NE(s.find("$var wire 1 ~ x $end\n"), std::string::npos);  // 93: the last single character
    EXPECT_NE(s.find("$var wire 1 \"! x $end\n"), std::string::npos); // 94 = 1 * 94 + 0
    EXPECT_EQ(s.find("bad"), std::string::npos);
}

} // namespace
