// Pipelined function unit (smtlm_fu_cycle) kept full: latency = depth - 1, II = 1, a new
// instruction every cycle. The ring buffer makes a cycle O(1): depth 4 and depth 330 (QV100's
// SFU pipeline) should cost the same.
#include <benchmark/benchmark.h>

#include <memory>

extern "C" {
#include "smtlm/fu.h"
}

namespace {

void BM_FuCycleBusy(benchmark::State &state)
{
    const unsigned depth = (unsigned)state.range(0), latency = depth - 1;
    std::unique_ptr<smtlm_fu> fu(new smtlm_fu);
    if (smtlm_fu_init(fu.get(), SMTLM_FU_SFU, 0, depth, 0, 0) != SMTLM_OK) {
        state.SkipWithError("smtlm_fu_init failed");
        return;
    }
    smtlm_iref next = 0;
    uint64_t out = 0;
    for (auto _ : state) {
        if (smtlm_fu_can_issue(fu.get(), latency)) {
            smtlm_fu_issue(fu.get(), next, latency, 1);
            next = (smtlm_iref)((next + 1) & 1023);
        }
        smtlm_iref r = smtlm_fu_cycle(fu.get());
        out += r != SMTLM_NO_INST;
        benchmark::DoNotOptimize(r);
    }
    state.counters["in_flight"] = fu->active;
    state.counters["results/cycle"] = benchmark::Counter((double)out / (double)state.iterations());
    state.SetItemsProcessed((int64_t)state.iterations());
}

} // namespace

BENCHMARK(BM_FuCycleBusy)->Arg(4)->Arg(20)->Arg(330);
