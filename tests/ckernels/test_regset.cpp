// Pipeline register sets (GPGPU-Sim register_set): fixed slots,
// oldest-first selection by uid, sub-core slot semantics, move_in / take.
#include <gtest/gtest.h>

extern "C" {
#include "smtlm/regset.h"
}

namespace {

TEST(RegSet, InitIsEmpty)
{
    smtlm_regset rs;
    smtlm_regset_init(&rs, 4);
    EXPECT_EQ(rs.width, 4);
    EXPECT_EQ(rs.count, 0);
    EXPECT_EQ(smtlm_regset_oldest(&rs), -1);
    EXPECT_EQ(smtlm_regset_first_free(&rs), 0);
    for (unsigned s = 0; s < 4; s++) {
        EXPECT_TRUE(smtlm_regset_slot_free(&rs, s));
        EXPECT_TRUE(smtlm_regset_has_free(&rs, 1, s));
    }
    EXPECT_TRUE(smtlm_regset_has_free(&rs, 0, 0));
    EXPECT_FALSE(smtlm_regset_has_free(&rs, 1, 4)); // sub-core: no slot 4 in a 4-wide set
}

TEST(RegSet, OldestIsLowestUidNotLowestSlot)
{
    smtlm_regset rs;
    smtlm_regset_init(&rs, 4);
    smtlm_regset_put(&rs, 2, 20, 10);
    smtlm_regset_put(&rs, 0, 21, 7);
    smtlm_regset_put(&rs, 3, 22, 12);
    EXPECT_EQ(rs.count, 3);
    EXPECT_EQ(smtlm_regset_oldest(&rs), 0);
    EXPECT_EQ(smtlm_regset_take(&rs, 0), 21);
    EXPECT_EQ(smtlm_regset_oldest(&rs), 2); // uid 10 < 12
    EXPECT_EQ(smtlm_regset_first_free(&rs), 0);
    EXPECT_EQ(smtlm_regset_take(&rs, 2), 20);
    EXPECT_EQ(smtlm_regset_oldest(&rs), 3);
    EXPECT_EQ(rs.count, 1);
}

TEST(RegSet, TakeOfAnEmptySlotChangesNothing)
{
    smtlm_regset rs;
    smtlm_regset_init(&rs, 2);
    smtlm_regset_put(&rs, 1, 5, 1);
    EXPECT_EQ(smtlm_regset_take(&rs, 0), (smtlm_iref)SMTLM_NO_INST);
    EXPECT_EQ(rs.count, 1);
}

TEST(RegSet, SubCoreMoveInUsesOnlyTheSchedulersSlot)
{
    smtlm_regset rs;
    smtlm_regset_init(&rs, 4);
    EXPECT_EQ(smtlm_regset_move_in(&rs, 1, 2, 7, 1), 2);
    EXPECT_FALSE(smtlm_regset_has_free(&rs, 1, 2));
    EXPECT_TRUE(smtlm_regset_has_free(&rs, 1, 1));
    EXPECT_TRUE(smtlm_regset_has_free(&rs, 0, 2)); // non-sub-core view: 3 free slots
    // Slot 2 is busy: sub-core move_in fails although slots 0, 1 and 3 are free.
    EXPECT_EQ(smtlm_regset_move_in(&rs, 1, 2, 8, 2), -1);
    EXPECT_EQ(rs.count, 1);
    EXPECT_EQ(rs.slot[2], 7);
    EXPECT_EQ(smtlm_regset_move_in(&rs, 1, 5, 8, 2), -1); // out of range
    EXPECT_EQ(smtlm_regset_take(&rs, 2), 7);
    EXPECT_EQ(smtlm_regset_move_in(&rs, 1, 2, 8, 2), 2);
}

TEST(RegSet, NonSubCoreMoveInTakesFirstFreeSlot)
{
    smtlm_regset rs;
    smtlm_regset_init(&rs, 3);
    EXPECT_EQ(smtlm_regset_move_in(&rs, 0, 2, 1, 5), 0); // slot argument ignored
    EXPECT_EQ(smtlm_regset_move_in(&rs, 0, 0, 2, 6), 1);
    smtlm_regset_take(&rs, 0);
    EXPECT_EQ(smtlm_regset_move_in(&rs, 0, 0, 3, 7), 0); // refills the hole
    EXPECT_EQ(smtlm_regset_move_in(&rs, 0, 0, 4, 8), 2);
    EXPECT_FALSE(smtlm_regset_has_free(&rs, 0, 0));
    EXPECT_EQ(smtlm_regset_move_in(&rs, 0, 0, 5, 9), -1); // full
    EXPECT_EQ(smtlm_regset_first_free(&rs), -1);
    EXPECT_EQ(smtlm_regset_oldest(&rs), 1); // uid 6 (slot 1) is older than 7 (slot 0)
}

TEST(RegSet, ZeroWidthSetNeverAcceptsAnything)
{
    smtlm_regset rs;
    smtlm_regset_init(&rs, 0);
    EXPECT_FALSE(smtlm_regset_has_free(&rs, 0, 0));
    EXPECT_FALSE(smtlm_regset_has_free(&rs, 1, 0));
    EXPECT_EQ(smtlm_regset_move_in(&rs, 0, 0, 1, 1), -1);
    EXPECT_EQ(smtlm_regset_move_in(&rs, 1, 0, 1, 1), -1);
}

// The occupancy mask and everything read from it (oldest, first_free, has_free, move_in) agree
// with a scan of the slots after every operation of a long pseudo-random sequence, for every
// width, with equal ages (the lowest slot wins, as the scan) among them.
TEST(RegSet, OccupancyMaskMatchesASlotScanThroughRandomUse)
{
    uint32_t seed = 12345;
    auto rnd = [&seed](unsigned n) {
        seed = seed * 1103515245u + 12345u;
        return (seed >> 16) % n;
    };
    for (unsigned width = 0; width <= SMTLM_MAX_REGSET_WIDTH; width++) {
        smtlm_regset rs;
        smtlm_regset_init(&rs, width);
        for (unsigned step = 0; step < 2000; step++) {
            const unsigned s = rnd(SMTLM_MAX_REGSET_WIDTH + 2);
            const int sub_core = (int)rnd(2);
            switch (rnd(3)) {
            case 0: smtlm_regset_move_in(&rs, sub_core, s, (smtlm_iref)step, rnd(8)); break;
            case 1:
                if (s < width)
                    smtlm_regset_take(&rs, s);
                break;
            default:
                if (rs.count)
                    smtlm_regset_take(&rs, (unsigned)smtlm_regset_oldest(&rs));
                break;
            }
            uint32_t occ = 0;
            int oldest = -1, first_free = -1;
            for (unsigned i = 0; i < width; i++) {
                if (rs.slot[i] == SMTLM_NO_INST) {
                    if (first_free < 0)
                        first_free = (int)i;
                    continue;
                }
                occ |= 1u << i;
                if (oldest < 0 || rs.uid[i] < rs.uid[oldest])
                    oldest = (int)i;
            }
            ASSERT_EQ(rs.occ, occ) << "width " << width << " step " << step;
            ASSERT_EQ(rs.count, smtlm_popcount32(occ));
            ASSERT_EQ(smtlm_regset_oldest(&rs), oldest) << "width " << width << " step " << step;
            ASSERT_EQ(smtlm_regset_first_free(&rs), first_free);
            ASSERT_EQ(smtlm_regset_has_free(&rs, 0, s) != 0, first_free >= 0);
            ASSERT_EQ(smtlm_regset_has_free(&rs, 1, s) != 0, s < width && rs.slot[s] == SMTLM_NO_INST);
        }
    }
}

} // namespace
