// Blocks a VP can see and replace (GpuParams::sm_hook): a probe module of the VP's own bound
// between two blocks of every SM sees each hand-off there as a transaction while every other port
// keeps its direct access, and a writeback module of the VP's own, written from the documented
// payload (docs/SYSTEMC.md, "The payload"), can stand in for the project's. Either way the run
// gives the C engine's figures for the trace (smsim -smtlm_engine c).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "smtlm/tlm/gpgpusim_sm.h"
#include "smtlm/tlm/gpu_config.h"
#include "vp_harness.hpp"

extern "C" {
#include "smtlm/port_calls.h"
}

namespace {

using namespace vp;

// A probe for one hand-off: every StagePut it gets, it decodes (the instruction in the SM's pool,
// the set it goes to), counts by unit, and passes on unchanged; the reader's answer comes back
// in the same payload. It grants no direct access, so its producer calls it every time.
struct Probe : sc_core::sc_module {
    void on_put(smtlm::SmTransaction &t) // in
    {
        const smtlm_inst &in = pool.inst[t.inst];
        if (t.cmd != smtlm::SmCommand::StagePut || t.set >= SMTLM_NUM_REGSETS || t.inst >= SMTLM_POOL_SIZE ||
            in.uid != t.uid || in.unit == SMTLM_UNIT_NONE || in.unit > SMTLM_UNIT_SPECIALIZED)
            undecodable++;
        else {
            if (t.set != expect_set && expect_set != ~0u)
                wrong_set++;
            per_unit[in.unit]++;
        }
        puts++;
        out.call(t);
        refused += t.status != SMTLM_OK;
    }
    smtlm::SmTargetSocket<&Probe::on_put> in;
    smtlm::SmInitiatorSocket out;
    const smtlm_inst_pool &pool;
    unsigned expect_set; // ~0u: any
    uint64_t puts = 0, refused = 0, undecodable = 0, wrong_set = 0, per_unit[8] = {};
    Probe(sc_core::sc_module_name name, const smtlm_inst_pool &p, unsigned set = ~0u)
        : sc_core::sc_module(name), in("in", this), out("out"), pool(p), expect_set(set)
    {
    }
};

// A probe on a warp-event port: counts each command it passes on (WarpWrittenBack decoded:
// the instruction, its warp, a release mask within its destinations).
struct EventProbe : sc_core::sc_module {
    void on_event(smtlm::SmTransaction &t) // in
    {
        if (t.cmd == smtlm::SmCommand::WarpWrittenBack) {
            written_back++;
            if (!t.in || t.in->warp != t.warp || (unsigned long)t.result >> t.in->n_dst)
                undecodable++;
        } else
            other++;
        out.call(t);
    }
    smtlm::SmTargetSocket<&EventProbe::on_event> in;
    smtlm::SmInitiatorSocket out;
    uint64_t written_back = 0, other = 0, undecodable = 0;
    explicit EventProbe(sc_core::sc_module_name name) : sc_core::sc_module(name), in("in", this), out("out") {}
};

// A writeback of the VP's own: EX_WB is its own list, and each cycle it writes every held
// instruction's destinations (RfTryWrite), then reports it written back (WarpWrittenBack, with
// the destinations the register file did not buffer) and frees its pool entry, oldest first.
struct OwnWriteback : sc_core::sc_module, smtlm::SmBlock {
    void on_put(smtlm::SmTransaction &t) // ex_wb
    {
        if (held.size() == width) { // EX_WB's width (-gpgpu_pipeline_widths)
            t.status = SMTLM_EFULL;
            t.result = -1;
            return;
        }
        t.result = (long)held.size();
        t.status = SMTLM_OK;
        held.push_back(t.inst);
        puts++;
    }
    smtlm::SmTargetSocket<&OwnWriteback::on_put> ex_wb;
    smtlm::SmInitiatorSocket rf, events;
    smtlm_inst_pool &pool;
    size_t width;
    std::vector<smtlm_iref> held;
    uint64_t puts = 0, cycles_with_work = 0;
    OwnWriteback(sc_core::sc_module_name name, smtlm::Sm &sm)
        : sc_core::sc_module(name), ex_wb("ex_wb", this), rf("rf"), events("events"), pool(sm.pool()),
          width(sm.cfg().width[SMTLM_EX_WB])
    {
    }
    void cycle(uint64_t now) override
    {
        if (held.empty())
            return;
        cycles_with_work++;
        std::sort(held.begin(), held.end(), [&](smtlm_iref a, smtlm_iref b) { return pool.inst[a].uid < pool.inst[b].uid; });
        for (const smtlm_iref r : held) {
            smtlm_inst *in = &pool.inst[r];
            smtlm::SmTransaction w{smtlm::SmCommand::RfTryWrite};
            unsigned release = 0;
            for (unsigned i = 0; i < in->n_dst; i++) {
                w.warp = in->warp;
                w.sched = in->sched;
                w.reg = (unsigned)in->dst[i];
                rf.call(w);
                release |= (unsigned)(w.result != SMTLM_RF_BUFFERED) << i;
            }
            in->ev[SMTLM_EV_WRITEBACK] = now;
            smtlm::SmTransaction e{smtlm::SmCommand::WarpWrittenBack};
            e.warp = in->warp;
            e.in = in;
            e.result = release;
            events.call(e);
            smtlm_pool_free(&pool, r);
        }
        held.clear();
    }
    bool idle() const override { return held.empty(); }
    void reset() override { held.clear(); }
};

bool stage_direct(const smtlm_stage_port &o) { return o.sets != nullptr; }

// Runs kernel 0 of `trace` on the default machine whose Gpu takes `hook`, through the control
// registers as software would, and checks every counter against the C engine's. Returns the
// platform (its Gpu: nodes[0]->gpu), kept for the test's own checks.
std::unique_ptr<Soc> run_against_c_engine(const std::string &trace, const smtlm::SmHook &hook)
{
    const Reference ref = reference(trace);
    smtlm::GpuParams p;
    p.sm_hook = hook;
    std::vector<std::unique_ptr<GpuNode>> g;
    g.emplace_back(new GpuNode("gpu", e2e::data("traces/" + trace + "/kernelslist.g"), default_machine(), p));
    GpuNode *n = g[0].get();
    bool finished = false;
    std::unique_ptr<Soc> soc(new Soc(
        [&, n](Cpu &c) {
            c.wr(reg::KERNEL, 0);
            c.wr(reg::IRQ_EN, reg::IRQ_KERNEL_END);
            c.wr(reg::CTRL, reg::CTRL_START);
            wait_irq(*n);
            EXPECT_EQ(c.rd(reg::STATUS), reg::STATUS_DONE | SMTLM_RUN_DONE << reg::STATUS_CODE_SHIFT);
            EXPECT_EQ(c.rd64(reg::CYCLES), ref.cycles);
            EXPECT_EQ(c.rd64(reg::WARP_INSTS), ref.warp_insts);
            EXPECT_EQ(c.rd64(reg::THREAD_INSTS), ref.thread_insts);
            EXPECT_EQ(c.rd64(reg::BANK_WAITS), ref.bank_waits);
            EXPECT_EQ(c.rd64(reg::STALLS), ref.stalls);
            finished = true;
        },
        std::move(g)));
    sc_core::sc_start();
    EXPECT_TRUE(finished);
    EXPECT_EQ(n->gpu.stats().tot_cycle, ref.cycles);
    return soc;
}

smtlm::GpgpusimSm &gpgpusim(smtlm::Sm &sm) { return dynamic_cast<smtlm::GpgpusimSm &>(sm); }

// Which ports of an SM took direct access at the end of elaboration.
struct Direct {
    bool issue, collector, exec, rf_read, wb_rf, wb_events;
};
Direct direct_ports(smtlm::GpgpusimSm &g)
{
    const bool wb = g.writeback.has_value();
    return Direct{stage_direct(g.issue.state().ports.out),
                  stage_direct(g.collector.state().out),
                  stage_direct(g.exec.state().out),
                  g.collector.state().rf_direct == &g.regfile.state(),
                  wb && g.writeback->state().rf.rf == &g.regfile.state(),
                  wb && g.writeback->state().warps.issue == &g.issue.state()};
}
// Every port of every SM is direct but those in `off`.
void expect_direct_but(smtlm::Gpu &gpu, std::initializer_list<bool Direct::*> off)
{
    const std::pair<bool Direct::*, const char *> ports[] = {
        {&Direct::issue, "issue"},     {&Direct::collector, "collector"}, {&Direct::exec, "execute"},
        {&Direct::rf_read, "rf reads"}, {&Direct::wb_rf, "wb writes"},     {&Direct::wb_events, "wb events"}};
    for (unsigned i = 0; i < gpu.n_sm(); i++) {
        const Direct d = direct_ports(gpgpusim(gpu.sm(i)));
        for (const auto &p : ports)
            EXPECT_EQ(d.*p.first, std::find(off.begin(), off.end(), p.first) == off.end()) << "SM " << i << ": " << p.second;
    }
}

// The instructions that left through writeback (all but the LDST's), over every SM.
uint64_t alu_insts(smtlm::Gpu &gpu)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < gpu.n_sm(); i++) {
        const smtlm_sm_stats st = gpu.sm(i).stats();
        n += st.warp_insts - st.unit_insts[SMTLM_UNIT_MEM];
    }
    return n;
}

