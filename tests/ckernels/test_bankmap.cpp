// Register -> bank mapping (GPGPU-Sim register_bank): flat (reg + wid) mod banks, sub-core
// ((reg + wid) mod bps) + sched * bps, with trace registers already shifted by +1 (Rn -> n+1,
// RZ = R255 -> 256).
#include <gtest/gtest.h>

#include "kernel_test_util.hpp"

#include <memory>

extern "C" {
#include "smtlm/bankmap.h"
#include "smtlm/regfile.h"
}

namespace {

TEST(BankMap, FlatIsRegPlusWarpModBanks)
{
    EXPECT_EQ(smtlm_bank_flat(0, 0, 16), 0u);
    EXPECT_EQ(smtlm_bank_flat(5, 3, 16), 8u);
    EXPECT_EQ(smtlm_bank_flat(15, 1, 16), 0u);   // wraps
    EXPECT_EQ(smtlm_bank_flat(17, 0, 16), 1u);
    EXPECT_EQ(smtlm_bank_flat(3, 32, 16), 3u);   // warp id added unshifted (bank_warp_shift dead)
    EXPECT_EQ(smtlm_bank_flat(256, 5, 16), 5u);  // RZ is an ordinary register
    EXPECT_EQ(smtlm_bank_flat(7, 2, 8), 1u);
    for (unsigned reg = 0; reg < 300; reg++)
        for (unsigned wid = 0; wid < 64; wid++)
            ASSERT_EQ(smtlm_bank_flat(reg, wid, 16), (reg + wid) % 16);
}

TEST(BankMap, SubCoreIsLocalBankPlusSchedulerBase)
{
    // bps = 4 (16 banks / 4 schedulers): bank = (reg + wid) % 4 + 4 * sched.
    EXPECT_EQ(smtlm_bank_subcore(3, 0, 4, 0), 3u);
    EXPECT_EQ(smtlm_bank_subcore(3, 1, 4, 1), 4u);   // (3+1)%4 = 0, + 4
    EXPECT_EQ(smtlm_bank_subcore(6, 6, 4, 2), 8u);   // 12%4 = 0, + 8
    EXPECT_EQ(smtlm_bank_subcore(7, 3, 4, 3), 14u);  // 10%4 = 2, + 12
    EXPECT_EQ(smtlm_bank_subcore(256, 0, 4, 0), 0u); // RZ
}

// Warps are bound to scheduler s = wid mod (schedulers), so for QV100 (16 banks,
// 4 schedulers) trace register Rn of warp 4k+s lands in local bank (n + 1 + s) mod 4 of sub-core s.
TEST(BankMap, Qv100TraceRegisterRnLandsInLocalBankNPlus1PlusS)
{
    for (unsigned n = 0; n < 256; n++)
        for (unsigned k = 0; k < 16; k++)
            for (unsigned s = 0; s < 4; s++) {
                const unsigned wid = 4 * k + s;
                ASSERT_EQ(smtlm_bank_subcore(n + 1, wid, 4, s), 4 * s + (n + 1 + s) % 4) << n << " " << wid;
            }
    // The microbenchmarks' operand sets for warp 0:
    // dep_nc R2,R4,R5 -> banks 3,1,2 (distinct); dep R2,R4,R6 -> 3,1,3 (2-way);
    // dep3 R2,R6,R10 -> 3,3,3 (3-way).
    EXPECT_EQ(smtlm_bank_subcore(2 + 1, 0, 4, 0), 3u);
    EXPECT_EQ(smtlm_bank_subcore(4 + 1, 0, 4, 0), 1u);
    EXPECT_EQ(smtlm_bank_subcore(5 + 1, 0, 4, 0), 2u);
    EXPECT_EQ(smtlm_bank_subcore(6 + 1, 0, 4, 0), 3u);
    EXPECT_EQ(smtlm_bank_subcore(10 + 1, 0, 4, 0), 3u);
    // Warps 0 and 4 share sub-core 0 and the same rotation.
    EXPECT_EQ(smtlm_bank_subcore(2 + 1, 4, 4, 0), smtlm_bank_subcore(2 + 1, 0, 4, 0));
}

TEST(BankMap, TitanVEvenOddSplitAndA100Rotation)
{
    // 8 banks / 4 schedulers: local bank (n + 1 + s) mod 2.
    for (unsigned n = 0; n < 64; n++)
        for (unsigned s = 0; s < 4; s++)
            EXPECT_EQ(smtlm_bank_subcore(n + 1, 8 + s, 2, s), 2 * s + (n + 1 + s) % 2);
    // 32 banks / 4 schedulers: local bank (n + 1 + s + 4k) mod 8; even and odd k differ by 4.
    for (unsigned n = 0; n < 64; n++)
        for (unsigned k = 0; k < 4; k++)
            EXPECT_EQ(smtlm_bank_subcore(n + 1, 4 * k + 1, 8, 1), 8 + (n + 1 + 1 + 4 * k) % 8);
    EXPECT_EQ(smtlm_bank_subcore(1, 0, 8, 0) + 4, smtlm_bank_subcore(1, 4, 8, 0));
}

TEST(BankMap, RegisterFileUsesTheConfiguredMapping)
{
    smtlm_rf *rf = new smtlm_rf;
    ktu::RfSetup sub = {{16, SMTLM_ALLOC_FIFO, 0}, {4, 1}, 8};
    ASSERT_EQ(ktu::rf_init(rf, sub), SMTLM_OK);
    EXPECT_EQ(rf->bps, 4u);
    EXPECT_EQ(smtlm_rf_bank(rf, 3, 1, 1), 4u);
    EXPECT_EQ(smtlm_rf_bank(rf, 11, 6, 2), 9u);  // 17%4 = 1, + 8
    ktu::RfSetup flat = {{16, SMTLM_ALLOC_FIFO, 0}, {4, 0}, 8};
    ASSERT_EQ(ktu::rf_init(rf, flat), SMTLM_OK);
    EXPECT_EQ(rf->bps, 16u);
    EXPECT_EQ(smtlm_rf_bank(rf, 3, 1, 1), 4u);
    EXPECT_EQ(smtlm_rf_bank(rf, 11, 6, 2), 1u);  // 17%16, the scheduler plays no role
    delete rf;
}

// The register file looks the remainder up in a table built at init; it must give the bank map
// for every register an instruction can name (0 .. SMTLM_MAX_REG) and every warp, whatever the
// banks per scheduler (a power of two or not), and beyond the table it still computes it.
TEST(BankMap, RegisterFileTableEqualsTheMapForEveryRegisterAndWarp)
{
    std::unique_ptr<smtlm_rf> rf(new smtlm_rf);
    const ktu::RfSetup cfgs[] = {{{16, SMTLM_ALLOC_FIFO, 0}, {4, 1}, 8}, {{12, SMTLM_ALLOC_FIFO, 0}, {4, 1}, 8},
                                 {{6, SMTLM_ALLOC_FIFO, 0}, {2, 0}, 8},  {{1, SMTLM_ALLOC_FIFO, 0}, {1, 0}, 8},
                                 {{64, SMTLM_ALLOC_FIFO, 0}, {8, 1}, 8}, {{7, SMTLM_ALLOC_FIFO, 0}, {1, 1}, 8}};
    for (const ktu::RfSetup &c : cfgs) {
        ASSERT_EQ(ktu::rf_init(rf.get(), c), SMTLM_OK);
        const unsigned bps = c.shape.sub_core ? c.cfg.n_banks / c.shape.n_sched : c.cfg.n_banks;
        for (unsigned reg = 0; reg <= SMTLM_MAX_REG + 100; reg++)
            for (unsigned w = 0; w < SMTLM_MAX_WARPS; w++)
                for (unsigned s = 0; s < c.shape.n_sched; s++) {
                    const unsigned want = c.shape.sub_core ? smtlm_bank_subcore(reg, w, bps, s) : smtlm_bank_flat(reg, w, c.cfg.n_banks);
                    ASSERT_EQ(smtlm_rf_bank(rf.get(), reg, w, s), want) << c.cfg.n_banks << " banks, reg " << reg << " warp " << w;
                    ASSERT_EQ(smtlm_rf_cfg_bank(&c.cfg, &c.shape, reg, w, s), want);
                }
    }
}

} // namespace
