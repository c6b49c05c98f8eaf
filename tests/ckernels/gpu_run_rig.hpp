// A random-kernel rig for the GPU's run loops: random kernels over several SMs with memory
// traffic, hooks, limits and idle skipping, run by the general loop (smtlm_gpu_step and
// smtlm_gpu_skip_idle, cycle by cycle) or by a faster driver, with every retirement, CTA
// completion and hook call noted with the GPU's state, so a driver can be held to the general
// loop cycle for cycle (test_gpu_calm_run.cpp: the calm stretches; the platform's
// test_sm_windows.cpp: the SMs stepped in windows).
#ifndef SMTLM_TESTS_GPU_RUN_RIG_HPP
#define SMTLM_TESTS_GPU_RUN_RIG_HPP

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include "micro.hpp"

namespace gpu_rig {


struct Note {
    int kind; // 0 retire, 1 CTA done, 2 poll, 3 series
    uint64_t cycle, skipped;
    unsigned n_live, ctas_done, sm, a;
    uint32_t b;
    bool operator==(const Note &o) const
    {
        return kind == o.kind && cycle == o.cycle && skipped == o.skipped && n_live == o.n_live &&
               ctas_done == o.ctas_done && sm == o.sm && a == o.a && b == o.b;
    }
};

struct Case {
    smtlm_gpu_cfg cfg;
    std::vector<std::vector<smtlm_inst_desc>> progs;
    smtlm_kernel_desc k;
    bool poll, series, lazy;
    uint64_t poll_first, series_first;
};

inline std::vector<smtlm_inst_desc> random_prog(std::mt19937 &rng)
{
    std::vector<smtlm_inst_desc> p;
    const unsigned n = 10 + rng() % 120;
    const unsigned loads = rng() % 3; // 0: no memory at all
    for (unsigned i = 0; i < n; i++) {
        const unsigned r = rng() % 16;
        const int d = 20 + (int)(rng() % 8);
        smtlm_inst_desc x;
        if (loads && r < loads * 2) {
            x = micro::alu(SMTLM_OP_LOAD, d, {2}, 4, 2);
            x.mem_space = SMTLM_MEM_GLOBAL;
            x.mem_width = 4;
            for (unsigned l = 0; l < 32; l++)
                x.addr[l] = 0x1000 + 4 * l + 128 * (rng() % 4);
        } else if (r < 8) {
            x = micro::alu(SMTLM_OP_SP, 2, {2, 4, 6}, 2, 2);
        } else if (r < 13) {
            x = micro::alu(SMTLM_OP_INTP, d, {3, 4, 5}, 2, 2);
        } else {
            x = micro::alu(SMTLM_OP_SFU, d, {d - 1}, 20, 8);
        }
        p.push_back(x);
    }
    p.push_back(micro::exit_inst());
    for (unsigned i = 0; i < p.size(); i++)
        p[i].pc = i * 16;
    return p;
}

inline Case random_case(std::mt19937 &rng)
{
    Case c;
    smtlm_gpu_cfg_qv100(&c.cfg);
    c.cfg.n_clusters = 1 + rng() % 3;
    c.cfg.cores_per_cluster = 1 + rng() % 2;
    c.cfg.kernel_launch_latency = rng() % 40;
    c.cfg.mem_latency = 1 + rng() % 900;
    c.cfg.no_skip = rng() % 4 == 0;
    c.cfg.watchdog_cycles = rng() % 3 ? 100000 : 300 + rng() % 700;
    c.cfg.max_cycle = rng() % 3 ? 0 : 500 + rng() % 6000;
    for (unsigned i = 0; i < 6; i++)
        c.progs.push_back(random_prog(rng));
    c.k = {1 + (uint32_t)(rng() % 10), 32 * (1 + (uint32_t)(rng() % 6)), 0, 32};
    c.poll = rng() % 2;
    c.series = rng() % 2;
    c.lazy = rng() % 2;
    c.poll_first = 1 + rng() % 3000;
    c.series_first = 1 + rng() % 3000;
    return c;
}

// Other: the caller's driver (Rig::run's `other`), over the GPU as launched.
enum class Drive { General, Run, Batches, GeneralBatches, Other };

// One run of a case, by step + skip_idle (general), smtlm_gpu_run, or in batches of random
// length by run_until or by the general loop with run_until's batch test.
class Rig {
  public:
    Rig(const Case &c, bool through_ops) : c_(c)
    {
        const unsigned n = smtlm_gpu_num_sms(&c.cfg);
        sms_.reset(new smtlm_sm[n + 1]);
        mems_.reset(new smtlm_mem_model[n]);
        gpu_.reset(new smtlm_gpu);
        init_rc = c.lazy ? smtlm_gpu_init_lazy(gpu_.get(), &c.cfg, sms_.get(), mems_.get())
                         : smtlm_gpu_init(gpu_.get(), &c.cfg, sms_.get(), mems_.get());
        if (through_ops) {
            ops_ = *gpu_->ops;
            gpu_->ops = &ops_;
        }
        warp_prog_.assign(n * SMTLM_MAX_WARPS, nullptr);
        pos_.assign(n * SMTLM_MAX_WARPS, 0);
    }
    smtlm_run_status run(Drive how, std::mt19937 *rng = nullptr,
                         const std::function<smtlm_run_status(smtlm_gpu *)> &other = nullptr)
    {
        smtlm_gpu *g = gpu_.get();
        const smtlm_inst_source src = {this, &Rig::next, &Rig::more, nullptr, 0, 0, nullptr, nullptr, nullptr};
        const smtlm_cta_binder binder = {this, &Rig::cta_start, &Rig::cta_done};
        smtlm_gpu_set_source(g, &src, &binder);
        smtlm_gpu_set_retire_hook(g, &Rig::retire, this);
        if (c_.poll)
            smtlm_gpu_set_poll_hook(g, &Rig::poll, this);
        if (c_.series)
            smtlm_gpu_set_series_hook(g, &Rig::series, this);
        if (smtlm_gpu_launch(g, &c_.k) != SMTLM_OK)
            return SMTLM_RUN_ERROR;
        g->poll_next = c_.poll_first;
        g->series_next = c_.series_first;
        if (how == Drive::Run)
            return smtlm_gpu_run(g);
        if (how == Drive::Other)
            return other(g);
        smtlm_run_status st;
        if (how == Drive::Batches || how == Drive::GeneralBatches) {
            do {
                const uint64_t limit = g->tot_cycle + g->sim_cycle + 1 + (*rng)() % 700;
                if (how == Drive::Batches) {
                    st = smtlm_gpu_run_until(g, limit);
                } else { // run_until's contract: no jump past the batch's end, a cut skip resumed first
                    st = SMTLM_RUN_RUNNING;
                    g->horizon = limit;
                    if (g->skip_event)
                        smtlm_gpu_skip_idle(g);
                    while (g->tot_cycle + g->sim_cycle < limit && (st = smtlm_gpu_step(g)) == SMTLM_RUN_RUNNING)
                        smtlm_gpu_skip_idle(g);
                    g->horizon = UINT64_MAX;
                }
                EXPECT_LE(g->tot_cycle + g->sim_cycle, limit); // no jump passes a batch's end
                batch_ends.push_back(g->tot_cycle + g->sim_cycle);
            } while (st == SMTLM_RUN_RUNNING);
            return st;
        }
        while ((st = smtlm_gpu_step(g)) == SMTLM_RUN_RUNNING)
            smtlm_gpu_skip_idle(g);
        return st;
    }
    smtlm_gpu *gpu() { return gpu_.get(); }
    int init_rc;
    std::vector<Note> notes;
    std::vector<uint64_t> batch_ends; // where each batch returned: where the caller synchronises

