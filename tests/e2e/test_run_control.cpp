// Run limits (-gpgpu_max_cycle, -gpgpu_max_insn, -gpgpu_max_cta), the watchdog, the JSON
// statistics, the unmodelled-option warning, the option listing and the built-in default run.
#include <algorithm>
#include <gtest/gtest.h>

#include "smsim_run.hpp"

namespace {

// n_tbs thread blocks of one warp each: 16 independent FFMAs then EXIT.
std::string multi_tb_trace(const std::string &name, unsigned n_tbs, const std::string &op = "FFMA 3 R3 R4 R5 0")
{
    const std::string dir = e2e::scratch("ctl_" + name);
    std::string t = "-kernel name = ctl\n-kernel id = 1\n-grid dim = (" + std::to_string(n_tbs) +
                    ",1,1)\n-block dim = (32,1,1)\n-shmem = 0\n-nregs = 16\n-binary version = 70\n"
                    "-accelsim tracer version = 4\n-enable lineinfo = 0\n\n#traces format\n\n";
    for (unsigned b = 0; b < n_tbs; b++) {
        t += "#BEGIN_TB\nthread block = " + std::to_string(b) + ",0,0\nwarp = 0\ninsts = 17\n";
        char pc[16];
        for (unsigned i = 0; i < 16; i++) {
            std::snprintf(pc, sizeof pc, "%04x", i * 16);
            t += std::string(pc) + " ffffffff 1 R" + std::to_string(20 + i % 8) + " " + op + "\n";
        }
        t += "0100 ffffffff 0 EXIT 0 0\n#END_TB\n";
    }
    e2e::write_file(dir + "/kernel-1.traceg", t);
    e2e::write_file(dir + "/kernelslist.g", "kernel-1.traceg\n");
    return dir + "/kernelslist.g";
}

TEST(RunControl, MaxCycleStopsTheRun)
{
    e2e::Result r = e2e::smsim({"-trace", multi_tb_trace("maxcyc", 4), "-gpgpu_max_cycle", "5010"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("GPGPU-Sim: ** break due to reaching the maximum cycles (or instructions) **\n"), std::string::npos);
    EXPECT_EQ(r.stat("gpu_sim_cycle"), 5010);
}

TEST(RunControl, MaxInsnStopsTheRun)
{
    // 4 CTAs x 17 warp instructions x 32 lanes = 2176 thread instructions in full.
    e2e::Result r = e2e::smsim({"-trace", multi_tb_trace("maxinsn", 4), "-gpgpu_max_insn", "500"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("GPGPU-Sim: ** break due to reaching the maximum cycles (or instructions) **\n"), std::string::npos);
    EXPECT_GE(r.stat("gpu_sim_insn"), 500);
    EXPECT_LT(r.stat("gpu_sim_insn"), 2176);
}

TEST(RunControl, MaxCtaLimitsTheCtasRun)
{
    e2e::Result full = e2e::smsim({"-trace", multi_tb_trace("maxcta_full", 4)});
    e2e::Result two = e2e::smsim({"-trace", multi_tb_trace("maxcta", 4), "-gpgpu_max_cta", "2"});
    ASSERT_EQ(two.status, 0) << two.err;
    EXPECT_EQ(full.stat("gpu_sim_insn"), 4 * 17 * 32);
    EXPECT_EQ(two.stat("gpu_sim_insn"), 2 * 17 * 32);
    // The CTA limit ends the run with Accel-Sim's break line, as the other limits do.
    EXPECT_NE(two.out.find("GPGPU-Sim: ** break due to reaching the maximum cycles (or instructions) **\n"), std::string::npos);
    EXPECT_EQ(full.out.find("break due to"), std::string::npos);
    EXPECT_NE(two.out.find("GPGPU-Sim: *** exit detected ***\n"), std::string::npos);
}

// A machine that never reads the SFU's ID_OC set: the specialized collector sets without a
// generic input port or an SFU one. The first MUFU waits there forever; the second finds no
// free slot.
std::vector<std::string> sfu_never_read(const std::string &name)
{
    return {"-trace", multi_tb_trace(name, 1, "MUFU.RCP 1 R3 0"), "-gpgpu_enable_specialized_operand_collector", "1",
            "-gpgpu_operand_collector_num_units_mem", "4", "-gpgpu_operand_collector_num_in_ports_gen", "0",
            "-gpgpu_operand_collector_num_in_ports_sfu", "0", "-smtlm_watchdog_cycles", "2000"};
}

TEST(RunControl, WatchdogNamesTheStuckWarps)
{
    e2e::Result r = e2e::smsim(sfu_never_read("deadlock"));
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("deadlock"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("sm 0 warp 0 (CTA 0): waiting for a free pipeline slot at pc 0x0010"), std::string::npos) << r.err;
    EXPECT_LT(r.stat("gpu_sim_cycle"), 5000 + 2000 + 2048);
}

TEST(RunControl, StatsJsonHoldsEveryCounter)
{
    const std::string path = e2e::scratch("json") + "/stats.json";
    e2e::Result r = e2e::smsim({"-trace", multi_tb_trace("json", 2), "-smtlm_stats_json", path});
    ASSERT_EQ(r.status, 0) << r.err;
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    const std::string j = s.str();
    for (const char *key : {"\"gpu_sim_cycle\":", "\"gpu_sim_insn\":1088", "\"rf_bank_reads\":[", "\"rf_bank_wait_steps\":[",
                            "\"cu_occupancy_hist\":[", "\"operand_collection_latency_hist\":[", "\"fu_busy_cycles\":{",
                            "\"warp_stall\":{", "\"stall\":", "\"gpu_tot_sim_cycle\":"})
        EXPECT_NE(j.find(key), std::string::npos) << key;
    EXPECT_EQ(j.front(), '{');
    EXPECT_EQ(j.substr(j.size() - 2), "}\n");
}

TEST(RunControl, WarnsAboutUnmodelledOptionsSetToNonDefaults)
{
    std::vector<std::string> args = e2e::stock("SM7_QV100");
    args.insert(args.begin(), {"-trace", multi_tb_trace("warn", 1)});
    e2e::Result r = e2e::smsim(args);
    ASSERT_EQ(r.status, 0) << r.err;
    // One short line by default: the count and where to look (the full list is 1.2 KB) ...
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("options set to non-default values are not modelled"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("-smtlm_list_options 1"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("gpgpu_cache:dl1"), std::string::npos) << r.err;
    EXPECT_LT(r.err.size(), 200u) << r.err;
    // ... and every name with -smtlm_verbose 1.
    args.insert(args.end(), {"-smtlm_verbose", "1"});
    e2e::Result verbose = e2e::smsim(args);
    EXPECT_NE(verbose.err.find(" -gpgpu_cache:dl1"), std::string::npos) << verbose.err; // an L1 option we do not model
    e2e::Result quiet = e2e::smsim({"-trace", multi_tb_trace("warn", 1), "-config", e2e::project_config("qv100.config")});
    EXPECT_EQ(quiet.err, "");
}

TEST(RunControl, ListOptions)
{
    e2e::Result r = e2e::smsim({"-smtlm_list_options", "1"});
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("-gpgpu_num_reg_banks"), std::string::npos);
    EXPECT_NE(r.out.find("[not modelled]"), std::string::npos);
    EXPECT_EQ(r.out.find("gpu_sim_cycle"), std::string::npos); // nothing simulated
}

TEST(RunControl, DefaultRunIsTheBuiltInSyntheticWorkload)
{
    e2e::Result r = e2e::smsim({});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("kernel_name = smtlm_synthetic"), std::string::npos);
    // 32 warps x (2000 + EXIT) warp instructions of one CTA (the synthetic defaults).
    EXPECT_EQ(r.stat("gpu_sim_warp_insn"), 32 * 2001);
    EXPECT_GT(r.stat("gpu_sim_cycle"), 5000);
}

} // namespace

namespace {

// Every statistic but the bulk-skip count and the wall time.
std::string stats_without_skip(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    std::string j = std::regex_replace(s.str(), std::regex("\"skipped_cycles\":[0-9]+,"), "");
    return std::regex_replace(j, std::regex("\"wall_seconds\":[0-9.]+"), "");
}

long long skipped(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    std::smatch m;
    const std::string j = s.str();
    return std::regex_search(j, m, std::regex("\"skipped_cycles\":([0-9]+)")) ? std::stoll(m[1]) : -1;
}

// Jumping over cycles in which every SM only waits for memory changes no statistic at all.
TEST(RunControl, SkippingIdleCyclesKeepsEveryCounterExact)
{
    const std::string dir = e2e::scratch("skip");
    const std::vector<std::vector<std::string>> runs = {
        {"-trace", e2e::data("traces/lud/kernelslist.g"), "-config", e2e::project_config("qv100.config")},
        {"-trace", e2e::data("traces/vectoradd-100-32-trace/kernelslist.g"), "-config", e2e::project_config("titanx.config")},
        {"-smtlm_synth_mix", "sp=40,ldg=60", "-smtlm_synth_warps", "4", "-smtlm_synth_insts", "300",
         "-smtlm_synth_dep_distance", "1"},
    };
    for (size_t i = 0; i < runs.size(); i++) {
        std::vector<std::string> on = runs[i], off = runs[i];
        const std::string a = dir + "/on" + std::to_string(i) + ".json", b = dir + "/off" + std::to_string(i) + ".json";
        on.insert(on.end(), {"-smtlm_stats_json", a});
        off.insert(off.end(), {"-smtlm_skip_idle", "0", "-smtlm_stats_json", b});
        ASSERT_EQ(e2e::smsim(on).status, 0);
        ASSERT_EQ(e2e::smsim(off).status, 0);
        EXPECT_EQ(stats_without_skip(a), stats_without_skip(b)) << "run " << i;
        EXPECT_GT(skipped(a), 0) << "run " << i;
        EXPECT_EQ(skipped(b), 0) << "run " << i;
    }
}

} // namespace

namespace {

// The synthetic workload's shape options reach the generator; bad values name their option.
TEST(RunControl, SyntheticWorkloadOptions)
{
    e2e::Result r = e2e::smsim({"-smtlm_synth_ctas", "3", "-smtlm_synth_warps", "2", "-smtlm_synth_insts", "50",
                                "-smtlm_synth_reg_skew", "1", "-smtlm_synth_regs", "8", "-smtlm_synth_seed", "7"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.stat("gpu_sim_warp_insn"), 3 * 2 * 51); // 3 CTAs x 2 warps x (50 + EXIT)
    e2e::Result bad = e2e::smsim({"-smtlm_synth_reg_skew", "9"});
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("<command line>:1: -smtlm_synth_reg_skew: must be between 1 (uniform) and 8"), std::string::npos)
        << bad.err;
}

} // namespace

// A memory slower than the watchdog is not a deadlock: requests in flight and answered count as
// progress. (Before, this run ended at cycle 11264 as a "deadlock" naming the scoreboard.) The
// kernel must take longer than one memory round trip after the 5000 launch cycles.
TEST(RunControl, SlowMemoryIsNotADeadlock)
{
    const std::vector<std::string> args = {"-smtlm_mem_latency", "20000", "-smtlm_watchdog_cycles", "5000",
                                           "-smtlm_synth_insts", "200", "-smtlm_synth_mix", "sp=50,ldg=50"};
    e2e::Result r = e2e::smsim(args);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err.find("deadlock"), std::string::npos) << r.err;
    EXPECT_GT(r.stat("gpu_sim_cycle"), 5000 + 20000);
    std::vector<std::string> no_skip = args;
    no_skip.insert(no_skip.end(), {"-smtlm_skip_idle", "0"});
    EXPECT_EQ(e2e::smsim(no_skip).stat("gpu_sim_cycle"), r.stat("gpu_sim_cycle"));
}

// A real deadlock still ends the run, and the report says memory is not what it waits for.
TEST(RunControl, DeadlockReportSaysWhetherMemoryIsOutstanding)
{
    e2e::Result r = e2e::smsim(sfu_never_read("deadlock_mem"));
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("memory: no request outstanding (the stall is not waiting on memory)"), std::string::npos) << r.err;
}
