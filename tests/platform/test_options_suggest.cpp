// "did you mean": smtlm_opt_nearest against a plain reading of its rule (the whole
// Levenshtein table, ignoring case, over names cut to 64 characters; the first table row at the
// least distance; suggested only within 2 edits or a third of the name's length), for every
// option name misspelt in each way and for names near no option, short and long.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

extern "C" {
#include "options_internal.h"
}

namespace {

const size_t kCut = 64;

std::string lower(std::string s)
{
    for (char &c : s)
        c = (char)std::tolower((unsigned char)c);
    return s;
}

// The whole table, row by row (a and b in lower case).
size_t levenshtein(const std::string &a, const std::string &b)
{
    std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); j++)
        prev[j] = j;
    for (size_t i = 1; i <= a.size(); i++) {
        cur[0] = i;
        for (size_t j = 1; j <= b.size(); j++) {
            size_t d = prev[j - 1] + (a[i - 1] != b[j - 1]);
            if (prev[j] + 1 < d)
                d = prev[j] + 1;
            if (cur[j - 1] + 1 < d)
                d = cur[j - 1] + 1;
            cur[j] = d;
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

const char *reference_nearest(const std::string &name)
{
    size_t n = 0;
    const smtlm_option_def *defs = smtlm_option_table(&n);
    const std::string a = lower(name.substr(0, kCut));
    const char *best = nullptr;
    size_t best_d = 0;
    for (size_t i = 0; i < n; i++) {
        const size_t d = levenshtein(a, lower(std::string(defs[i].name).substr(0, kCut)));
        if (!best || d < best_d)
            best = defs[i].name, best_d = d;
    }
    return best && (best_d <= 2 || best_d * 3 <= a.size()) ? best : nullptr;
}

// Each kind of misspelling at the start, the middle and the end of s, and cuts.
std::vector<std::string> misspellings(const std::string &s)
{
    std::vector<std::string> v;
    for (size_t i : {(size_t)0, s.size() / 2, s.size() - 1}) {
        v.push_back(s.substr(0, i) + s.substr(i + 1));                                           // a letter dropped
        v.push_back(s.substr(0, i) + "x" + s.substr(i));                                         // one added
        v.push_back(s.substr(0, i) + "q" + s.substr(i + 1));                                     // one changed
        v.push_back(s.substr(0, i) + (char)std::toupper((unsigned char)s[i]) + s.substr(i + 1)); // case
    }
    v.push_back(s + "_x");
    v.push_back(s.substr(0, s.size() / 2));
    v.push_back(s.substr(s.size() / 3));
    std::string two = s;
    if (two.size() > 6)
        two[1] = 'z', two[two.size() - 2] = 'z';
    v.push_back(two);
    return v;
}

TEST(OptionSuggest, NearestFollowsItsRuleForEveryName)
{
    smtlm_options *o = smtlm_options_new();
    ASSERT_NE(o, nullptr);
    size_t n = 0;
    const smtlm_option_def *defs = smtlm_option_table(&n);
    std::vector<std::string> names = {"a", "ab", "x", "bogus", "keep", "gpgpu", "smtlm", "trace", "config_",
                                      std::string(kCut - 1, 'g'), std::string(kCut, 'g'), std::string(kCut + 1, 'g'),
                                      std::string(5000, 'q'), "gpgpu_num_reg_banks" + std::string(60, 'z')};
    for (size_t i = 0; i < n; i++)
        for (const std::string &m : misspellings(defs[i].name))
            names.push_back(m);
    size_t suggested = 0;
    for (const std::string &name : names) {
        const char *want = reference_nearest(name), *got = smtlm_opt_nearest(o, name.c_str());
        suggested += want != nullptr;
        EXPECT_STREQ(got, want) << "for " << name;
    }
    EXPECT_GT(suggested, names.size() / 2); // most misspellings find their option
    EXPECT_LT(suggested, names.size());     // and some names find none
    smtlm_options_free(o);
}

} // namespace
