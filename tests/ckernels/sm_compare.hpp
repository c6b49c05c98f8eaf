// Comparisons of two smtlm_sm run side by side (a fast path against the general one).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernel_test_util.hpp"

extern "C" {
#include "smtlm/sm.h"
}

namespace ktu {

// The pipeline register sets (occupancy and the occupants' uids) and the collector's free and
// collected CU masks are the same.
inline void expect_same_sets_and_cus(const smtlm_sm &a, const smtlm_sm &b, const std::string &at)
{
    for (unsigned i = 0; i < SMTLM_NUM_REGSETS; i++) {
        EXPECT_EQ(a.rs[i].occ, b.rs[i].occ) << at << " set " << i;
        for (unsigned s = 0; s < SMTLM_MAX_REGSET_WIDTH; s++)
            if (a.rs[i].occ >> s & 1) {
                EXPECT_EQ(a.rs[i].uid[s], b.rs[i].uid[s]) << at << " set " << i << " slot " << s;
            }
    }
    EXPECT_EQ(a.oc.free_cus, b.oc.free_cus) << at;
    EXPECT_EQ(a.oc.collected, b.oc.collected) << at;
}

// The same instructions retired in the same order with the same event cycles.
inline void expect_same_retired(const std::vector<Ev> &a, const std::vector<Ev> &b, const std::string &name)
{
    ASSERT_EQ(a.size(), b.size()) << name;
    for (size_t i = 0; i < a.size(); i++) {
        EXPECT_EQ(a[i].uid, b[i].uid) << name << " retired #" << i;
        for (unsigned e = 0; e < SMTLM_EV_COUNT; e++)
            EXPECT_EQ(a[i].ev[e], b[i].ev[e]) << name << " retired #" << i << " event " << e;
    }
}

} // namespace ktu
