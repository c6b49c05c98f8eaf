// The silicon core (silicon.h) driven directly: one SM with the H100 figures
// (smtlm_silicon_cfg_h100) and programs whose control bits the test writes. Every expected gap is
// the rule it tests applied to the program, with the kit measurement behind the rule named:
// issue-to-issue gaps of one warp are what the kit's per-instruction slopes measure.
#include <gtest/gtest.h>

#include "kernel_test_util.hpp"

namespace {

using ktu::Rig;

constexpr int RZ = 255; // the trace's RZ

smtlm_sm_cfg h100()
{
    smtlm_sm_cfg c = ktu::qv100();
    smtlm_silicon_cfg_h100(&c.silicon);
    return c;
}

// One instruction's control bits: stall, yield bit, barriers (7 none), wait mask, reuse per source.
smtlm_ctrl bits(unsigned pipe, unsigned stall, bool yield = true, unsigned wbar = 7, unsigned wait = 0, unsigned reuse = 0,
                unsigned wide = 0)
{
    smtlm_ctrl c{};
    c.stall = (uint8_t)stall;
    c.flags = (uint8_t)(SMTLM_CTRL_VALID | (yield ? SMTLM_CTRL_YIELD : 0));
    c.wbar = (uint8_t)wbar;
    c.rbar = 7;
    c.wait = (uint8_t)wait;
    c.reuse = (uint8_t)reuse;
    c.wide = (uint8_t)wide;
    c.slots = 0 | 1 << 2 | 2 << 4; // sources in slots a, b, c
    c.pipe = (uint8_t)pipe;
    return c;
}

// A one-warp program with its control bits (pc = 16 i), run to the end; the issue cycles.
struct Issues {
    std::vector<uint64_t> issue;
    smtlm_silicon_stats st; // the core's counters at the end
    uint64_t gap(size_t i) const { return issue.at(i + 1) - issue.at(i); }
};

Issues run(std::vector<smtlm_inst_desc> p, std::vector<smtlm_ctrl> c, unsigned warps = 1)
{
    p = ktu::prog(std::move(p));
    c.push_back(bits(SMTLM_PIPE_NONE, 1)); // the EXIT
    const smtlm_code code = {c.data(), (uint32_t)c.size()};
    Rig rig(h100());
    EXPECT_EQ(rig.init_rc, SMTLM_OK);
    rig.code = &code;
    EXPECT_EQ(rig.load_all(p, warps), 0);
    rig.run();
    EXPECT_EQ(rig.last_rc, SMTLM_OK);
    EXPECT_FALSE(rig.active()) << "the CTA did not finish";
    Issues r;
    r.st = rig.sm()->silicon.st;
    for (size_t i = 0; i + 1 < p.size(); i++)
        r.issue.push_back(rig.at(0, (unsigned)i).issue());
    return r;
}

smtlm_inst_desc ffma(int dst, std::vector<int> srcs) { return ktu::ffma(dst, std::move(srcs)); }

TEST(Silicon, TheStallCountSpacesAWarpsIssues)
{
    // dep_ffma: the chain runs at its encoded stall count (4, and 3 when patched to 3)
    for (unsigned stall : {3u, 4u, 6u}) {
        const Issues r = run({ffma(1, {RZ, RZ, RZ}), ffma(2, {RZ, RZ, RZ}), ffma(3, {RZ, RZ, RZ})},
                          {bits(SMTLM_PIPE_FMA, stall), bits(SMTLM_PIPE_FMA, stall), bits(SMTLM_PIPE_FMA, stall)});
        EXPECT_EQ(r.gap(0), stall);
        EXPECT_EQ(r.gap(1), stall);
    }
}

TEST(Silicon, AYieldBitOfZeroKeepsTheWarpsNextIssueTwoCyclesAway)
{
    // dep_* with stall 1 and the yield bit 0: 2.01 cycles per instruction; ind_* with the yield
    // bit 1: 1.00
    const Issues no_yield = run({ffma(1, {RZ}), ffma(2, {RZ}), ffma(3, {RZ})},
                             {bits(SMTLM_PIPE_FMA, 1, false), bits(SMTLM_PIPE_FMA, 1, false), bits(SMTLM_PIPE_FMA, 1, false)});
    EXPECT_EQ(no_yield.gap(0), 2u);
    EXPECT_EQ(no_yield.gap(1), 2u);
    const Issues yield = run({ffma(1, {RZ}), ffma(2, {RZ}), ffma(3, {RZ})},
                          {bits(SMTLM_PIPE_FMA, 1), bits(SMTLM_PIPE_FMA, 1), bits(SMTLM_PIPE_FMA, 1)});
    EXPECT_EQ(yield.gap(0), 1u);
    EXPECT_EQ(yield.gap(1), 1u);
}

TEST(Silicon, APipeTakesOneInstructionPerInterval)
{
    // ind_imad, ind_iadd3 with stall 1: 2.00 (the integer pipe); ind_mufu_ex2: 8.00
    const smtlm_inst_desc imad = ktu::iadd(1, {RZ});
    const Issues alu = run({imad, imad, imad}, {bits(SMTLM_PIPE_ALU, 1), bits(SMTLM_PIPE_ALU, 1), bits(SMTLM_PIPE_ALU, 1)});
    EXPECT_EQ(alu.gap(0), 2u);
    EXPECT_EQ(alu.gap(1), 2u);
    const smtlm_inst_desc ex2 = ktu::mufu(1, {RZ});
    const Issues mufu = run({ex2, ex2}, {bits(SMTLM_PIPE_MUFU, 1), bits(SMTLM_PIPE_MUFU, 1)});
    EXPECT_EQ(mufu.gap(0), 8u);
}

TEST(Silicon, TheFmaPipeIsTwoHalvesAndIntegerMultiplyAddTakesTheHeavyOne)
{
    // The FMA pipe is two 16-lane halves, a warp instruction 2 cycles on one: FP32 takes either
    // (ind_ffma 1.00), IMAD only the heavy half (ind_imad 2.00, also with stall 1), and the
    // integer ALU is a pipe of its own (NVIDIA: the FMA heavy pipe executes IMAD and IDP, the ALU
    // pipe the other integer and logic instructions). All stall 1, sources RZ.
    const smtlm_inst_desc f = ffma(1, {RZ}), i = ktu::iadd(2, {RZ});
    const smtlm_ctrl fma = bits(SMTLM_PIPE_FMA, 1), imad = bits(SMTLM_PIPE_FMA_HEAVY, 1), alu = bits(SMTLM_PIPE_ALU, 1);
    const Issues imads = run({i, i, i}, {imad, imad, imad});
    EXPECT_EQ(imads.gap(0), 2u);
    EXPECT_EQ(imads.gap(1), 2u);
    const Issues ffmas = run({f, f, f}, {fma, fma, fma});
    EXPECT_EQ(ffmas.gap(0), 1u);
    EXPECT_EQ(ffmas.gap(1), 1u);
    // IMAD and IADD3 alternating: two pipes, one issue a cycle
    const Issues mixed = run({i, i, i, i}, {imad, alu, imad, alu});
    EXPECT_EQ(mixed.issue[3] - mixed.issue[0], 3u);
    // IMAD (heavy until t+2), FFMA at t+1 (lite until t+3), FFMA at t+2 (heavy, until t+4),
    // IMAD waits for the heavy half: t+4
    const Issues halves = run({i, f, f, i}, {imad, fma, fma, imad});
    EXPECT_EQ(halves.gap(0), 1u);
    EXPECT_EQ(halves.gap(1), 1u);
    EXPECT_EQ(halves.gap(2), 2u);
}

TEST(Silicon, FP16TakesBothFmaHalvesAndFP64SharesTheMatrixPipe)
{
    // NVIDIA's description of Hopper's pipes: FP16x2 is dual-issued to both FMA halves; FP64 and
    // the tensor pipe (HFMA2.MMA) are one shared pipe. Each 2 cycles per warp instruction
    // (ind_hfma2.allfma, .allmma, ind_dfma 2.00); stall 1, sources RZ, results in the two banks
    // by turns (R1, R2: no two land in one bank in one cycle).
    const smtlm_inst_desc f = ffma(1, {RZ}), g = ffma(2, {RZ});
    const smtlm_ctrl fma = bits(SMTLM_PIPE_FMA, 1), fp16 = bits(SMTLM_PIPE_FP16, 1), mma = bits(SMTLM_PIPE_MMA16, 1),
                     fp64 = bits(SMTLM_PIPE_FP64, 1);
    EXPECT_EQ(run({f, g}, {fp16, fma}).gap(0), 2u); // the FFMA waits for a half
    EXPECT_EQ(run({f, g}, {fma, fp16}).gap(0), 2u); // the HFMA2 waits for both
    EXPECT_EQ(run({f, g}, {fp64, mma}).gap(0), 2u);
    EXPECT_EQ(run({f, g}, {mma, fp64}).gap(0), 2u);
    // HFMA2.MMA and HFMA2 are on different pipes: one a cycle (ind_hfma2 issues them so)
    EXPECT_EQ(run({f, g, f}, {mma, fp16, mma}).gap(0), 1u);
}

TEST(Silicon, ABarrierHoldsItsConsumerUntilTheResult)
{
    // dep_mufu with stall 2..7: 17 cycles per link (the MUFU's result releases barrier 0)
    const smtlm_inst_desc ex2 = ktu::mufu(1, {1});
    const Issues r = run({ex2, ex2, ex2}, {bits(SMTLM_PIPE_MUFU, 2, true, 0, 1), bits(SMTLM_PIPE_MUFU, 2, true, 0, 1),
                                        bits(SMTLM_PIPE_MUFU, 2, true, 0, 1)});
    EXPECT_EQ(r.gap(0), 17u);
    EXPECT_EQ(r.gap(1), 17u);
}

TEST(Silicon, AConsumerOneCycleBehindItsProducerDoesNotSeeTheBarrier)
{
    // dep_mufu with stall 1: 12.5 cycles per link. The second MUFU is checked one cycle after
    // the first, before the first's barrier is seen (2 cycles), passes, and then waits for the
    // pipe (8); the third sees both sets and waits for the second's result (8 + 17); the fourth
    // passes again one cycle behind the third: links of 8 and 17, 12.5 on average.
    const smtlm_inst_desc ex2 = ktu::mufu(1, {1});
    const smtlm_ctrl c = bits(SMTLM_PIPE_MUFU, 1, true, 0, 1);
    const Issues r = run({ex2, ex2, ex2, ex2, ex2}, {c, c, c, c, c});
    EXPECT_EQ(r.gap(0), 8u);
    EXPECT_EQ(r.gap(1), 17u);
    EXPECT_EQ(r.gap(2), 8u);
    EXPECT_EQ(r.gap(3), 17u);
}

TEST(Silicon, RegisterReadsOfOneBankFollowOneAnother)
{
    // bank_base patterns, stall 1: sources all even and fixed (R0, R2, R4): 3.00 per FFMA; two
    // even and one odd: 2.00; the same with slot a served by the reuse cache: 2.00 and 1.00;
    // RZ and a register named twice are not read: 1.00
    const smtlm_ctrl c = bits(SMTLM_PIPE_FMA, 1), a_reused = bits(SMTLM_PIPE_FMA, 1, true, 7, 0, 1);
    auto gap = [&](std::vector<int> srcs, smtlm_ctrl k) {
        return run({ffma(9, srcs), ffma(9, srcs), ffma(9, srcs), ffma(9, srcs)}, {k, k, k, k}).gap(2);
    };
    EXPECT_EQ(gap({0, 2, 4}, c), 3u);
    EXPECT_EQ(gap({0, 2, 1}, c), 2u);
    EXPECT_EQ(gap({0, 2, 4}, a_reused), 2u);
    EXPECT_EQ(gap({0, 2, 1}, a_reused), 1u);
    EXPECT_EQ(gap({RZ, 3, RZ}, c), 1u);
    EXPECT_EQ(gap({4, 4, 4}, c), 1u);
}

TEST(Silicon, A64BitOperandReadsBothBanks)
{
    // dep_dfma with stall 1..3: 3.02 (three 64-bit sources: three reads in each bank)
    const smtlm_inst_desc dfma = ktu::alu(SMTLM_OP_DP, 8, {2, 8, 4}, 8, 1);
    const smtlm_ctrl c = bits(SMTLM_PIPE_FP64, 1, false, 7, 0, 0, 7);
    const Issues r = run({dfma, dfma, dfma}, {c, c, c});
    EXPECT_EQ(r.gap(0), 3u);
    EXPECT_EQ(r.gap(1), 3u);
}

TEST(Silicon, AYieldBitOfZeroReadsEveryOperandFromTheBanks)
{
    // ind_dfma: of six DFMAs, one (yield bit 0) reads its reused operands again, and the next
    // misses the caches that one did not fill: 13 cycles per 6 (2.16), where 12 would be 2.00
    const smtlm_ctrl reuse = bits(SMTLM_PIPE_FP64, 2, true, 7, 0, 5, 7), plain = bits(SMTLM_PIPE_FP64, 2, false, 7, 0, 0, 7);
    std::vector<smtlm_inst_desc> p;
    std::vector<smtlm_ctrl> c;
    for (int i = 0; i < 12; i++) {
        p.push_back(ktu::alu(SMTLM_OP_DP, 10 + 2 * (i % 6), {2, 10 + 2 * (i % 6), 4}, 8, 1));
        c.push_back(i % 6 == 5 ? plain : reuse);
    }
    const Issues r = run(p, c);
    EXPECT_EQ(r.issue[11] - r.issue[5], 13u);
}

TEST(Silicon, TwoResultsDoNotLandInOneBankInOneCycle)
{
    // dep_hfma2 (R11 = R11 * R4 + R5, HFMA2.MMA and HFMA2 alternating, yield bit 0) with the
    // HFMA2.MMA's stall lowered to 1 or 2: 4.50 per instruction, i.e. the HFMA2 issues 3 cycles
    // after the HFMA2.MMA and not 2 (the yield gap). At 2 its result (FP16 latency 6) would land
    // in R11's bank in the cycle the HFMA2.MMA's (latency 8) does: 2 + 6 = 8. The other way
    // round (HFMA2 stall 1, then HFMA2.MMA: 2 + 8 > 6) nothing collides: 2 cycles (6.02).
    const smtlm_inst_desc h = ffma(11, {11, 4, 5});
    const smtlm_ctrl mma = bits(SMTLM_PIPE_MMA16, 1, false), fp16 = bits(SMTLM_PIPE_FP16, 1, false);
    const Issues mma_first = run({h, h}, {mma, fp16});
    EXPECT_EQ(mma_first.gap(0), 3u);
    EXPECT_EQ(mma_first.st.write_stalls, 1u);
    EXPECT_EQ(run({h, h}, {fp16, mma}).gap(0), 2u);
    // a result in the other bank does not wait
    EXPECT_EQ(run({h, ffma(12, {11, 4, 5})}, {mma, fp16}).gap(0), 2u);
}

TEST(Silicon, TheMatrixPipeLeavesTheReuseCachesEmpty)
{
    // ind_hfma2 (HFMA2 and HFMA2.MMA alternating, b and c reused throughout): 2.12 per
    // instruction where the two pipes allow 2.00 (and the stream with every HFMA2.MMA keeping
    // its operands 2.00). An HFMA2.MMA is served by what the caches hold, but keeps nothing:
    // the HFMA2 after it reads b and c again. Here: HFMA2 (fills b, c), HFMA2.MMA (2 hits),
    // HFMA2 (0 hits, fills), HFMA2 (2 hits).
    const smtlm_ctrl fp16 = bits(SMTLM_PIPE_FP16, 2, true, 7, 0, 6), mma = bits(SMTLM_PIPE_MMA16, 2, true, 7, 0, 6);
    const Issues r = run({ffma(12, {12, 9, 10}), ffma(14, {14, 9, 10}), ffma(16, {16, 9, 10}), ffma(18, {18, 9, 10})},
                         {fp16, mma, fp16, fp16});
    EXPECT_EQ(r.st.reuse_hits, 4u);
    EXPECT_EQ(r.st.reads, 3u + 1u + 3u + 1u);
    // with the HFMA2.MMA on the FP16 pipe instead it keeps b and c: 6 hits
    const Issues all_fp16 = run({ffma(12, {12, 9, 10}), ffma(14, {14, 9, 10}), ffma(16, {16, 9, 10}), ffma(18, {18, 9, 10})},
                                {fp16, fp16, fp16, fp16});
    EXPECT_EQ(all_fp16.st.reuse_hits, 6u);
}

TEST(Silicon, SharedMemoryConflictsCostTwoCyclesPerWayForOneWarp)
{
    // lds_lat_s<k> (ptxas stall 4): 23 + 2 (k - 1) cycles per dependent LDS.32 (a warp's
    // wavefronts two cycles apart, its data 23 cycles after the last)
    for (unsigned k : {1u, 4u, 8u}) {
        const smtlm_inst_desc lds = micro::shared(SMTLM_OP_LOAD, 1, {1}, 0x400, 4 * k);
        const smtlm_ctrl c = bits(SMTLM_PIPE_LSU, 4, true, 0, 1);
        const Issues r = run({lds, lds, lds}, {bits(SMTLM_PIPE_LSU, 4, true, 0, 0), c, c});
        EXPECT_EQ(r.gap(0), 23 + 2 * (k - 1)) << k << "-way";
        EXPECT_EQ(r.gap(1), 23 + 2 * (k - 1)) << k << "-way";
    }
}

TEST(Silicon, ASharedAtomicFinishesItsWarp)
{
    // ATOMS goes through the shared-memory port like a load (one wavefront: its result 23
    // cycles after issue); the SM's front end holds a warp with atomics outstanding, so the
    // next instruction issues when the atomic completes, and the warp then finishes
    smtlm_inst_desc atoms = micro::shared(SMTLM_OP_STORE, -1, {1, 2}, 0x400, 4);
    atoms.atomic = 1;
    const Issues r = run({atoms, ffma(3, {RZ})}, {bits(SMTLM_PIPE_LSU, 1), bits(SMTLM_PIPE_FMA, 1)});
    EXPECT_EQ(r.gap(0), 23u);
}

TEST(Silicon, WithoutControlBitsAWarpWaitsForItsRegisters)
{
    // what an ideal compiler would encode: a dependent FFMA 4 cycles after its producer (the
    // FP32 latency), an independent one in the next cycle
    Rig rig(h100());
    ASSERT_EQ(rig.init_rc, SMTLM_OK);
    ASSERT_EQ(rig.load({ktu::prog({ffma(1, {RZ}), ffma(1, {1}), ffma(2, {RZ}), ffma(3, {RZ})})}), 0);
    rig.run();
    ASSERT_FALSE(rig.active());
    EXPECT_EQ(rig.at(0, 1).issue() - rig.at(0, 0).issue(), 4u);
    EXPECT_EQ(rig.at(0, 2).issue() - rig.at(0, 1).issue(), 1u);
    EXPECT_EQ(rig.at(0, 3).issue() - rig.at(0, 2).issue(), 1u);
}

TEST(Silicon, WithoutControlBitsAnOperandReadAgainInItsSlotIsReused)
{
    // what an ideal compiler would encode: `.reuse` on an operand the warp's next instruction
    // reads again in the same slot. Three FFMAs reading R0, R2, R4 (all in bank 0): the first
    // reads them in the 3 cycles after its issue, the next two are served by the caches and
    // issue one cycle apart (with nothing kept they would wait for the bank: 3 cycles apart).
    // Sources in other slots are read again: R4, R0, R2 rotated costs the bank each time.
    auto gaps = [](std::vector<int> second, std::vector<int> third) {
        Rig rig(h100());
        EXPECT_EQ(rig.init_rc, SMTLM_OK);
        EXPECT_EQ(rig.load({ktu::prog({ffma(10, {0, 2, 4}), ffma(12, second), ffma(14, third)})}), 0);
        rig.run();
        EXPECT_FALSE(rig.active());
        return std::make_pair(rig.at(0, 1).issue() - rig.at(0, 0).issue(), rig.at(0, 2).issue() - rig.at(0, 1).issue());
    };
    EXPECT_EQ(gaps({0, 2, 4}, {0, 2, 4}), std::make_pair(uint64_t{1}, uint64_t{1}));
    EXPECT_EQ(gaps({4, 0, 2}, {2, 4, 0}), std::make_pair(uint64_t{3}, uint64_t{3}));
}

TEST(Silicon, RefusesFiguresItCannotUse)
{
    smtlm_silicon_cfg c;
    smtlm_silicon_cfg_h100(&c);
    const char *why = nullptr;
    EXPECT_EQ(smtlm_silicon_cfg_check(&c, &why), SMTLM_OK);
    c.interval[SMTLM_PIPE_FMA] = 0;
    EXPECT_EQ(smtlm_silicon_cfg_check(&c, &why), SMTLM_EINVAL);
    EXPECT_NE(std::string(why).find("-smtlm_silicon_pipe_interval"), std::string::npos);
    smtlm_silicon_cfg_h100(&c);
    c.rf_banks = 9;
    EXPECT_EQ(smtlm_silicon_cfg_check(&c, &why), SMTLM_ERANGE);
    smtlm_sm_cfg sm = h100();
    sm.muon.enabled = 1;
    std::unique_ptr<smtlm_sm> s(new smtlm_sm);
    EXPECT_EQ(smtlm_sm_init(s.get(), &sm, 0), SMTLM_EINVAL);
    EXPECT_NE(std::string(s->cfg_error).find("exclude each other"), std::string::npos);
}

} // namespace
