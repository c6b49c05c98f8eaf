// Scoreboard (GPGPU-Sim Scoreboard), called directly: per-warp binary set of pending
// destination registers, RAW and WAW collisions, register 0 never tracked, long-op marks.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include <random>

extern "C" {
#include "smtlm/inst_pool.h"
#include "smtlm/scoreboard.h"
}

namespace {

smtlm_inst inst(std::vector<int> dst, std::vector<int> src)
{
    smtlm_inst in;
    std::memset(&in, 0, sizeof in);
    in.n_dst = (uint8_t)dst.size();
    for (size_t i = 0; i < dst.size(); i++)
        in.dst[i] = (int16_t)dst[i];
    in.n_src = (uint8_t)src.size();
    for (size_t i = 0; i < src.size(); i++)
        in.src[i] = (int16_t)src[i];
    return in;
}

struct Sb {
    std::unique_ptr<smtlm_scoreboard> sb{new smtlm_scoreboard};
    Sb() { rc = smtlm_sb_init(sb.get(), 64); }
    int rc;
};

TEST(Scoreboard, InitRejectsZeroAndTooManyWarps)
{
    std::unique_ptr<smtlm_scoreboard> sb(new smtlm_scoreboard);
    EXPECT_EQ(smtlm_sb_init(sb.get(), 0), SMTLM_EINVAL);
    EXPECT_EQ(smtlm_sb_init(sb.get(), SMTLM_MAX_WARPS + 1), SMTLM_ERANGE);
    EXPECT_EQ(smtlm_sb_init(sb.get(), SMTLM_MAX_WARPS), SMTLM_OK);
}

TEST(Scoreboard, RawAndWawCollideWarOrUnrelatedDoNot)
{
    Sb s;
    ASSERT_EQ(s.rc, SMTLM_OK);
    const smtlm_inst w = inst({5}, {6, 7});
    smtlm_sb_reserve(s.sb.get(), 1, &w, 0);
    EXPECT_TRUE(smtlm_sb_test(s.sb.get(), 1, 5));
    EXPECT_TRUE(smtlm_sb_pending_writes(s.sb.get(), 1));
    const smtlm_inst raw = inst({9}, {4, 5});
    const smtlm_inst waw = inst({5}, {4});
    const smtlm_inst war = inst({6}, {8}); // writes a register the first one reads
    const smtlm_inst none = inst({9}, {4, 6});
    EXPECT_TRUE(smtlm_sb_collision(s.sb.get(), 1, &raw));
    EXPECT_TRUE(smtlm_sb_collision(s.sb.get(), 1, &waw));
    EXPECT_FALSE(smtlm_sb_collision(s.sb.get(), 1, &war));
    EXPECT_FALSE(smtlm_sb_collision(s.sb.get(), 1, &none));
    // Per warp: warp 2 has nothing reserved.
    EXPECT_FALSE(smtlm_sb_collision(s.sb.get(), 2, &raw));
    EXPECT_FALSE(smtlm_sb_pending_writes(s.sb.get(), 2));
}

TEST(Scoreboard, ReleaseClearsTheRegister)
{
    Sb s;
    const smtlm_inst w = inst({5, 300}, {});
    smtlm_sb_reserve(s.sb.get(), 3, &w, 0);
    EXPECT_EQ(smtlm_sb_count(s.sb.get(), 3), 2u);
    smtlm_sb_release_reg(s.sb.get(), 3, 300);
    EXPECT_FALSE(smtlm_sb_test(s.sb.get(), 3, 300));
    EXPECT_TRUE(smtlm_sb_pending_writes(s.sb.get(), 3));
    smtlm_sb_release(s.sb.get(), 3, &w); // 300 already released: only 5 counts
    EXPECT_EQ(smtlm_sb_count(s.sb.get(), 3), 0u);
    EXPECT_FALSE(smtlm_sb_pending_writes(s.sb.get(), 3));
    const smtlm_inst raw = inst({9}, {5});
    EXPECT_FALSE(smtlm_sb_collision(s.sb.get(), 3, &raw));
    smtlm_sb_release_reg(s.sb.get(), 3, 5); // releasing an unreserved register is a no-op
    EXPECT_EQ(smtlm_sb_count(s.sb.get(), 3), 0u);
}

TEST(Scoreboard, RegisterZeroIsNeverTracked)
{
    Sb s;
    const smtlm_inst w = inst({0}, {});
    smtlm_sb_reserve(s.sb.get(), 0, &w, 1);
    EXPECT_FALSE(smtlm_sb_test(s.sb.get(), 0, 0));
    EXPECT_FALSE(smtlm_sb_pending_writes(s.sb.get(), 0));
    const smtlm_inst w5 = inst({5}, {});
    smtlm_sb_reserve(s.sb.get(), 0, &w5, 0);
    const smtlm_inst reads0 = inst({0}, {0});
    EXPECT_FALSE(smtlm_sb_collision(s.sb.get(), 0, &reads0));
    smtlm_sb_release_reg(s.sb.get(), 0, 0);
    EXPECT_EQ(smtlm_sb_count(s.sb.get(), 0), 1u);
}

TEST(Scoreboard, DuplicateDestinationInOneInstructionCountsOnce)
{
    Sb s;
    const smtlm_inst w = inst({7, 7}, {});
    smtlm_sb_reserve(s.sb.get(), 0, &w, 0);
    EXPECT_EQ(smtlm_sb_count(s.sb.get(), 0), 1u);
    smtlm_sb_release(s.sb.get(), 0, &w);
    EXPECT_EQ(smtlm_sb_count(s.sb.get(), 0), 0u);
}

TEST(Scoreboard, LongOpMarksFollowReservation)
{
    Sb s;
    const smtlm_inst ld = inst({10}, {2});
    const smtlm_inst alu = inst({11}, {2});
    smtlm_sb_reserve(s.sb.get(), 4, &ld, 1);  // global load
    smtlm_sb_reserve(s.sb.get(), 4, &alu, 0); // ALU
    const smtlm_inst use_ld = inst({12}, {3, 10});
    const smtlm_inst use_alu = inst({12}, {11});
    EXPECT_TRUE(smtlm_sb_reads_longop(s.sb.get(), 4, &use_ld));
    EXPECT_FALSE(smtlm_sb_reads_longop(s.sb.get(), 4, &use_alu));
    EXPECT_FALSE(smtlm_sb_reads_longop(s.sb.get(), 5, &use_ld));
    smtlm_sb_release_reg(s.sb.get(), 4, 10);
    EXPECT_FALSE(smtlm_sb_reads_longop(s.sb.get(), 4, &use_ld));
    smtlm_sb_reserve(s.sb.get(), 4, &ld, 0); // reserved again as a short op: no stale mark
    EXPECT_FALSE(smtlm_sb_reads_longop(s.sb.get(), 4, &use_ld));
}

TEST(Scoreboard, HighRegistersAndRzAreTracked)
{
    Sb s;
    const smtlm_inst w = inst({256, SMTLM_MAX_REG}, {});
    smtlm_sb_reserve(s.sb.get(), 63, &w, 0);
    EXPECT_TRUE(smtlm_sb_test(s.sb.get(), 63, 256));
    EXPECT_TRUE(smtlm_sb_test(s.sb.get(), 63, SMTLM_MAX_REG));
    EXPECT_FALSE(smtlm_sb_test(s.sb.get(), 63, 255));
    const smtlm_inst raw = inst({}, {SMTLM_MAX_REG});
    EXPECT_TRUE(smtlm_sb_collision(s.sb.get(), 63, &raw));
    smtlm_sb_reset(s.sb.get());
    EXPECT_FALSE(smtlm_sb_pending_writes(s.sb.get(), 63));
}

// The collision test of an instruction from the pool must agree with one bit test per named
// register, for registers in one word, spread over several, register 0 and RZ (256).
TEST(Scoreboard, CollisionAgreesWithBitTests)
{
    Sb s;
    std::unique_ptr<smtlm_inst_pool> pool(new smtlm_inst_pool);
    smtlm_pool_init(pool.get());
    std::mt19937 rng(7);
    for (int round = 0; round < 4000; round++) {
        const unsigned w = rng() % 8;
        if (round % 50 == 0)
            smtlm_sb_reset(s.sb.get());
        smtlm_inst_desc d;
        std::memset(&d, 0, sizeof d);
        d.op = SMTLM_OP_SP, d.latency = 4, d.ii = 1;
        d.n_src = (uint8_t)(rng() % (SMTLM_MAX_SRC + 1));
        d.n_dst = (uint8_t)(rng() % 3);
        const int span = round % 3 == 0 ? SMTLM_MAX_REG + 1 : 64; // one word or any register
        const int base = round % 3 == 1 ? 256 : 0;
        for (unsigned i = 0; i < d.n_src; i++)
            d.src[i] = (int16_t)(rng() % 5 == 0 ? 0 : (base + (int)(rng() % span)) % (SMTLM_MAX_REG + 1));
        for (unsigned i = 0; i < d.n_dst; i++)
            d.dst[i] = (int16_t)(base + (int)(rng() % span)) % (SMTLM_MAX_REG + 1);
        const smtlm_iref r = smtlm_pool_alloc(pool.get(), &d, (uint16_t)w);
        ASSERT_NE(r, SMTLM_NO_INST);
        const smtlm_inst *in = smtlm_pool_get(pool.get(), r);
        bool expect = false;
        for (unsigned i = 0; i < d.n_src; i++)
            expect |= d.src[i] > 0 && smtlm_sb_test(s.sb.get(), w, (unsigned)d.src[i]);
        for (unsigned i = 0; i < d.n_dst; i++)
            expect |= d.dst[i] > 0 && smtlm_sb_test(s.sb.get(), w, (unsigned)d.dst[i]);
        EXPECT_EQ(smtlm_sb_collision(s.sb.get(), w, in) != 0, expect) << "round " << round;
        if (rng() % 2)
            smtlm_sb_reserve(s.sb.get(), w, in, 0);
        smtlm_pool_free(pool.get(), r);
    }
}

} // namespace
