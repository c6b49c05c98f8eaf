// Readable, stable names for value-parameterised tests. Without a PrintTo for its parameter
// type, GoogleTest prints a parameter as a byte dump ("56-byte object <53-32 9F-B6 ...>") that
// holds pointers, changes on every run, and ends up in ctest's test names, so `ctest -R` finds
// nothing. Every parameter struct gets a PrintTo; SMTLM_PARAM_NAMES_GUARD() adds a test that
// fails if any parameterised test of its binary still prints a byte dump.
#pragma once

#include <gtest/gtest.h>

#include <string>

#define SMTLM_PARAM_NAMES_GUARD()                                                              \
    TEST(ParamNames, EveryParameterPrintsReadably)                                             \
    {                                                                                          \
        const ::testing::UnitTest *u = ::testing::UnitTest::GetInstance();                    \
        int checked = 0;                                                                       \
        for (int s = 0; s < u->total_test_suite_count(); s++) {                               \
            const ::testing::TestSuite *suite = u->GetTestSuite(s);                           \
            for (int t = 0; t < suite->total_test_count(); t++) {                             \
                const char *v = suite->GetTestInfo(t)->value_param();                         \
                if (!v)                                                                        \
                    continue;                                                                  \
                checked++;                                                                     \
                EXPECT_EQ(std::string(v).find("-byte object"), std::string::npos)             \
                    << suite->name() << "." << suite->GetTestInfo(t)->name() << ": " << v;    \
            }                                                                                  \
        }                                                                                      \
        EXPECT_GT(checked, 0);                                                                 \
    }
