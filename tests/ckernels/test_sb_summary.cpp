// The register summary a pool entry gets at commit (sb_regs, sb_dsts) and the scoreboard's
// one-word tests built on it (smtlm_sb_collides_entry, smtlm_sb_reserve_entry,
// smtlm_sb_release_dsts) must answer as the per-register test, reservation and release
// (smtlm_sb_collision, smtlm_sb_reserve, smtlm_sb_release_reg) on any instruction: registers
// below and above 64, duplicates, register 0, negative numbers, every count 0..4.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>

extern "C" {
#include "smtlm/inst_pool.h"
#include "smtlm/scoreboard.h"
}

namespace {

// Mostly low registers (the summary's case), some high ones and 0, a few out of range.
int16_t random_reg(std::mt19937 &g)
{
    const unsigned k = g() % 100;
    if (k < 20)
        return 0;
    if (k < 70)
        return (int16_t)(1 + g() % 63);
    if (k < 75)
        return (int16_t)(g() % 4); // duplicates and 0 more often
    if (k < 95)
        return (int16_t)(64 + g() % (SMTLM_MAX_REG - 63));
    return (int16_t)(k < 98 ? -(int)(1 + g() % 512) : 512 + (int)(g() % 1000));
}

smtlm_inst_desc random_desc(std::mt19937 &g)
{
    smtlm_inst_desc d;
    std::memset(&d, 0, sizeof d);
    d.op = SMTLM_OP_SP;
    d.mask = 0xFFFFFFFFu;
    d.n_src = (uint8_t)(g() % (SMTLM_MAX_SRC + 1));
    d.n_dst = (uint8_t)(g() % (SMTLM_MAX_DST + 1));
    for (unsigned i = 0; i < SMTLM_MAX_SRC; i++) // slots past the count hold anything
        d.src[i] = random_reg(g);
    for (unsigned i = 0; i < SMTLM_MAX_DST; i++)
        d.dst[i] = random_reg(g);
    d.latency = 4;
    d.ii = 1;
    return d;
}

void expect_same_sb(const smtlm_scoreboard &a, const smtlm_scoreboard &b, unsigned w, int round)
{
    EXPECT_EQ(std::memcmp(a.pending[w], b.pending[w], sizeof a.pending[w]), 0) << "round " << round;
    EXPECT_EQ(std::memcmp(a.longop[w], b.longop[w], sizeof a.longop[w]), 0) << "round " << round;
    EXPECT_EQ(a.dirty, b.dirty) << "round " << round;
}

} // namespace

// The summary bits themselves: exactly the named registers 1..63, bit 0 iff one is outside 0..63.
TEST(SbSummary, BitsAreTheNamedLowRegisters)
{
    std::unique_ptr<smtlm_inst_pool> pool(new smtlm_inst_pool);
    smtlm_pool_init(pool.get());
    std::mt19937 g(7);
    for (int round = 0; round < 20000; round++) {
        const smtlm_inst_desc d = random_desc(g);
        const smtlm_iref r = smtlm_pool_alloc(pool.get(), &d, 0);
        ASSERT_NE(r, SMTLM_NO_INST);
        const smtlm_inst *in = smtlm_pool_get(pool.get(), r);
        uint64_t regs = 0, dsts = 0;
        bool high = false, dst_high = false;
        for (unsigned i = 0; i < d.n_src; i++) {
            const int x = d.src[i];
            if (x < 0 || x >= 64)
                high = true;
            else if (x > 0)
                regs |= 1ull << x;
        }
        for (unsigned i = 0; i < d.n_dst; i++) {
            const int x = d.dst[i];
            if (x < 0 || x >= 64)
                high = dst_high = true;
            else if (x > 0)
                regs |= dsts |= 1ull << x;
        }
        EXPECT_EQ(in->sb_regs & 1, (uint64_t)high) << "round " << round;
        EXPECT_EQ(in->sb_dsts & 1, (uint64_t)dst_high) << "round " << round;
        if (!high) {
            EXPECT_EQ(in->sb_regs, regs) << "round " << round;
        }
        if (!dst_high) {
            EXPECT_EQ(in->sb_dsts, dsts) << "round " << round;
        }
        smtlm_pool_free(pool.get(), r);
    }
}