  private:
    void note(int kind, unsigned sm, unsigned a, uint32_t b)
    {
        const smtlm_gpu *g = gpu_.get();
        notes.push_back({kind, g->sim_cycle, g->skipped_cycles, g->n_live, g->ctas_done, sm, a, b});
    }
    static int next(void *ctx, unsigned sm, unsigned w, smtlm_inst_desc *d)
    {
        Rig *r = static_cast<Rig *>(ctx);
        const size_t k = sm * SMTLM_MAX_WARPS + w;
        if (!r->warp_prog_[k] || r->pos_[k] >= r->warp_prog_[k]->size())
            return 0;
        *d = (*r->warp_prog_[k])[r->pos_[k]++];
        return 1;
    }
    static int more(void *ctx, unsigned sm, unsigned w)
    {
        Rig *r = static_cast<Rig *>(ctx);
        const size_t k = sm * SMTLM_MAX_WARPS + w;
        return r->warp_prog_[k] && r->pos_[k] < r->warp_prog_[k]->size();
    }
    static int cta_start(void *ctx, unsigned sm, unsigned, unsigned first, unsigned n, uint32_t id)
    {
        Rig *r = static_cast<Rig *>(ctx);
        for (unsigned w = 0; w < n; w++) {
            const size_t k = sm * SMTLM_MAX_WARPS + first + w;
            r->warp_prog_[k] = &r->c_.progs[(id * 7 + w) % r->c_.progs.size()];
            r->pos_[k] = 0;
        }
        return 0;
    }
    static void cta_done(void *ctx, unsigned sm, unsigned slot, uint32_t id) { static_cast<Rig *>(ctx)->note(1, sm, slot, id); }
    static void retire(void *ctx, unsigned sm, const smtlm_inst *in) { static_cast<Rig *>(ctx)->note(0, sm, in->warp, in->pc); }
    static int poll(void *ctx, const smtlm_gpu *)
    {
        static_cast<Rig *>(ctx)->note(2, 0, 0, 0);
        return 0;
    }
    static void series(void *ctx, const smtlm_gpu *) { static_cast<Rig *>(ctx)->note(3, 0, 0, 0); }
    Case c_;
    smtlm_sm_ops ops_{};
    std::unique_ptr<smtlm_sm[]> sms_;
    std::unique_ptr<smtlm_mem_model[]> mems_;
    std::unique_ptr<smtlm_gpu> gpu_;
    std::vector<const std::vector<smtlm_inst_desc> *> warp_prog_;
    std::vector<size_t> pos_;
};

// `how` (or `other`, for Drive::Other) against the general loop on 150 random cases. A driver
// that runs the SMs ahead and replays their hook calls afterwards (same_clock_only) is held to
// the clock and CTA count each call sees, not to the live list and skip count of that moment.
inline void expect_same_run(Drive how, uint32_t seed, bool through_ops,
                            const std::function<smtlm_run_status(smtlm_gpu *)> &other = nullptr,
                            bool same_clock_only = false)
{
    std::mt19937 rng(seed), batch_rng(seed + 1), general_batch_rng(seed + 1);
    unsigned calm_cases = 0;
    for (int t = 0; t < 150; t++) {
        const Case c = random_case(rng);
        Rig calm(c, through_ops), general(c, false);
        ASSERT_EQ(calm.init_rc, SMTLM_OK);
        ASSERT_EQ(general.init_rc, SMTLM_OK);
        const smtlm_run_status a = calm.run(how, &batch_rng, other);
        const smtlm_run_status b = general.run(how == Drive::Batches ? Drive::GeneralBatches : Drive::General, &general_batch_rng);
        EXPECT_EQ(calm.batch_ends, general.batch_ends) << "case " << t;
        ASSERT_EQ(a, b) << "case " << t;
        const smtlm_gpu *x = calm.gpu(), *y = general.gpu();
        EXPECT_EQ(x->sim_cycle, y->sim_cycle) << "case " << t;
        EXPECT_EQ(x->skipped_cycles, y->skipped_cycles) << "case " << t;
        EXPECT_EQ(x->ctas_done, y->ctas_done) << "case " << t;
        EXPECT_EQ(x->error, y->error) << "case " << t;
        EXPECT_EQ(x->kernel_active, y->kernel_active) << "case " << t;
        ASSERT_EQ(x->n_live, y->n_live) << "case " << t;
        for (unsigned k = 0; k < x->n_live; k++)
            EXPECT_EQ(x->live[k], y->live[k]) << "case " << t;
        for (unsigned i = 0; i < x->n_sm; i++) {
            EXPECT_EQ(x->is_live[i], y->is_live[i]) << "case " << t;
            smtlm_sm_view u, v;
            smtlm_gpu_sm_view(x, i, &u);
            smtlm_gpu_sm_view(y, i, &v);
            EXPECT_EQ(0, std::memcmp(&u.stats, &v.stats, sizeof u.stats)) << "case " << t << " sm " << i;
            EXPECT_EQ(u.last_progress, v.last_progress) << "case " << t;
            EXPECT_EQ(x->mem[i].credit, y->mem[i].credit) << "case " << t;
            EXPECT_EQ(x->mem[i].last_event, y->mem[i].last_event) << "case " << t;
        }
        ASSERT_EQ(calm.notes.size(), general.notes.size()) << "case " << t;
        for (size_t i = 0; i < calm.notes.size(); i++) {
            Note n = calm.notes[i];
            if (same_clock_only) {
                n.n_live = general.notes[i].n_live;
                n.skipped = general.notes[i].skipped;
            }
            ASSERT_TRUE(n == general.notes[i]) << "case " << t << " note " << i;
        }
        calm_cases += a == SMTLM_RUN_DONE && x->skipped_cycles > 0;
    }
    EXPECT_GT(calm_cases, 0u); // some runs mix calm stretches with idle skips
}

} // namespace gpu_rig

#endif
