// The shape memo's test for entries a source marked (smtlm_sm_memo_pass_marked, the trace source's
// marks_fields_ok) against the full memo test (smtlm_sm_memo_pass): with the mark set exactly when
// smtlm_fields_ok holds, the two verdicts must agree on every entry; without the mark an entry
// never passes (the SM's full check then decides, as for any unmarked source).
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "kernel_test_util.hpp"
#include "smtlm/sm.h"

namespace {

int16_t random_reg(std::mt19937 &g)
{
    static const int16_t edge[] = {0, 1, 63, 64, 255, 256, 510, 511, 512, 1024, -1, INT16_MIN, INT16_MAX};
    return g() % 2 ? edge[g() % (sizeof edge / sizeof edge[0])] : (int16_t)(g() % 300);
}

smtlm_inst random_entry(std::mt19937 &g)
{
    smtlm_inst in;
    std::memset(&in, 0, sizeof in);
    in.op = (uint8_t)(g() % (SMTLM_OP_COUNT + 1));
    in.spec = (uint8_t)(g() % 3);
    in.n_dst = (uint8_t)(g() % 6);
    in.n_src = (uint8_t)(g() % 6);
    for (unsigned k = 0; k < SMTLM_MAX_DST; k++)
        in.dst[k] = random_reg(g);
    for (unsigned k = 0; k < SMTLM_MAX_SRC; k++)
        in.src[k] = random_reg(g);
    in.latency = (uint16_t)(g() % 8);
    in.ii = (uint16_t)(g() % 3);
    in.mem_space = (uint8_t)(g() % (SMTLM_MEM_COUNT + 2));
    return in;
}

TEST(MemoMarked, AgreesWithTheFullMemoTest)
{
    const smtlm_sm_cfg c = ktu::qv100();
    std::mt19937 g(11);
    uint64_t memo[SMTLM_SHAPE_MEMO];
    smtlm_sm_memo_clear(memo);
    unsigned passed = 0;
    for (int i = 0; i < 300000; i++) {
        smtlm_inst in = random_entry(g);
        if (g() % 4 == 0) { // fill the memo as the SM's checks do
            unsigned detail;
            (void)smtlm_sm_check_entry_memo(&c, memo, &in, &detail);
        }
        const int full = smtlm_sm_memo_pass(memo, &in);
        in.left_ldst = smtlm_fields_ok(in.dst, in.n_dst, in.src, in.n_src, in.mem_space) ? SMTLM_FIELDS_OK : 0;
        ASSERT_EQ(smtlm_sm_memo_pass_marked(memo, &in), full) << "entry " << i;
        passed += full;
        in.left_ldst = 0; // not marked: never passed by the mark
        ASSERT_EQ(smtlm_sm_memo_pass_marked(memo, &in), 0) << "entry " << i;
    }
    EXPECT_GT(passed, 1000u); // the memo was hit, not only missed
}

} // namespace
