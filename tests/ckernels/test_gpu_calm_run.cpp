// smtlm_gpu_run's calm stretches (run_calm in gpu.c: cycles stepped without the per-cycle checks
// while only the SMs can change anything) against the general loop of smtlm_gpu_step and
// smtlm_gpu_skip_idle, on random kernels over several SMs with memory traffic, hooks, limits and
// idle skipping: every retirement, CTA completion and hook call lands on the same cycle with the
// same GPU state, and the run ends the same. The same for smtlm_gpu_run_until in random batches
// (a time-decoupled caller), whose calm stretches must also stop at each batch's end, and for
// both through the SM operations (the SystemC engine's way: here the C SMs behind a copy of
// their operations table, so the GPU cannot tell them from its own).
#include "gpu_run_rig.hpp"

namespace {

using namespace gpu_rig;

TEST(GpuCalmRun, MatchesStepAndSkipIdleCycleForCycle) { expect_same_run(Drive::Run, 20261124, false); }

TEST(GpuCalmRun, RunUntilBatchesMatchStepAndSkipIdle) { expect_same_run(Drive::Batches, 20261125, false); }

TEST(GpuCalmRun, ThroughSmOperationsMatchesStepAndSkipIdle) { expect_same_run(Drive::Run, 20261126, true); }

TEST(GpuCalmRun, ThroughSmOperationsRunUntilBatchesMatch) { expect_same_run(Drive::Batches, 20261127, true); }

} // namespace
