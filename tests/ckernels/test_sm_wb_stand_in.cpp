// A block of the owner's in the SM's writeback's place (smtlm_sm_wb_stand_in: a virtual
// platform's own writeback module). The SM's one cycle calls it where it would drain its own
// writeback, asks it for quiescence and resets it with the SM; its own writeback then never runs.
#include <gtest/gtest.h>

#include "kernel_test_util.hpp"

namespace {

// Drains EX_WB as the SM's own writeback would (the same kernel on the same block), counting
// what the SM asks of it.
struct StandIn {
    smtlm_sm *sm = nullptr;
    bool drains = true;
    uint64_t cycles = 0, idles = 0, resets = 0, last = 0;
    static void cycle(void *ctx, uint64_t now)
    {
        StandIn *s = static_cast<StandIn *>(ctx);
        s->cycles++;
        s->last = now;
        if (s->drains)
            smtlm_wb_cycle(&s->sm->wb, now);
    }
    static int idle(const void *ctx)
    {
        const StandIn *s = static_cast<const StandIn *>(ctx);
        const_cast<StandIn *>(s)->idles++;
        return smtlm_wb_idle(&s->sm->wb);
    }
    static void reset(void *ctx) { static_cast<StandIn *>(ctx)->resets++; }
    void install()
    {
        sm->wb_stand_in = smtlm_sm_wb_stand_in{this, &StandIn::cycle, &StandIn::idle, &StandIn::reset};
    }
};

std::vector<std::vector<smtlm_inst_desc>> programs()
{
    std::vector<std::vector<smtlm_inst_desc>> p;
    for (unsigned w = 0; w < 8; w++)
        p.push_back(ktu::prog({ktu::ffma(20, {20, 4, 5}), ktu::mufu(21, {20}), ktu::iadd(22, {21, 20, 6}),
                               ktu::global(SMTLM_OP_LOAD, 23, {2}, 0x1000 + 0x80 * w, 4), ktu::ffma(24, {23, 22, 5})}));
    return p;
}

TEST(SmWbStandIn, TheCycleCallsItInWritebacksPlaceEveryActiveCycle)
{
    smtlm_sm_cfg cfg;
    smtlm_sm_cfg_qv100(&cfg);
    ktu::Rig own(cfg, 100), other(cfg, 100);
    ASSERT_EQ(own.init_rc, SMTLM_OK);
    StandIn s;
    s.sm = other.sm();
    s.install();
    ASSERT_EQ(own.load(programs()), SMTLM_OK);
    ASSERT_EQ(other.load(programs()), SMTLM_OK);
    const uint64_t n = own.run();
    EXPECT_EQ(other.run(), n);
    EXPECT_EQ(s.cycles, other.sm()->stats.active_cycles); // once per active cycle
    EXPECT_EQ(s.last, n - 1);
    ASSERT_EQ(other.events.size(), own.events.size()); // draining as the own block does: the same run
    for (size_t i = 0; i < own.events.size(); i++) {
        EXPECT_EQ(other.events[i].uid, own.events[i].uid);
        EXPECT_EQ(other.events[i].wb(), own.events[i].wb());
    }
    smtlm_sm_reset(other.sm()); // the SM's reset resets it

    EXPECT_EQ(s.resets, 1u);
}

// A stand-in that drains nothing: the SM's own writeback is not run behind it, so nothing
// retires and the first results fill EX_WB.
TEST(SmWbStandIn, TheSmsOwnWritebackDoesNotRunBehindIt)
{
    smtlm_sm_cfg cfg;
    smtlm_sm_cfg_qv100(&cfg);
    ktu::Rig rig(cfg, 100);
    StandIn s;
    s.sm = rig.sm();
    s.drains = false;
    s.install();
    ASSERT_EQ(rig.load(programs()), SMTLM_OK);
    rig.run(2000);
    EXPECT_TRUE(rig.events.empty());
    EXPECT_GT(rig.sm()->rs[SMTLM_EX_WB].count, 0u);
    EXPECT_EQ(s.cycles, 2000u);
    EXPECT_FALSE(smtlm_sm_quiescent(rig.sm())); // quiescence asks it: EX_WB holds results, not idle
    EXPECT_EQ(s.idles, 1u);
}

} // namespace