// Binds `probe` (sockets in, out) between initiator `from` and target `to`.
template <typename PROBE, typename TARGET> void splice(smtlm::SmInitiatorSocket &from, PROBE &probe, TARGET &to)
{
    from.bind(probe.in);
    probe.out.bind(to);
}

uint64_t sum(const std::vector<std::unique_ptr<Probe>> &probes, uint64_t Probe::*field)
{
    uint64_t n = 0;
    for (const std::unique_ptr<Probe> &p : probes)
        n += (*p).*field;
    return n;
}

// matrixmul: 4416 warp instructions (the trace's count), bank waits and stalls on the default
// machine; ALU and memory instructions both.
const char *const kTrace = "matrixmul-32-32-trace";

} // namespace

// A probe between issue and the operand collector of every SM: each issued instruction passes it
// once, as a decodable transaction into an ID_OC set, none refused (issue checks the room
// first); the unit counts are the SMs' own; every other port of the SM is still direct.
TEST(GpuProbes, IssueToCollectorProbeSeesEveryIssueWhileTheOtherPortsStayDirect)
{
    std::vector<std::unique_ptr<Probe>> probes;
    const std::unique_ptr<Soc> soc = run_against_c_engine(
        kTrace,
        [&](smtlm::Sm &sm) {
            smtlm::GpgpusimSm &g = gpgpusim(sm);
            probes.emplace_back(new Probe("id_oc_probe", sm.pool()));
            splice(g.issue.id_oc, *probes.back(), g.collector.id_oc);
        });
    smtlm::Gpu *gpu = &soc->nodes[0]->gpu;
    ASSERT_EQ(probes.size(), gpu->n_sm());
    EXPECT_STREQ(probes[0]->name(), "gpu.sm_0.id_oc_probe");
    EXPECT_EQ(sum(probes, &Probe::puts), 4416u);
    EXPECT_EQ(sum(probes, &Probe::undecodable), 0u);
    EXPECT_EQ(sum(probes, &Probe::refused), 0u);
    uint64_t issued = 0;
    for (unsigned i = 0; i < gpu->n_sm(); i++) {
        smtlm::GpgpusimSm &g = gpgpusim(gpu->sm(i));
        const smtlm_sm_stats st = g.stats();
        for (unsigned u = 0; u < 8; u++)
            EXPECT_EQ(probes[i]->per_unit[u], st.unit_insts[u]) << "SM " << i << " unit " << u;
        issued += st.warp_insts;
    }
    EXPECT_EQ(issued, 4416u);
    expect_direct_but(*gpu, {&Direct::issue}); // the probe grants nothing
}

