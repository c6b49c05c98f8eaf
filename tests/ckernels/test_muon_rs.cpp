// Muon reservation station, called directly: admission (lowest free row, total and per-warp
// caps, round-robin over warps), the wake-up CAM with and without forwarding, the choice of the
// next collection, the dispatch policies' order on a crafted case, in-order vs out-of-order
// issue within a warp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "muon_test_util.hpp"

namespace {

using muon::inst;
using muon::Rs;
using muon::rs_cfg;

int admit(Rs &r, unsigned tag, const smtlm_inst &in, unsigned busy = 0, unsigned none = 0)
{
    return smtlm_muon_rs_admit(r.get(), (smtlm_iref)tag, &in, busy, none);
}

// Dispatches one row among all; returns its tag or -1.
int dispatch(Rs &r, uint64_t allowed = ~0ull)
{
    smtlm_muon_rs_pick p;
    return smtlm_muon_rs_dispatch(r.get(), allowed, &p) ? p.tag : -1;
}

TEST(MuonRs, InitValidatesTheConfiguration)
{
    std::unique_ptr<smtlm_muon_rs> rs(new smtlm_muon_rs);
    smtlm_muon_rs_cfg c = rs_cfg();
    c.n_warps = 0;
    EXPECT_EQ(smtlm_muon_rs_init(rs.get(), &c), SMTLM_EINVAL);
    c.n_warps = SMTLM_MAX_WARPS + 1;
    EXPECT_EQ(smtlm_muon_rs_init(rs.get(), &c), SMTLM_ERANGE);
    c = rs_cfg(0);
    EXPECT_EQ(smtlm_muon_rs_init(rs.get(), &c), SMTLM_ERANGE);
    EXPECT_NE(std::string(rs->cfg_error).find("-smtlm_muon_rs_entries"), std::string::npos);
    c = rs_cfg(SMTLM_MUON_RS_MAX + 1);
    EXPECT_EQ(smtlm_muon_rs_init(rs.get(), &c), SMTLM_ERANGE);
    c = rs_cfg(4, SMTLM_MUON_RS_RR, 0, 0, 5);
    EXPECT_EQ(smtlm_muon_rs_init(rs.get(), &c), SMTLM_EINVAL);
    EXPECT_NE(std::string(rs->cfg_error).find("-smtlm_muon_rs_per_warp"), std::string::npos);
    c = rs_cfg(4, (smtlm_muon_rs_policy)3);
    EXPECT_EQ(smtlm_muon_rs_init(rs.get(), &c), SMTLM_EINVAL);
    c = rs_cfg(SMTLM_MUON_RS_MAX, SMTLM_MUON_RS_GTO, 1, 1, 2);
    EXPECT_EQ(smtlm_muon_rs_init(rs.get(), &c), SMTLM_OK);
}

TEST(MuonRs, AdmissionFillsTheLowestFreeRowWithinTheCaps)
{
    Rs r(rs_cfg(4, SMTLM_MUON_RS_RR, 0, 0, 2)); // 4 rows, at most 2 per warp
    ASSERT_EQ(r.rc, SMTLM_OK);
    EXPECT_EQ(admit(r, 10, inst(0, {1}, {})), 0);
    EXPECT_EQ(admit(r, 11, inst(0, {2}, {})), 1);
    EXPECT_FALSE(smtlm_muon_rs_room(r.get(), 0));
    EXPECT_EQ(admit(r, 12, inst(0, {3}, {})), SMTLM_EFULL);
    EXPECT_EQ(admit(r, 13, inst(1, {3}, {})), 2);
    EXPECT_EQ(admit(r, 14, inst(2, {3}, {})), 3);
    EXPECT_FALSE(smtlm_muon_rs_room(r.get(), 3)) << "all rows taken";
    EXPECT_EQ(dispatch(r, 1ull << 1), 11);           // frees row 1
    EXPECT_EQ(admit(r, 15, inst(3, {3}, {})), 1);    // the lowest free row
    EXPECT_EQ(r->admitted, 5u);
    EXPECT_EQ(r->n_valid, 4u);
    EXPECT_EQ(admit(r, 16, inst(8, {}, {})), SMTLM_EINPUT) << "warp beyond n_warps";
    smtlm_inst many = inst(0, {}, {});
    many.n_src = SMTLM_MAX_SRC + 1;
    EXPECT_EQ(admit(r, 16, many), SMTLM_EINPUT);
}

TEST(MuonRs, AdmissionArbiterRoundRobinsOverWarpsWithRoom)
{
    Rs r(rs_cfg(8, SMTLM_MUON_RS_RR, 0, 0, 1));
    const uint64_t cand = (1u << 0) | (1u << 2) | (1u << 5);
    EXPECT_EQ(smtlm_muon_rs_admit_pick(r.get(), cand), 0) << "after reset: the lowest warp";
    admit(r, 1, inst(0, {}, {}));
    EXPECT_EQ(smtlm_muon_rs_admit_pick(r.get(), cand), 2);
    admit(r, 2, inst(2, {}, {}));
    EXPECT_EQ(smtlm_muon_rs_admit_pick(r.get(), cand), 5);
    admit(r, 3, inst(5, {}, {}));
    EXPECT_EQ(smtlm_muon_rs_admit_pick(r.get(), cand), -1) << "each warp at its cap of 1";
    EXPECT_EQ(dispatch(r, 1ull << 0), 1);            // warp 0 has room again
    EXPECT_EQ(smtlm_muon_rs_admit_pick(r.get(), cand), 0) << "wraps past warp 5";
    EXPECT_EQ(smtlm_muon_rs_admit_pick(r.get(), 0), -1);
    EXPECT_EQ(smtlm_muon_rs_admit_pick(r.get(), 1ull << 9), -1) << "no such warp";
}

TEST(MuonRs, WakeupWithoutForwardingClearsBusyAndTheOperandIsThenCollected)
{
    Rs r(rs_cfg(4));
    EXPECT_EQ(admit(r, 7, inst(0, {9}, {5, 6}), 1u), 0);
    admit(r, 8, inst(1, {9}, {5}), 1u); // warp 1's r5 is another register
    smtlm_muon_rs_pick p;
    EXPECT_EQ(smtlm_muon_rs_collect_pick(r.get(), &p), 0) << "no partial collection while r5 is busy";
    smtlm_muon_rs_fwd fwd[SMTLM_MUON_RS_MAX];
    EXPECT_EQ(smtlm_muon_rs_wakeup(r.get(), 0, 5, fwd), 0u);
    EXPECT_EQ(r->row[0].busy, 0);
    EXPECT_EQ(r->row[1].busy, 1) << "warp 1 untouched";
    EXPECT_EQ(smtlm_muon_rs_eligible(r.get()), 0u) << "r5 still has to be read";
    ASSERT_EQ(smtlm_muon_rs_collect_pick(r.get(), &p), 1);
    EXPECT_EQ(p.row, 0);
    EXPECT_EQ(p.slots, 3);
    EXPECT_EQ(p.tag, 7);
    EXPECT_EQ(smtlm_muon_rs_collect_pick(r.get(), &p), 0) << "already requested";
    smtlm_muon_rs_collected(r.get(), 0, 3u);
    EXPECT_EQ(smtlm_muon_rs_eligible(r.get()), 1u);
}

TEST(MuonRs, WakeupWithForwardingCapturesTheValue)
{
    Rs r(rs_cfg(4, SMTLM_MUON_RS_RR, 0, 1));
    admit(r, 3, inst(0, {9}, {6}));
    admit(r, 4, inst(0, {9}, {5, 0, 5}), 5u, 2u); // slots 0 and 2 wait on r5, slot 1 reads nothing
    smtlm_muon_rs_fwd fwd[SMTLM_MUON_RS_MAX];
    ASSERT_EQ(smtlm_muon_rs_wakeup(r.get(), 0, 5, fwd), 1u);
    EXPECT_EQ(fwd[0].row, 1);
    EXPECT_EQ(fwd[0].slots, 5);
    EXPECT_EQ(fwd[0].tag, 4);
    EXPECT_EQ(smtlm_muon_rs_eligible(r.get()), 2u) << "ready without a register-file read";
    EXPECT_EQ(smtlm_muon_rs_wakeup(r.get(), 0, 5, fwd), 0u) << "nothing busy on r5 any more";
}

TEST(MuonRs, CollectionTakesTheLowestRowWhoseMissingOperandsAreAllReadable)
{
    Rs r(rs_cfg(4));
    admit(r, 1, inst(0, {}, {5, 6}), 1u); // row 0: r5 busy
    admit(r, 2, inst(1, {}, {7}));        // row 1
    admit(r, 3, inst(2, {}, {8, 0}), 0u, 2u); // row 2
    admit(r, 4, inst(3, {}, {}));         // row 3: nothing to read, eligible at once
    EXPECT_EQ(smtlm_muon_rs_eligible(r.get()), 1ull << 3);
    smtlm_muon_rs_pick p;
    ASSERT_EQ(smtlm_muon_rs_collect_pick(r.get(), &p), 1);
    EXPECT_EQ(p.row, 1);
    ASSERT_EQ(smtlm_muon_rs_collect_pick(r.get(), &p), 1);
    EXPECT_EQ(p.row, 2);
    EXPECT_EQ(p.slots, 1) << "the zero-register slot is not read";
    EXPECT_EQ(smtlm_muon_rs_collect_pick(r.get(), &p), 0);
    smtlm_muon_rs_collected(r.get(), 2, 1u);
    EXPECT_EQ(smtlm_muon_rs_eligible(r.get()), (1ull << 2) | (1ull << 3));
}

TEST(MuonRs, CollectionAmongAllowedRowsSkipsTheOthersAndLeavesThemToRequest)
{
    Rs r(rs_cfg(4));
    admit(r, 1, inst(0, {}, {5}));  // row 0
    admit(r, 2, inst(1, {}, {7}));  // row 1
    smtlm_muon_rs_pick p;
    EXPECT_EQ(smtlm_muon_rs_collect_pick_among(r.get(), 0, &p), 0) << "no row allowed";
    ASSERT_EQ(smtlm_muon_rs_collect_pick_among(r.get(), 1ull << 1, &p), 1);
    EXPECT_EQ(p.row, 1) << "row 0 is lower but not allowed";
    ASSERT_EQ(smtlm_muon_rs_collect_pick(r.get(), &p), 1);
    EXPECT_EQ(p.row, 0) << "the skipped row is still to request";
}

TEST(MuonRs, InOrderCollectsInEachWarpsAgeOrder)
{
    for (int in_order = 0; in_order <= 1; in_order++) {
        Rs r(rs_cfg(4, SMTLM_MUON_RS_RR, in_order));
        admit(r, 1, inst(0, {}, {5, 3}), 1u); // H: waits on r5
        admit(r, 2, inst(0, {}, {4}));        // Y: independent, younger
        admit(r, 3, inst(1, {}, {4}));        // another warp
        smtlm_muon_rs_pick p;
        std::vector<int> order;
        while (smtlm_muon_rs_collect_pick(r.get(), &p))
            order.push_back(p.tag);
        smtlm_muon_rs_wakeup(r.get(), 0, 5, nullptr);
        while (smtlm_muon_rs_collect_pick(r.get(), &p))
            order.push_back(p.tag);
        if (in_order)
            EXPECT_EQ(order, (std::vector<int>{3, 1, 2})) << "Y waits for H";
        else
            EXPECT_EQ(order, (std::vector<int>{2, 3, 1}));
    }
}

// Crafted case: rows 0..3 hold X (warp 1, waits on r9), A (warp 0), B (warp 1), C (warp 0), in
// admission order X, A, B, C. A, B, C are eligible at once; X becomes eligible (forwarded) right
// after the first dispatch.
//   rr:     A (lowest row), then the first row after the last: B (2), C (3), X (0 after wrap).
//   oldest: A (oldest eligible), X (the oldest row), B, C.
//   gto:    A (oldest), C (warp 0 again), X (warp 0 has none: oldest), B (warp 1 again).
std::vector<char> policy_order(smtlm_muon_rs_policy pol)
{
    Rs r(rs_cfg(4, pol, 0, 1));
    admit(r, 'X', inst(1, {}, {9}), 1u);
    admit(r, 'A', inst(0, {}, {}));
    admit(r, 'B', inst(1, {}, {}));
    admit(r, 'C', inst(0, {}, {}));
    std::vector<char> order;
    order.push_back((char)dispatch(r));
    smtlm_muon_rs_wakeup(r.get(), 1, 9, nullptr);
    for (int tag; (tag = dispatch(r)) >= 0;)
        order.push_back((char)tag);
    return order;
}

TEST(MuonRs, DispatchPoliciesOrderACraftedCase)
{
    EXPECT_EQ(policy_order(SMTLM_MUON_RS_RR), (std::vector<char>{'A', 'B', 'C', 'X'}));
    EXPECT_EQ(policy_order(SMTLM_MUON_RS_OLDEST), (std::vector<char>{'A', 'X', 'B', 'C'}));
    EXPECT_EQ(policy_order(SMTLM_MUON_RS_GTO), (std::vector<char>{'A', 'C', 'X', 'B'}));
}

TEST(MuonRs, DispatchTakesOnlyAllowedRowsAndRoundRobinMovesOnlyOnAGrant)
{
    Rs r(rs_cfg(4));
    for (unsigned t = 0; t < 4; t++)
        admit(r, t, inst(t, {}, {}));
    EXPECT_EQ(dispatch(r, 0), -1);
    EXPECT_EQ(dispatch(r, (1ull << 2) | (1ull << 0)), 0); // lowest allowed after reset
    EXPECT_EQ(dispatch(r, (1ull << 1) | (1ull << 3)), 1); // first above row 0
    EXPECT_EQ(dispatch(r), 2);
    EXPECT_EQ(dispatch(r), 3);
    EXPECT_EQ(r->dispatched, 4u);
}

TEST(MuonRs, OutOfOrderIssuesPastABlockedHeadInOrderDoesNot)
{
    for (int in_order = 0; in_order <= 1; in_order++) {
        Rs r(rs_cfg(4, SMTLM_MUON_RS_RR, in_order, 1));
        admit(r, 'H', inst(0, {}, {5}), 1u); // row 0: warp 0's head waits on r5
        admit(r, 'Y', inst(0, {}, {}));      // row 1: warp 0, independent
        admit(r, 'Z', inst(1, {}, {}));      // row 2: warp 1
        if (in_order)
            EXPECT_EQ(smtlm_muon_rs_eligible(r.get()), 1ull << 2) << "only warp 1's head";
        else
            EXPECT_EQ(smtlm_muon_rs_eligible(r.get()), (1ull << 1) | (1ull << 2));
        std::vector<char> order;
        for (int tag; (tag = dispatch(r)) >= 0;)
            order.push_back((char)tag);
        smtlm_muon_rs_wakeup(r.get(), 0, 5, nullptr);
        for (int tag; (tag = dispatch(r)) >= 0;)
            order.push_back((char)tag);
        if (in_order)
            EXPECT_EQ(order, (std::vector<char>{'Z', 'H', 'Y'}));
        else
            EXPECT_EQ(order, (std::vector<char>{'Y', 'Z', 'H'}));
    }
}

TEST(MuonRs, SampleAccumulatesOccupancyAndResetEmpties)
{
    Rs r(rs_cfg(4));
    admit(r, 1, inst(0, {}, {5}), 1u);
    smtlm_muon_rs_sample(r.get());
    admit(r, 2, inst(1, {}, {}));
    smtlm_muon_rs_sample(r.get());
    EXPECT_EQ(r->occupancy_sum, 3u);
    EXPECT_EQ(r->cycles_eligible, 1u);
    smtlm_muon_rs_reset(r.get());
    EXPECT_EQ(r->n_valid, 0u);
    EXPECT_EQ(smtlm_muon_rs_eligible(r.get()), 0u);
    EXPECT_EQ(admit(r, 3, inst(0, {}, {})), 0);
}

} // namespace
