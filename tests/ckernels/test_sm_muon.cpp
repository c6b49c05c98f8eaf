// The Muon SM composition (ckernels/src/sm_muon.c) driven directly: configuration refusals
// name the option, and a multi-warp run leaves every Muon structure empty (tags, RS rows,
// collector entries, scoreboard tickets) with every instruction executed.
#include <gtest/gtest.h>

#include "micro.hpp"
#include "muon_test_util.hpp"

namespace {

// configs/muon-rtl.config's issue logic on the QV100 SM.
smtlm_gpu_cfg muon_rtl()
{
    smtlm_gpu_cfg c = micro::Runner::qv100();
    muon::rtl_issue(c.sm.muon);
    return c;
}

TEST(SmMuon, ABadMuonParameterIsRefusedNamingItsOption)
{
    smtlm_gpu_cfg c = muon_rtl();
    c.sm.muon.rs.rs_entries = 0;
    std::unique_ptr<smtlm_sm> sm(new smtlm_sm);
    EXPECT_EQ(smtlm_sm_init(sm.get(), &c.sm, 0), SMTLM_ERANGE);
    ASSERT_NE(sm->cfg_error, nullptr);
    EXPECT_NE(std::string(sm->cfg_error).find("-smtlm_muon_rs_entries"), std::string::npos) << sm->cfg_error;
    c = muon_rtl();
    c.sm.muon.coll.entries = 0;
    EXPECT_EQ(smtlm_sm_init(sm.get(), &c.sm, 0), SMTLM_ERANGE);
    EXPECT_NE(std::string(sm->cfg_error).find("-smtlm_muon_collector_entries"), std::string::npos) << sm->cfg_error;
}

// Eight warps of dependent and independent FFMA chains: every instruction retires, each
// reached its unit at least 2 cycles after its collector request (or without one: nothing to
// read), and the Muon structures are empty at the end.
TEST(SmMuon, AMultiWarpRunRetiresEverythingAndLeavesTheMuonStateEmpty)
{
    for (const char *kind : {"dep", "indep", "dep3"}) {
        micro::Runner r(muon_rtl());
        ASSERT_EQ(r.init_rc, SMTLM_OK);
        const unsigned n = 24, warps = 8;
        ASSERT_EQ(r.run(micro::program(kind, n), warps), SMTLM_RUN_DONE) << kind;
        EXPECT_EQ(r.insn(), (uint64_t)warps * (n + 1) * 32) << kind;
        ASSERT_EQ(r.events.size(), (size_t)warps * (n + 1)) << kind;
        for (const micro::Event &e : r.events) {
            if (e.ev[SMTLM_EV_CU_ALLOC] != UINT64_MAX) {
                EXPECT_GE(e.ev[SMTLM_EV_FU_ISSUE], e.ev[SMTLM_EV_CU_ALLOC] + 2) << kind;
            }
            EXPECT_GT(e.ev[SMTLM_EV_WRITEBACK], e.ev[SMTLM_EV_FU_ISSUE]) << kind;
        }
        const smtlm_muon_issue &m = r.sm()->muon.iss;
        EXPECT_EQ(m.rs.n_valid, 0u) << kind;
        EXPECT_EQ(r.sm()->muon.coll.n_valid, 0u) << kind;
        EXPECT_EQ(m.n_held, 0u) << kind;
        EXPECT_EQ(m.rs.admitted, (uint64_t)warps * (n + 1)) << kind;
        EXPECT_EQ(m.rs.dispatched, m.rs.admitted) << kind;
        for (unsigned t = 0; t < SMTLM_MUON_MAX_TAGS; t++) {
            EXPECT_FALSE(smtlm_muon_sb_live(&m.sb, (smtlm_iref)t)) << kind << " tag " << t;
            EXPECT_EQ(m.tag[t].used, 0) << kind << " tag " << t;
        }
    }
}

} // namespace
