// Helpers for the per-kernel unit tests (test_bankmap.cpp ... test_quirks.cpp).
//
// - Rig: one smtlm_sm driven directly, cycle by cycle, with a separate program per warp and an
//   optional fixed-latency memory (smtlm_mem_model). Cycle numbers are the SM's own cycles:
//   cycle 0 is the first cycle after the CTA launch, which is exactly the origin of Accel-Sim's
//   per-instruction timelines (tests/data/timelines) and of micro::Runner::rel().
// - Small builders for instruction descriptors (reusing micro::alu, trace register numbers).
// - A stand-alone kernel context (pool + register sets + register file) for the tests that call
//   the operand collector, the LDST unit or the writeback kernel directly.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "micro.hpp"

extern "C" {
#include "smtlm/exec.h"
#include "smtlm/ldst.h"
#include "smtlm/mem_model.h"
#include "smtlm/opcoll.h"
#include "smtlm/sm.h"
#include "smtlm/writeback.h"
}

namespace ktu {

using micro::alu;
using micro::exit_inst;

// Warp instruction builders (trace register numbers, the +1 is applied by micro::alu).
inline smtlm_inst_desc ffma(int dst, std::vector<int> srcs) { return alu(SMTLM_OP_SP, dst, std::move(srcs), 2, 2); }
inline smtlm_inst_desc iadd(int dst, std::vector<int> srcs) { return alu(SMTLM_OP_INTP, dst, std::move(srcs), 2, 2); }
inline smtlm_inst_desc mufu(int dst, std::vector<int> srcs) { return alu(SMTLM_OP_SFU, dst, std::move(srcs), 20, 8); }
inline smtlm_inst_desc with_mask(smtlm_inst_desc d, uint32_t mask)
{
    d.mask = mask;
    return d;
}
inline smtlm_inst_desc exit_mask(uint32_t mask) { return with_mask(exit_inst(), mask); }
inline smtlm_inst_desc bar() { return alu(SMTLM_OP_BARRIER, -1, {}, 1, 1); }

// Global memory access: lane k at base + k * stride, `width` bytes per lane.
inline smtlm_inst_desc global(smtlm_op op, int dst, std::vector<int> srcs, uint64_t base, uint64_t stride,
                              unsigned width = 4)
{
    smtlm_inst_desc d = alu(op, dst, std::move(srcs), 1, 1);
    d.mem_space = SMTLM_MEM_GLOBAL;
    d.mem_width = (uint8_t)width;
    for (unsigned k = 0; k < SMTLM_WARP_SIZE; k++)
        d.addr[k] = base + k * stride;
    return d;
}

// Appends EXIT (unless the program already ends with one) and numbers the pcs 0, 0x10, ...
inline std::vector<smtlm_inst_desc> prog(std::vector<smtlm_inst_desc> p, bool add_exit = true)
{
    if (add_exit && (p.empty() || p.back().op != SMTLM_OP_EXIT))
        p.push_back(exit_inst());
    for (size_t i = 0; i < p.size(); i++)
        p[i].pc = (uint32_t)(i * 16);
    return p;
}

inline smtlm_sm_cfg qv100()
{
    smtlm_sm_cfg c;
    smtlm_sm_cfg_qv100(&c);
    return c;
}

// A named edit of an SM configuration: the variants a parameterised test runs over.
struct CfgVariant {
    const char *name;
    void (*apply)(smtlm_sm_cfg &);
};

// SM6_TITANX-like (its stock gpgpusim.config): no INT/DP/tensor units, widths
// 4,0,0,4,4,4,0,0,4,4,8, gto, dual issue with different units, fetch throughput 8.
inline smtlm_sm_cfg titanx()
{
    smtlm_sm_cfg c = qv100();
    static const unsigned w[SMTLM_NUM_STD_REGSETS] = {4, 0, 0, 4, 4, 4, 0, 0, 4, 4, 8, 0, 0};
    std::memcpy(c.width, w, sizeof w);
    c.units.n_dp = c.units.n_int = c.units.n_tensor = 0;
    c.units.tensor_core_avail = 0;
    std::memset(c.units.spec, 0, sizeof c.units.spec);
    c.issue.policy = SMTLM_SCHED_GTO;
    c.issue.max_issue_per_warp = 2;
    c.issue.dual_issue_diff_units = 1;
    c.issue.fetch_throughput = 8;
    c.units.depth_sp = 13;
    c.units.depth_sfu = 330;
    c.ldst.smem_latency = 24;
    return c;
}

// Index of unit `k` of a kind in sm->ex.fu (GPGPU-Sim m_fu order: SP, DP, INT, SFU, tensor, spec).
inline unsigned fu_index(const smtlm_sm_cfg &c, smtlm_fu_kind kind, unsigned k)
{
    unsigned base = 0;
    const unsigned n[] = {c.units.n_sp, c.units.n_dp, c.units.n_int, c.units.n_sfu, c.units.tensor_core_avail ? c.units.n_tensor : 0};
    for (unsigned i = 0; i < (unsigned)kind && i < 5; i++)
        base += n[i];
    return base + k;
}

struct Ev {
    unsigned warp = 0;
    uint32_t pc = 0;
    uint8_t unit = 0, sched = 0;
    uint64_t uid = 0;
    uint64_t ev[SMTLM_EV_COUNT] = {};
    uint64_t issue() const { return ev[SMTLM_EV_ISSUE]; }
    uint64_t cu() const { return ev[SMTLM_EV_CU_ALLOC]; }
    uint64_t operands() const { return ev[SMTLM_EV_OPERANDS]; }
    uint64_t oc_ex() const { return ev[SMTLM_EV_OC_EX]; }
    uint64_t fu() const { return ev[SMTLM_EV_FU_ISSUE]; }
    uint64_t wb() const { return ev[SMTLM_EV_WRITEBACK]; }
    // The record of a retired instruction (what a retire hook sees).
    static Ev of(const smtlm_inst *in)
    {
        Ev e;
        e.warp = in->warp;
        e.pc = in->pc;
        e.unit = in->unit;
        e.sched = in->sched;
        e.uid = in->uid;
        std::memcpy(e.ev, in->ev, sizeof e.ev);
        return e;
    }
};

// Per-warp programs as an instruction source: warp w runs progs[w] (any SM).
struct WarpPrograms {
    std::vector<std::vector<smtlm_inst_desc>> progs;
    std::vector<size_t> pos;
    void set(std::vector<std::vector<smtlm_inst_desc>> p)
    {
        progs = std::move(p);
        pos.assign(SMTLM_MAX_WARPS, 0);
    }
    smtlm_inst_source source() { return smtlm_inst_source{this, &WarpPrograms::next, &WarpPrograms::more, nullptr, 0, 0, nullptr, nullptr, nullptr}; }
    static int next(void *ctx, unsigned, unsigned w, smtlm_inst_desc *d)
    {
        WarpPrograms *p = static_cast<WarpPrograms *>(ctx);
        if (!more(ctx, 0, w))
            return 0;
        *d = p->progs[w][p->pos[w]++];
        return 1;
    }
    static int more(void *ctx, unsigned, unsigned w)
    {
        const WarpPrograms *p = static_cast<const WarpPrograms *>(ctx);
        return w < p->progs.size() && p->pos[w] < p->progs[w].size();
    }
};

// One SM driven directly; one CTA whose warp w runs progs[w].
class Rig {
  public:
    explicit Rig(const smtlm_sm_cfg &cfg, unsigned mem_latency = 0, unsigned mem_bytes_per_cycle = 64)
        : sm_(new smtlm_sm), mem_(new smtlm_mem_model)
    {
        std::memset(sm_.get(), 0, sizeof(smtlm_sm));
        init_rc = smtlm_sm_init(sm_.get(), &cfg, 0);
        smtlm_mem_init(mem_.get(), mem_latency, mem_bytes_per_cycle);
    }
    int init_rc;
    smtlm_sm *sm() { return sm_.get(); }
    smtlm_mem_model *mem() { return mem_.get(); }
    uint64_t now() const { return now_; }

