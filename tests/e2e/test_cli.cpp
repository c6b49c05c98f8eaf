// What a new user meets first on smsim's command line: partial configs, help and version,
// suggestions, kernel lists without kernels, clock domains and the JSON destination.
#include <gtest/gtest.h>

#include <algorithm>

#include <map>

extern "C" {
#include "smtlm/json_flat.h"
#include "smtlm/stats.h"
}

#include "micro_trace.hpp"
#include "smsim_run.hpp"

namespace {

int lines(const std::string &s) { return (int)std::count(s.begin(), s.end(), '\n'); }

// A one-warp, one-CTA kernel of n independent FFMAs in its own directory; returns the list.
std::string ffma_kernel(const std::string &name, unsigned n = 16)
{
    const std::string dir = e2e::scratch("cli_" + name);
    std::string t = "-kernel name = cli\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n"
                    "-nregs = 16\n-binary version = 70\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
                    "#traces format\n\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = " + std::to_string(n + 1) + "\n";
    char pc[16];
    for (unsigned i = 0; i < n; i++) {
        std::snprintf(pc, sizeof pc, "%04x", i * 16);
        t += std::string(pc) + " ffffffff 1 R" + std::to_string(20 + i % 8) + " FFMA 3 R3 R4 R5 0\n";
    }
    std::snprintf(pc, sizeof pc, "%04x", n * 16);
    t += std::string(pc) + " ffffffff 0 EXIT 0 0\n#END_TB\n";
    e2e::write_file(dir + "/kernel-1.traceg", t);
    e2e::write_file(dir + "/kernelslist.g", "kernel-1.traceg\n");
    return dir;
}

std::string file_with(const std::string &name, const std::string &text)
{
    const std::string path = e2e::scratch("cli_files") + "/" + name;
    e2e::write_file(path, text);
    return path;
}

// ---------------------------------------------------------------- partial configs

TEST(PartialConfig, AFileOfOneOptionSitsOnTheBuiltInMachine)
{
    e2e::Result builtin = e2e::smsim({});
    e2e::Result devnull = e2e::smsim({"-config", "/dev/null"});
    e2e::Result one = e2e::smsim({"-config", file_with("one.config", "-gpgpu_num_reg_banks 16\n")});
    ASSERT_EQ(builtin.status, 0) << builtin.err;
    ASSERT_EQ(devnull.status, 0) << devnull.err;
    ASSERT_EQ(one.status, 0) << one.err;
    // 16 banks is the built-in QV100's value: all three are the same machine. The synthetic
    // default's 29631 cycles are pinned in the README tour.
    EXPECT_EQ(builtin.stat("gpu_sim_cycle"), 29631);
    EXPECT_EQ(devnull.stat("gpu_sim_cycle"), 29631);
    EXPECT_EQ(one.stat("gpu_sim_cycle"), 29631);
}

TEST(PartialConfig, AFileAndTheCommandLineChangeTheSameMachine)
{
    e2e::Result file = e2e::smsim({"-config", file_with("eight.config", "-gpgpu_num_reg_banks 8\n")});
    e2e::Result cmdline = e2e::smsim({"-gpgpu_num_reg_banks", "8"});
    ASSERT_EQ(file.status, 0) << file.err;
    ASSERT_EQ(cmdline.status, 0) << cmdline.err;
    EXPECT_EQ(file.out.substr(0, file.out.find("gpgpu_simulation_time")),
              cmdline.out.substr(0, cmdline.out.find("gpgpu_simulation_time")));
    EXPECT_NE(file.stat("gpu_sim_cycle"), 29631); // fewer banks: more conflicts, another time
}

TEST(PartialConfig, ACommandLineValueIsBlamedOnTheCommandLine)
{
    // 3 schedulers cannot share the 8 generic collector units set at configs/qv100.config:42:
    // the value that broke the machine is the command line's (argv[3]), so the error points there.
    e2e::Result r = e2e::smsim({"-config", e2e::project_config("qv100.config"), "-gpgpu_num_sched_per_core", "3"});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("<command line>:3: -gpgpu_num_sched_per_core:"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("qv100.config"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("<default>"), std::string::npos) << r.err;
}

TEST(PartialConfig, AnErrorNeverBlamesADefault)
{
    // The trace latency alone breaks the SFU pipeline: it is named, not the depth's default.
    e2e::Result r = e2e::smsim({"-trace_opcode_latency_initiation_sfu", "400,8"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("<command line>:1: -trace_opcode_latency_initiation_sfu: latency 400"), std::string::npos) << r.err;
    // When the pipeline depth is what moved (set last), the depth is blamed: SP depth is the
    // second -ptx_opcode_latency_fp value, 3 here, and a 6-cycle, II 2 op starts at stage 4.
    r = e2e::smsim({"-trace_opcode_latency_initiation_sp", "6,2", "-ptx_opcode_latency_fp", "4,3,4,5,39"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("<command line>:3: -ptx_opcode_latency_fp: latency 6 (initiation interval 2) does not fit the SP"),
              std::string::npos) << r.err;
}

// ---------------------------------------------------------------- help, version, suggestions

TEST(Help, EveryHelpSpellingPrintsUsageAndSucceeds)
{
    for (const char *h : {"-h", "-help", "--help"}) {
        e2e::Result r = e2e::smsim({h});
        EXPECT_EQ(r.status, 0) << h;
        EXPECT_EQ(r.out.rfind("usage: smsim", 0), 0u) << h << ": " << r.out;
        EXPECT_NE(r.out.find("-trace"), std::string::npos);
        EXPECT_NE(r.out.find("docs/OPTIONS.md"), std::string::npos);
        EXPECT_EQ(r.err, "") << h;
    }
    // wherever it stands, and before anything is parsed or run
    e2e::Result r = e2e::smsim({"-gpgpu_bogus", "1", "--help"});
    EXPECT_EQ(r.status, 0);
}

TEST(Help, VersionNamesTheReleaseAndTheCommit)
{
    for (const char *v : {"--version", "-version"}) {
        e2e::Result r = e2e::smsim({v});
        EXPECT_EQ(r.status, 0) << v;
        EXPECT_EQ(r.out.rfind("smsim (smtlm) 0.1.0 (git ", 0), 0u) << r.out;
        EXPECT_EQ(lines(r.out), 1);
    }
}

TEST(Suggestions, OnlyNearNamesAreSuggested)
{
    e2e::Result far = e2e::smsim({"-bogus", "1"});
    EXPECT_EQ(far.status, 2);
    EXPECT_EQ(far.err.find("did you mean"), std::string::npos) << far.err;
    EXPECT_NE(far.err.find("unknown option -bogus"), std::string::npos) << far.err;
    e2e::Result near = e2e::smsim({"-gpgpu_num_reg_bank", "8"});
    EXPECT_NE(near.err.find("did you mean -gpgpu_num_reg_banks?"), std::string::npos) << near.err;
    e2e::Result typos = e2e::smsim({"-gpgpu_kernal_lanch_latency", "8"}); // 2 typos in a long name
    EXPECT_NE(typos.err.find("did you mean -gpgpu_kernel_launch_latency?"), std::string::npos) << typos.err;
}

// ---------------------------------------------------------------- inputs without kernels

void expect_no_kernel(const std::string &list, const std::string &what)
{
    e2e::Result r = e2e::smsim({"-trace", list});
    EXPECT_EQ(r.status, 2) << list;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(list), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("gpu_sim_cycle"), std::string::npos);
}

TEST(KernelList, AListWithoutKernelsIsAnError)
{
    expect_no_kernel("/dev/null", "names no kernel");
    expect_no_kernel(file_with("empty.g", ""), "names no kernel");
    expect_no_kernel(file_with("comments.g", "# nothing here\n\n# still nothing\n"), "names no kernel");
    expect_no_kernel(file_with("memcpy.g", "MemcpyHtoD,0x00007f0000000000,400\nMemcpyHtoD,0x00007f0000001000,400\n"),
                     "2 MemcpyHtoD lines");
}

TEST(KernelList, ATraceNotNamedKernelIsReportedNotSkippedSilently)
{
    const std::string dir = ffma_kernel("misnamed");
    std::rename((dir + "/kernel-1.traceg").c_str(), (dir + "/mykernel.traceg").c_str());
    e2e::write_file(dir + "/only.g", "MemcpyHtoD,0x00007f0000000000,400\nmykernel.traceg\n");
    expect_no_kernel(dir + "/only.g", "'mykernel.traceg' does not start with 'kernel'");
    // Beside a real kernel, the ignored line is a warning with its line number.
    ffma_kernel("misnamed"); // kernel-1.traceg again
    e2e::write_file(dir + "/both.g", "kernel-1.traceg\nmykernel.traceg\n");
    e2e::Result r = e2e::smsim({"-trace", dir + "/both.g"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("warning: " + dir + "/both.g:2: 'mykernel.traceg' ignored"), std::string::npos) << r.err;
    EXPECT_EQ(r.stat("kernel_launch_uid"), 1);
}

// ---------------------------------------------------------------- clock domains

TEST(ClockDomains, AreParsedAndValidated)
{
    for (const char *bad : {"garbage", "1132.0:1132.0:1132.0", "0:1:1:1", "1:2:3:4:5", "-5:1:1:1"}) {
        const std::string cfg = file_with("clock.config", std::string("# clocks\n-gpgpu_clock_domains ") + bad + "\n");
        e2e::Result r = e2e::smsim({"-config", cfg});
        EXPECT_EQ(r.status, 2) << bad;
        EXPECT_EQ(lines(r.err), 1) << r.err;
        EXPECT_NE(r.err.find(cfg + ":2: -gpgpu_clock_domains"), std::string::npos) << r.err;
    }
}

TEST(ClockDomains, TheCoreClockTurnsCyclesIntoTime)
{
    // 17 FFMAs of one warp: 5000 launch cycles + the pipeline; at 1000 MHz a cycle is 1 ns.
    e2e::Result r = e2e::smsim({"-trace", ffma_kernel("clock") + "/kernelslist.g", "-gpgpu_clock_domains", "1000.0:1:1:1"});
    ASSERT_EQ(r.status, 0) << r.err;
    const long long cycles = r.stat("gpu_sim_cycle");
    char want[96];
    std::snprintf(want, sizeof want, "smtlm_sim_time_us = %.6f (core clock 1000.0 MHz)", cycles / 1000.0);
    EXPECT_NE(r.out.find(want), std::string::npos) << r.out;
    // and the silicon slowdown line uses it too (Accel-Sim: core Hz / simulated cycles per second)
    EXPECT_NE(r.out.find("gpgpu_silicon_slowdown = "), std::string::npos);
}

// ---------------------------------------------------------------- JSON destination

TEST(StatsJson, DashMeansStdoutAndTheTextMovesToStderr)
{
    e2e::Result r = e2e::smsim({"-trace", ffma_kernel("json") + "/kernelslist.g", "-smtlm_stats_json", "-"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.front(), '{') << r.out;
    EXPECT_EQ(r.out.substr(r.out.size() - 2), "}\n");
    EXPECT_EQ(r.out.find("gpu_sim_cycle = "), std::string::npos);
    EXPECT_NE(r.err.find("gpu_sim_cycle = "), std::string::npos);
    EXPECT_NE(r.err.find("GPGPU-Sim: *** exit detected ***"), std::string::npos);
    EXPECT_FALSE(std::ifstream("-").good()); // no file named "-"
}

TEST(StatsJson, AnUnwritablePathSaysWhy)
{
    e2e::Result r = e2e::smsim({"-smtlm_stats_json", "/nonexistent-dir/stats.json"});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("/nonexistent-dir/stats.json: cannot open for writing: No such file or directory"),
              std::string::npos) << r.err;
}

TEST(StatsJson, HoldsOneStallEntryPerWarpThatRan)
{
    // 2 warps of one CTA; each issues its 17 instructions (16 FFMAs and EXIT).
    const std::string dir = ffma_kernel("perwarp");
    std::string t;
    {
        std::ifstream f(dir + "/kernel-1.traceg");
        t.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    }
    const size_t body = t.find("warp = 0"), end = t.find("#END_TB");
    std::string warp1 = t.substr(body, end - body);
    warp1.replace(0, 8, "warp = 1");
    t.insert(end, warp1);
    t.replace(t.find("(32,1,1)"), 8, "(64,1,1)");
    e2e::write_file(dir + "/kernel-1.traceg", t);
    const std::string json = e2e::scratch("cli_perwarp") + "/stats.json";
    e2e::Result r = e2e::smsim({"-trace", dir + "/kernelslist.g", "-smtlm_stats_json", json});
    ASSERT_EQ(r.status, 0) << r.err;
    std::ifstream f(json);
    std::string j((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    EXPECT_NE(j.find("\"warp_stall_per_warp\":[{\"sm\":0,\"warp\":0,\"issued\":17,"), std::string::npos) << j;
    EXPECT_NE(j.find("},{\"sm\":0,\"warp\":1,\"issued\":17,"), std::string::npos) << j;
    EXPECT_EQ(j.find("\"warp\":2,"), std::string::npos) << j; // warps that never ran are left out
}

// The per-SM sections hold what the kernel totals sum: over the SMs of the synthetic workload
// with 6 CTAs (one per SM of the 80-SM QV100), per-scheduler stalls, per-bank reads, per-unit
// busy cycles and per-SM warp instructions add up to the kernel's figures; the layout version
// is on top.
TEST(StatsJson, PerSmSectionsSumToTheKernelTotals)
{
    const std::string json = e2e::scratch("cli_persm") + "/stats.json";
    const e2e::Result r = e2e::smsim({"-smtlm_synth_ctas", "6", "-smtlm_synth_insts", "300", "-smtlm_stats_json", json});
    ASSERT_EQ(r.status, 0) << r.err;
    smtlm_json_flat f;
    char msg[512];
    ASSERT_EQ(smtlm_json_flatten_file(json.c_str(), &f, msg, sizeof msg), 0) << msg;
    std::map<std::string, double> v;
    for (size_t i = 0; i < f.n; i++)
        v[f.leaf[i].path] = f.leaf[i].number;
    smtlm_json_flat_free(&f);
    EXPECT_EQ(v["schema_version"], SMTLM_STATS_SCHEMA_VERSION);
    std::map<std::string, double> sum;
    unsigned sms = 0;
    const std::regex sched("kernels\\[0\\]\\.sms\\[[0-9]+\\]\\.schedulers\\[[0-9]+\\]\\.(stall|w0_idle|w0_scoreboard)");
    const std::regex bank("kernels\\[0\\]\\.sms\\[[0-9]+\\]\\.rf_banks\\[([0-9]+)\\]\\.reads");
    const std::regex unit("kernels\\[0\\]\\.sms\\[([0-9]+)\\]\\.units\\[([0-9]+)\\]\\.busy_cycles");
    const std::regex warps("kernels\\[0\\]\\.sms\\[[0-9]+\\]\\.warp_insts");
    std::smatch m;
    for (const auto &kv : v) {
        if (std::regex_match(kv.first, m, sched))
            sum[m[1]] += kv.second;
        else if (std::regex_match(kv.first, m, bank))
            sum["bank" + m[1].str()] += kv.second;
        else if (std::regex_match(kv.first, m, warps))
            sum["warps"] += kv.second, sms++;
    }
    // unit kinds come as strings: sum busy cycles by kind through the kind leaves
    smtlm_json_flat g;
    ASSERT_EQ(smtlm_json_flatten_file(json.c_str(), &g, msg, sizeof msg), 0);
    std::map<std::string, std::string> kinds;
    for (size_t i = 0; i < g.n; i++) {
        std::string p = g.leaf[i].path;
        if (p.size() > 5 && p.compare(p.size() - 5, 5, ".kind") == 0)
            kinds[p.substr(0, p.size() - 5)] = g.leaf[i].text;
    }
    smtlm_json_flat_free(&g);
    for (const auto &kv : v)
        if (std::regex_match(kv.first, m, unit))
            sum["fu_" + kinds[kv.first.substr(0, kv.first.size() - 12)]] += kv.second;
    EXPECT_EQ(sms, 6u);
    EXPECT_EQ(sum["stall"], v["kernels[0].stall"]);
    EXPECT_EQ(sum["w0_idle"], v["kernels[0].w0_idle"]);
    EXPECT_EQ(sum["w0_scoreboard"], v["kernels[0].w0_scoreboard"]);
    EXPECT_EQ(sum["bank0"], v["kernels[0].rf_bank_reads[0]"]);
    EXPECT_EQ(sum["bank5"], v["kernels[0].rf_bank_reads[5]"]);
    EXPECT_EQ(sum["warps"], v["kernels[0].gpu_sim_warp_insn"]);
    EXPECT_EQ(sum["fu_sp"], v["kernels[0].fu_busy_cycles.sp"]);
    EXPECT_EQ(sum["fu_int"], v["kernels[0].fu_busy_cycles.int"]);
    EXPECT_GT(sum["fu_int"], 0);
    // per collector unit: allocations add up to the SM's; the cycles each CU held an
    // instruction (allocation to dispatch) add up to the occupancy samples (a CU is seen busy
    // in every cycle from its allocation to the one before its dispatch). Queue depths: every
    // bank-step that left reads waiting has one depth.
    for (unsigned sm = 0; sm < sms; sm++) {
        const std::string p = "kernels[0].sms[" + std::to_string(sm) + "].";
        double alloc = 0, held = 0, depth = 0, waits = 0;
        for (unsigned j = 0; v.count(p + "collector.cu_allocations[" + std::to_string(j) + "]"); j++) {
            alloc += v[p + "collector.cu_allocations[" + std::to_string(j) + "]"];
            held += v[p + "collector.cu_held_cycles[" + std::to_string(j) + "]"];
        }
        for (unsigned d = 0; d < 16; d++)
            depth += v[p + "rf_queue_depth_hist[" + std::to_string(d) + "]"];
        for (unsigned b = 0; v.count(p + "rf_banks[" + std::to_string(b) + "].wait_steps"); b++)
            waits += v[p + "rf_banks[" + std::to_string(b) + "].wait_steps"];
        EXPECT_EQ(alloc, v[p + "collector.allocations"]) << sm;
        EXPECT_EQ(held, v[p + "collector.occupancy_sum"]) << sm;
        EXPECT_EQ(depth, waits) << sm;
        EXPECT_GT(depth, 0) << sm;
    }
}

// ---------------------------------------------------------------- -smtlm_stats_csv

std::vector<std::vector<std::string>> read_csv(const std::string &path)
{
    std::ifstream f(path);
    std::vector<std::vector<std::string>> rows;
    std::string line;
    while (std::getline(f, line)) {
        std::vector<std::string> row;
        std::string cell;
        bool quoted = false;
        for (size_t i = 0; i < line.size(); i++) {
            const char ch = line[i];
            if (quoted && ch == '"' && i + 1 < line.size() && line[i + 1] == '"')
                cell += '"', i++;
            else if (ch == '"')
                quoted = !quoted;
            else if (ch == ',' && !quoted)
                row.push_back(cell), cell.clear();
            else
                cell += ch;
        }
        row.push_back(cell);
        rows.push_back(row);
    }
    return rows;
}

// Two kernels (16 and 40 FFMAs): a header, then one row per kernel whose cells are the
// kernel's counters as stdout prints them; per-SM and per-warp lists stay in the JSON only.
TEST(StatsCsv, OneRowPerKernel)
{
    const std::string dir = ffma_kernel("csv");
    const std::string second = ffma_kernel("csv2", 40);
    std::rename((second + "/kernel-1.traceg").c_str(), (dir + "/kernel-2.traceg").c_str());
    e2e::write_file(dir + "/kernelslist.g", "kernel-1.traceg\nkernel-2.traceg\n");
    const std::string csv = e2e::scratch("cli_csv") + "/stats.csv";
    const e2e::Result r = e2e::smsim({"-trace", dir + "/kernelslist.g", "-smtlm_stats_csv", csv});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto rows = read_csv(csv);
    ASSERT_EQ(rows.size(), 3u);
    const auto &h = rows[0];
    ASSERT_EQ(rows[1].size(), h.size());
    ASSERT_EQ(rows[2].size(), h.size());
    auto col = [&](const std::string &name) {
        const auto it = std::find(h.begin(), h.end(), name);
        EXPECT_NE(it, h.end()) << name;
        return (size_t)(it - h.begin());
    };
    EXPECT_EQ(rows[1][col("kernel_name")], "cli");
    EXPECT_EQ(rows[1][col("kernel_launch_uid")], "1");
    EXPECT_EQ(rows[2][col("kernel_launch_uid")], "2");
    // stdout's per-kernel lines, in order
    std::regex re("gpu_sim_cycle = ([0-9]+)");
    std::vector<std::string> cycles;
    for (std::sregex_iterator it(r.out.begin(), r.out.end(), re), end; it != end; ++it)
        cycles.push_back((*it)[1]);
    ASSERT_EQ(cycles.size(), 2u);
    EXPECT_EQ(rows[1][col("gpu_sim_cycle")], cycles[0]);
    EXPECT_EQ(rows[2][col("gpu_sim_cycle")], cycles[1]);
    EXPECT_EQ(rows[1][col("gpu_sim_warp_insn")], "17");
    EXPECT_EQ(rows[2][col("gpu_sim_warp_insn")], "41");
    EXPECT_EQ(rows[2][col("gpgpu_n_tot_w_icount")], "58");
    col("rf_bank_reads[0]");
    col("warp_stall.scoreboard");
    for (const std::string &c : h) {
        EXPECT_NE(c.rfind("sms[", 0), 0u) << c;
        EXPECT_NE(c.rfind("warp_stall_per_warp[", 0), 0u) << c;
    }
}

TEST(StatsCsv, AnUnwritablePathSaysWhy)
{
    const e2e::Result r = e2e::smsim({"-smtlm_stats_csv", "/nonexistent-dir/k.csv"});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "smsim: /nonexistent-dir/k.csv: cannot open for writing: No such file or directory\n");
}

// ---------------------------------------------------------------- -smtlm_compare

// One kernel on the QV100 and on a QV100 with a single scheduler and no sub-cores, compared:
// the cycles row carries both runs' gpu_sim_cycle, their difference and the relative change,
// and the exit status is 1 (differ), as diff's.
TEST(Compare, ShowsEachChangedCounterWithItsChange)
{
    const std::string dir = ffma_kernel("compare"), scratch = e2e::scratch("cli_compare");
    const std::string a = scratch + "/a.json", b = scratch + "/b.json";
    const e2e::Result ra = e2e::smsim({"-trace", dir + "/kernelslist.g", "-smtlm_stats_json", a});
    const e2e::Result rb = e2e::smsim({"-trace", dir + "/kernelslist.g", "-smtlm_stats_json", b,
                                       "-gpgpu_num_sched_per_core", "1", "-gpgpu_sub_core_model", "0"});
    ASSERT_EQ(ra.status, 0) << ra.err;
    ASSERT_EQ(rb.status, 0) << rb.err;
    const long long ca = ra.stat("gpu_sim_cycle"), cb = rb.stat("gpu_sim_cycle");
    ASSERT_NE(ca, cb) << "the two machines must differ in cycles for this test";

    const e2e::Result same = e2e::smsim({"-smtlm_compare", a, a});
    EXPECT_EQ(same.status, 0) << same.err;
    EXPECT_NE(same.out.find(" counters in both: 0 differ; 0 only in A, 0 only in B"), std::string::npos) << same.out;

    const e2e::Result r = e2e::smsim({"-smtlm_compare", a, b});
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_EQ(r.out.find("A: " + a + "\nB: " + b + "\n"), 0u) << r.out;
    const std::regex row("kernels\\[0\\]\\.gpu_sim_cycle +([0-9]+) +([0-9]+) +([-+][0-9]+) +([-+][0-9.]+)%\n");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.out, m, row)) << r.out;
    EXPECT_EQ(std::stoll(m[1]), ca);
    EXPECT_EQ(std::stoll(m[2]), cb);
    EXPECT_EQ(std::stoll(m[3]), cb - ca);
    char pct[32];
    std::snprintf(pct, sizeof pct, "%+.2f", 100.0 * (double)(cb - ca) / (double)ca);
    EXPECT_EQ(m[4].str(), pct);
    EXPECT_EQ(r.out.find("wall_seconds  "), std::string::npos) << "host time is never a difference";
    EXPECT_NE(r.out.find("; wall_seconds (host time) not compared\n"), std::string::npos);
    // unchanged counters only with -smtlm_compare_all 1
    EXPECT_EQ(r.out.find("kernels[0].gpu_sim_insn "), std::string::npos);
    const e2e::Result all = e2e::smsim({"-smtlm_compare", a, b, "-smtlm_compare_all", "1"});
    EXPECT_NE(all.out.find("kernels[0].gpu_sim_insn "), std::string::npos) << all.out;
}

TEST(Compare, BadFilesAndCommandLinesAreOneClearError)
{
    const std::string scratch = e2e::scratch("cli_compare_bad"), good = scratch + "/good.json", bad = scratch + "/bad.json";
    e2e::write_file(good, "{\"a\":1}\n");
    e2e::write_file(bad, "{\"a\":1,\n\"b\":}\n");
    e2e::Result r = e2e::smsim({"-smtlm_compare", good, bad});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "smsim: " + bad + ":2: expected a value\n");
    r = e2e::smsim({"-smtlm_compare", good, scratch + "/missing.json"});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "smsim: " + scratch + "/missing.json: cannot open: No such file or directory\n");
    for (const std::vector<std::string> &args : std::vector<std::vector<std::string>>{
             {"-smtlm_compare", good}, {"-smtlm_compare", good, good, "-trace", "x"},
             {"-trace", "x", "-smtlm_compare", good, good}, {"-smtlm_compare", good, good, "-smtlm_compare_all", "2"}}) {
        r = e2e::smsim(args);
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(lines(r.err), 1) << r.err;
        EXPECT_NE(r.err.find("-smtlm_compare takes two stats files"), std::string::npos) << r.err;
    }
    r = e2e::smsim({"-smtlm_compare", good, good});
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("1 counters in both: 0 differ"), std::string::npos) << r.out;
}

} // namespace

