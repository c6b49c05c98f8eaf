// Equivalence of the two engines over a list of many kernels that share SMs: vectoradd and
// matrixmul (one thread block each) in turn, eight kernels on a GPU of three SMs, so each
// kernel's per-SM sections and per-warp entries cover its own SM while the counters run on
// over the kernels. The C and the SystemC engine must print the same statistics and write the
// same JSON (all but wall_seconds), CSV and HTML report.
#include <gtest/gtest.h>

#include <fstream>

#include "smsim_outputs.hpp"
#include "smsim_run.hpp"
#include "smtlm/tlm/systemc_engine.h"

namespace {

std::string copy_of(const std::string &rel)
{
    std::ifstream f(e2e::data(rel), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
}

TEST(ManyKernelsEquivalence, BothEnginesWriteTheSameStatsForKernelsSharingSms)
{
    const std::string dir = e2e::scratch("equiv_many_kernels");
    e2e::write_file(dir + "/kernel-1.traceg", copy_of("traces/vectoradd-100-32-trace/kernel-1.traceg"));
    e2e::write_file(dir + "/kernel-2.traceg", copy_of("traces/matrixmul-32-32-trace/kernel-1.traceg"));
    std::string list;
    for (unsigned i = 0; i < 8; i++)
        list += i % 2 ? "kernel-2.traceg\n" : "kernel-1.traceg\n";
    e2e::write_file(dir + "/kernelslist.g", list);
    const smtlm_engine *const engines[] = {smtlm_systemc_engine(), smtlm_c_engine()};
    auto run = [&](const std::string &engine) {
        const std::string base = dir + "/" + engine;
        return e2e::smsim({"-trace", dir + "/kernelslist.g", "-gpgpu_n_clusters", "3", "-gpgpu_n_cores_per_cluster", "1",
                           "-smtlm_engine", engine, "-smtlm_stats_json", base + ".json", "-smtlm_stats_csv", base + ".csv",
                           "-smtlm_report", base + ".html"},
                          engines, 2);
    };
    const e2e::Result c = run("c"), s = run("systemc");
    ASSERT_EQ(c.status, 0) << c.err;
    EXPECT_EQ(s.status, 0) << s.err;
    EXPECT_EQ(equiv::without_wall_clock(c.out), equiv::without_wall_clock(s.out));
    const std::string json = equiv::read_json(dir + "/c.json");
    EXPECT_NE(json.find("\"kernel_launch_uid\":8,"), std::string::npos) << "not every kernel ran";
    EXPECT_NE(json.find("\"sms\":[{\"sm\":2,"), std::string::npos) << "no kernel on the third SM";
    EXPECT_EQ(json, equiv::read_json(dir + "/systemc.json"));
    EXPECT_TRUE(equiv::slurp(dir + "/c.csv") == equiv::slurp(dir + "/systemc.csv")) << "the CSV files differ";
    EXPECT_TRUE(equiv::slurp(dir + "/c.html") == equiv::slurp(dir + "/systemc.html")) << "the HTML reports differ";
}

} // namespace
