// smtlm_sm_check_inst: every instruction from a source passes it; each broken rule gives its
// reason (and detail), a valid instruction none.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "smtlm/sm.h"

namespace {

smtlm_sm_cfg cfg_with_spec()
{
    smtlm_sm_cfg c;
    smtlm_sm_cfg_qv100(&c);
    c.units.spec[1].num_units = 0;
    c.units.spec[2].num_units = 1;
    c.units.spec[2].max_latency = 10;
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
    d = valid(), d.ii = 0; // Accel-Sim 2.0's interval of 0: the result one cycle after II 1's
    EXPECT_EQ(check(d), SMTLM_REJECT_NONE);
    d = valid(), d.ii = 0, d.latency = SMTLM_MAX_LATENCY_II0 + 1; // it would leave the ring of cycles
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
    d.latency = (uint16_t)(c.units.depth_sp + 1); // II 1: stage depth_sp does not exist
    EXPECT_EQ(check(d, &detail), SMTLM_REJECT_DEPTH);
    EXPECT_EQ(detail, (unsigned)c.units.depth_sp);
}

// The memo checks only the registers of an instruction whose shape was accepted before, so run
// every case twice after an accepted instruction of each shape: the verdicts and details must
// be those of the full check every time.
TEST(CheckInst, MemoGivesTheFullChecksVerdicts)
{
    const smtlm_sm_cfg c = cfg_with_spec();
    std::vector<smtlm_inst_desc> cases;
    auto add = [&](auto edit) {
        smtlm_inst_desc d = valid();
        edit(d);
        cases.push_back(d);
    };
    add([](smtlm_inst_desc &) {});
    add([](smtlm_inst_desc &d) { d.src[1] = -1; });
    add([](smtlm_inst_desc &d) { d.src[2] = SMTLM_MAX_REG + 1; });
    add([](smtlm_inst_desc &d) { d.src[2] = SMTLM_MAX_REG; });
    add([](smtlm_inst_desc &d) { d.dst[0] = SMTLM_MAX_REG + 1; });
    add([](smtlm_inst_desc &d) { d.dst[0] = INT16_MIN; });
    add([](smtlm_inst_desc &d) { d.src[3] = -5, d.dst[1] = 4000; }); // past the counts: not looked at
    add([](smtlm_inst_desc &d) { d.n_src = 4, d.src[3] = 600; });
    add([](smtlm_inst_desc &d) { d.n_src = 4, d.src[3] = 6; });
    add([](smtlm_inst_desc &d) { d.n_src = 0, d.src[0] = -1; });
    add([](smtlm_inst_desc &d) { d.n_dst = 4, d.dst[3] = -2; });
    add([](smtlm_inst_desc &d) { d.mem_space = SMTLM_MEM_COUNT; });
    add([](smtlm_inst_desc &d) { d.ii = 5; });
    add([](smtlm_inst_desc &d) { d.latency = 0; });
    add([](smtlm_inst_desc &d) { d.op = SMTLM_OP_SPEC, d.spec = 2; });
    add([](smtlm_inst_desc &d) { d.op = SMTLM_OP_SPEC, d.spec = 3, d.latency = 10, d.ii = 1; });
    add([](smtlm_inst_desc &d) { d.op = SMTLM_OP_SPEC, d.spec = 3, d.latency = 10, d.ii = 1, d.src[0] = 999; });
    add([](smtlm_inst_desc &d) { d.op = SMTLM_OP_SPEC, d.spec = 3, d.latency = 12, d.ii = 2; });
    add([](smtlm_inst_desc &d) { d.op = SMTLM_OP_INTP, d.latency = 2; });
    add([](smtlm_inst_desc &d) { d.op = SMTLM_OP_INTP, d.latency = 2, d.dst[0] = -3; });
    uint64_t memo[SMTLM_SHAPE_MEMO];
    smtlm_sm_memo_clear(memo);
    unsigned accepted = 0;
    for (int round = 0; round < 3; round++)
        for (size_t i = 0; i < cases.size(); i++) {
            unsigned full_detail = 99, memo_detail = 98;
            const smtlm_reject full = smtlm_sm_check_inst(&c, &cases[i], &full_detail);
            const smtlm_reject fast = smtlm_sm_check_inst_memo(&c, memo, &cases[i], &memo_detail);
            EXPECT_EQ(fast, full) << "case " << i << " round " << round;
            EXPECT_EQ(memo_detail, full_detail) << "case " << i << " round " << round;
            accepted += full == SMTLM_REJECT_NONE;
        }
    EXPECT_EQ(accepted, 3u * 7u); // 7 valid cases: the memo was used, not only filled
}

// An empty memo passes nothing: an instruction of any op whose fields are all 0 (no registers,
// latency 0: refused by the full check) must get the full check's verdict, not the memo's pass
// (a zeroed memo would match its key, 0).
TEST(CheckInst, EmptyMemoPassesNothing)
{
    const smtlm_sm_cfg c = cfg_with_spec();
    for (unsigned op = 0; op < SMTLM_SHAPE_OPS; op++) {
        uint64_t memo[SMTLM_SHAPE_MEMO];
        smtlm_sm_memo_clear(memo);
        smtlm_inst_desc d;
        std::memset(&d, 0, sizeof d);
        d.op = (uint8_t)op;
        unsigned full_detail = 99, memo_detail = 98;
        const smtlm_reject full = smtlm_sm_check_inst(&c, &d, &full_detail);
        EXPECT_NE(full, SMTLM_REJECT_NONE) << "op " << op;
        EXPECT_EQ(smtlm_sm_check_inst_memo(&c, memo, &d, &memo_detail), full) << "op " << op;
        EXPECT_EQ(memo_detail, full_detail) << "op " << op;
        smtlm_inst in;
        std::memset(&in, 0, sizeof in);
        in.op = (uint8_t)op;
        EXPECT_EQ(smtlm_sm_memo_pass(memo, &in), 0) << "op " << op;
        in.left_ldst = SMTLM_FIELDS_OK;
        EXPECT_EQ(smtlm_sm_memo_pass_marked(memo, &in), 0) << "op " << op;
    }
}
