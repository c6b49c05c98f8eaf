// Equivalence of the two engines at the SM level: the SystemC Sm (six modules on TLM sockets)
// and the C engine's smtlm_sm run the same programs on the same configurations and must give
// the same per-instruction event log (issue, CU, operands, OC->EX, unit, writeback cycles of
// every instruction, in retirement order) and the same statistics, cycle for cycle.
#include <gtest/gtest.h>

#include <random>

#include "kernel_test_util.hpp"
#include "smtlm/tlm/gpgpusim_sm.h"

namespace {

// The SystemC twin of ktu::Rig: one smtlm::GpgpusimSm driven cycle by cycle, memory first.
class TlmRig {
  public:
    // dmi: every hand-off the readers grant goes by direct access (use_stage_dmi); hook: a
    // retire hook logs every instruction (without one, writeback's direct path is the fast one).
    TlmRig(const smtlm_sm_cfg &cfg, unsigned mem_latency, unsigned mem_bytes_per_cycle, bool dmi = false, bool hook = true)
        : sm_(new smtlm::GpgpusimSm("sm", cfg, 0)), mem_(new smtlm_mem_model), hook_(hook)
    {
        smtlm_mem_init(mem_.get(), mem_latency, mem_bytes_per_cycle);
        if (dmi)
            dmi_granted = sm_->use_stage_dmi();
    }
    unsigned dmi_granted = 0;
    smtlm::GpgpusimSm &sm() { return *sm_; }
    smtlm_mem_model *mem() { return mem_.get(); }
    int load(std::vector<std::vector<smtlm_inst_desc>> progs)
    {
        progs_.set(std::move(progs));
        sm_->set_source(progs_.source());
        if (hook_)
            sm_->set_retire_hook(&TlmRig::retire, this);
        return sm_->launch_cta(32 * (unsigned)progs_.progs.size(), 0);
    }
    uint64_t run(uint64_t max)
    {
        while (sm_->active() && now_ < max) {
            sm_->ldst.memory_cycle(mem_.get(), now_);
            if (sm_->cycle(now_++))
                break;
        }
        return now_;
    }
    std::vector<ktu::Ev> events;

