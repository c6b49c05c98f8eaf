// Register-file port arbiter (smtlm_rf_arbitrate): 16 banks (QV100: 4 sub-cores x 4), 8
// collector units, every bank holding `queued` reads. One iteration = one arbitration step plus
// re-queueing the reads it granted, so the queues stay at their depth.
#include <benchmark/benchmark.h>

#include <memory>

extern "C" {
#include "smtlm/regfile.h"
}

namespace {

void arbitrate(benchmark::State &state, smtlm_alloc_policy policy)
{
    const unsigned banks = 16, cus = 8, queued = (unsigned)state.range(0);
    std::unique_ptr<smtlm_rf> rf(new smtlm_rf);
    const smtlm_rf_cfg cfg = {banks, policy, 0};
    const smtlm_sm_shape shape = {4, 1}; // QV100: 4 sub-cores
    if (smtlm_rf_init(rf.get(), &cfg, &shape, cus) != SMTLM_OK) {
        state.SkipWithError("smtlm_rf_init failed");
        return;
    }
    unsigned seq = 0;
    for (unsigned b = 0; b < banks; b++)
        for (unsigned k = 0; k < queued; k++, seq++)
            smtlm_rf_request(rf.get(), b, smtlm_read_req{(uint8_t)(seq % cus), (uint8_t)(seq % 3), (uint16_t)(b + 1)});
    smtlm_read_grant g[SMTLM_MAX_BANKS];
    uint64_t grants = 0;
    for (auto _ : state) {
        unsigned n = smtlm_rf_arbitrate(rf.get(), g);
        smtlm_rf_end_step(rf.get());
        for (unsigned i = 0; i < n; i++, seq++)
            smtlm_rf_request(rf.get(), g[i].bank, smtlm_read_req{(uint8_t)(seq % cus), (uint8_t)(seq % 3), (uint16_t)(g[i].bank + 1)});
        grants += n;
        benchmark::DoNotOptimize(g);
    }
    state.counters["grants/step"] = benchmark::Counter((double)grants / (double)state.iterations());
    state.SetItemsProcessed((int64_t)state.iterations());
}

void BM_RfArbitrateFifo(benchmark::State &state) { arbitrate(state, SMTLM_ALLOC_FIFO); }
void BM_RfArbitrateWavefront(benchmark::State &state) { arbitrate(state, SMTLM_ALLOC_WAVEFRONT); }

} // namespace

BENCHMARK(BM_RfArbitrateFifo)->Arg(1)->Arg(4)->Arg(16);
BENCHMARK(BM_RfArbitrateWavefront)->Arg(1)->Arg(4)->Arg(16);
