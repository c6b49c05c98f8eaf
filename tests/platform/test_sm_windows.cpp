// The C engine's windowed driver (gpu_parallel.c: once no CTA is left to issue, each SM is
// stepped alone up to smtlm_gpu_sms_alone_until and its hook calls are replayed in (cycle, SM)
// order) against the general cycle-by-cycle loop, on the random kernels of the GPU run rig:
// every retirement, CTA completion (the rig's binder has a cta_done callback, as the trace
// source does) and hook call lands on the same cycle with the same CTA count, and the run ends
// the same, on one host thread and on two, for the C engine's SMs and through a copy of their
// operations table; and as the SystemC Gpu runs them, in batches of random length
// (smtlm_gpu_run_until with the window function set): a window ends at a batch's end and an idle
// skip cut there resumes in the next batch, so every counter, skipped_cycles included, is the
// same as one run. Each also asserts that windows ran at all.
#include <gtest/gtest.h>

#include "smtlm/gpu_parallel.h"
#include "gpu_run_rig.hpp"

namespace {

using namespace gpu_rig;

void expect_windows_match(uint32_t seed, unsigned threads, bool through_ops)
{
    uint64_t window_cycles = 0;
    const auto windows = [&](smtlm_gpu *g) {
        smtlm_gpu_par *P = smtlm_gpu_par_new(g, threads);
        EXPECT_NE(P, nullptr);
        if (!P)
            return SMTLM_RUN_ERROR;
        const smtlm_run_status st = smtlm_gpu_par_run(P);
        window_cycles += smtlm_gpu_par_window_cycles(P);
        smtlm_gpu_par_free(P);
        return st;
    };
    expect_same_run(Drive::Other, seed, through_ops, windows, true);
    EXPECT_GT(window_cycles, 0u) << "no window ran";
}

// The SystemC Gpu's loop: batches up to a horizon, the windows inside them.
void expect_windows_in_batches_match(uint32_t seed, unsigned threads)
{
    uint64_t window_cycles = 0;
    std::mt19937 rng(seed);
    const auto windows = [&](smtlm_gpu *g) {
        smtlm_gpu_par *P = smtlm_gpu_par_new(g, threads);
        EXPECT_NE(P, nullptr);
        if (!P)
            return SMTLM_RUN_ERROR;
        smtlm_gpu_set_window(g, smtlm_gpu_par_window, P);
        smtlm_run_status st;
        do {
            const uint64_t limit = g->tot_cycle + g->sim_cycle + 1 + rng() % 700;
            st = smtlm_gpu_run_until(g, limit);
            EXPECT_LE(g->tot_cycle + g->sim_cycle, limit); // no window passes a batch's end
        } while (st == SMTLM_RUN_RUNNING);
        smtlm_gpu_set_window(g, nullptr, nullptr);
        window_cycles += smtlm_gpu_par_window_cycles(P);
        smtlm_gpu_par_free(P);
        return st;
    };
    expect_same_run(Drive::Other, seed, true, windows, true);
    EXPECT_GT(window_cycles, 0u) << "no window ran";
}

TEST(SmWindows, OneThreadMatchesTheCycleByCycleLoop) { expect_windows_match(20261128, 1, false); }

TEST(SmWindows, TwoThreadsMatchTheCycleByCycleLoop) { expect_windows_match(20261129, 2, false); }

TEST(SmWindows, ThroughSmOperationsMatchesTheCycleByCycleLoop) { expect_windows_match(20261130, 1, true); }

TEST(SmWindows, InBatchesMatchTheCycleByCycleLoop) { expect_windows_in_batches_match(20261201, 1); }

TEST(SmWindows, InBatchesOnTwoThreadsMatchTheCycleByCycleLoop) { expect_windows_in_batches_match(20261202, 2); }

} // namespace
