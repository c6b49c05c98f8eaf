// The C engine's windowed driver (gpu_parallel.c: once no CTA is left to issue, each SM is
// stepped alone up to smtlm_gpu_sms_alone_until and its hook calls are replayed in (cycle, SM)
// order) against the general cycle-by-cycle loop, on the random kernels of the GPU run rig:
// every retirement, CTA completion (the rig's binder has a cta_done callback, as the trace
// source does) and hook call lands on the same cycle with the same CTA count, and the run ends
// the same, on one host thread and on two, for the C engine's SMs and through a copy of their
// operations table. Each also asserts that windows ran at all.
#include <gtest/gtest.h>

#include "gpu_parallel.h"
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

TEST(SmWindows, OneThreadMatchesTheCycleByCycleLoop) { expect_windows_match(20261128, 1, false); }

TEST(SmWindows, TwoThreadsMatchTheCycleByCycleLoop) { expect_windows_match(20261129, 2, false); }

TEST(SmWindows, ThroughSmOperationsMatchesTheCycleByCycleLoop) { expect_windows_match(20261130, 1, true); }

} // namespace