// Random scoreboard histories on two copies: one reserved through the summary, one register by
// register; the collision verdicts and every scoreboard word agree at each step. Entries are
// filled in place and committed (the decode path) as well as allocated from a descriptor.
TEST(SbSummary, FastTestAndReserveMatchTheFullOnes)
{
    std::unique_ptr<smtlm_inst_pool> pool(new smtlm_inst_pool);
    std::unique_ptr<smtlm_scoreboard> fast(new smtlm_scoreboard), full(new smtlm_scoreboard);
    smtlm_pool_init(pool.get());
    ASSERT_EQ(smtlm_sb_init(fast.get(), 4), SMTLM_OK);
    ASSERT_EQ(smtlm_sb_init(full.get(), 4), SMTLM_OK);
    std::mt19937 g(11);
    unsigned collisions = 0, fast_tests = 0;
    for (int round = 0; round < 200000; round++) {
        const unsigned w = g() % 4;
        if (g() % 64 == 0) { // start over now and then: empty and sparse sets too
            smtlm_sb_reset(fast.get());
            smtlm_sb_reset(full.get());
        }
        const smtlm_inst_desc d = random_desc(g);
        smtlm_iref r;
        if (round & 1) {
            smtlm_pool_fill_from_desc(smtlm_pool_next_entry(pool.get()), smtlm_pool_next_addr(pool.get()), &d);
            r = smtlm_pool_commit(pool.get(), (uint16_t)w);
        } else {
            r = smtlm_pool_alloc(pool.get(), &d, (uint16_t)w);
        }
        ASSERT_NE(r, SMTLM_NO_INST);
        const smtlm_inst *in = smtlm_pool_get(pool.get(), r);
        const int hit = smtlm_sb_collision(full.get(), w, in) != 0;
        EXPECT_EQ(smtlm_sb_collides_entry(fast.get(), w, in) != 0, hit) << "round " << round;
        collisions += (unsigned)hit;
        fast_tests += (unsigned)!(in->sb_regs & 1);
        bool in_range = true; // (the full reserve writes past the set above SMTLM_MAX_REG)
        for (unsigned i = 0; i < d.n_dst; i++)
            in_range = in_range && d.dst[i] <= SMTLM_MAX_REG;
        if (in_range && (!hit || g() % 4 == 0)) {
            const int longop = (int)(g() % 2);
            smtlm_sb_reserve_entry(fast.get(), w, in, longop);
            smtlm_sb_reserve(full.get(), w, in, longop);
            expect_same_sb(*fast, *full, w, round);
        }
        if (g() % 2) { // release a random register on both (writeback)
            const unsigned reg = g() % 80 < 70 ? g() % 64 : g() % (SMTLM_MAX_REG + 1);
            smtlm_sb_release_reg(fast.get(), w, reg);
            smtlm_sb_release_reg(full.get(), w, reg);
        }
        smtlm_pool_free(pool.get(), r);
        if (HasFailure())
            return;
    }
    EXPECT_GT(collisions, 10000u); // both verdicts well exercised
    EXPECT_GT(fast_tests, 20000u);
}

// Writeback's release by the summary: on random histories (reservations by the full path, some
// long operations, dirty bits cleared as the issue stage does), releasing an entry whose
// destinations all lie in 1..63 through smtlm_sb_release_dsts leaves every scoreboard word as
// smtlm_sb_release_reg of each destination in turn (duplicates, unreserved registers, 0).
TEST(SbSummary, ReleaseBySummaryMatchesPerRegister)
{
    std::unique_ptr<smtlm_inst_pool> pool(new smtlm_inst_pool);
    std::unique_ptr<smtlm_scoreboard> fast(new smtlm_scoreboard), full(new smtlm_scoreboard);
    smtlm_pool_init(pool.get());
    ASSERT_EQ(smtlm_sb_init(fast.get(), 4), SMTLM_OK);
    ASSERT_EQ(smtlm_sb_init(full.get(), 4), SMTLM_OK);
    std::mt19937 g(13);
    unsigned releases = 0, changed = 0;
    for (int round = 0; round < 200000; round++) {
        const unsigned w = g() % 4;
        if (g() % 64 == 0) {
            smtlm_sb_reset(fast.get());
            smtlm_sb_reset(full.get());
        }
        if (g() % 8 == 0) // the issue stage reads and clears dirty bits
            fast->dirty = full->dirty = 0;
        const smtlm_inst_desc d = random_desc(g);
        const smtlm_iref r = smtlm_pool_alloc(pool.get(), &d, (uint16_t)w);
        ASSERT_NE(r, SMTLM_NO_INST);
        const smtlm_inst *in = smtlm_pool_get(pool.get(), r);
        bool in_range = true;
        for (unsigned i = 0; i < d.n_dst; i++)
            in_range = in_range && d.dst[i] <= SMTLM_MAX_REG;
        if (in_range && g() % 3 != 0) { // reserve (on both alike), so releases find registers set
            const int longop = (int)(g() % 2);
            smtlm_sb_reserve(fast.get(), w, in, longop);
            smtlm_sb_reserve(full.get(), w, in, longop);
        }
        if (!(in->sb_dsts & 1) && g() % 2) {
            const unsigned before = smtlm_sb_count(full.get(), w);
            smtlm_sb_release_dsts(fast.get(), w, in->sb_dsts);
            for (unsigned i = 0; i < in->n_dst; i++)
                smtlm_sb_release_reg(full.get(), w, (unsigned)in->dst[i]);
            releases++;
            changed += (unsigned)(smtlm_sb_count(full.get(), w) != before);
        }
        expect_same_sb(*fast, *full, w, round);
        smtlm_pool_free(pool.get(), r);
        if (HasFailure())
            return;
    }
    EXPECT_GT(releases, 20000u);
    EXPECT_GT(changed, 10000u);
}
