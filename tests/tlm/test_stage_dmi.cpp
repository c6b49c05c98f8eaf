// Pipeline hand-offs by direct access (StageOut::try_dmi): a producer puts instructions into
// its readers' register sets itself only when every reader grants TLM-2.0 DMI for StagePut on
// the producer's row; otherwise every put is a b_transport call the reader sees. Either way the
// instruction lands in the same slot of the same set.
#include <gtest/gtest.h>

#include <memory>

#include "smtlm/tlm/sm.h"
#include "smtlm/tlm/stage.h"

extern "C" {
#include "smtlm/port_calls.h"
}

namespace {

struct Reader : sc_core::sc_module {
    void on_put(smtlm::SmTransaction &t) // in
    {
        puts++;
        smtlm::stage_accept(row, t);
    }
    smtlm::SmTargetSocket<&Reader::on_put> in;
    smtlm_regset *row;
    unsigned puts = 0;
    Reader(const char *name, smtlm_regset *r) : sc_core::sc_module(name), in("in", this), row(r) {}
};

struct Bench : sc_core::sc_module {
    smtlm_regset row[SMTLM_NUM_REGSETS], other_row[SMTLM_NUM_REGSETS];
    smtlm::SmInitiatorSocket to_exec, to_ldst;
    Reader exec, ldst;
    smtlm::StageOut out;
    Bench() : sc_core::sc_module("bench"), to_exec("to_exec"), to_ldst("to_ldst"), exec("exec", row), ldst("ldst", row)
    {
        for (smtlm_regset &r : row)
            smtlm_regset_init(&r, 2);
        for (smtlm_regset &r : other_row)
            smtlm_regset_init(&r, 2);
        to_exec.bind(exec.in);
        to_ldst.bind(ldst.in);
        out.bind(row, &to_exec, SMTLM_OC_EX_MEM, &to_ldst);
    }
    // Two puts through the port the kernels would get, as they call it: one to each reader.
    void put_two()
    {
        const smtlm_stage_port o = out.ops();
        EXPECT_EQ(smtlm_stage_put(&o, SMTLM_OC_EX_SP, 1, 1, 7, 70), 1);
        EXPECT_EQ(smtlm_stage_put(&o, SMTLM_OC_EX_MEM, 1, 0, 8, 80), 0);
        EXPECT_EQ(row[SMTLM_OC_EX_SP].slot[1], 7);
        EXPECT_EQ(row[SMTLM_OC_EX_MEM].slot[0], 8);
        EXPECT_EQ(smtlm_stage_put(&o, SMTLM_OC_EX_SP, 1, 1, 9, 90), -1) << "slot 1 is taken: refused either way";
    }
};

} // namespace

TEST(StageDmi, WithoutAGrantEveryPutIsATransaction)
{
    Bench b;
    EXPECT_FALSE(b.out.try_dmi());
    EXPECT_EQ(b.out.ops().sets, nullptr);
    b.put_two();
    EXPECT_EQ(b.exec.puts, 2u);
    EXPECT_EQ(b.ldst.puts, 1u);
}

TEST(StageDmi, WhenEveryReaderGrantsThePutsAreDirect)
{
    Bench b;
    b.exec.in.grant_stage_dmi(b.row);
    b.ldst.in.grant_stage_dmi(b.row);
    EXPECT_TRUE(b.out.try_dmi());
    EXPECT_EQ(b.out.ops().sets, b.row); // bound directly, as the C engine's: the kernels inline the put
    b.put_two();
    EXPECT_EQ(b.exec.puts, 0u);
    EXPECT_EQ(b.ldst.puts, 0u);
}

// Each socket decides for itself: the reader that grants the row is put into directly, the one
// that grants nothing (or another row) still sees each of its puts as a transaction.
TEST(StageDmi, OneRefusingOrForeignReaderKeepsTransactionsOnItsSocketOnly)
{
    Bench b;
    b.exec.in.grant_stage_dmi(b.row);
    EXPECT_FALSE(b.out.try_dmi()) << "the LDST grants nothing";
    b.put_two();
    EXPECT_EQ(b.exec.puts, 0u) << "the units granted: their puts stay direct";
    EXPECT_EQ(b.ldst.puts, 1u);
}

TEST(StageDmi, AReaderGrantingAnotherRowKeepsTransactions)
{
    Bench b;
    b.exec.in.grant_stage_dmi(b.row);
    b.ldst.in.grant_stage_dmi(b.other_row);
    EXPECT_FALSE(b.out.try_dmi()) << "the LDST grants another row";
    EXPECT_EQ(b.out.ops().sets, nullptr);
    b.put_two();
    EXPECT_EQ(b.exec.puts, 0u);
    EXPECT_EQ(b.ldst.puts, 1u);
}

// In the gpgpusim SM every reader's handler is stage_accept on the SM's row, so all three
// producers (issue, collector, execute) go direct; the register file grants its kernel to the
// collector's reads and writeback's writes, the issue stage its written-back handler.
TEST(StageDmi, TheGpgpusimSmHandsOffDirectly)
{
    smtlm_sm_cfg cfg;
    smtlm_sm_cfg_qv100(&cfg);
    std::unique_ptr<smtlm::Sm> sm = smtlm::Sm::create("sm", cfg, 0);
    ASSERT_EQ(sm->status(), SMTLM_OK);
    EXPECT_EQ(sm->use_stage_dmi(), 5u);
}
