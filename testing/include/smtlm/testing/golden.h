// Golden files: a run's statistics pinned in a file beside the test.
//   EXPECT_MATCHES_GOLDEN(r, "lud_qv100.json");                       // every counter
//   EXPECT_MATCHES_GOLDEN(r, "lud_qv100_cycles.json", {"gpu_tot_sim_cycle", "kernels[0].stall"});
// A mismatch fails with the table of what changed (golden against this run). Running the test
// binary with --smtlm_update_goldens (or SMTLM_UPDATE_GOLDENS=1 in the environment) rewrites
// the files instead, so an intended change is accepted with one command. A run that did not
// complete (Result::ok() false) fails with its error: nothing is compared with it or written
// from it, in update mode too.
//
// A golden file is flat JSON, one member per statistic named by its JSON path
// ({"gpu_tot_sim_cycle": 8952, "kernels[0].stall": 79}); `smsim -smtlm_compare` reads it as it
// reads a stats file. A relative path is taken from the golden directory: SMTLM_GOLDEN_DIR in
// the environment, else the SMTLM_GOLDEN_DIR macro (smtlm_add_regression's GOLDEN_DIR), else the
// current directory.
#ifndef SMTLM_TESTING_GOLDEN_H
#define SMTLM_TESTING_GOLDEN_H

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "smtlm/testing/run.h"

namespace smtlm {
namespace testing {

// Update mode: off unless init() found --smtlm_update_goldens or SMTLM_UPDATE_GOLDENS (1, yes,
// on, true), or a test set it.
bool updating_goldens();
void set_updating_goldens(bool on);
// Reads the environment and takes --smtlm_update_goldens out of argv. smtlm::testing_main calls
// it; a test binary with a main of its own calls it after InitGoogleTest.
void init(int *argc, char **argv);

// The check behind the macros: compares (or in update mode writes) the statistics named in
// stats, or all of them (host time aside) when stats is empty.
::testing::AssertionResult matches_golden(const char *default_dir, const Result &r, const std::string &path,
                                          const std::vector<std::string> &stats = {});

} // namespace testing
} // namespace smtlm

#ifdef SMTLM_GOLDEN_DIR
#define SMTLM_TESTING_GOLDEN_DIR_ SMTLM_GOLDEN_DIR
#else
#define SMTLM_TESTING_GOLDEN_DIR_ ""
#endif

#define SMTLM_TESTING_GOLDEN_(fail, result, ...)                                                              \
    switch (0)                                                                                                \
    case 0:                                                                                                   \
    default:                                                                                                  \
        if (const ::testing::AssertionResult smtlm_golden_ok_ =                                               \
                ::smtlm::testing::matches_golden(SMTLM_TESTING_GOLDEN_DIR_, result, __VA_ARGS__))            \
            ;                                                                                                 \
        else                                                                                                  \
            fail() << smtlm_golden_ok_.message()

#define EXPECT_MATCHES_GOLDEN(result, ...) SMTLM_TESTING_GOLDEN_(ADD_FAILURE, result, __VA_ARGS__)
#define ASSERT_MATCHES_GOLDEN(result, ...) SMTLM_TESTING_GOLDEN_(FAIL, result, __VA_ARGS__)

#endif