    // Launches one CTA of `threads` threads (default: 32 per program).
    int load(std::vector<std::vector<smtlm_inst_desc>> progs, unsigned threads = 0)
    {
        progs_.set(std::move(progs));
        events.clear();
        smtlm_inst_source src = progs_.source();
        src.code = code;
        smtlm_sm_set_source(sm_.get(), &src);
        sm_->on_retire = &Rig::retire;
        sm_->retire_ctx = this;
        now_ = 0;
        return smtlm_sm_launch_cta(sm_.get(), threads ? threads : 32 * (unsigned)progs_.progs.size(), 0);
    }
    // Same program for `warps` warps.
    int load_all(const std::vector<smtlm_inst_desc> &p, unsigned warps)
    {
        return load(std::vector<std::vector<smtlm_inst_desc>>(warps, p));
    }
    // One cycle (memory first, as smtlm_gpu_step). Returns the SM's status.
    int step()
    {
        smtlm_mem_cycle(mem_.get(), &sm_->ldst, now_);
        int rc = sm_->cfg.silicon.enabled ? smtlm_sm_silicon_cycle(sm_.get(), now_)
                 : sm_->cfg.muon.enabled  ? smtlm_sm_muon_cycle(sm_.get(), now_)
                                          : smtlm_sm_cycle(sm_.get(), now_);
        if (after_cycle)
            after_cycle(*this);
        now_++;
        return rc;
    }
    bool active() const { return smtlm_sm_active(sm_.get()); }
    // Runs until the CTA is done (or `max` cycles, or an error). Returns the number of cycles the
    // SM ran, i.e. last active cycle + 1 (= gpu_sim_cycle - launch latency - 1 in a GPU run).
    uint64_t run(uint64_t max = 20000)
    {
        while (active() && now_ < max) {
            last_rc = step();
            if (last_rc)
                break;
        }
        return now_;
    }
    const Ev *find(unsigned warp, uint32_t pc) const
    {
        for (const Ev &e : events)
            if (e.warp == warp && e.pc == pc)
                return &e;
        return nullptr;
    }
    // Event of the i-th instruction (pc = 16 i) of `warp`; a default (all-zero) event if absent.
    Ev at(unsigned warp, unsigned i) const
    {
        const Ev *e = find(warp, (uint32_t)(16 * i));
        return e ? *e : Ev{};
    }
    std::vector<Ev> events;
    std::function<void(Rig &)> after_cycle;
    const smtlm_code *code = nullptr; // the programs' control bits (the silicon core), set before load
    int last_rc = SMTLM_OK;

