// Operand collector kernel, called directly (GPGPU-Sim opndcoll_rfu_t; docs/ARCHITECTURE.md,
// "One SM cycle", step 3): port order, CU allocation, sub-core CU partition, operand
// de-duplication, collection, dispatch round robin.
#include <gtest/gtest.h>

#include "kernel_test_util.hpp"

namespace {

// QV100's collector: 4 sub-cores, 8 generic CUs; tensor core, DP, INT and 3 specialized units.
ktu::OcSetup qv100_oc()
{
    ktu::OcSetup c;
    std::memset(&c, 0, sizeof c);
    c.shape.n_sched = 4;
    c.shape.sub_core = 1;
    c.cfg.num_units[SMTLM_CUS_GEN] = c.cfg.num_in_ports[SMTLM_CUS_GEN] = c.cfg.num_out_ports[SMTLM_CUS_GEN] = 8;
    c.units.n_sp = c.units.n_sfu = c.units.n_dp = c.units.n_int = c.units.n_tensor = 4;
    c.units.tensor_core_avail = 1;
    for (unsigned k = 0; k < 3; k++)
        c.units.spec[k].num_units = 4;
    return c;
}

// Non-sub-core, one scheduler, `cus` generic CUs.
ktu::OcSetup flat_oc(unsigned cus, unsigned ports = 8)
{
    ktu::OcSetup c = qv100_oc();
    c.shape.n_sched = 1;
    c.shape.sub_core = 0;
    c.cfg.num_units[SMTLM_CUS_GEN] = cus;
    c.cfg.num_in_ports[SMTLM_CUS_GEN] = ports;
    c.cfg.num_out_ports[SMTLM_CUS_GEN] = cus;
    return c;
}

struct Oc {
    std::unique_ptr<smtlm_opcoll> oc{new smtlm_opcoll};
    ktu::KernelCtx k;
    int rc;
    explicit Oc(const ktu::OcSetup &c)
        : k(ktu::RfSetup{{16, SMTLM_ALLOC_FIFO, 0}, {c.shape.n_sched, c.shape.sub_core}, c.cfg.num_units[SMTLM_CUS_GEN] ? c.cfg.num_units[SMTLM_CUS_GEN] : 1})
    {
        rc = ktu::oc_init(oc.get(), c);
        k.bind(oc.get());
    }
    int alloc(uint64_t now) { return smtlm_opcoll_allocate(oc.get(), now); }
    void dispatch(uint64_t now) { smtlm_opcoll_dispatch(oc.get(), now); }
    // An allocation or dispatch in a cycle of its own: tests fill ID_OC sets and free OC_EX
    // slots between these calls, which only issue and execute do, outside the read steps.
    uint64_t cycle = 1000;
    int alloc() { return smtlm_opcoll_allocate(oc.get(), ++cycle); }
    void dispatch() { smtlm_opcoll_dispatch(oc.get(), ++cycle); }
    // Arbitrates once and delivers the grants.
    void read(uint64_t now = 0)
    {
        smtlm_read_grant g[SMTLM_MAX_BANKS];
        unsigned n = smtlm_rf_arbitrate(k.rf.get(), g);
        smtlm_opcoll_collect(oc.get(), now, g, n);
    }
    // CU holding r, or -1.
    int cu_of(smtlm_iref r) const
    {
        for (unsigned j = 0; j < oc->n_cus; j++)
            if (oc->cu[j].inst == r)
                return (int)j;
        return -1;
    }
};

TEST(OpCollInit, RejectsBadConfigurations)
{
    std::unique_ptr<smtlm_opcoll> oc(new smtlm_opcoll);
    ktu::OcSetup c = qv100_oc();
    EXPECT_EQ(ktu::oc_init(oc.get(), c), SMTLM_OK);
    c.shape.n_sched = 0;
    EXPECT_EQ(ktu::oc_init(oc.get(), c), SMTLM_EINVAL);
    c = qv100_oc();
    c.shape.n_sched = SMTLM_MAX_SCHED + 1;
    EXPECT_EQ(ktu::oc_init(oc.get(), c), SMTLM_EINVAL);
    c = qv100_oc();
    c.cfg.num_units[SMTLM_CUS_GEN] = 0; // no collector unit at all
    EXPECT_EQ(ktu::oc_init(oc.get(), c), SMTLM_EINVAL);
    c = qv100_oc();
    c.cfg.num_units[SMTLM_CUS_GEN] = 6; // 6 CUs cannot be split over 4 sub-cores
    EXPECT_EQ(ktu::oc_init(oc.get(), c), SMTLM_EINVAL);
    c.shape.sub_core = 0; // fine without the sub-core model
    EXPECT_EQ(ktu::oc_init(oc.get(), c), SMTLM_OK);
    c = qv100_oc();
    c.cfg.num_units[SMTLM_CUS_GEN] = SMTLM_MAX_CUS + 4;
    EXPECT_EQ(ktu::oc_init(oc.get(), c), SMTLM_ERANGE);
}

TEST(OpCollInit, GenericPortsListPairsInGpgpuSimOrder)
{
    Oc o(qv100_oc());
    ASSERT_EQ(o.rc, SMTLM_OK);
    EXPECT_EQ(o.oc->n_cus, 8u);
    EXPECT_EQ(o.oc->n_sets, 1u);
    EXPECT_EQ(o.oc->n_du, 8u);
    ASSERT_EQ(o.oc->n_ports, 8u); // num_in_ports_gen identical generic ports
    // SP, SFU, MEM, TENSOR_CORE, DP, INT, then the specialized units in config order.
    const uint8_t in[] = {SMTLM_ID_OC_SP, SMTLM_ID_OC_SFU, SMTLM_ID_OC_MEM, SMTLM_ID_OC_TENSOR_CORE,
                          SMTLM_ID_OC_DP, SMTLM_ID_OC_INT, SMTLM_ID_OC_SPEC(0), SMTLM_ID_OC_SPEC(1),
                          SMTLM_ID_OC_SPEC(2)};
    const uint8_t out[] = {SMTLM_OC_EX_SP, SMTLM_OC_EX_SFU, SMTLM_OC_EX_MEM, SMTLM_OC_EX_TENSOR_CORE,
                           SMTLM_OC_EX_DP, SMTLM_OC_EX_INT, SMTLM_OC_EX_SPEC(0), SMTLM_OC_EX_SPEC(1),
                           SMTLM_OC_EX_SPEC(2)};
    for (unsigned p = 0; p < o.oc->n_ports; p++) {
        const smtlm_port &port = o.oc->ports[p];
        ASSERT_EQ(port.n_pairs, 9u);
        for (unsigned i = 0; i < 9; i++) {
            EXPECT_EQ(port.in[i], in[i]) << "port " << p << " pair " << i;
            EXPECT_EQ(port.out[i], out[i]) << "port " << p << " pair " << i;
        }
        EXPECT_EQ(port.n_sets, 1u);
        EXPECT_EQ(port.sets[0], 0u); // GEN only
    }
    // Sub-core: CU j belongs to (and dispatches into OC_EX slot) j / 2.
    for (unsigned j = 0; j < 8; j++)
        EXPECT_EQ(o.oc->cu[j].oc_ex_slot, j / 2);
}

TEST(OpCollInit, AbsentUnitsHaveNoPairs)
{
    ktu::OcSetup c = qv100_oc(); // TITANX-like: no tensor, DP, INT, specialized units
    c.units.tensor_core_avail = 0;
    c.units.n_dp = c.units.n_int = 0;
    for (unsigned k = 0; k < 3; k++)
        c.units.spec[k].num_units = 0;
    Oc o(c);
    ASSERT_EQ(o.rc, SMTLM_OK);
    ASSERT_EQ(o.oc->ports[0].n_pairs, 3u);
    EXPECT_EQ(o.oc->ports[0].in[0], SMTLM_ID_OC_SP);
    EXPECT_EQ(o.oc->ports[0].in[1], SMTLM_ID_OC_SFU);
    EXPECT_EQ(o.oc->ports[0].in[2], SMTLM_ID_OC_MEM);
}

TEST(OpCollInit, SpecializedCollectorsSearchOwnSetThenGeneric)
{
    ktu::OcSetup c = flat_oc(2, 1);
    c.cfg.enable_specialized = 1;
    c.cfg.num_units[SMTLM_CUS_SP] = 2;
    c.cfg.num_in_ports[SMTLM_CUS_SP] = 1;
    c.cfg.num_out_ports[SMTLM_CUS_SP] = 1;
    Oc o(c);
    ASSERT_EQ(o.rc, SMTLM_OK);
    EXPECT_EQ(o.oc->n_cus, 4u);
    ASSERT_EQ(o.oc->n_sets, 7u); // GEN, SP, DP, TENSOR_CORE, SFU, MEM, INT (empty ones too)
    EXPECT_EQ(o.oc->sets[0].kind, SMTLM_CUS_GEN);
    EXPECT_EQ(o.oc->sets[1].kind, SMTLM_CUS_SP);
    EXPECT_EQ(o.oc->sets[1].first, 2u);
    ASSERT_EQ(o.oc->n_ports, 2u); // 1 generic + 1 SP port
    const smtlm_port &sp = o.oc->ports[1];
    ASSERT_EQ(sp.n_pairs, 1u);
    EXPECT_EQ(sp.in[0], SMTLM_ID_OC_SP);
    EXPECT_EQ(sp.out[0], SMTLM_OC_EX_SP);
    ASSERT_EQ(sp.n_sets, 2u);
    EXPECT_EQ(sp.sets[0], 1u); // own set first
    EXPECT_EQ(sp.sets[1], 0u); // GEN fallback
}

TEST(OpCollAllocate, SubCoreInstructionGetsFirstFreeCuOfItsScheduler)
{
    Oc o(qv100_oc());
    ktu::KernelCtx &k = o.k;
    smtlm_iref a = k.make(SMTLM_OP_SP, 2, 2, {4});
    k.put(SMTLM_ID_OC_SP, 2, a);
    ASSERT_EQ(o.alloc(), SMTLM_OK);
    EXPECT_EQ(o.cu_of(a), 4); // sub-core 2 owns CUs 4 and 5: the lower one first
    EXPECT_EQ(k.rs[SMTLM_ID_OC_SP].count, 0);
    EXPECT_EQ(o.oc->cu[4].out, SMTLM_OC_EX_SP);
    smtlm_iref b = k.make(SMTLM_OP_SP, 6, 2, {4});
    k.put(SMTLM_ID_OC_SP, 2, b);
    o.alloc();
    EXPECT_EQ(o.cu_of(b), 5);
    smtlm_iref c = k.make(SMTLM_OP_SP, 2, 2, {4});
    k.put(SMTLM_ID_OC_SP, 2, c);
    o.alloc(); // CUs 4, 5 busy; CUs 0-3, 6, 7 are free but belong to other sub-cores
    EXPECT_EQ(o.cu_of(c), -1);
    EXPECT_EQ(k.rs[SMTLM_ID_OC_SP].slot[2], c);
    EXPECT_EQ(o.oc->busy, 2u);
    EXPECT_EQ(smtlm_opcoll_allocations(o.oc.get()), 2u);
}

TEST(OpCollAllocate, EightIdenticalPortsAllocateOnePerSubCoreInOneStep)
{
    Oc o(qv100_oc());
    ktu::KernelCtx &k = o.k;
    smtlm_iref r[4];
    for (unsigned s = 0; s < 4; s++) {
        r[s] = k.make(SMTLM_OP_SP, s, s, {4});
        k.put(SMTLM_ID_OC_SP, s, r[s]);
    }
    o.alloc();
    for (unsigned s = 0; s < 4; s++)
        EXPECT_EQ(o.cu_of(r[s]), (int)(2 * s));
    EXPECT_EQ(k.rs[SMTLM_ID_OC_SP].count, 0);
}

TEST(OpCollAllocate, OnePortAllocatesOnlyTheOldestOfARegisterSetPerStep)
{
    ktu::OcSetup c = qv100_oc();
    c.cfg.num_in_ports[SMTLM_CUS_GEN] = 1;
    Oc o(c);
    ktu::KernelCtx &k = o.k;
    smtlm_iref young = k.make(SMTLM_OP_SP, 0, 0, {4});
    smtlm_iref old = k.make(SMTLM_OP_SP, 1, 1, {4});
    k.get(old)->uid = 0; // older than `young`
    k.put(SMTLM_ID_OC_SP, 0, young);
    k.put(SMTLM_ID_OC_SP, 1, old);
    o.alloc();
    EXPECT_EQ(o.cu_of(old), 2);
    EXPECT_EQ(o.cu_of(young), -1);
    o.alloc();
    EXPECT_EQ(o.cu_of(young), 0);
}

TEST(OpCollAllocate, DuplicateSourceRegistersAreReadOnce)
{
    Oc o(qv100_oc());
    ktu::KernelCtx &k = o.k;
    // warp 0, sub-core 0: register 7 -> bank 3, register 9 -> bank 1.
    smtlm_iref a = k.make(SMTLM_OP_SP, 0, 0, {7, 7, 9, 7});
    k.put(SMTLM_ID_OC_SP, 0, a);
    o.alloc();
    ASSERT_EQ(o.cu_of(a), 0);
    EXPECT_EQ(smtlm_rf_queued(k.rf.get(), 3), 1u);
    EXPECT_EQ(smtlm_rf_queued(k.rf.get(), 1), 1u);
    EXPECT_EQ(smtlm_opcoll_not_ready(o.oc.get(), 0), 0x5); // operand slots 0 and 2 only
    o.read(0);
    EXPECT_EQ(smtlm_opcoll_not_ready(o.oc.get(), 0), 0);
    EXPECT_EQ(k.rf->reads[3], 1u);
}

// The collector skips the register file's scheduler check only where no CU can go to an
// instruction without banks: here a flat collector (every scheduler may use every CU) feeds a
// register file split over 4 schedulers, so an instruction of scheduler 5 must still fail.
TEST(OpCollAllocate, SchedulerWithoutBanksFailsWhenTheSplitsDiffer)
{
    Oc same(qv100_oc());
    EXPECT_EQ(same.oc->rf_direct, same.k.rf.get()); // both split by the same 4 schedulers

    ktu::OcSetup c = flat_oc(4);
    c.shape.n_sched = 8;
    std::unique_ptr<smtlm_opcoll> oc(new smtlm_opcoll);
    ASSERT_EQ(ktu::oc_init(oc.get(), c), SMTLM_OK);
    ktu::KernelCtx k(ktu::RfSetup{{16, SMTLM_ALLOC_FIFO, 0}, {4, 1}, 4});
    ASSERT_EQ(k.init_rc, SMTLM_OK);
    k.bind(oc.get());
    EXPECT_EQ(oc->rf_direct, nullptr);
    smtlm_iref a = k.make(SMTLM_OP_SP, 0, 5, {7, 9});
    k.put(SMTLM_ID_OC_SP, 0, a);
    EXPECT_EQ(smtlm_opcoll_allocate(oc.get(), 1), SMTLM_EINVAL);
    EXPECT_EQ(k.rf->nonempty, 0u); // nothing queued in a bank of another scheduler
}

TEST(OpCollAllocate, RzIsReadThroughItsBank)
{
    Oc o(qv100_oc());
    ktu::KernelCtx &k = o.k;
    smtlm_iref a = k.make(SMTLM_OP_INTP, 1, 1, {256, 256}); // IMAD.MOV R0, RZ, RZ of warp 1
    k.put(SMTLM_ID_OC_INT, 1, a);
    o.alloc();
    EXPECT_EQ(smtlm_rf_queued(k.rf.get(), 4 + (256 + 1) % 4), 1u); // bank 5
}

TEST(OpCollAllocate, InstructionWithoutSourcesIsCollectedAtAllocation)
{
    Oc o(qv100_oc());
    ktu::KernelCtx &k = o.k;
    smtlm_iref e = k.make(SMTLM_OP_EXIT, 3, 3, {});
    k.put(SMTLM_ID_OC_INT, 3, e);
    o.alloc(9);
    ASSERT_EQ(o.cu_of(e), 6);
    EXPECT_EQ(smtlm_opcoll_not_ready(o.oc.get(), 6), 0);
    EXPECT_EQ(k.get(e)->ev[SMTLM_EV_CU_ALLOC], 9u);
    EXPECT_EQ(k.get(e)->ev[SMTLM_EV_OPERANDS], 9u);
    EXPECT_EQ(o.oc->collect_lat_hist[0], 1u);
    EXPECT_EQ(k.rf->nonempty, 0u);
    o.dispatch(9); // the next step of the same cycle dispatches it
    EXPECT_EQ(k.rs[SMTLM_OC_EX_INT].slot[3], e);
    EXPECT_EQ(k.get(e)->ev[SMTLM_EV_OC_EX], 9u);
    EXPECT_EQ(o.oc->cu[6].inst, (smtlm_iref)SMTLM_NO_INST);
    EXPECT_EQ(smtlm_opcoll_dispatches(o.oc.get()), 1u);
}

TEST(OpCollAllocate, PortOrderServesSpBeforeIntEvenIfIntIsOlder)
{
    Oc o(flat_oc(1));
    ktu::KernelCtx &k = o.k;
    smtlm_iref i = k.make(SMTLM_OP_INTP, 0, 0, {4}); // uid 1
    smtlm_iref s = k.make(SMTLM_OP_SP, 0, 0, {5});   // uid 2
    k.put(SMTLM_ID_OC_INT, 0, i);
    k.put(SMTLM_ID_OC_SP, 0, s);
    o.alloc();
    EXPECT_EQ(o.cu_of(s), 0);
    EXPECT_EQ(o.cu_of(i), -1);
}

TEST(OpCollAllocate, FixOptypePriorityServesOldestFirst)
{
    ktu::OcSetup c = flat_oc(1);
    c.cfg.fix_optype_priority = 1;
    Oc o(c);
    ktu::KernelCtx &k = o.k;
    smtlm_iref i = k.make(SMTLM_OP_INTP, 0, 0, {4}); // uid 1
    smtlm_iref s = k.make(SMTLM_OP_SP, 0, 0, {5});   // uid 2
    k.put(SMTLM_ID_OC_INT, 0, i);
    k.put(SMTLM_ID_OC_SP, 0, s);
    o.alloc();
    EXPECT_EQ(o.cu_of(i), 0);
    EXPECT_EQ(o.cu_of(s), -1);
}

TEST(OpCollAllocate, SubCoreHeadOfLineBlockingAndItsFix)
{
    for (int fix = 0; fix <= 1; fix++) {
        ktu::OcSetup c = qv100_oc();
        c.cfg.fix_subcore_hol = fix;
        Oc o(c);
        ktu::KernelCtx &k = o.k;
        // Fill sub-core 2's two CUs.
        for (int n = 0; n < 2; n++) {
            k.put(SMTLM_ID_OC_SP, 2, k.make(SMTLM_OP_SP, 2, 2, {4}));
            o.alloc();
        }
        ASSERT_EQ(o.oc->busy, 2u);
        smtlm_iref old2 = k.make(SMTLM_OP_SP, 2, 2, {4}); // oldest in ID_OC_SP, no CU left
        smtlm_iref young0 = k.make(SMTLM_OP_SP, 0, 0, {4});
        k.put(SMTLM_ID_OC_SP, 2, old2);
        k.put(SMTLM_ID_OC_SP, 0, young0);
        o.alloc();
        EXPECT_EQ(o.cu_of(old2), -1) << "fix " << fix;
        // Faithful: every port retries only the oldest slot, so sub-core 0 is blocked although
        // its CUs are free (GPGPU-Sim issue #334). Fixed: sub-core 0 gets CU 0.
        EXPECT_EQ(o.cu_of(young0), fix ? 0 : -1) << "fix " << fix;
    }
}

TEST(OpCollCollect, OperandsDoneWhenLastGrantArrivesAndLatencyHistogram)
{
    Oc o(qv100_oc());
    ktu::KernelCtx &k = o.k;
    // warp 0: registers 3 and 7 share bank 3 -> two steps; register 5 is bank 1.
    smtlm_iref a = k.make(SMTLM_OP_SP, 0, 0, {3, 5, 7});
    k.put(SMTLM_ID_OC_SP, 0, a);
    o.alloc(5);
    EXPECT_EQ(smtlm_opcoll_not_ready(o.oc.get(), 0), 0x7);
    o.read(5);
    EXPECT_EQ(smtlm_opcoll_not_ready(o.oc.get(), 0), 0x4);
    EXPECT_EQ(k.get(a)->ev[SMTLM_EV_OPERANDS], UINT64_MAX);
    o.dispatch(6);
    EXPECT_NE(o.oc->cu[0].inst, (smtlm_iref)SMTLM_NO_INST); // not ready: an operand is missing
    o.read(7);
    EXPECT_EQ(smtlm_opcoll_not_ready(o.oc.get(), 0), 0);
    EXPECT_EQ(k.get(a)->ev[SMTLM_EV_OPERANDS], 7u);
    EXPECT_EQ(o.oc->collect_lat_hist[2], 1u); // allocated at 5, collected at 7
    o.dispatch(7);
    EXPECT_EQ(k.rs[SMTLM_OC_EX_SP].slot[0], a);
}

// The read steps of one cycle: a walk that found no free CU is not the last word of the cycle.
// A CU collected in step 1 dispatches in step 2 and the instruction waiting in ID_OC takes it.
TEST(OpCollAllocate, CuFreedInTheSecondStepIsAllocatedInIt)
{
    Oc o(qv100_oc());
    ktu::KernelCtx &k = o.k;
    smtlm_iref a = k.make(SMTLM_OP_SP, 0, 0, {2});
    smtlm_iref b = k.make(SMTLM_OP_SP, 0, 0, {2});
    smtlm_iref c = k.make(SMTLM_OP_SP, 0, 0, {});
    k.put(SMTLM_ID_OC_SP, 0, a);
    o.alloc(1); // CU 0: one read queued in R2's bank
    k.put(SMTLM_ID_OC_SP, 0, b);
    o.alloc(2); // CU 1: its read waits behind a's in the same bank
    ASSERT_EQ(o.cu_of(a), 0);
    ASSERT_EQ(o.cu_of(b), 1);
    k.put(SMTLM_ID_OC_SP, 0, c);
    // Cycle 3, step 1: nothing collected yet; a's read is granted; sub-core 0 has no free CU.
    o.dispatch(3);
    o.read(3);
    o.alloc(3);
    EXPECT_EQ(o.cu_of(c), -1);
    // Step 2: a leaves CU 0 for OC_EX_SP slot 0, and c takes CU 0.
    o.dispatch(3);
    EXPECT_EQ(k.rs[SMTLM_OC_EX_SP].slot[0], a);
    o.alloc(3);
    EXPECT_EQ(o.cu_of(c), 0);
    EXPECT_EQ(k.get(c)->ev[SMTLM_EV_CU_ALLOC], 3u);
}

TEST(OpCollDispatch, CuIsNotReadyWhileItsOcExSlotIsOccupied)
{
    Oc o(qv100_oc());
    ktu::KernelCtx &k = o.k;
    smtlm_iref blocker = k.make(SMTLM_OP_SP, 0, 0, {});
    k.put(SMTLM_OC_EX_SP, 0, blocker);
    smtlm_iref a = k.make(SMTLM_OP_SP, 4, 0, {});
    k.put(SMTLM_ID_OC_SP, 0, a);
    o.alloc();
    ASSERT_EQ(o.cu_of(a), 0);
    o.dispatch();
    EXPECT_EQ(o.cu_of(a), 0); // OC_EX_SP slot 0 (its sub-core's) is full
    // Another sub-core's free OC_EX slot does not help.
    EXPECT_TRUE(smtlm_regset_slot_free(&k.rs[SMTLM_OC_EX_SP], 1));
    smtlm_regset_take(&k.rs[SMTLM_OC_EX_SP], 0);
    o.dispatch();
    EXPECT_EQ(o.cu_of(a), -1);
    EXPECT_EQ(k.rs[SMTLM_OC_EX_SP].slot[0], a);
}

TEST(OpCollDispatch, SubCoreEvenCuAlwaysWinsItsGroup)
{
    Oc o(qv100_oc());
    ktu::KernelCtx &k = o.k;
    auto fill = [&](smtlm_iref r) {
        k.put(SMTLM_ID_OC_SP, 0, r);
        o.alloc();
    };
    // Block OC_EX_SP[0] so both CUs of sub-core 0 fill up.
    smtlm_iref blocker = k.make(SMTLM_OP_SP, 0, 0, {});
    k.put(SMTLM_OC_EX_SP, 0, blocker);
    smtlm_iref a = k.make(SMTLM_OP_SP, 0, 0, {});
    smtlm_iref b = k.make(SMTLM_OP_SP, 0, 0, {});
    fill(a);
    fill(b);
    ASSERT_EQ(o.cu_of(a), 0);
    ASSERT_EQ(o.cu_of(b), 1);
    smtlm_regset_take(&k.rs[SMTLM_OC_EX_SP], 0);
    o.dispatch();
    EXPECT_EQ(k.rs[SMTLM_OC_EX_SP].slot[0], a); // CU 0
    // Now CU 0 gets a younger instruction; CU 1 still holds the older b.
    smtlm_iref c = k.make(SMTLM_OP_SP, 0, 0, {});
    fill(c);
    ASSERT_EQ(o.cu_of(c), 0);
    smtlm_regset_take(&k.rs[SMTLM_OC_EX_SP], 0);
    o.dispatch();
    // The round robin restarts at the next sub-core group (CU 2) and wraps to CU 0 before CU 1:
    // the even CU wins however old the odd CU's instruction is (frontend §3.8).
    EXPECT_EQ(k.rs[SMTLM_OC_EX_SP].slot[0], c);
    EXPECT_EQ(o.cu_of(b), 1);
    smtlm_regset_take(&k.rs[SMTLM_OC_EX_SP], 0);
    o.dispatch();
    EXPECT_EQ(k.rs[SMTLM_OC_EX_SP].slot[0], b); // only when CU 0 has nothing ready
}

TEST(OpCollDispatch, NonSubCoreRoundRobinStartsAfterLastDispatched)
{
    Oc o(flat_oc(2));
    ktu::KernelCtx &k = o.k;
    smtlm_regset_init(&k.rs[SMTLM_OC_EX_SP], 1); // one OC_EX slot
    smtlm_iref blocker = k.make(SMTLM_OP_SP, 0, 0, {});
    k.put(SMTLM_OC_EX_SP, 0, blocker);
    smtlm_iref a = k.make(SMTLM_OP_SP, 0, 0, {});
    k.put(SMTLM_ID_OC_SP, 0, a);
    o.alloc();
    smtlm_iref b = k.make(SMTLM_OP_SP, 0, 0, {});
    k.put(SMTLM_ID_OC_SP, 0, b);
    o.alloc();
    ASSERT_EQ(o.cu_of(a), 0);
    ASSERT_EQ(o.cu_of(b), 1);
    smtlm_regset_take(&k.rs[SMTLM_OC_EX_SP], 0);
    o.dispatch();
    // dispatch units start at last + 1 = CU 1 (all start with last = 0): CU 1 goes first.
    EXPECT_EQ(k.rs[SMTLM_OC_EX_SP].slot[0], b);
    smtlm_iref c = k.make(SMTLM_OP_SP, 0, 0, {});
    k.put(SMTLM_ID_OC_SP, 0, c);
    o.alloc();
    ASSERT_EQ(o.cu_of(c), 1);
    smtlm_regset_take(&k.rs[SMTLM_OC_EX_SP], 0);
    o.dispatch();
    // Dispatch unit 0 last dispatched CU 1, so it starts at CU 0 now.
    EXPECT_EQ(k.rs[SMTLM_OC_EX_SP].slot[0], a);
}

TEST(OpCollSample, OccupancySumAndHistogram)
{
    Oc o(qv100_oc());
    ktu::KernelCtx &k = o.k;
    smtlm_opcoll_sample(o.oc.get()); // 0 busy
    k.put(SMTLM_ID_OC_SP, 0, k.make(SMTLM_OP_SP, 0, 0, {4}));
    k.put(SMTLM_ID_OC_SP, 1, k.make(SMTLM_OP_SP, 1, 1, {4}));
    k.put(SMTLM_ID_OC_SFU, 1, k.make(SMTLM_OP_SFU, 1, 1, {4}));
    o.alloc();
    EXPECT_EQ(o.oc->busy, 3u);
    smtlm_opcoll_sample(o.oc.get());
    smtlm_opcoll_sample(o.oc.get());
    EXPECT_EQ(o.oc->occupancy_sum, 6u);
    EXPECT_EQ(o.oc->occupancy_hist[0], 1u);
    EXPECT_EQ(o.oc->occupancy_hist[3], 2u);
    smtlm_opcoll_reset(o.oc.get());
    EXPECT_EQ(o.oc->occupancy_sum, 0u);
    EXPECT_EQ(o.oc->busy, 0u);
}

// smtlm_opcoll_arbitrate_collect (the C engine's fifo step, grants handed straight to their CUs)
// leaves the collector and the register file exactly as smtlm_rf_arbitrate followed by
// smtlm_opcoll_collect: same CUs collected, same operand bits, same events and statistics, over
// a stream of SP instructions of every sub-core with repeated and conflicting registers.
TEST(OpCollCollect, ArbitrateCollectEqualsTheGrantList)
{
    Oc a(qv100_oc()), b(qv100_oc());
    uint32_t x = 7;
    auto rnd = [&x](unsigned n) {
        x = x * 1103515245u + 12345u;
        return (x >> 16) % n;
    };
    for (uint64_t now = 1; now < 600; now++) {
        for (unsigned s = 0; s < 4; s++) { // issue: a new instruction where a slot is free
            if (a.k.rs[SMTLM_ID_OC_SP].slot[s] != SMTLM_NO_INST || rnd(3) == 0)
                continue;
            std::vector<int> src;
            for (unsigned i = 0, n = rnd(5); i < n; i++)
                src.push_back((int)rnd(12));
            const unsigned warp = s + 4 * rnd(4);
            a.k.put(SMTLM_ID_OC_SP, s, a.k.make(SMTLM_OP_SP, warp, s, src));
            b.k.put(SMTLM_ID_OC_SP, s, b.k.make(SMTLM_OP_SP, warp, s, src));
        }
        for (unsigned s = 0; s < 4; s++) // execute: OC_EX slots drain now and then
            if (rnd(2) && a.k.rs[SMTLM_OC_EX_SP].slot[s] != SMTLM_NO_INST) {
                smtlm_pool_free(a.k.pool.get(), smtlm_regset_take(&a.k.rs[SMTLM_OC_EX_SP], s));
                smtlm_pool_free(b.k.pool.get(), smtlm_regset_take(&b.k.rs[SMTLM_OC_EX_SP], s));
            }
        const unsigned wb = rnd(16); // a writeback holds one bank in the first step
        smtlm_rf_write(a.k.rf.get(), wb);
        smtlm_rf_write(b.k.rf.get(), wb);
        for (unsigned step = 0; step < 2; step++) {
            a.dispatch(now);
            b.dispatch(now);
            a.read(now);
            smtlm_opcoll_arbitrate_collect(b.oc.get(), b.k.rf.get(), now);
            ASSERT_EQ(a.alloc(now), SMTLM_OK);
            ASSERT_EQ(b.alloc(now), SMTLM_OK);
            smtlm_rf_end_step(a.k.rf.get());
            smtlm_rf_end_step(b.k.rf.get());
            ASSERT_EQ(a.oc->collected, b.oc->collected) << now;
            ASSERT_EQ(a.oc->free_cus, b.oc->free_cus) << now;
            for (unsigned j = 0; j < 8; j++) {
                ASSERT_EQ(smtlm_opcoll_not_ready(a.oc.get(), j), smtlm_opcoll_not_ready(b.oc.get(), j)) << now << " cu " << j;
                ASSERT_EQ(a.oc->cu[j].inst, b.oc->cu[j].inst) << now << " cu " << j;
            }
            ASSERT_EQ(a.k.rf->nonempty, b.k.rf->nonempty) << now;
        }
    }
    EXPECT_GT(smtlm_opcoll_dispatches(a.oc.get()), 200u); // instructions went all the way through
    EXPECT_GT(a.k.rf->steps_with_wait, 0u); // and reads had to wait
    EXPECT_EQ(smtlm_opcoll_dispatches(a.oc.get()), smtlm_opcoll_dispatches(b.oc.get()));
    EXPECT_EQ(a.k.rf->steps_with_wait, b.k.rf->steps_with_wait);
    for (unsigned i = 0; i < 64; i++)
        EXPECT_EQ(a.oc->collect_lat_hist[i], b.oc->collect_lat_hist[i]);
    for (unsigned bk = 0; bk < 16; bk++) {
        EXPECT_EQ(a.k.rf->reads[bk], b.k.rf->reads[bk]);
        EXPECT_EQ(a.k.rf->wait_steps[bk], b.k.rf->wait_steps[bk]);
    }
    for (unsigned d = 0; d < SMTLM_RF_DEPTH_BINS; d++)
        EXPECT_EQ(a.k.rf->queue_depth_hist[d], b.k.rf->queue_depth_hist[d]);
}

} // namespace
