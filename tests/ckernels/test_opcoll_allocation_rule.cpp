// The operand collector's allocation rule (GPGPU-Sim opndcoll_rfu_t::allocate_cu): a port
// considers only the oldest instruction of an ID_OC set; it gets the first free collector unit of
// its scheduler's group, and if there is none, nothing of that set is allocated by the port
// although a younger instruction's scheduler has a free unit. The generic ports' own walk
// (GPGPU-Sim's default) and the general walk (the quirk fix that orders the unit types by age,
// the specialized collectors' ports) must apply it alike: the same ID_OC contents, cycle by
// cycle, give the same collector units in every one of them, and the units pinned here.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "kernel_test_util.hpp"

namespace {

enum class Walk { generic, general };

struct Mode {
    const char *name;
    Walk walk; // which walk the collector takes (checked)
    smtlm_sm_cfg sm;
};

// QV100's collector (4 sub-cores; units 2s and 2s+1 are sub-core s's; 8 generic ports) and the
// same units and ports taken through the general walk.
std::vector<Mode> modes()
{
    std::vector<Mode> m;
    m.push_back({"generic ports (default)", Walk::generic, ktu::qv100()});
    // Only SP instructions below: ordering the unit types by age changes nothing, but the walk.
    smtlm_sm_cfg c = ktu::qv100();
    c.oc.fix_optype_priority = 1;
    m.push_back({"fix_optype_priority", Walk::general, c});
    // Specialized SP ports without SP units: they search GEN alone, as the generic ports do.
    c = ktu::qv100();
    c.oc.enable_specialized = 1;
    c.oc.num_in_ports[SMTLM_CUS_SP] = c.oc.num_in_ports[SMTLM_CUS_GEN];
    c.oc.num_in_ports[SMTLM_CUS_GEN] = 0;
    m.push_back({"specialized ports over GEN", Walk::general, c});
    // Specialized SP ports over an SP set laid out as GEN was (and an empty GEN behind it).
    c = ktu::qv100();
    c.oc.enable_specialized = 1;
    for (unsigned *n : {c.oc.num_units, c.oc.num_in_ports, c.oc.num_out_ports}) {
        n[SMTLM_CUS_SP] = n[SMTLM_CUS_GEN];
        n[SMTLM_CUS_GEN] = 0;
    }
    m.push_back({"specialized SP set", Walk::general, c});
    return m;
}

struct Rig {
    std::unique_ptr<smtlm_opcoll> oc{new smtlm_opcoll};
    ktu::KernelCtx k;
    int rc;
    // The collector and the register file as the SM builds them from its configuration.
    explicit Rig(const smtlm_sm_cfg &sm) : k(ktu::RfSetup{sm.rf, sm.shape, 8})
    {
        rc = smtlm_opcoll_init(oc.get(), &sm.oc, &sm.shape, &sm.units);
        k.bind(oc.get());
    }
    // An SP instruction without sources (collected at allocation) of scheduler `sched`, put
    // into its sub-core's ID_OC_SP slot.
    smtlm_iref issue(unsigned sched)
    {
        const smtlm_iref r = k.make(SMTLM_OP_SP, sched, sched, {});
        k.put(SMTLM_ID_OC_SP, sched, r);
        return r;
    }
    // One cycle's read steps in the SM's order: dispatch, then allocate.
    int step(uint64_t now)
    {
        smtlm_opcoll_dispatch(oc.get(), now);
        return smtlm_opcoll_allocate(oc.get(), now);
    }
    int cu_of(smtlm_iref r) const
    {
        for (unsigned j = 0; j < oc->n_cus; j++)
            if (oc->cu[j].inst == r)
                return (int)j;
        return -1;
    }
};

// What each instruction holds after each cycle: a unit, -1 (waiting in ID_OC_SP) or -2 (dispatched).
std::vector<std::vector<int>> run(const Mode &m)
{
    Rig o(m.sm);
    EXPECT_EQ(o.rc, SMTLM_OK) << m.name;
    EXPECT_EQ(o.oc->n_cus, 8u) << m.name;
    EXPECT_TRUE(o.oc->shape.sub_core && o.oc->shape.n_sched == 4) << m.name;
    if (m.walk == Walk::generic)
        EXPECT_TRUE(o.oc->generic_fast && o.oc->n_ports == o.oc->n_generic_ports) << m.name;
    else
        EXPECT_FALSE(o.oc->generic_fast && o.oc->n_ports == o.oc->n_generic_ports) << m.name;
    std::vector<smtlm_iref> insts;
    std::vector<std::vector<int>> seen;
    for (uint64_t now = 1; now <= 6; now++) {
        if (now <= 3)
            insts.push_back(o.issue(2)); // a, b, c: sub-core 2
        if (now == 4) {
            insts.push_back(o.issue(2)); // d: the oldest waiting
            insts.push_back(o.issue(0)); // e: younger, of sub-core 0
        }
        if (now == 5) // execute takes a, so b can leave its unit
            smtlm_regset_take(&o.k.rs[SMTLM_OC_EX_SP], 2);
        if (now == 6) {
            insts.push_back(o.issue(1)); // f
            insts.push_back(o.issue(3)); // g
            insts.push_back(o.issue(2)); // h
        }
        EXPECT_EQ(o.step(now), SMTLM_OK) << m.name;
        std::vector<int> row;
        for (smtlm_iref r : insts) {
            const int cu = o.cu_of(r);
            int waiting = 0;
            for (unsigned s = 0; s < 4; s++)
                waiting |= o.k.rs[SMTLM_ID_OC_SP].slot[s] == r;
            row.push_back(cu >= 0 ? cu : waiting ? -1 : -2);
        }
        seen.push_back(row);
    }
    return seen;
}

TEST(OpCollAllocationRule, EveryWalkGivesTheOldestTheFirstFreeUnitOfItsSubCore)
{
    // Cycle by cycle (a..h as issued; units of sub-core s: 2s, 2s+1):
    //  1: a takes unit 4, the first of sub-core 2.
    //  2: a leaves for OC_EX_SP slot 2; b takes unit 4.
    //  3: b cannot leave (slot 2 holds a); c takes unit 5, the first free one of sub-core 2.
    //  4: d, the oldest, finds sub-core 2 full: no port allocates anything of ID_OC_SP, though
    //     e's sub-core 0 has both units free.
    //  5: b leaves (a executed), freeing unit 4; the first port gives it to d, the second gives
    //     unit 0 to e.
    //  6: e leaves for slot 0 (c, d wait behind b); f (sub-core 1) takes unit 2, g (sub-core 3)
    //     unit 6, and h finds sub-core 2 full.
    const std::vector<std::vector<int>> want = {
        {4},
        {-2, 4},
        {-2, 4, 5},
        {-2, 4, 5, -1, -1},
        {-2, -2, 5, 4, 0},
        {-2, -2, 5, 4, -2, 2, 6, -1},
    };
    for (const Mode &m : modes())
        EXPECT_EQ(run(m), want) << m.name;
}

// The oldest instruction's scheduler has no free unit: nothing of its set is allocated in that
// step, whichever walk, while the same younger instruction alone gets its unit.
TEST(OpCollAllocationRule, OldestWithoutAFreeUnitBlocksItsSetInEveryWalk)
{
    for (const Mode &m : modes()) {
        for (int oldest_blocked = 0; oldest_blocked <= 1; oldest_blocked++) {
            Rig o(m.sm);
            ASSERT_EQ(o.rc, SMTLM_OK) << m.name;
            // Sub-core 3's units busy (their instructions stay: OC_EX_SP slot 3 is kept full).
            o.k.put(SMTLM_OC_EX_SP, 3, o.k.make(SMTLM_OP_SP, 3, 3, {}));
            o.issue(3);
            ASSERT_EQ(o.step(1), SMTLM_OK);
            o.issue(3);
            ASSERT_EQ(o.step(2), SMTLM_OK);
            ASSERT_EQ(o.oc->busy, 2u) << m.name;
            smtlm_iref old3 = oldest_blocked ? o.issue(3) : SMTLM_NO_INST;
            smtlm_iref young1 = o.issue(1);
            ASSERT_EQ(o.step(3), SMTLM_OK);
            const std::string at = std::string(m.name) + (oldest_blocked ? ", oldest blocked" : ", alone");
            EXPECT_EQ(o.cu_of(young1), oldest_blocked ? -1 : 2) << at;
            if (oldest_blocked) {
                EXPECT_EQ(o.cu_of(old3), -1) << at;
                EXPECT_EQ(o.k.rs[SMTLM_ID_OC_SP].count, 2) << at;
            }
            EXPECT_EQ(o.oc->busy, oldest_blocked ? 2u : 3u) << at;
        }
    }
}

} // namespace
