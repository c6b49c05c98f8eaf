// smtlm_options_new: every object starts at the defaults (the table under the built-in
// machine), with no origins and no setting order, whatever objects made before it set, parsed
// or freed, and when objects are made on several threads at once.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <thread>
#include <vector>

extern "C" {
#include "smtlm/options.h"
}

namespace {

// Every option's value text and whether it is set, in table order.
std::vector<std::string> snapshot(const smtlm_options *o)
{
    size_t n = 0;
    const smtlm_option_def *defs = smtlm_option_table(&n);
    std::vector<std::string> v;
    for (size_t i = 0; i < n; i++) {
        char buf[512] = "", where[256] = "";
        smtlm_options_value_text(o, defs[i].name, buf, sizeof buf);
        smtlm_options_origin(o, defs[i].name, where, sizeof where);
        v.push_back(std::string(defs[i].name) + "=" + buf + " @" + where + " #" +
                    std::to_string(smtlm_options_set_order(o, defs[i].name)) + (smtlm_options_is_set(o, defs[i].name) ? " set" : ""));
    }
    return v;
}

TEST(OptionsNew, EveryObjectStartsAtTheDefaultsWhateverEarlierObjectsDid)
{
    smtlm_options *first = smtlm_options_new();
    ASSERT_NE(first, nullptr);
    const std::vector<std::string> fresh = snapshot(first);
    uint32_t banks = 0;
    ASSERT_EQ(smtlm_options_get_u32(first, "gpgpu_num_reg_banks", &banks), 0);
    EXPECT_EQ(banks, 16u); // the built-in QV100 (configs/qv100.config), not the table's GPGPU-Sim default
    char err[256];
    const std::string text = "-gpgpu_num_reg_banks 8\n-smtlm_mem_latency 3\n-gpgpu_n_clusters 2\n";
    ASSERT_EQ(smtlm_options_parse_text(first, text.data(), text.size(), "a.config", err, sizeof err), 0) << err;
    ASSERT_EQ(smtlm_options_set(first, "smtlm_stats_json", "x.json", err, sizeof err), 0) << err;
    const std::vector<std::string> changed = snapshot(first);
    EXPECT_NE(changed, fresh);

    smtlm_options *second = smtlm_options_new();
    ASSERT_NE(second, nullptr);
    EXPECT_EQ(snapshot(second), fresh);
    smtlm_options_free(first);
    smtlm_options *third = smtlm_options_new();
    ASSERT_NE(third, nullptr);
    EXPECT_EQ(snapshot(third), fresh);
    // a setting in a later object starts the order again at 1
    ASSERT_EQ(smtlm_options_parse_text(third, text.data(), text.size(), "a.config", err, sizeof err), 0) << err;
    EXPECT_EQ(smtlm_options_set_order(third, "gpgpu_num_reg_banks"), 1u);
    EXPECT_EQ(snapshot(second), fresh);
    smtlm_options_free(second);
    smtlm_options_free(third);
}

TEST(OptionsNew, ObjectsMadeOnManyThreadsAtOnceAllStartAtTheDefaults)
{
    smtlm_options *ref = smtlm_options_new();
    ASSERT_NE(ref, nullptr);
    const std::vector<std::string> fresh = snapshot(ref);
    smtlm_options_free(ref);
    std::vector<int> same(8, 0);
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < same.size(); t++)
        threads.emplace_back([&, t] {
            int ok = 1;
            for (int i = 0; i < 20; i++) {
                smtlm_options *o = smtlm_options_new();
                ok &= o && snapshot(o) == fresh;
                char err[256];
                ok &= o && smtlm_options_set(o, "gpgpu_num_reg_banks", "16", err, sizeof err) == 0;
                smtlm_options_free(o);
            }
            same[t] = ok;
        });
    for (std::thread &th : threads)
        th.join();
    for (unsigned t = 0; t < same.size(); t++)
        EXPECT_EQ(same[t], 1) << "thread " << t;
}

} // namespace
