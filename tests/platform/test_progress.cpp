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
    smtlm_progress_state s = {2, 4, 123456, 7890000, 2.5e6, 60, 120, 30, 10.0};
    char line[256];
    smtlm_progress_format(line, sizeof line, &s);
    EXPECT_STREQ(line, "smsim: kernel 2/4  cycle 123456  7890000 warp inst  2.50 M warp inst/s  trace 50% read  ETA 0:22");
    s = {1, 1, 5, 0, 0, 0, 1, 0, 2.0}; // nothing finished yet: no estimate
    smtlm_progress_format(line, sizeof line, &s);
    EXPECT_NE(std::strstr(line, "trace 0% read  ETA --"), nullptr) << line;
    s = {3, 3, 5, 0, 0, 1, 1, 0, 7200.0}; // 2 of 3 kernels in 2 h: 1 h left
    smtlm_progress_format(line, sizeof line, &s);
    EXPECT_NE(std::strstr(line, "ETA 1:00:00"), nullptr) << line;
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
    smtlm_progress_kernel(&p, 1, 1, 0);
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
