// The occupancy rule (smtlm_gpu_max_cta) takes whatever sizes a kernel description holds: its
// products are formed in 64 bits, so a huge register or thread count gives "no CTA fits" (and
// the resource that says so), never a wrapped product of 0 and a division by zero.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>

#include "micro.hpp"

extern "C" {
#include "smtlm/gpu.h"
}

namespace {

// QV100 with one SM: 2048 threads, 98304 B shared memory, 65536 registers per SM, 32 CTAs.
struct OneSm {
    std::unique_ptr<smtlm_sm> sm{new smtlm_sm};
    std::unique_ptr<smtlm_mem_model> mem{new smtlm_mem_model};
    std::unique_ptr<smtlm_gpu> gpu{new smtlm_gpu};
    OneSm()
    {
        smtlm_gpu_cfg c = micro::Runner::qv100();
        c.n_clusters = 1;
        c.cores_per_cluster = 1;
        EXPECT_EQ(smtlm_gpu_init(gpu.get(), &c, sm.get(), mem.get()), SMTLM_OK);
    }
    unsigned max_cta(const smtlm_kernel_desc &k, smtlm_cta_limit *why) const
    {
        return smtlm_gpu_max_cta(gpu.get(), &k, why);
    }
};

} // namespace

TEST(GpuMaxCtaWide, RegisterProductsThatWrap32BitsFitNothing)
{
    OneSm g;
    smtlm_cta_limit why = SMTLM_LIMIT_GRID;
    // 1024 threads x 4194304 registers = 2^32: 0 in 32 bits
    EXPECT_EQ(g.max_cta({64, 1024, 0, 4194304}, &why), 0u);
    EXPECT_EQ(why, SMTLM_LIMIT_REGS);
    // 1024 x 4194305 rounded up to 4194308: wraps to 4096 in 32 bits, as if 16 CTAs' registers fit
    why = SMTLM_LIMIT_GRID;
    const smtlm_kernel_desc wraps = {64, 1024, 0, 4194305};
    EXPECT_EQ(g.max_cta(wraps, &why), 0u);
    EXPECT_EQ(why, SMTLM_LIMIT_REGS);
    EXPECT_EQ(smtlm_gpu_kernel_fits(g.gpu.get(), &wraps), 0);
    // the largest of both: 2^32 threads (whole warps) x 2^32 registers wraps even 64 bits
    EXPECT_EQ(g.max_cta({64, UINT32_MAX, 0, UINT32_MAX}, &why), 0u);
    // at the edge: 64 threads x 1024 registers is all 65536 registers, one CTA
    EXPECT_EQ(g.max_cta({64, 64, 0, 1024}, &why), 1u);
    EXPECT_EQ(why, SMTLM_LIMIT_REGS);
}
