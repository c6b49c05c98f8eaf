// Test harness: runs Accel-Sim's back-end microbenchmarks (FFMA/MUFU/IADD3 chains and shared-memory
// loads and stores of one kernel; the measured cycles are in docs/VALIDATION.md) through the C
// engine with an in-memory instruction source, without any trace file.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

extern "C" {
#include "smtlm/gpu.h"
}

namespace micro {

// One warp instruction in trace terms (trace register numbers; the +1 is applied here).
inline smtlm_inst_desc alu(smtlm_op op, int dst, std::vector<int> srcs, unsigned lat, unsigned ii)
{
    smtlm_inst_desc d;
    std::memset(&d, 0, sizeof d);
    d.mask = 0xFFFFFFFFu;
    d.op = (uint8_t)op;
    if (dst >= 0) {
        d.n_dst = 1;
        d.dst[0] = (int16_t)(dst + 1);
    }
    d.n_src = (uint8_t)srcs.size();
    for (size_t i = 0; i < srcs.size(); i++)
        d.src[i] = (int16_t)(srcs[i] + 1);
    d.latency = (uint16_t)lat;
    d.ii = (uint16_t)ii;
    return d;
}

inline smtlm_inst_desc exit_inst() { return alu(SMTLM_OP_EXIT, -1, {}, 1, 1); }

// Shared-memory access, address mode 1: lane k reads base + k * stride.
inline smtlm_inst_desc shared(smtlm_op op, int dst, std::vector<int> srcs, uint64_t base, uint64_t stride)
{
    smtlm_inst_desc d = alu(op, dst, srcs, 1, 1);
    d.mem_space = SMTLM_MEM_SHARED;
    d.mem_width = 4;
    for (unsigned k = 0; k < 32; k++)
        d.addr[k] = base + k * stride;
    return d;
}

// The microbenchmark kinds; QV100 trace.config latencies (sp/int 2,2; sfu 20,8).
inline std::vector<smtlm_inst_desc> program(const std::string &kind, unsigned n)
{
    std::vector<smtlm_inst_desc> p;
    for (unsigned i = 0; i < n; i++) {
        int d = 20 + (int)(i % 8);
        uint64_t base = (i % 4) * 0x100;
        if (kind == "dep_nc") p.push_back(alu(SMTLM_OP_SP, 2, {2, 4, 5}, 2, 2));
        else if (kind == "dep") p.push_back(alu(SMTLM_OP_SP, 2, {2, 4, 6}, 2, 2));
        else if (kind == "dep3") p.push_back(alu(SMTLM_OP_SP, 2, {2, 6, 10}, 2, 2));
        else if (kind == "indep") p.push_back(alu(SMTLM_OP_SP, d, {3, 4, 5}, 2, 2));
        else if (kind == "indep3") p.push_back(alu(SMTLM_OP_SP, d, {2, 6, 10}, 2, 2));
        else if (kind == "sfu") p.push_back(alu(SMTLM_OP_SFU, d, {3}, 20, 8));
        else if (kind == "imix") p.push_back(i % 2 ? alu(SMTLM_OP_INTP, d, {3, 4, 5}, 2, 2) : alu(SMTLM_OP_SP, d, {3, 4, 5}, 2, 2));
        else if (kind.rfind("ldsdep", 0) == 0) p.push_back(shared(SMTLM_OP_LOAD, 2, {2}, 0, 4 * std::stoul(kind.substr(6))));
        else if (kind.rfind("lds", 0) == 0) p.push_back(shared(SMTLM_OP_LOAD, d, {3}, base, 4 * std::stoul(kind.substr(3))));
        else if (kind.rfind("sts", 0) == 0) p.push_back(shared(SMTLM_OP_STORE, -1, {3, 4}, base, 4 * std::stoul(kind.substr(3))));
    }
    for (unsigned i = 0; i < p.size(); i++)
        p[i].pc = i * 16;
    smtlm_inst_desc e = exit_inst();
    e.pc = (uint32_t)p.size() * 16;
    p.push_back(e);
    return p;
}

struct Event {
    unsigned warp;
    uint32_t pc;
    uint64_t ev[SMTLM_EV_COUNT];
};

// A one-SM GPU running every warp through the same program (one CTA of `warps` warps).
class Runner {
  public:
    explicit Runner(const smtlm_gpu_cfg &cfg) : cfg_(cfg)
    {
        cfg_.n_clusters = 1;
        cfg_.cores_per_cluster = 1;
        sm_.reset(new smtlm_sm);
        mem_.reset(new smtlm_mem_model);
        gpu_.reset(new smtlm_gpu);
        init_rc = smtlm_gpu_init(gpu_.get(), &cfg_, sm_.get(), mem_.get());
    }
    static smtlm_gpu_cfg qv100()
    {
        smtlm_gpu_cfg c;
        smtlm_gpu_cfg_qv100(&c);
        return c;
    }
    smtlm_run_status run(const std::vector<smtlm_inst_desc> &prog, unsigned warps, unsigned shmem = 0)
    {
        prog_ = prog;
        pos_.assign(SMTLM_MAX_WARPS, 0);
        events.clear();
        const smtlm_inst_source src = {this, &Runner::next, &Runner::more, nullptr, 0, 0, nullptr, nullptr, nullptr};
        smtlm_gpu_set_source(gpu_.get(), &src, nullptr);
        smtlm_gpu_set_retire_hook(gpu_.get(), &Runner::retire, this);
        const smtlm_kernel_desc k = {1, 32 * warps, shmem, 64};
        if (smtlm_gpu_launch(gpu_.get(), &k) != SMTLM_OK)
            return SMTLM_RUN_ERROR;
        return smtlm_gpu_run(gpu_.get());
    }
    uint64_t cycles() const { return gpu_->sim_cycle; }
    uint64_t insn() const { return smtlm_gpu_sim_insn(gpu_.get()); }
    uint64_t distro(unsigned cat) const { return smtlm_sm_distro(sm_.get(), cat); }
    smtlm_gpu *gpu() { return gpu_.get(); }
    smtlm_sm *sm() { return sm_.get(); }
    // Events relative to the SM's first cycle (gpu cycle L + 1), as the Accel-Sim timelines.
    const Event *find(unsigned warp, uint32_t pc) const
    {
        for (const Event &e : events)
            if (e.warp == warp && e.pc == pc)
                return &e;
        return nullptr;
    }
    uint64_t rel(uint64_t c) const { return c - (cfg_.kernel_launch_latency + 1); }
    int init_rc;
    std::vector<Event> events;

  private:
    static int next(void *ctx, unsigned, unsigned w, smtlm_inst_desc *d)
    {
        Runner *r = static_cast<Runner *>(ctx);
        if (r->pos_[w] >= r->prog_.size())
            return 0;
        *d = r->prog_[r->pos_[w]++];
        return 1;
    }
    static int more(void *ctx, unsigned, unsigned w)
    {
        Runner *r = static_cast<Runner *>(ctx);
        return r->pos_[w] < r->prog_.size();
    }
    static void retire(void *ctx, unsigned, const smtlm_inst *in)
    {
        Runner *r = static_cast<Runner *>(ctx);
        Event e;
        e.warp = in->warp;
        e.pc = in->pc;
        std::memcpy(e.ev, in->ev, sizeof e.ev);
        r->events.push_back(e);
    }
    smtlm_gpu_cfg cfg_;
    std::unique_ptr<smtlm_sm> sm_;
    std::unique_ptr<smtlm_mem_model> mem_;
    std::unique_ptr<smtlm_gpu> gpu_;
    std::vector<smtlm_inst_desc> prog_;
    std::vector<size_t> pos_;
};

} // namespace micro