// A probe between execute and writeback: every ALU result (all instructions but the LDST's)
// passes it once into EX_WB, decodable; the other ports stay direct.
TEST(GpuProbes, ExecuteToWritebackProbeSeesEveryAluResultWhileTheOtherPortsStayDirect)
{
    std::vector<std::unique_ptr<Probe>> probes;
    const std::unique_ptr<Soc> soc = run_against_c_engine(
        kTrace,
        [&](smtlm::Sm &sm) {
            smtlm::GpgpusimSm &g = gpgpusim(sm);
            probes.emplace_back(new Probe("ex_wb_probe", sm.pool(), SMTLM_EX_WB));
            splice(g.exec.ex_wb, *probes.back(), g.writeback->ex_wb);
        });
    smtlm::Gpu *gpu = &soc->nodes[0]->gpu;
    EXPECT_EQ(sum(probes, &Probe::undecodable), 0u);
    EXPECT_EQ(sum(probes, &Probe::wrong_set), 0u);
    EXPECT_EQ(sum(probes, &Probe::refused), 0u);
    const uint64_t alu = alu_insts(*gpu);
    uint64_t mem = 0;
    for (unsigned i = 0; i < gpu->n_sm(); i++) {
        const smtlm_sm_stats st = gpu->sm(i).stats();
        for (unsigned u = 0; u < 8; u++)
            EXPECT_EQ(probes[i]->per_unit[u], u == SMTLM_UNIT_MEM ? 0 : st.unit_insts[u]) << "SM " << i << " unit " << u;
        mem += st.unit_insts[SMTLM_UNIT_MEM];
    }
    EXPECT_GT(mem, 0u);
    EXPECT_EQ(alu + mem, 4416u);
    EXPECT_EQ(sum(probes, &Probe::puts), alu);
    expect_direct_but(*gpu, {&Direct::exec});
}

