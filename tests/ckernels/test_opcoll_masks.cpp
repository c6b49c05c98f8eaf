// The operand collector's kept bookkeeping checked against the state it summarises after every
// cycle of whole-SM runs: the CU masks (free, collected, per set and scheduler), the busy count,
// the dispatch units' round-robin starts and masks, every register set's occupancy mask, and the register
// file's mask of non-empty bank queues, the generic pairs marked live. The runs cover the sub-core and flat models, the
// specialized collectors, both quirk fixes of the allocator, the wavefront arbiter and one or
// two steps per cycle, with duplicate, absent and four source operands. A mask that went stale
// (a missed update) fails here; the runs' retired counts show the collector kept working.
#include <gtest/gtest.h>

#include <string>

#include "kernel_test_util.hpp"

namespace {

using ktu::ffma;
using ktu::iadd;
using ktu::mufu;
using ktu::prog;

void check_regsets(const smtlm_regset *rs, const std::string &at)
{
    for (unsigned i = 0; i < SMTLM_NUM_REGSETS; i++) {
        uint32_t occ = 0;
        unsigned n = 0;
        for (unsigned s = 0; s < SMTLM_MAX_REGSET_WIDTH; s++)
            if (rs[i].slot[s] != SMTLM_NO_INST) {
                occ |= 1u << s;
                n++;
                EXPECT_LT(s, rs[i].width) << at << " set " << i;
            }
        EXPECT_EQ(rs[i].occ, occ) << at << " set " << i;
        EXPECT_EQ(rs[i].count, n) << at << " set " << i;
    }
}

// The round-robin start after `last` (GPGPU-Sim dispatch_ready_cu), recomputed from the set.
unsigned rr_start(const smtlm_opcoll &oc, const smtlm_cu_set &set, unsigned last)
{
    if (set.count == 0)
        return 0;
    unsigned start = oc.shape.sub_core ? last - last % set.per_sched + set.per_sched : last + 1;
    return start >= set.count ? start - set.count : start;
}

void check_collector(const smtlm_opcoll &oc, const std::string &at)
{
    uint64_t free_cus = 0, collected = 0;
    unsigned busy = 0;
    for (unsigned j = 0; j < oc.n_cus; j++) {
        const smtlm_cu &cu = oc.cu[j];
        if (cu.inst == (smtlm_iref)SMTLM_NO_INST) {
            free_cus |= 1ull << j;
        } else {
            busy++;
            if (smtlm_opcoll_not_ready(&oc, j) == 0)
                collected |= 1ull << j;
        }
    }
    EXPECT_EQ(oc.free_cus, free_cus) << at;
    EXPECT_EQ(oc.collected, collected) << at;
    EXPECT_EQ(oc.busy, busy) << at;
    for (unsigned s = 0; s < oc.n_sets; s++) {
        const smtlm_cu_set &set = oc.sets[s];
        uint64_t mask = 0;
        for (unsigned k = 0; k < set.count; k++)
            mask |= 1ull << (set.first + k);
        EXPECT_EQ(oc.set_cus[s], mask) << at << " set " << s;
        for (unsigned sched = 0; sched < oc.shape.n_sched; sched++) {
            uint64_t mine = 0; // GPGPU-Sim allocate_cu: cuLowerBound .. cuUpperBound of the scheduler
            for (unsigned k = 0; k < set.count; k++)
                if (!oc.shape.sub_core || k / set.per_sched == sched)
                    mine |= 1ull << (set.first + k);
            EXPECT_EQ(oc.sched_cus[s][sched], mine) << at << " set " << s << " scheduler " << sched;
        }
    }
    for (unsigned d = 0; d < oc.n_du; d++) {
        const smtlm_dispatch_unit &du = oc.du[d];
        const smtlm_cu_set &set = oc.sets[du.set];
        EXPECT_EQ(du.cus, oc.set_cus[du.set]) << at << " dispatch unit " << d;
        ASSERT_GE(du.last, set.first) << at << " dispatch unit " << d;
        const uint64_t from = set.count ? du.cus & ~0ull << (set.first + rr_start(oc, set, du.last - set.first)) : 0;
        EXPECT_EQ(du.from, from) << at << " dispatch unit " << d;
    }
    // Every generic pair whose ID_OC set holds work is live (the first port's walk visits only those).
    for (unsigned i = 0; i < (oc.n_generic_ports ? oc.ports[0].n_pairs : 0u); i++)
        if (oc.gen_in[i]->count) {
            EXPECT_TRUE(oc.gen_live >> i & 1) << at << " generic pair " << i;
        }
    // A CU found blocked holds its instruction for the rest of the cycle.
    EXPECT_EQ(oc.blocked & ~oc.collected, 0u) << at;
}

void check_regfile(const smtlm_rf &rf, const std::string &at)
{
    uint64_t nonempty = 0;
    for (unsigned b = 0; b < rf.cfg.n_banks; b++)
        if (smtlm_rf_queued(&rf, b))
            nonempty |= 1ull << b;
    EXPECT_EQ(rf.nonempty, nonempty) << at;
}

// Warps of every pipeline, with sources repeated, absent, and four of them.
std::vector<std::vector<smtlm_inst_desc>> programs(unsigned warps)
{
    std::vector<std::vector<smtlm_inst_desc>> p;
    for (unsigned w = 0; w < warps; w++) {
        std::vector<smtlm_inst_desc> q;
        for (unsigned k = 0; k < 6; k++) {
            q.push_back(ffma(20 + (int)k, {3, 4, 5}));
            q.push_back(iadd(30 + (int)k, {(int)(w % 4), (int)(w % 4), 6})); // a source named twice
            if ((w + k) % 3 == 0)
                q.push_back(mufu(40, {20 + (int)k}));
            if ((w + k) % 4 == 1)
                q.push_back(ktu::global(SMTLM_OP_LOAD, 41, {2}, 0x1000 + 0x80 * w, 4));
            if (k == 2)
                q.push_back(ktu::alu(SMTLM_OP_ALU, 42, {}, 2, 1)); // no source at all
            if (k == 4)
                q.push_back(ktu::alu(SMTLM_OP_SP, 43, {7, 8, 9, 7}, 2, 2)); // four sources, one repeated
            if ((w + k) % 5 == 2)
                q.push_back(ktu::alu(SMTLM_OP_DP, 44, {10, 11}, 8, 4));
        }
        p.push_back(prog(q));
    }
    return p;
}

using Variant = ktu::CfgVariant;

const Variant variants[] = {
    {"qv100", [](smtlm_sm_cfg &) {}},
    {"one_step_per_cycle", [](smtlm_sm_cfg &c) { c.reg_file_port_throughput = 1; }},
    {"wavefront", [](smtlm_sm_cfg &c) { c.rf.policy = SMTLM_ALLOC_WAVEFRONT; }},
    {"fix_subcore_hol", [](smtlm_sm_cfg &c) { c.oc.fix_subcore_hol = 1; }},
    {"fix_optype_priority", [](smtlm_sm_cfg &c) { c.oc.fix_optype_priority = 1; }},
    {"flat",
     [](smtlm_sm_cfg &c) {
         c.shape.sub_core = 0;
         c.rf.n_banks = 6; // not a power of two
         c.oc.num_units[SMTLM_CUS_GEN] = 5;
         c.oc.num_out_ports[SMTLM_CUS_GEN] = 3;
         c.oc.num_in_ports[SMTLM_CUS_GEN] = 2;
     }},
    {"specialized",
     [](smtlm_sm_cfg &c) {
         c.oc.enable_specialized = 1;
         c.oc.num_units[SMTLM_CUS_GEN] = 4;
         c.oc.num_in_ports[SMTLM_CUS_GEN] = 1;
         c.oc.num_out_ports[SMTLM_CUS_GEN] = 2;
         for (unsigned k : {SMTLM_CUS_SP, SMTLM_CUS_SFU, SMTLM_CUS_INT, SMTLM_CUS_MEM}) {
             c.oc.num_units[k] = 4;
             c.oc.num_in_ports[k] = 1;
             c.oc.num_out_ports[k] = 1;
         }
     }},
};

class OpCollMasks : public ::testing::TestWithParam<size_t> {};

TEST_P(OpCollMasks, StayTrueToTheStateEveryCycle)
{
    const Variant &v = variants[GetParam()];
    smtlm_sm_cfg cfg = ktu::qv100();
    v.apply(cfg);
    ktu::Rig rig(cfg, 30, 64);
    ASSERT_EQ(rig.init_rc, SMTLM_OK) << v.name;
    const unsigned warps = 16;
    ASSERT_GE(rig.load(programs(warps)), 0);
    unsigned checked = 0;
    rig.after_cycle = [&](ktu::Rig &r) {
        const std::string at = std::string(v.name) + " cycle " + std::to_string(r.now());
        check_collector(r.sm()->oc, at);
        check_regsets(r.sm()->rs, at);
        check_regfile(r.sm()->rf, at);
        checked++;
    };
    rig.run();
    ASSERT_EQ(rig.last_rc, SMTLM_OK) << v.name;
    EXPECT_FALSE(rig.active()) << v.name;
    EXPECT_GT(checked, 100u) << v.name;
    size_t total = 0;
    for (const auto &q : programs(warps))
        total += q.size();
    EXPECT_EQ(rig.events.size(), total) << v.name; // every instruction went through and retired
    EXPECT_EQ(smtlm_opcoll_allocations(&rig.sm()->oc), smtlm_opcoll_dispatches(&rig.sm()->oc)) << v.name;
}

INSTANTIATE_TEST_SUITE_P(Configs, OpCollMasks, ::testing::Range<size_t>(0, sizeof variants / sizeof variants[0]));

} // namespace
