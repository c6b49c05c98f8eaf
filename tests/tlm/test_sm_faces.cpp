// The SystemC Sm owns one C SM and each block module is the face of one of its blocks: the
// state a module shows is the C SM's block itself (not a copy kept in step), in both modes.
#include <gtest/gtest.h>

#include "muon_test_util.hpp"
#include "smtlm/tlm/gpgpusim_sm.h"
#include "smtlm/tlm/muon_sm.h"

TEST(SmFaces, EveryGpgpusimBlockModuleIsAFaceOfTheCSm)
{
    smtlm_sm_cfg cfg;
    smtlm_sm_cfg_qv100(&cfg);
    smtlm::GpgpusimSm sm("sm", cfg, 3);
    ASSERT_EQ(sm.status(), SMTLM_OK);
    const smtlm_sm &c = sm.state();
    EXPECT_EQ(&sm.issue.state(), &c.iss);
    EXPECT_EQ(&sm.collector.state(), &c.oc);
    EXPECT_EQ(&sm.regfile.state(), &c.rf);
    EXPECT_EQ(&sm.exec.state(), &c.ex);
    EXPECT_EQ(&sm.ldst.state(), &c.ldst);
    ASSERT_TRUE(sm.writeback.has_value());
    EXPECT_EQ(&sm.writeback->state(), &c.wb);
    EXPECT_EQ(&sm.pool(), &c.pool);
    EXPECT_EQ(c.id, 3u);
    EXPECT_EQ(sm.id(), 3u);
    EXPECT_EQ(c.wb_stand_in.cycle, nullptr); // its own writeback drains EX_WB
}

TEST(SmFaces, EveryMuonBlockModuleIsAFaceOfTheCSm)
{
    smtlm_sm_cfg cfg;
    smtlm_sm_cfg_qv100(&cfg);
    muon::rtl_issue(cfg.muon);
    smtlm::MuonSm sm("sm", cfg, 0);
    ASSERT_EQ(sm.status(), SMTLM_OK) << (sm.cfg_error() ? sm.cfg_error() : "");
    const smtlm_sm &c = sm.state();
    EXPECT_EQ(&sm.issue.state(), &c.iss);
    EXPECT_EQ(&sm.issue.muon_state(), &c.muon.iss);
    EXPECT_EQ(&sm.collector.state(), &c.muon.coll);
    EXPECT_EQ(&sm.exec.state(), &c.ex);
    EXPECT_EQ(&sm.ldst.state(), &c.ldst);
}

// A refused configuration is the C SM's refusal, with its field.
TEST(SmFaces, ARefusalIsTheCSmsWithItsField)
{
    smtlm_sm_cfg cfg;
    smtlm_sm_cfg_qv100(&cfg);
    cfg.rf.n_banks = 0;
    smtlm::GpgpusimSm sm("sm", cfg, 0);
    smtlm_sm c;
    EXPECT_EQ(sm.status(), smtlm_sm_init(&c, &cfg, 0));
    EXPECT_NE(sm.status(), SMTLM_OK);
    ASSERT_NE(sm.cfg_error(), nullptr);
    EXPECT_STREQ(sm.cfg_error(), c.cfg_error);
}
