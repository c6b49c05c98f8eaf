// The collector's CU-order dispatch (opcoll.c dispatch_in_cu_order, chosen at init for the
// sub-core model with one CU set and at least as many dispatch units as CUs) must dispatch the
// same CUs into the same OC_EX slots in the same step as GPGPU-Sim's round robin of dispatch
// units. Two SMs run the same warps, one with the shortcut turned off; after every cycle their
// OC_EX sets, CU masks and statistics must agree, and so must every retired instruction's
// events. The programs keep both CUs of a scheduler busy with instructions for the same unit, so
// CUs compete for one OC_EX slot.
#include <gtest/gtest.h>

#include <string>

#include "kernel_test_util.hpp"
#include "sm_compare.hpp"

namespace {

using ktu::ffma;
using ktu::iadd;
using ktu::mufu;

std::vector<std::vector<smtlm_inst_desc>> programs(unsigned warps)
{
    std::vector<std::vector<smtlm_inst_desc>> p;
    for (unsigned w = 0; w < warps; w++) {
        std::vector<smtlm_inst_desc> q;
        for (unsigned k = 0; k < 12; k++) {
            q.push_back(ffma(20 + (int)(k % 5), {3, 4, 5})); // independent: SP slots stay contended
            q.push_back(iadd(30 + (int)(k % 3), {(int)(w % 4), 6, 7}));
            if ((w + k) % 3 == 0)
                q.push_back(mufu(40, {20 + (int)(k % 5)}));
            if ((w + k) % 4 == 1)
                q.push_back(ktu::global(SMTLM_OP_LOAD, 41, {2}, 0x1000 + 0x80 * w, 4));
        }
        p.push_back(ktu::prog(q));
    }
    return p;
}

void expect_same_step(const smtlm_sm &a, const smtlm_sm &b, const std::string &at)
{
    ktu::expect_same_sets_and_cus(a, b, at);
    EXPECT_EQ(smtlm_opcoll_dispatches(&a.oc), smtlm_opcoll_dispatches(&b.oc)) << at;
    for (unsigned j = 0; j < a.oc.n_cus; j++)
        EXPECT_EQ(a.oc.cu_held[j], b.oc.cu_held[j]) << at << " cu " << j;
}

using Shape = ktu::CfgVariant;

const Shape shapes[] = {
    {"qv100", [](smtlm_sm_cfg &) {}},
    {"one_step_per_cycle", [](smtlm_sm_cfg &c) { c.reg_file_port_throughput = 1; }},
    {"four_cus_per_scheduler",
     [](smtlm_sm_cfg &c) {
         c.oc.num_units[SMTLM_CUS_GEN] = 16;
         c.oc.num_out_ports[SMTLM_CUS_GEN] = 16;
     }},
};

class OpCollDispatchOrder : public ::testing::TestWithParam<size_t> {};

TEST_P(OpCollDispatchOrder, MatchesTheDispatchUnitsRoundRobin)
{
    const Shape &sh = shapes[GetParam()];
    smtlm_sm_cfg cfg = ktu::qv100();
    sh.apply(cfg);
    ktu::Rig fast(cfg, 30, 64), slow(cfg, 30, 64);
    ASSERT_EQ(fast.init_rc, SMTLM_OK) << sh.name;
    ASSERT_EQ(slow.init_rc, SMTLM_OK) << sh.name;
    ASSERT_TRUE(fast.sm()->oc.cu_order_dispatch) << sh.name; // the shortcut applies to this shape
    slow.sm()->oc.cu_order_dispatch = 0;                     // GPGPU-Sim's dispatch units
    const unsigned warps = 16;
    ASSERT_GE(fast.load(programs(warps)), 0);
    ASSERT_GE(slow.load(programs(warps)), 0);
    uint64_t blocked_seen = 0;
    while (fast.active() && fast.now() < 20000) {
        ASSERT_EQ(fast.step(), SMTLM_OK);
        ASSERT_EQ(slow.step(), SMTLM_OK);
        if (fast.sm()->oc.blocked)
            blocked_seen++;
        expect_same_step(*fast.sm(), *slow.sm(), std::string(sh.name) + " cycle " + std::to_string(fast.now()));
        if (::testing::Test::HasFailure())
            return;
    }
    EXPECT_FALSE(slow.active()) << sh.name;
    EXPECT_GT(blocked_seen, 0u) << sh.name; // CUs did compete for a full OC_EX slot
    ktu::expect_same_retired(fast.events, slow.events, sh.name);
}

INSTANTIATE_TEST_SUITE_P(Shapes, OpCollDispatchOrder, ::testing::Range<size_t>(0, sizeof shapes / sizeof shapes[0]));

// The shortcut is chosen only where it is exact.
TEST(OpCollDispatchOrder, NotChosenWhereTheRoundRobinIsSeen)
{
    smtlm_sm_cfg cfg = ktu::qv100();
    cfg.oc.num_out_ports[SMTLM_CUS_GEN] = 4; // fewer dispatch units than CUs
    ktu::Rig few(cfg, 30, 64);
    ASSERT_EQ(few.init_rc, SMTLM_OK);
    EXPECT_FALSE(few.sm()->oc.cu_order_dispatch);
    cfg = ktu::qv100();
    cfg.shape.sub_core = 0; // flat: the OC_EX slot depends on the dispatch order
    ktu::Rig flat(cfg, 30, 64);
    ASSERT_EQ(flat.init_rc, SMTLM_OK);
    EXPECT_FALSE(flat.sm()->oc.cu_order_dispatch);
}

} // namespace