// A probe between writeback and the issue stage's warp events: every ALU instruction's
// written-back event passes it, while writeback still writes into the register file directly
// (each of its two ports decides for itself).
TEST(GpuProbes, WritebackEventProbeLeavesWritebacksRegisterFileWritesDirect)
{
    std::vector<std::unique_ptr<EventProbe>> probes;
    const std::unique_ptr<Soc> soc = run_against_c_engine(
        kTrace,
        [&](smtlm::Sm &sm) {
            smtlm::GpgpusimSm &g = gpgpusim(sm);
            probes.emplace_back(new EventProbe("wb_events_probe"));
            splice(g.writeback->events, *probes.back(), g.issue.wb_events);
        });
    smtlm::Gpu *gpu = &soc->nodes[0]->gpu;
    const uint64_t alu = alu_insts(*gpu);
    uint64_t written_back = 0;
    for (unsigned i = 0; i < gpu->n_sm(); i++) {
        written_back += probes[i]->written_back;
        EXPECT_EQ(probes[i]->undecodable, 0u);
        EXPECT_EQ(probes[i]->other, 0u) << "faithful mode: every release goes with its written-back event";
    }
    EXPECT_GT(alu, 0u);
    EXPECT_EQ(written_back, alu);
    expect_direct_but(*gpu, {&Direct::wb_events});
}

