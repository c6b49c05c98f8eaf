// The SM cycle's skips of stages with nothing to do, against the same SM made to run every
// stage every cycle: execute's idle cycle (no visit due, no live group; `wide` forces the full
// pass), the read steps and allocation walks skipped while no ID_OC set may hold work and
// nothing is collected or queued (`walk_always` forces them), and the LDST cycle skipped while
// the unit is not live (`live` forced on: a cycle of a unit without work changes nothing, the
// older has_work test). Both SMs must retire the same instructions at the same cycles and end
// with the same statistics, on runs with memory, idle stretches and every collector shape.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "kernel_test_util.hpp"

namespace {

using ktu::ffma;
using ktu::iadd;
using ktu::mufu;
using ktu::prog;

// Warps of dependent chains (long idle stretches for one warp), loads, stores and every pipeline.
std::vector<std::vector<smtlm_inst_desc>> programs(unsigned warps)
{
    std::vector<std::vector<smtlm_inst_desc>> p;
    for (unsigned w = 0; w < warps; w++) {
        std::vector<smtlm_inst_desc> q;
        for (unsigned k = 0; k < 8; k++) {
            q.push_back(ffma(20, {20, 4, 5})); // dependent on itself
            if ((w + k) % 3 == 0)
                q.push_back(mufu(40, {20}));
            if ((w + k) % 4 == 1)
                q.push_back(ktu::global(SMTLM_OP_LOAD, 41, {2}, 0x1000 + 0x80 * w, 4));
            if ((w + k) % 4 == 3)
                q.push_back(ktu::global(SMTLM_OP_STORE, -1, {41, 2}, 0x4000 + 0x80 * w, 8));
            if (k == 4)
                q.push_back(ktu::alu(SMTLM_OP_SP, 43, {7, 8, 9, 7}, 2, 2));
            if ((w + k) % 5 == 2)
                q.push_back(ktu::alu(SMTLM_OP_DP, 44, {41, 11}, 8, 4));
            q.push_back(iadd(30, {41, 41, 6}));
        }
        p.push_back(prog(q));
    }
    return p;
}

const ktu::CfgVariant variants[] = {
    {"qv100", [](smtlm_sm_cfg &) {}},
    {"one_step_per_cycle", [](smtlm_sm_cfg &c) { c.reg_file_port_throughput = 1; }},
    {"wavefront", [](smtlm_sm_cfg &c) { c.rf.policy = SMTLM_ALLOC_WAVEFRONT; }},
    {"fix_subcore_hol", [](smtlm_sm_cfg &c) { c.oc.fix_subcore_hol = 1; }},
    {"fix_optype_priority", [](smtlm_sm_cfg &c) { c.oc.fix_optype_priority = 1; }},
    {"fix_wb_bank_conflict", [](smtlm_sm_cfg &c) { c.rf.fix_wb_bank_conflict = 1; }},
    {"flat",
     [](smtlm_sm_cfg &c) {
         c.shape.sub_core = 0;
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

void expect_same_state(smtlm_sm *a, smtlm_sm *b, const std::string &at)
{
    ASSERT_EQ(a->ex.t, b->ex.t) << at;
    ASSERT_EQ(a->ex.rb.t, b->ex.rb.t) << at;
    ASSERT_EQ(a->oc.free_cus, b->oc.free_cus) << at;
    ASSERT_EQ(a->oc.collected, b->oc.collected) << at;
    ASSERT_EQ(a->rf.nonempty, b->rf.nonempty) << at;
    ASSERT_EQ(a->rf.write_alloc, b->rf.write_alloc) << at;
    ASSERT_EQ(a->rf.steps_with_wait, b->rf.steps_with_wait) << at;
    ASSERT_EQ(a->stats.conflict_cycles, b->stats.conflict_cycles) << at;
    ASSERT_EQ(a->ldst.busy_cycles, b->ldst.busy_cycles) << at;
    ASSERT_EQ(a->ldst.dispatch, b->ldst.dispatch) << at;
    for (unsigned i = 0; i < SMTLM_NUM_REGSETS; i++)
        ASSERT_EQ(a->rs[i].occ, b->rs[i].occ) << at << " set " << i;
}

class SmShell : public ::testing::TestWithParam<size_t> {};

TEST_P(SmShell, SkipsMatchEveryStageEveryCycle)
{
    const ktu::CfgVariant &v = variants[GetParam()];
    for (unsigned warps : {1u, 3u, 16u}) {
        smtlm_sm_cfg cfg = ktu::qv100();
        v.apply(cfg);
        ktu::Rig a(cfg, 40, 64), b(cfg, 40, 64);
        ASSERT_EQ(a.init_rc, SMTLM_OK) << v.name;
        ASSERT_EQ(b.init_rc, SMTLM_OK) << v.name;
        ASSERT_GE(a.load(programs(warps)), 0);
        ASSERT_GE(b.load(programs(warps)), 0);
        smtlm_sm *sb = b.sm();
        sb->oc.walk_always = 1; // every read step and allocation walk runs
        sb->ex.wide = 1;        // every execute pass runs
        unsigned cycles = 0;
        while (a.active() || b.active()) {
            sb->ldst.live = 1; // the LDST cycles whenever it has work (and idle cycles change nothing)
            const int ra = a.step(), rb = b.step();
            const std::string at = std::string(v.name) + " warps " + std::to_string(warps) + " cycle " + std::to_string(a.now());
            ASSERT_EQ(ra, rb) << at;
            ASSERT_EQ(ra, SMTLM_OK) << at;
            expect_same_state(a.sm(), sb, at);
            ASSERT_LT(++cycles, 200000u) << at;
        }
        ASSERT_EQ(a.events.size(), b.events.size()) << v.name;
        for (size_t i = 0; i < a.events.size(); i++) {
            ASSERT_EQ(a.events[i].uid, b.events[i].uid) << v.name << " " << i;
            for (unsigned e = 0; e < SMTLM_EV_COUNT; e++)
                ASSERT_EQ(a.events[i].ev[e], b.events[i].ev[e]) << v.name << " " << i << " event " << e;
        }
        EXPECT_EQ(0, std::memcmp(&a.sm()->stats, &sb->stats, sizeof sb->stats)) << v.name;
        EXPECT_EQ(0, std::memcmp(a.sm()->oc.occupancy_hist, sb->oc.occupancy_hist, sizeof sb->oc.occupancy_hist)) << v.name;
        EXPECT_EQ(0, std::memcmp(a.sm()->rf.wait_steps, sb->rf.wait_steps, sizeof sb->rf.wait_steps)) << v.name;
        EXPECT_EQ(a.sm()->ldst.mem_requests, sb->ldst.mem_requests) << v.name;
        EXPECT_GT(a.sm()->ldst.mem_requests, 0u) << v.name;
        EXPECT_GT(a.events.size(), 8u * warps) << v.name;
    }
}

// An error stops the SM: after an input error (refused instruction) or an error of a stage,
// every later cycle returns it and changes nothing.
TEST(SmShellError, ErrorStopsEveryLaterCycle)
{
    smtlm_inst_desc bad = ktu::alu(SMTLM_OP_SP, 3, {4, 5}, 4, 1);
    bad.src[1] = SMTLM_MAX_REG + 1;
    ktu::Rig rig(ktu::qv100());
    ASSERT_GE(rig.load({{ffma(3, {4, 5}), bad, ffma(6, {3})}}), 0);
    rig.run();
    ASSERT_EQ(rig.last_rc, SMTLM_EINPUT);
    smtlm_sm *sm = rig.sm();
    const uint64_t active = sm->stats.active_cycles, now = sm->now, t = sm->ex.t;
    for (int k = 0; k < 20; k++)
        ASSERT_EQ(rig.step(), SMTLM_EINPUT) << k;
    EXPECT_EQ(sm->stats.active_cycles, active);
    EXPECT_EQ(sm->now, now);
    EXPECT_EQ(sm->ex.t, t);
    smtlm_sm_reset(sm); // a reset clears the error
    EXPECT_EQ(sm->error, SMTLM_OK);
}

INSTANTIATE_TEST_SUITE_P(Configs, SmShell, ::testing::Range<size_t>(0, sizeof variants / sizeof variants[0]));

} // namespace