  private:
    static void retire(void *ctx, unsigned, const smtlm_inst *in)
    {
        static_cast<TlmRig *>(ctx)->events.push_back(ktu::Ev::of(in));
    }
    std::unique_ptr<smtlm::GpgpusimSm> sm_;
    std::unique_ptr<smtlm_mem_model> mem_;
    ktu::WarpPrograms progs_;
    uint64_t now_ = 0;
    bool hook_;
};

// How the SystemC SM runs: transactions only, or with direct access (with or without a hook).
struct Mode {
    bool dmi = false, hook = true;
};

template <typename T, size_t N> void expect_same(const T (&a)[N], const T (&b)[N], const char *what)
{
    for (size_t i = 0; i < N; i++)
        ASSERT_EQ(a[i], b[i]) << what << "[" << i << "]";
}

// Runs both engines and compares everything observable.
void expect_equivalent(const smtlm_sm_cfg &cfg, const std::vector<std::vector<smtlm_inst_desc>> &progs,
                       unsigned mem_latency = 240, unsigned mem_bpc = 64, uint64_t max = 200000, Mode mode = {})
{
    ktu::Rig c(cfg, mem_latency, mem_bpc);
    ASSERT_EQ(c.init_rc, SMTLM_OK);
    TlmRig s(cfg, mem_latency, mem_bpc, mode.dmi, mode.hook);
    ASSERT_EQ(s.sm().status(), SMTLM_OK);
    ASSERT_EQ(s.dmi_granted, mode.dmi ? 5u : 0u) << "three stage hand-offs, the collector's reads, writeback";
    ASSERT_GE(c.load(progs), 0);
    ASSERT_GE(s.load(progs), 0);
    const uint64_t cc = c.run(max), sc = s.run(max);
    ASSERT_FALSE(c.active()) << "the C engine did not finish within " << max << " cycles";
    EXPECT_EQ(cc, sc) << "cycles";
    // without a hook the SystemC SM logs nothing: statistics only
    ASSERT_EQ(c.events.size(), mode.hook ? s.events.size() : c.events.size());
    for (size_t i = 0; i < s.events.size(); i++) {
        const ktu::Ev &a = c.events[i], &b = s.events[i];
        ASSERT_EQ(a.warp, b.warp) << "event " << i;
        ASSERT_EQ(a.pc, b.pc) << "event " << i;
        ASSERT_EQ(a.uid, b.uid) << "event " << i;
        ASSERT_EQ(a.unit, b.unit) << "event " << i;
        ASSERT_EQ(a.sched, b.sched) << "event " << i;
        for (unsigned k = 0; k < SMTLM_EV_COUNT; k++)
            ASSERT_EQ(a.ev[k], b.ev[k]) << "event " << i << " stage " << k;
    }
    const smtlm_sm &cs = *c.sm();
    const smtlm_sm_stats st = s.sm().stats();
    EXPECT_EQ(cs.stats.active_cycles, st.active_cycles);
    EXPECT_EQ(cs.stats.warp_insts, st.warp_insts);
    EXPECT_EQ(cs.stats.thread_insts, st.thread_insts);
    EXPECT_EQ(cs.stats.conflict_cycles, st.conflict_cycles);
    expect_same(cs.stats.unit_insts, st.unit_insts, "unit_insts");
    const smtlm_issue &ci = cs.iss, &si = s.sm().issue.state();
    for (unsigned q = 0; q < SMTLM_MAX_SCHED; q++)
        expect_same(ci.distro[q], si.distro[q], "distro");
    for (unsigned w = 0; w < SMTLM_MAX_WARPS; w++)
        expect_same(ci.warp_stall[w], si.warp_stall[w], "warp_stall");
    const smtlm_rf &cr = cs.rf, &sr = s.sm().regfile.state();
    expect_same(cr.reads, sr.reads, "rf reads");
    expect_same(cr.writes, sr.writes, "rf writes");
    expect_same(cr.wait_steps, sr.wait_steps, "rf wait_steps");
    EXPECT_EQ(cr.dropped_writes, sr.dropped_writes);
    EXPECT_EQ(cr.buffered_writes, sr.buffered_writes);
    const smtlm_opcoll &co = cs.oc, &so = s.sm().collector.state();
    EXPECT_EQ(co.occupancy_sum, so.occupancy_sum);
    expect_same(co.occupancy_hist, so.occupancy_hist, "occupancy_hist");
    expect_same(co.collect_lat_hist, so.collect_lat_hist, "collect_lat_hist");
    const smtlm_exec &ce = cs.ex, &se = s.sm().exec.state();
    for (unsigned f = 0; f < ce.n_fu; f++)
        EXPECT_EQ(smtlm_exec_unit_busy_cycles(&ce, f), smtlm_exec_unit_busy_cycles(&se, f)) << "unit " << f;
    EXPECT_EQ(ce.rb.stalls, se.rb.stalls);
    const smtlm_ldst &cl = cs.ldst, &sl = s.sm().ldst.state();
    EXPECT_EQ(cl.busy_cycles, sl.busy_cycles);
    EXPECT_EQ(cl.shmem_bank_conflicts, sl.shmem_bank_conflicts);
    EXPECT_EQ(cl.mem_requests, sl.mem_requests);
    EXPECT_EQ(cl.wb_bank_stalls, sl.wb_bank_stalls);
}

std::vector<std::vector<smtlm_inst_desc>> same_for(const std::vector<smtlm_inst_desc> &p, unsigned warps)
{
    return std::vector<std::vector<smtlm_inst_desc>>(warps, p);
}

// A seeded mixed program: SP, INT, SFU, DP, shared loads and stores, global loads and stores,
// barriers; registers drawn from a small set so dependences and bank conflicts are frequent.
std::vector<smtlm_inst_desc> mixed(unsigned seed, unsigned n, bool dp)
{
    std::mt19937 rng(seed);
    auto reg = [&] { return (int)(rng() % 12) + 1; };
    std::vector<smtlm_inst_desc> p;
    for (unsigned i = 0; i < n; i++) {
        const unsigned k = rng() % 100;
        const uint64_t base = 0x1000 * (rng() % 8);
        if (k < 35)
            p.push_back(ktu::ffma(reg(), {reg(), reg(), reg()}));
        else if (k < 55)
            p.push_back(ktu::iadd(reg(), {reg(), reg()}));
        else if (k < 62)
            p.push_back(ktu::mufu(reg(), {reg()}));
        else if (k < 66 && dp)
            p.push_back(micro::alu(SMTLM_OP_DP, reg(), {reg(), reg()}, 8, 4));
        else if (k < 74)
            p.push_back(micro::shared(SMTLM_OP_LOAD, reg(), {reg()}, base % 0x400, 4 * (1 + rng() % 4)));
        else if (k < 80)
            p.push_back(micro::shared(SMTLM_OP_STORE, -1, {reg(), reg()}, base % 0x400, 4 * (1 + rng() % 2)));
        else if (k < 90)
            p.push_back(ktu::global(SMTLM_OP_LOAD, reg(), {reg()}, 0x10000000 + base, 4 * (1 + rng() % 8)));
        else if (k < 96)
            p.push_back(ktu::global(SMTLM_OP_STORE, -1, {reg(), reg()}, 0x20000000 + base, 4));
        else
            p.push_back(ktu::bar());
    }
    return ktu::prog(p);
}

// ---- the microbenchmarks ----------------------------------------------------------------------

TEST(SmEquivalence, EveryMicrobenchmarkKind)
{
    for (const char *kind : {"dep_nc", "dep", "dep3", "indep", "indep3", "sfu", "imix", "lds1", "lds2", "lds32", "ldsdep1", "sts1"})
        for (unsigned warps : {1u, 4u, 8u}) {
            SCOPED_TRACE(std::string(kind) + " warps=" + std::to_string(warps));
            expect_equivalent(ktu::qv100(), same_for(micro::program(kind, 64), warps));
        }
}

// ---- seeded mixed programs over the configurations and switches ------------------------------

struct Variant {
    const char *name;
    void (*edit)(smtlm_sm_cfg &);
};

const Variant kVariants[] = {
    {"qv100", [](smtlm_sm_cfg &) {}},
    {"port_throughput_1", [](smtlm_sm_cfg &c) { c.reg_file_port_throughput = 1; }},
    {"wavefront", [](smtlm_sm_cfg &c) { c.rf.policy = SMTLM_ALLOC_WAVEFRONT; }},
    {"fix_subcore_hol", [](smtlm_sm_cfg &c) { c.oc.fix_subcore_hol = 1; }},
    {"fix_optype_priority", [](smtlm_sm_cfg &c) { c.oc.fix_optype_priority = 1; }},
    {"fix_wb_bank_conflict", [](smtlm_sm_cfg &c) { c.rf.fix_wb_bank_conflict = 1; }},
    {"gto", [](smtlm_sm_cfg &c) { c.issue.policy = SMTLM_SCHED_GTO; }},
    {"titanx_no_subcore_dual_issue", [](smtlm_sm_cfg &c) { c = ktu::titanx(); }},
};

class SmEquivalenceMixed : public ::testing::TestWithParam<Variant> {};

void PrintTo(const Variant &v, std::ostream *os) { *os << v.name; }

TEST_P(SmEquivalenceMixed, SeededProgramsGiveIdenticalLogsAndStatistics)
{
    smtlm_sm_cfg cfg = ktu::qv100();
    GetParam().edit(cfg);
    const bool dp = cfg.units.n_dp > 0;
    for (unsigned seed = 1; seed <= 3; seed++) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const std::vector<smtlm_inst_desc> p = mixed(seed, 120, dp);
        expect_equivalent(cfg, same_for(p, 16), 240, 64);
        expect_equivalent(cfg, same_for(p, 4), 0, 1 << 20); // perfect memory
    }
}

