// smsim's progress line: its text, when it is drawn (after a second, at most 4 times a second,
// only when enabled) and that clearing erases only a drawn line.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>

extern "C" {
#include "smtlm/progress.h"
}

namespace {

double fake_now;
double fake_clock() { return fake_now; }

// One SM whose view reports fake_warp_insts retired warp instructions.
uint64_t fake_warp_insts;
smtlm_sm_ops fake_ops()
{
    smtlm_sm_ops ops;
    std::memset(&ops, 0, sizeof ops);
    ops.view = [](const void *, unsigned, smtlm_sm_view *v) {
        std::memset(v, 0, sizeof *v);
        v->stats.warp_insts = fake_warp_insts;
    };
    return ops;
}

std::string slurp(FILE *f)
{
    std::string s;
    std::rewind(f);
    char buf[1024];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
        s.append(buf, n);
    return s;
}

} // namespace

TEST(Progress, LineText)
{
    // kernel 2 of 4, 30 of its 120 blocks done: (1 + 0.25) / 4 = 31.25 % of the run in 10 s,
    // so 10 * 0.6875 / 0.3125 = 22 s are left.
    smtlm_progress_state s = {2, 4, 123456, 7890000, 2.5e6, 1, 60, 120, 0.25, 10.0};
    char line[256];
    smtlm_progress_format(line, sizeof line, &s);
    EXPECT_STREQ(line, "smsim: kernel 2/4  cycle 123456  7890000 warp inst  2.50 M warp inst/s  trace 50% read  ETA 0:22");
    s = {1, 1, 5, 0, 0, 1, 0, 1, 0.0, 2.0}; // nothing finished yet: no estimate
    smtlm_progress_format(line, sizeof line, &s);
    EXPECT_NE(std::strstr(line, "trace 0% read  ETA --"), nullptr) << line;
    s = {3, 3, 5, 0, 0, 1, 1, 1, 0.0, 7200.0}; // 2 of 3 kernels in 2 h: 1 h left
    smtlm_progress_format(line, sizeof line, &s);
    EXPECT_NE(std::strstr(line, "ETA 1:00:00"), nullptr) << line;
}

// Without a trace (the synthetic workload) the line says nothing about reading one, and the
// estimate follows the kernel's share done: 40 % in 6 s leaves 9 s.
TEST(Progress, SyntheticLineHasNoTrace)
{
    smtlm_progress_state s = {1, 1, 9000, 400, 1e6, 0, 0, 4, 0.4, 6.0};
    char line[256];
    smtlm_progress_format(line, sizeof line, &s);
    EXPECT_STREQ(line, "smsim: kernel 1/1  cycle 9000  400 warp inst  1.00 M warp inst/s  ETA 0:09");
}

// A kernel whose warp instructions are known (the synthetic workload) is done in proportion to
// the ones retired, whatever its thread blocks do: 250 of 1000 after 3 s leaves 9 s.
TEST(Progress, KnownInstructionCountDrivesTheEstimate)
{
    std::unique_ptr<smtlm_gpu> gpu(new smtlm_gpu());
    std::memset(gpu.get(), 0, sizeof *gpu);
    const smtlm_sm_ops ops = fake_ops();
    gpu->ops = &ops;
    gpu->n_sm = 1;
    gpu->ctas_to_run = 80; // every block resident at once: none finishes before the end
    fake_warp_insts = 250;
    FILE *err = std::tmpfile();
    smtlm_progress p;
    fake_now = 10.0;
    smtlm_progress_init(&p, err, 1, fake_clock);
    smtlm_progress_kernel(&p, 1, 1, 0, 1000, 0);
    fake_now = 13.0;
    smtlm_progress_tick(&p, gpu.get());
    const std::string s = slurp(err);
    EXPECT_NE(s.find("250 warp inst"), std::string::npos) << s;
    EXPECT_NE(s.find("ETA 0:09"), std::string::npos) << s;
    EXPECT_EQ(s.find("trace"), std::string::npos) << s;
    std::fclose(err);
}

TEST(Progress, DrawnAfterASecondAtMostFourTimesASecond)
{
    std::unique_ptr<smtlm_gpu> gpu(new smtlm_gpu());
    std::memset(gpu.get(), 0, sizeof *gpu);
    gpu->ctas_to_run = 4;
    FILE *err = std::tmpfile();
    smtlm_progress p;
    fake_now = 100.0;
    smtlm_progress_init(&p, err, 1, fake_clock);
    smtlm_progress_kernel(&p, 1, 1, 0, 0, 1);
    fake_now = 100.9;
    smtlm_progress_tick(&p, gpu.get());
    EXPECT_EQ(slurp(err), "") << "not in the first second";
    smtlm_progress_clear(&p);
    EXPECT_EQ(slurp(err), "") << "nothing to erase";
    fake_now = 101.0;
    gpu->sim_cycle = 16384;
    gpu->next_cta = 2;
    smtlm_progress_tick(&p, gpu.get());
    std::string s = slurp(err);
    EXPECT_EQ(s.rfind("\rsmsim: kernel 1/1  cycle 16384", 0), 0u) << s;
    EXPECT_NE(s.find("trace 50% read"), std::string::npos) << s;
    EXPECT_EQ(s.substr(s.size() - 3), "\033[K");
    fake_now = 101.2;
    smtlm_progress_tick(&p, gpu.get());
    EXPECT_EQ(slurp(err), s) << "a quarter second between lines";
    fake_now = 101.25;
    smtlm_progress_tick(&p, gpu.get());
    EXPECT_GT(slurp(err).size(), s.size());
    s = slurp(err);
    smtlm_progress_clear(&p);
    EXPECT_EQ(slurp(err), s + "\r\033[K");
    std::fclose(err);
}

TEST(Progress, DisabledDrawsNothing)
{
    std::unique_ptr<smtlm_gpu> gpu(new smtlm_gpu());
    std::memset(gpu.get(), 0, sizeof *gpu);
    FILE *err = std::tmpfile();
    smtlm_progress p;
    fake_now = 0;
    smtlm_progress_init(&p, err, 0, fake_clock);
    fake_now = 50;
    smtlm_progress_tick(&p, gpu.get());
    smtlm_progress_clear(&p);
    EXPECT_EQ(slurp(err), "");
    std::fclose(err);
}
