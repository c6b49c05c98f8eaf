// The watchdog's diagnostics (platform/lib/src/diag.c) on a real engine state: a synthetic kernel
// whose loads wait on a slow memory, stopped part-way so requests are still in flight.
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

extern "C" {
#include "smtlm/diag.h"
#include "smtlm/engine_config.h"
#include "smtlm/synth_run.h"
}

namespace {

std::string capture(const std::function<void(FILE *)> &f)
{
    FILE *t = std::tmpfile();
    f(t);
    std::string s;
    std::rewind(t);
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, t)) > 0)
        s.append(buf, n);
    std::fclose(t);
    return s;
}

struct SlowMemoryRun {
    smtlm_options *opts = smtlm_options_new();
    smtlm_run_cfg cfg{};
    std::unique_ptr<smtlm_gpu> gpu{new smtlm_gpu};
    std::vector<smtlm_sm> sms;
    std::vector<smtlm_mem_model> mems;
    smtlm_synth_run *sr = nullptr;
    char msg[1024] = "";
    explicit SlowMemoryRun(const char *latency)
    {
        const char *set[][2] = {{"gpgpu_n_clusters", "1"}, {"smtlm_mem_latency", latency},
                                {"smtlm_synth_mix", "sp=50,ldg=50"}, {"smtlm_synth_insts", "50"}, {"smtlm_synth_warps", "4"}};
        for (auto &kv : set)
            EXPECT_EQ(smtlm_options_set(opts, kv[0], kv[1], msg, sizeof msg), SMTLM_OPT_OK) << msg;
        EXPECT_EQ(smtlm_engine_config(opts, &cfg, msg, sizeof msg), 0) << msg;
        sms.resize(1);
        mems.resize(1);
        EXPECT_EQ(smtlm_gpu_init(gpu.get(), &cfg.gpu, sms.data(), mems.data()), SMTLM_OK);
        EXPECT_EQ(smtlm_synth_run_open(&sr, opts, &cfg, 1, msg, sizeof msg), 0) << msg;
        const smtlm_inst_source is = smtlm_synth_run_iface(sr);
        const smtlm_cta_binder b = smtlm_synth_run_binder(sr);
        const smtlm_kernel_desc k = smtlm_synth_run_kernel(sr);
        smtlm_gpu_set_source(gpu.get(), &is, &b);
        EXPECT_EQ(smtlm_gpu_launch(gpu.get(), &k), SMTLM_OK);
    }
    ~SlowMemoryRun()
    {
        smtlm_synth_run_close(sr);
        smtlm_options_free(opts);
    }
};

TEST(Diag, ListsOutstandingMemoryAndWarpsWaitingOnIt)
{
    SlowMemoryRun r("20000");
    // 5000 launch cycles, then loads are sent; stop 1000 cycles into the kernel's body.
    while (r.gpu->sim_cycle < 6000 && smtlm_gpu_step(r.gpu.get()) == SMTLM_RUN_RUNNING) {
    }
    ASSERT_EQ(r.gpu->status, SMTLM_RUN_RUNNING);
    ASSERT_TRUE(smtlm_mem_busy(&r.gpu->mem[0]));
    const std::string out = capture([&](FILE *f) { smtlm_describe_stuck_warps(f, r.gpu.get(), 8); });
    const smtlm_mem_req *o = smtlm_mem_oldest(&r.gpu->mem[0]);
    char want[160];
    std::snprintf(want, sizeof want, "oldest: sm 0 warp %u pc 0x%04x address 0x%llx, sent %llu cycles ago",
                  (unsigned)o->warp, (unsigned)o->pc, (unsigned long long)o->addr,
                  (unsigned long long)(r.gpu->sim_cycle - o->sent_cycle));
    EXPECT_NE(out.find("  memory: "), std::string::npos) << out;
    EXPECT_NE(out.find(" in flight"), std::string::npos) << out;
    EXPECT_NE(out.find(want), std::string::npos) << out;
    EXPECT_NE(out.find("waiting on the scoreboard for a memory load"), std::string::npos) << out;
}

TEST(Diag, SaysWhenNoMemoryIsOutstanding)
{
    SlowMemoryRun r("20000");
    const std::string out = capture([&](FILE *f) { smtlm_describe_memory(f, r.gpu.get()); });
    EXPECT_EQ(out, "  memory: no request outstanding (the stall is not waiting on memory)\n");
}

} // namespace
