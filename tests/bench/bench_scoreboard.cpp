// Scoreboard: per instruction the RAW/WAW check, the reservation of its destination at issue
// and the release at writeback, over the 64 warps of an SM (1 destination, 3 sources).
#include <benchmark/benchmark.h>

#include <cstring>
#include <memory>

extern "C" {
#include "smtlm/scoreboard.h"
}

namespace {

void BM_ScoreboardIssueRelease(benchmark::State &state)
{
    std::unique_ptr<smtlm_scoreboard> sb(new smtlm_scoreboard);
    if (smtlm_sb_init(sb.get(), SMTLM_MAX_WARPS) != SMTLM_OK) {
        state.SkipWithError("smtlm_sb_init failed");
        return;
    }
    smtlm_inst in[8];
    std::memset(in, 0, sizeof in);
    for (unsigned k = 0; k < 8; k++) { // FFMA R(k+8), R(k), R(k+1), R(k+2) (simulator numbers)
        in[k].n_dst = 1;
        in[k].dst[0] = (int16_t)(k + 9);
        in[k].n_src = 3;
        for (unsigned j = 0; j < 3; j++)
            in[k].src[j] = (int16_t)(k + j + 1);
    }
    unsigned w = 0, k = 0;
    uint64_t stalls = 0;
    for (auto _ : state) {
        const smtlm_inst *p = &in[k];
        if (smtlm_sb_collision(sb.get(), w, p)) {
            stalls++;
        } else {
            smtlm_sb_reserve(sb.get(), w, p, 0);
            smtlm_sb_release(sb.get(), w, p);
        }
        w = (w + 1) & (SMTLM_MAX_WARPS - 1);
        k = (k + (w == 0)) & 7;
    }
    benchmark::DoNotOptimize(stalls);
    state.SetItemsProcessed((int64_t)state.iterations());
}

void BM_ScoreboardCollisionPending(benchmark::State &state)
{
    // Collision checks against a scoreboard holding 16 pending registers per warp.
    std::unique_ptr<smtlm_scoreboard> sb(new smtlm_scoreboard);
    smtlm_sb_init(sb.get(), SMTLM_MAX_WARPS);
    smtlm_inst r;
    std::memset(&r, 0, sizeof r);
    r.n_dst = 1;
    for (unsigned w = 0; w < SMTLM_MAX_WARPS; w++)
        for (unsigned reg = 1; reg <= 32; reg += 2) {
            r.dst[0] = (int16_t)reg;
            smtlm_sb_reserve(sb.get(), w, &r, 0);
        }
    smtlm_inst q;
    std::memset(&q, 0, sizeof q);
    q.n_dst = 1;
    q.n_src = 3;
    unsigned w = 0, base = 2;
    uint64_t hits = 0;
    for (auto _ : state) {
        q.dst[0] = (int16_t)(base + 40);
        q.src[0] = (int16_t)base;
        q.src[1] = (int16_t)(base + 2);
        q.src[2] = (int16_t)(base + 5);
        hits += (uint64_t)smtlm_sb_collision(sb.get(), w, &q);
        w = (w + 1) & (SMTLM_MAX_WARPS - 1);
        base = base == 20 ? 2 : base + 1;
    }
    benchmark::DoNotOptimize(hits);
    state.SetItemsProcessed((int64_t)state.iterations());
}

} // namespace

BENCHMARK(BM_ScoreboardIssueRelease);
BENCHMARK(BM_ScoreboardCollisionPending);
