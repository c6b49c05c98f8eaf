// A machine without the units an instruction runs on: the SM refuses the instruction at intake
// (SMTLM_REJECT_NO_UNIT, naming the unit type) instead of holding it until the watchdog, and a
// collector set that could never dispatch (units, no out port) is refused at initialisation.
// Instructions whose unit type has a fallback (INT on the SP, DP on the SFU) still enter.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "kernel_test_util.hpp"

namespace {

smtlm_inst_desc of_op(unsigned op)
{
    smtlm_inst_desc d = ktu::ffma(3, {4, 5});
    d.op = (uint8_t)op;
    return d;
}

// The verdict for an instruction of op on cfg, and its detail.
smtlm_reject verdict(const smtlm_sm_cfg &c, unsigned op, unsigned *detail)
{
    const smtlm_inst_desc d = of_op(op);
    return smtlm_sm_check_inst(&c, &d, detail);
}

} // namespace

TEST(MissingUnits, OnlyAnInstructionWithoutAnyUnitIsRefused)
{
    unsigned detail = 0, unit = 0;
    smtlm_sm_cfg c = ktu::qv100();
    c.units.n_sfu = 0;
    EXPECT_EQ(verdict(c, SMTLM_OP_SFU, &detail), SMTLM_REJECT_NO_UNIT);
    EXPECT_EQ(detail, (unsigned)SMTLM_UNIT_SFU);
    EXPECT_STREQ(smtlm_sm_unit_option(&c, detail), "gpgpu_num_sfu_units");
    EXPECT_EQ(verdict(c, SMTLM_OP_DP, &detail), SMTLM_REJECT_NONE) << "DP has its own units";
    c.units.n_dp = 0; // DP then runs on the SFU, of which there is none either
    EXPECT_EQ(verdict(c, SMTLM_OP_DP, &detail), SMTLM_REJECT_NO_UNIT);
    EXPECT_EQ(detail, (unsigned)SMTLM_UNIT_SFU);
    EXPECT_EQ(verdict(c, SMTLM_OP_SP, &detail), SMTLM_REJECT_NONE);
    EXPECT_EQ(verdict(c, SMTLM_OP_LOAD, &detail), SMTLM_REJECT_NONE);

    c = ktu::qv100();
    c.units.tensor_core_avail = 0;
    EXPECT_EQ(verdict(c, SMTLM_OP_TENSOR_CORE, &detail), SMTLM_REJECT_NO_UNIT);
    EXPECT_EQ(detail, (unsigned)SMTLM_UNIT_TENSOR);
    EXPECT_STREQ(smtlm_sm_unit_option(&c, detail), "gpgpu_tensor_core_avail");
    c.units.tensor_core_avail = 1, c.units.n_tensor = 0;
    EXPECT_EQ(verdict(c, SMTLM_OP_TENSOR_CORE, &detail), SMTLM_REJECT_NO_UNIT);
    EXPECT_STREQ(smtlm_sm_unit_option(&c, detail), "gpgpu_num_tensor_core_units");

    // the fallbacks: INT and the other ALU ops on the SP without INT units, DP on the SFU
    c = ktu::qv100();
    c.units.n_int = 0, c.units.n_dp = 0;
    for (unsigned op : {SMTLM_OP_INTP, SMTLM_OP_ALU, SMTLM_OP_BRANCH, SMTLM_OP_BARRIER, SMTLM_OP_EXIT}) {
        EXPECT_EQ(verdict(c, op, &detail), SMTLM_REJECT_NONE) << op;
        EXPECT_EQ(smtlm_sm_op_units(&c, op, &unit), c.units.n_sp) << op;
        EXPECT_EQ(unit, (unsigned)SMTLM_UNIT_SP) << op;
    }
    EXPECT_EQ(verdict(c, SMTLM_OP_DP, &detail), SMTLM_REJECT_NONE);
    EXPECT_EQ(smtlm_sm_op_units(&c, SMTLM_OP_DP, &unit), c.units.n_sfu);
    EXPECT_EQ(unit, (unsigned)SMTLM_UNIT_SFU);
}

// The SM stops at the refused instruction with its line, on the cycle it is decoded, rather
// than issuing nothing until a watchdog notices.
TEST(MissingUnits, TheSmStopsAtTheRefusedInstruction)
{
    smtlm_sm_cfg c = ktu::qv100();
    c.units.n_sfu = 0;
    ktu::Rig rig(c);
    ASSERT_EQ(rig.init_rc, SMTLM_OK) << rig.sm()->cfg_error;
    smtlm_inst_desc mufu = ktu::mufu(20, {3});
    mufu.line = 42;
    ASSERT_GE(rig.load({ktu::prog({ktu::ffma(2, {3, 4}), mufu})}), 0);
    rig.run(100);
    EXPECT_EQ(rig.last_rc, SMTLM_EINPUT);
    EXPECT_EQ(rig.sm()->error, SMTLM_EINPUT);
    EXPECT_EQ(rig.sm()->reject, SMTLM_REJECT_NO_UNIT);
    EXPECT_EQ(rig.sm()->reject_detail, (unsigned)SMTLM_UNIT_SFU);
    EXPECT_EQ(rig.sm()->error_line, 42u);
    EXPECT_LT(rig.now(), 10u);
}

TEST(MissingUnits, ACollectorSetWithoutOutPortIsRefused)
{
    smtlm_sm_cfg c = ktu::qv100();
    c.oc.num_out_ports[SMTLM_CUS_GEN] = 0;
    std::unique_ptr<smtlm_sm> sm(new smtlm_sm);
    EXPECT_EQ(smtlm_sm_init(sm.get(), &c, 0), SMTLM_EINVAL);
    ASSERT_NE(sm->cfg_error, nullptr);
    EXPECT_NE(std::string(sm->cfg_error).find("-gpgpu_operand_collector_num_out_ports_"), std::string::npos) << sm->cfg_error;
    // a set without units needs no out port
    c.oc.enable_specialized = 1;
    c.oc.num_units[SMTLM_CUS_GEN] = 0, c.oc.num_in_ports[SMTLM_CUS_GEN] = 0;
    c.oc.num_units[SMTLM_CUS_SP] = 4, c.oc.num_in_ports[SMTLM_CUS_SP] = 1, c.oc.num_out_ports[SMTLM_CUS_SP] = 1;
    EXPECT_EQ(smtlm_sm_init(sm.get(), &c, 0), SMTLM_OK) << sm->cfg_error;
    c.oc.num_out_ports[SMTLM_CUS_SP] = 0; // a specialized set likewise
    EXPECT_EQ(smtlm_sm_init(sm.get(), &c, 0), SMTLM_EINVAL);
}
