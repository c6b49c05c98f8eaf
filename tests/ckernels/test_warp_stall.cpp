// The finer per-warp stall breakdown names the real cause of a wait.
#include <gtest/gtest.h>

#include "kernel_test_util.hpp"

// After its EXIT a warp drains; those cycles are not MEMBAR stalls (the warp has no MEMBAR).
// dep_nc 4-chain: EXIT issues at 23 (timeline dep_nc_4_w1) and the warp is examined while
// draining in cycles 24..29 = 6 cycles.
TEST(WarpStall, DrainingWarpIsNotCountedAsMembarStall)
{
    ktu::Rig rig(ktu::qv100());
    rig.load({micro::program("dep_nc", 4)});
    rig.run();
    const smtlm_sm *sm = rig.sm();
    EXPECT_EQ(sm->iss.warp_stall[0][SMTLM_WS_MEMBAR], 0u);
    EXPECT_EQ(sm->iss.warp_stall[0][SMTLM_WS_BARRIER], 0u);
    EXPECT_EQ(sm->iss.warp_stall[0][SMTLM_WS_ATOMIC], 0u);
    EXPECT_EQ(sm->iss.warp_stall[0][SMTLM_WS_DRAINING], 6u);
}
