// -smtlm_log_cycles, -smtlm_log_sms and -smtlm_log_warps: what they accept and refuse.
#include <gtest/gtest.h>

#include <string>

extern "C" {
#include "smtlm/view_filter.h"
}

namespace {

TEST(ViewFilter, CycleWindows)
{
    uint64_t a = 7, b = 7;
    ASSERT_EQ(smtlm_view_parse_cycles("", &a, &b), 0);
    EXPECT_EQ(a, 0u);
    EXPECT_EQ(b, UINT64_MAX);
    ASSERT_EQ(smtlm_view_parse_cycles("100:250", &a, &b), 0);
    EXPECT_EQ(a, 100u);
    EXPECT_EQ(b, 250u);
    ASSERT_EQ(smtlm_view_parse_cycles("5:5", &a, &b), 0);
    EXPECT_EQ(a, 5u);
    EXPECT_EQ(b, 5u);
    ASSERT_EQ(smtlm_view_parse_cycles("4000:", &a, &b), 0);
    EXPECT_EQ(a, 4000u);
    EXPECT_EQ(b, UINT64_MAX);
    ASSERT_EQ(smtlm_view_parse_cycles(":12", &a, &b), 0);
    EXPECT_EQ(a, 0u);
    EXPECT_EQ(b, 12u);
    for (const char *bad : {":", "10", "10:5", "a:b", "1:2:3", "-1:5", "1 :5", "1:99999999999999999999", "0x10:20"})
        EXPECT_EQ(smtlm_view_parse_cycles(bad, &a, &b), -1) << bad;
}

TEST(ViewFilter, ListsOfNumbersAndRanges)
{
    uint64_t bits[2];
    ASSERT_EQ(smtlm_view_parse_list("0,2-3,70", 80, bits), 0);
    EXPECT_EQ(bits[0], 0xDull);
    EXPECT_EQ(bits[1], 1ull << 6);
    ASSERT_EQ(smtlm_view_parse_list("", 66, bits), 0);
    EXPECT_EQ(bits[0], ~0ull);
    EXPECT_EQ(bits[1], 3ull);
    ASSERT_EQ(smtlm_view_parse_list("63", 64, bits), 0);
    EXPECT_EQ(bits[0], 1ull << 63);
    for (const char *bad : {"64", "1,", ",1", "3-1", "1-", "a", "1;2", "1 2", "0-64"})
        EXPECT_EQ(smtlm_view_parse_list(bad, 64, bits), -1) << bad;
}

TEST(ViewFilter, OneMessageNamesTheOptionAndTheRange)
{
    smtlm_view_filter f;
    char msg[256];
    ASSERT_EQ(smtlm_view_filter_parse(&f, "10:20", "1,3", "0-1", 4, 64, msg, sizeof msg), 0);
    EXPECT_TRUE(smtlm_view_shows_cycle(&f, 10) && smtlm_view_shows_cycle(&f, 20));
    EXPECT_FALSE(smtlm_view_shows_cycle(&f, 9) || smtlm_view_shows_cycle(&f, 21));
    EXPECT_TRUE(smtlm_view_shows_sm(&f, 1) && smtlm_view_shows_sm(&f, 3));
    EXPECT_FALSE(smtlm_view_shows_sm(&f, 0) || smtlm_view_shows_sm(&f, 2) || smtlm_view_shows_sm(&f, 4));
    EXPECT_TRUE(smtlm_view_shows_warp(&f, 0) && smtlm_view_shows_warp(&f, 1));
    EXPECT_FALSE(smtlm_view_shows_warp(&f, 2));
    ASSERT_EQ(smtlm_view_filter_parse(&f, "", "", "", 4, 64, msg, sizeof msg), 0);
    EXPECT_TRUE(smtlm_view_shows_sm(&f, 3) && smtlm_view_shows_warp(&f, 63) && smtlm_view_shows_cycle(&f, UINT64_MAX));
    EXPECT_FALSE(smtlm_view_shows_sm(&f, 4));
    EXPECT_EQ(smtlm_view_filter_parse(&f, "20:10", "", "", 4, 64, msg, sizeof msg), -1);
    EXPECT_EQ(std::string(msg), "-smtlm_log_cycles: '20:10' is not a cycle window A:B (A <= B; A: or :B leave one end open)");
    EXPECT_EQ(smtlm_view_filter_parse(&f, "", "4", "", 4, 64, msg, sizeof msg), -1);
    EXPECT_EQ(std::string(msg), "-smtlm_log_sms: '4' is not a list of SM numbers from 0 to 3 (e.g. 0,2-3)");
    EXPECT_EQ(smtlm_view_filter_parse(&f, "", "", "x", 4, 32, msg, sizeof msg), -1);
    EXPECT_EQ(std::string(msg), "-smtlm_log_warps: 'x' is not a list of warp numbers from 0 to 31 (e.g. 0,2-3)");
}

} // namespace