  private:
    static void retire(void *ctx, unsigned, const smtlm_inst *in) { static_cast<Rig *>(ctx)->events.push_back(Ev::of(in)); }
    std::unique_ptr<smtlm_sm> sm_;
    std::unique_ptr<smtlm_mem_model> mem_;
    WarpPrograms progs_;
    uint64_t now_ = 0;
};

// A register file as a test builds it alone: its own configuration, the SM's shape and the
// collector's unit count.
struct RfSetup {
    smtlm_rf_cfg cfg;
    smtlm_sm_shape shape;
    unsigned n_cus;
};
inline int rf_init(smtlm_rf *rf, const RfSetup &s) { return smtlm_rf_init(rf, &s.cfg, &s.shape, s.n_cus); }

// An operand collector as a test builds it alone: its own configuration, the SM's shape and
// its units.
struct OcSetup {
    smtlm_opcoll_cfg cfg;
    smtlm_sm_shape shape;
    smtlm_units_cfg units;
};
inline int oc_init(smtlm_opcoll *oc, const OcSetup &s) { return smtlm_opcoll_init(oc, &s.cfg, &s.shape, &s.units); }

// Pool + all register sets + register file, for calling the OC / LDST / writeback kernels.
struct KernelCtx {
    std::unique_ptr<smtlm_inst_pool> pool{new smtlm_inst_pool};
    std::unique_ptr<smtlm_rf> rf{new smtlm_rf};
    smtlm_regset rs[SMTLM_NUM_REGSETS];
    uint64_t next_uid = 1;

