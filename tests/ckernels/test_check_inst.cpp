// smtlm_sm_check_inst: every instruction from a source passes it; each broken rule gives its
// reason (and detail), a valid instruction none.
#include <gtest/gtest.h>

#include <cstring>

#include "smtlm/sm.h"

namespace {

smtlm_sm_cfg cfg_with_spec()
{
    smtlm_sm_cfg c;
    smtlm_sm_cfg_qv100(&c);
    c.spec[1].num_units = 0;
    c.spec[2].num_units = 1;
    c.spec[2].max_latency = 10;
    return c;
}

smtlm_inst_desc valid()
{
    smtlm_inst_desc d;
    std::memset(&d, 0, sizeof d);
    d.op = SMTLM_OP_SP;
    d.n_dst = 1;
    d.dst[0] = 3;
    d.n_src = 3;
    d.src[0] = 4, d.src[1] = 5, d.src[2] = 256; // RZ
    d.latency = 4;
    d.ii = 1;
    return d;
}

smtlm_reject check(const smtlm_inst_desc &d, unsigned *detail = nullptr)
{
    static const smtlm_sm_cfg c = cfg_with_spec();
    unsigned det = 99;
    const smtlm_reject why = smtlm_sm_check_inst(&c, &d, &det);
    if (detail)
        *detail = det;
    return why;
}

} // namespace

TEST(CheckInst, ValidInstructionsPass)
{
    unsigned detail = 7;
    EXPECT_EQ(check(valid(), &detail), SMTLM_REJECT_NONE);
    EXPECT_EQ(detail, 0u);
    smtlm_inst_desc d = valid();
    d.n_src = SMTLM_MAX_SRC, d.src[3] = SMTLM_MAX_REG;
    d.n_dst = SMTLM_MAX_DST, d.dst[1] = d.dst[2] = d.dst[3] = 0;
    d.latency = SMTLM_MAX_LATENCY - 1, d.ii = d.latency;
    EXPECT_EQ(check(d), SMTLM_REJECT_NONE) << "II = latency starts in stage 0";
    d = valid();
    d.op = SMTLM_OP_SPEC, d.spec = 3, d.latency = 10, d.ii = 1; // stage 9 of a 10-deep unit
    EXPECT_EQ(check(d), SMTLM_REJECT_NONE);
}

TEST(CheckInst, FieldsOutOfRange)
{
    smtlm_inst_desc d = valid();
    d.op = SMTLM_OP_COUNT;
    EXPECT_EQ(check(d), SMTLM_REJECT_FIELDS);
    d = valid(), d.n_src = SMTLM_MAX_SRC + 1;
    EXPECT_EQ(check(d), SMTLM_REJECT_FIELDS);
    d = valid(), d.n_dst = SMTLM_MAX_DST + 1;
    EXPECT_EQ(check(d), SMTLM_REJECT_FIELDS);
    d = valid(), d.mem_space = SMTLM_MEM_COUNT;
    EXPECT_EQ(check(d), SMTLM_REJECT_FIELDS);
    d = valid(), d.latency = 0;
    EXPECT_EQ(check(d), SMTLM_REJECT_FIELDS);
    d = valid(), d.latency = SMTLM_MAX_LATENCY;
    EXPECT_EQ(check(d), SMTLM_REJECT_FIELDS);
    d = valid(), d.ii = 0;
    EXPECT_EQ(check(d), SMTLM_REJECT_FIELDS);
    d = valid(), d.ii = 5; // > latency 4
    EXPECT_EQ(check(d), SMTLM_REJECT_FIELDS);
}

TEST(CheckInst, RegistersOutOfRange)
{
    smtlm_inst_desc d = valid();
    d.src[1] = -1;
    EXPECT_EQ(check(d), SMTLM_REJECT_REGISTER);
    d = valid(), d.dst[0] = SMTLM_MAX_REG + 1;
    EXPECT_EQ(check(d), SMTLM_REJECT_REGISTER);
    d = valid(), d.src[3] = -5; // beyond n_src: not looked at
    EXPECT_EQ(check(d), SMTLM_REJECT_NONE);
}

TEST(CheckInst, SpecializedUnitAndDepth)
{
    unsigned detail = 0;
    smtlm_inst_desc d = valid();
    d.op = SMTLM_OP_SPEC, d.spec = 2; // unit 2 not configured
    EXPECT_EQ(check(d, &detail), SMTLM_REJECT_SPEC_UNIT);
    EXPECT_EQ(detail, 2u);
    d.spec = 0;
    EXPECT_EQ(check(d, &detail), SMTLM_REJECT_SPEC_UNIT);
    d.spec = 3, d.latency = 12, d.ii = 2; // starts in stage 10 of a 10-deep pipeline
    EXPECT_EQ(check(d, &detail), SMTLM_REJECT_DEPTH);
    EXPECT_EQ(detail, 10u);
    d = valid();
    smtlm_sm_cfg c;
    smtlm_sm_cfg_qv100(&c);
    d.latency = (uint16_t)(c.depth_sp + 1); // II 1: stage depth_sp does not exist
    EXPECT_EQ(check(d, &detail), SMTLM_REJECT_DEPTH);
    EXPECT_EQ(detail, (unsigned)c.depth_sp);
}
