// The instruction pool is a simulator resource: when it is exhausted, decode waits instead of
// failing, and the run completes once entries come back.
#include <gtest/gtest.h>

#include "micro.hpp"

TEST(PoolPressure, DecodeWaitsForFreeEntriesAndTheRunCompletes)
{
    micro::Runner r(micro::Runner::qv100());
    ASSERT_EQ(r.init_rc, SMTLM_OK);
    smtlm_inst_pool *pool = &r.sm()->pool;
    // Hold all but one entry, as if thousands of loads were outstanding.
    std::vector<smtlm_iref> held;
    smtlm_inst_desc d = micro::exit_inst();
    while (pool->used + 1 < SMTLM_POOL_SIZE)
        held.push_back(smtlm_pool_alloc(pool, &d, 0));
    const std::vector<smtlm_inst_desc> prog = micro::program("indep", 8);
    // Start the kernel by hand so the held entries stay held for a while.
    std::vector<size_t> pos(SMTLM_MAX_WARPS, 0);
    struct Ctx {
        const std::vector<smtlm_inst_desc> *prog;
        std::vector<size_t> *pos;
    } ctx{&prog, &pos};
    const smtlm_inst_source src = {
        &ctx,
        [](void *c, unsigned, unsigned w, smtlm_inst_desc *out) {
            Ctx *x = static_cast<Ctx *>(c);
            if ((*x->pos)[w] >= x->prog->size())
                return 0;
            *out = (*x->prog)[(*x->pos)[w]++];
            return 1;
        },
        [](void *c, unsigned, unsigned w) {
            Ctx *x = static_cast<Ctx *>(c);
            return (int)((*x->pos)[w] < x->prog->size());
        },
        nullptr, 0, 0, nullptr, nullptr, nullptr};
    smtlm_gpu_set_source(r.gpu(), &src, nullptr);
    const smtlm_kernel_desc k = {1, 32, 0, 64};
    ASSERT_EQ(smtlm_gpu_launch(r.gpu(), &k), SMTLM_OK);
    for (int i = 0; i < 5100; i++)
        ASSERT_EQ(smtlm_gpu_step(r.gpu()), SMTLM_RUN_RUNNING);
    EXPECT_GT(r.sm()->iss.pool_stalls, 0u);
    EXPECT_EQ(smtlm_issue_issued(&r.sm()->iss), 0u); // nothing could be decoded yet
    for (smtlm_iref h : held)
        smtlm_pool_free(pool, h);
    ASSERT_EQ(smtlm_gpu_run(r.gpu()), SMTLM_RUN_DONE);
    EXPECT_EQ(smtlm_gpu_sim_warp_insn(r.gpu()), prog.size());
    EXPECT_EQ(pool->used, 0u);
}