namespace {

// -smtlm_event_log on Accel-Sim's dependent-FFMA microbenchmark (one warp, 64 FFMAs on R2,
// then EXIT): one line per retired instruction in retirement order (writeback cycles never go
// back). After the first FFMA each issues 7 cycles after the one before (the QV100
// dependent-issue distance: the FFMA's result must be written back and released first); EXIT
// depends on nothing and issues the next cycle after the last FFMA, so it retires before it.
TEST(EventLog, OneLinePerRetiredInstructionWithItsCycles)
{
    const std::string path = e2e::scratch("event_log") + "/events.txt";
    std::vector<std::string> args = e2e::stock("SM7_QV100");
    args.insert(args.begin(), {"-trace", e2e::write_micro_trace("dep", 64, 1), "-smtlm_event_log", path});
    const e2e::Result r = e2e::smsim(args);
    ASSERT_EQ(r.status, 0) << r.err;
    std::ifstream f(path);
    std::string line;
    ASSERT_TRUE(std::getline(f, line));
    EXPECT_EQ(line, "# kernel sm warp pc uid issue cu_alloc operands oc_ex fu_issue writeback");
    std::vector<std::vector<unsigned long long>> ev(65); // by uid - 1
    std::vector<unsigned long long> wb_order;
    unsigned lines = 0;
    while (std::getline(f, line)) {
        std::istringstream ls(line);
        unsigned kernel, sm, warp;
        unsigned long long uid;
        std::string pc;
        ls >> kernel >> sm >> warp >> pc >> uid;
        EXPECT_EQ(kernel, 1u);
        EXPECT_EQ(warp, 0u);
        ASSERT_TRUE(uid >= 1 && uid <= 65) << line;
        char want[16];
        std::snprintf(want, sizeof want, "0x%04x", (unsigned)(uid - 1) * 16); // EXIT at 64 * 16
        EXPECT_EQ(pc, want);
        std::vector<unsigned long long> &e = ev[uid - 1];
        e.resize(6);
        for (auto &x : e)
            ls >> x;
        for (size_t k = 1; k < 6; k++)
            EXPECT_LE(e[k - 1], e[k]) << "uid " << uid << " event " << k;
        wb_order.push_back(e[5]);
        lines++;
    }
    ASSERT_EQ(lines, 65u);
    EXPECT_TRUE(std::is_sorted(wb_order.begin(), wb_order.end()));
    for (size_t i = 1; i < 64; i++)
        EXPECT_EQ(ev[i][0] - ev[i - 1][0], 7u) << "FFMA " << i;
    EXPECT_EQ(ev[64][0], ev[63][0] + 1); // EXIT
    EXPECT_LT(ev[64][5], ev[63][5]);
}

} // namespace