    // widths: every set `width` slots (EX_WB 8).
    explicit KernelCtx(const RfSetup &rc, unsigned width = 4)
    {
        smtlm_pool_init(pool.get());
        for (unsigned i = 0; i < SMTLM_NUM_REGSETS; i++)
            smtlm_regset_init(&rs[i], i == SMTLM_EX_WB ? 8 : width);
        init_rc = rf_init(rf.get(), rc);
    }
    int init_rc;
    // An issued instruction (uid in issue order) of warp `warp`, scheduler `sched`, taking
    // simulator register numbers (no +1 here).
    smtlm_iref make(smtlm_op op, unsigned warp, unsigned sched, std::vector<int> srcs, std::vector<int> dsts = {},
                    unsigned lat = 2, unsigned ii = 2)
    {
        smtlm_inst_desc d;
        std::memset(&d, 0, sizeof d);
        d.mask = 0xFFFFFFFFu;
        d.op = (uint8_t)op;
        d.n_src = (uint8_t)srcs.size();
        for (size_t i = 0; i < srcs.size(); i++)
            d.src[i] = (int16_t)srcs[i];
        d.n_dst = (uint8_t)dsts.size();
        for (size_t i = 0; i < dsts.size(); i++)
            d.dst[i] = (int16_t)dsts[i];
        d.latency = (uint16_t)lat;
        d.ii = (uint16_t)ii;
        smtlm_iref r = smtlm_pool_alloc(pool.get(), &d, (uint16_t)warp);
        smtlm_inst *in = smtlm_pool_get(pool.get(), r);
        in->uid = next_uid++;
        in->sched = (uint8_t)sched;
        return r;
    }
    smtlm_inst *get(smtlm_iref r) { return smtlm_pool_get(pool.get(), r); }
    // Puts r into slot `slot` of set `set`.
    void put(unsigned set, unsigned slot, smtlm_iref r) { smtlm_regset_put(&rs[set], slot, r, get(r)->uid); }
    // Binds a collector to this context's register sets, pool and register file.
    void bind(smtlm_opcoll *oc)
    {
        smtlm_stage_port stage;
        smtlm_regset_stage_port(rs, &stage);
        const smtlm_read_port rport = smtlm_rf_read_port(rf.get());
        smtlm_opcoll_bind(oc, rs, &stage, pool.get(), &rport);
    }
};

// The issue stage's side of the warp events (smtlm_warp_port) for kernels driven alone: a real
// scoreboard plus counters of every event.
struct WarpEvents {
    std::unique_ptr<smtlm_scoreboard> sb{new smtlm_scoreboard};
    unsigned completed = 0, retired = 0, sent = 0, acked = 0, atomic_lanes = 0;
    WarpEvents() { smtlm_sb_init(sb.get(), 64); }
    smtlm_warp_port ops()
    {
        return smtlm_warp_port{nullptr, this,
                              [](void *o, unsigned w, unsigned reg) { smtlm_sb_release_reg(static_cast<WarpEvents *>(o)->sb.get(), w, reg); },
                              [](void *o, const smtlm_inst *) { static_cast<WarpEvents *>(o)->completed++; },
                              [](void *o, unsigned) { static_cast<WarpEvents *>(o)->retired++; },
                              [](void *o, unsigned) { static_cast<WarpEvents *>(o)->sent++; },
                              [](void *o, unsigned) { static_cast<WarpEvents *>(o)->acked++; },
                              [](void *o, unsigned, unsigned lanes) { static_cast<WarpEvents *>(o)->atomic_lanes += lanes; },
                              [](void *o, const smtlm_inst *in, unsigned release_mask) {
                                  WarpEvents *e = static_cast<WarpEvents *>(o);
                                  for (unsigned i = 0; i < in->n_dst; i++)
                                      if (release_mask >> i & 1)
                                          smtlm_sb_release_reg(e->sb.get(), in->warp, (unsigned)in->dst[i]);
                                  e->completed++;
                                  e->retired++;
                              }};
    }
    // The register file's release of a buffered write goes to the same scoreboard.
    smtlm_release_port rf_ops()
    {
        return smtlm_release_port{nullptr, this, [](void *o, unsigned w, unsigned reg) { smtlm_sb_release_reg(static_cast<WarpEvents *>(o)->sb.get(), w, reg); }};
    }
};

// A small deterministic generator for the random-traffic tests: a value below n.
struct Lcg {
    uint32_t x;
    unsigned operator()(unsigned n)
    {
        x = x * 1103515245u + 12345u;
        return (x >> 16) % n;
    }
};

// Three ALU unit types with their OC_EX sets and ops, for the execute tests' random traffic.
inline constexpr unsigned kAluSets[3] = {SMTLM_OC_EX_SP, SMTLM_OC_EX_INT, SMTLM_OC_EX_SFU};
inline constexpr smtlm_op kAluOps[3] = {SMTLM_OP_SP, SMTLM_OP_INTP, SMTLM_OP_SFU};

// One operand-collector step as smtlm_sm's read_operands does it.
inline void oc_step(smtlm_opcoll *oc, smtlm_rf *rf, uint64_t now)
{
    smtlm_read_grant g[SMTLM_MAX_BANKS];
    smtlm_opcoll_dispatch(oc, now);
    if (rf->nonempty) {
        unsigned n = smtlm_rf_arbitrate(rf, g);
        smtlm_opcoll_collect(oc, now, g, n);
    }
    smtlm_opcoll_allocate(oc, now);
    smtlm_rf_end_step(rf);
}

} // namespace ktu