// Direct access (the collector reaching the register file's kernel, writeback the register
// file's and the issue stage's, the stage hand-offs) gives the C engine's results too, with a
// retire hook (writeback's one-pass general path; the event log compared) and without one
// (its fast path: the statistics compared).
TEST_P(SmEquivalenceMixed, DirectAccessGivesIdenticalLogsAndStatistics)
{
    smtlm_sm_cfg cfg = ktu::qv100();
    GetParam().edit(cfg);
    const bool dp = cfg.units.n_dp > 0;
    for (bool hook : {true, false})
        for (unsigned seed = 1; seed <= 3; seed++) {
            SCOPED_TRACE("seed " + std::to_string(seed) + (hook ? " hook" : " no hook"));
            const std::vector<smtlm_inst_desc> p = mixed(seed, 120, dp);
            expect_equivalent(cfg, same_for(p, 16), 240, 64, 200000, Mode{true, hook});
            expect_equivalent(cfg, same_for(p, 4), 0, 1 << 20, 200000, Mode{true, hook});
        }
}

INSTANTIATE_TEST_SUITE_P(Variants, SmEquivalenceMixed, ::testing::ValuesIn(kVariants),
                         [](const ::testing::TestParamInfo<Variant> &i) { return std::string(i.param.name); });

// Quiescent-cycle skipping: both engines agree on when an SM may skip and on what a skip counts.
TEST(SmEquivalence, QuiescenceAndSkipMatch)
{
    const smtlm_sm_cfg cfg = ktu::qv100();
    const std::vector<smtlm_inst_desc> p = ktu::prog({ktu::global(SMTLM_OP_LOAD, 5, {3}, 0x10000000, 4), ktu::ffma(6, {5, 5, 5})});
    ktu::Rig c(cfg, 400, 64);
    TlmRig s(cfg, 400, 64);
    ASSERT_GE(c.load(same_for(p, 4)), 0);
    ASSERT_GE(s.load(same_for(p, 4)), 0);
    unsigned skipped = 0;
    for (uint64_t now = 0; c.active() && now < 5000; now++) {
        const bool cq = smtlm_sm_quiescent(c.sm()), sq = s.sm().quiescent();
        ASSERT_EQ(cq, sq) << "cycle " << now;
        if (cq && now > 10 && smtlm_mem_busy(c.mem()) && smtlm_mem_next_ready(c.mem()) > now + 8) {
            smtlm_sm_skip(c.sm(), now, 8); // skip 8 cycles in both, the memory waits too
            s.sm().skip(now, 8);
            skipped += 8;
            now += 7;
            continue;
        }
        smtlm_mem_cycle(c.mem(), &c.sm()->ldst, now);
        s.sm().ldst.memory_cycle(s.mem(), now);
        ASSERT_EQ(smtlm_sm_cycle(c.sm(), now), s.sm().cycle(now));
    }
    EXPECT_GT(skipped, 0u);
    EXPECT_FALSE(c.active());
    EXPECT_FALSE(s.sm().active());
    EXPECT_EQ(c.sm()->stats.active_cycles, s.sm().stats().active_cycles);
    for (unsigned q = 0; q < SMTLM_MAX_SCHED; q++)
        expect_same(c.sm()->iss.distro[q], s.sm().issue.state().distro[q], "distro");
    expect_same(c.sm()->oc.occupancy_hist, s.sm().collector.state().occupancy_hist, "occupancy_hist");
}

} // namespace