// A writeback of the VP's own in place of the project's in every SM: the same figures as the C
// engine's; it received every ALU result, and the project's Writeback is gone.
TEST(GpuProbes, AWritebackOfTheVpsOwnGivesTheCEnginesResults)
{
    std::vector<std::unique_ptr<OwnWriteback>> wbs;
    const std::unique_ptr<Soc> soc = run_against_c_engine(
        kTrace,
        [&](smtlm::Sm &sm) {
            smtlm::GpgpusimSm &g = gpgpusim(sm);
            wbs.emplace_back(new OwnWriteback("own_writeback", sm));
            OwnWriteback &w = *wbs.back();
            g.exec.ex_wb.bind(w.ex_wb);
            w.rf.bind(g.regfile.wb_write);
            w.events.bind(g.issue.wb_events);
            g.replace_writeback(w);
        });
    smtlm::Gpu *gpu = &soc->nodes[0]->gpu;
    const uint64_t alu = alu_insts(*gpu);
    uint64_t puts = 0;
    for (unsigned i = 0; i < gpu->n_sm(); i++) {
        puts += wbs[i]->puts;
        EXPECT_FALSE(gpgpusim(gpu->sm(i)).writeback.has_value());
        EXPECT_TRUE(wbs[i]->idle());
    }
    EXPECT_GT(alu, 0u);
    EXPECT_EQ(puts, alu);
    expect_direct_but(*gpu, {&Direct::exec, &Direct::wb_rf, &Direct::wb_events}); // its EX_WB grants nothing
}

// Without a hook every port of every SM is direct (the default run).
TEST(GpuProbes, WithoutAHookEveryPortIsDirect)
{
    const std::unique_ptr<Soc> soc = run_against_c_engine(kTrace, smtlm::SmHook());
    expect_direct_but(soc->nodes[0]->gpu, {});
}

// The SM binds its blocks' sockets in its constructor: a block swapped in later could not be
// bound, so replace_writeback outside the hook is an error and the SM keeps its own.
TEST(GpuProbes, ReplacingWritebackAfterConstructionIsAnError)
{
    smtlm_sm_cfg cfg;
    smtlm_sm_cfg_qv100(&cfg);
    smtlm::GpgpusimSm sm("sm", cfg, 0);
    ASSERT_EQ(sm.status(), SMTLM_OK);
    OwnWriteback own("own_writeback", sm);
    try {
        sm.replace_writeback(own);
        ADD_FAILURE() << "no report";
    } catch (const sc_core::sc_report &r) {
        EXPECT_STREQ(r.get_msg_type(), "smtlm/sm");
        EXPECT_STREQ(r.get_msg(), "sm: replace_writeback is for the SM hook only");
    }
    EXPECT_TRUE(sm.writeback.has_value());
}

// A Gpu configured by presets (Gpu(name, kernels, sm_hook)) takes the hook as one configured in
// code does: a probe between issue and the collector of each of its two SMs sees every issue of
// matrixmul (4416 warp instructions), and the other ports stay direct.
TEST(GpuProbes, AGpuConfiguredByPresetsTakesTheHookToo)
{
    smtlm::param_broker().set_preset("gpu.gpgpu_n_clusters", "2");
    smtlm::GpuConfig c;
    ASSERT_EQ(c.from_presets("gpu"), "");
    smtlm::TraceKernels kernels(e2e::data(std::string("traces/") + kTrace + "/kernelslist.g"), c.lat);
    std::vector<std::unique_ptr<Probe>> probes;
    smtlm::Gpu gpu("gpu", &kernels, [&](smtlm::Sm &sm) {
        smtlm::GpgpusimSm &g = gpgpusim(sm);
        probes.emplace_back(new Probe("id_oc_probe", sm.pool()));
        splice(g.issue.id_oc, *probes.back(), g.collector.id_oc);
    });
    smtlm::Router router("router");
    smtlm::Memory dram("dram", c.mem_latency);
    for (unsigned i = 0; i < gpu.n_sm(); i++)
        gpu.mem_socket(i).bind(router.in);
    router.out.bind(dram.socket);
    router.map(0, ~0ull, 0);
    const std::unique_ptr<Soc> soc = run_kernel_0(gpu);
    ASSERT_EQ(probes.size(), 2u);
    EXPECT_STREQ(probes[1]->name(), "gpu.sm_1.id_oc_probe");
    EXPECT_EQ(sum(probes, &Probe::puts), 4416u);
    EXPECT_EQ(sum(probes, &Probe::undecodable), 0u);
    EXPECT_EQ(gpu.engine().tot_warp_insn, 4416u);
    expect_direct_but(gpu, {&Direct::issue});
}