// ---------------------------------------------------------------- -smtlm_addr_map

// Each window in unsigned 64-bit numbers: a sign (which would wrap to the top of the space), a
// number past 64 bits, an empty window, one that runs past the end of the space, a stray comma
// are errors naming where the option was set; the top sector itself is a valid target.
TEST(Cli, AddrMapWindowsAreUnsigned64BitRanges)
{
    for (const char *bad : {"0x1000:0x20:-32", "0x1000:0x20:0x1ffffffffffffffff", "0x1000:0:0x2000",
                            "0xffffffffffffff00:0x200:0", "0x1000:0x20:0xfffffffffffffff0", "0x1000:0x20:0x2000,",
                            "0x1000:0x20", "-1:0x20:0x2000"}) {
        const e2e::Result r = e2e::smsim({"-smtlm_addr_map", bad, "-smtlm_check_options", "1"});
        EXPECT_EQ(r.status, 2) << bad;
        EXPECT_EQ(r.err, std::string("smsim: <command line>:1: -smtlm_addr_map: '") + bad +
                             "' is not <trace_base>:<size>:<soc_base>[,...] (unsigned 64-bit numbers, size > 0, each "
                             "window within the 64-bit address space, at most 16 entries)\n");
    }
    // valid windows: what is left is that this program (the C engine alone) cannot honour them
    for (const char *good : {"0x1000:0x20:0xffffffffffffffe0", "0x1000:0x20:0x2000,0x4000:0x10:0", "4096:32:010"}) {
        const e2e::Result r = e2e::smsim({"-smtlm_addr_map", good, "-smtlm_check_options", "1"});
        EXPECT_EQ(r.status, 2) << good;
        EXPECT_EQ(r.err, "smsim: <command line>:1: -smtlm_addr_map is an option of the SystemC engine, which this "
                         "program does not have\n")
            << good;
    }
}
