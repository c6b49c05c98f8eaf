// Input that cannot make a run, each refused with one message naming where it came from and
// exit status 2: config files past the reader's limits, an explicitly empty -trace, machines
// that lack a unit the workload's instructions need or whose generic collector units could
// never dispatch, and bad -smtlm_log_* values.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include "smsim_run.hpp"

namespace {

void expect_only_error(const e2e::Result &r, const std::string &message)
{
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "smsim: " + message + "\n");
    EXPECT_EQ(r.out.find("gpu_sim_cycle"), std::string::npos) << "nothing was simulated";
}

// A one-warp kernel: `op` on the instruction line kFirstLine, then EXIT.
const unsigned kFirstLine = 17;
std::string trace_with(const std::string &name, const std::string &op)
{
    const std::string dir = e2e::scratch("limits_" + name);
    e2e::write_file(dir + "/kernel-1.traceg",
                    "-kernel name = k\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n"
                    "-nregs = 16\n-binary version = 70\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
                    "#traces format\n\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n"
                    "0000 ffffffff 1 R2 " + op + "\n0010 ffffffff 0 EXIT 0 0\n#END_TB\n");
    e2e::write_file(dir + "/kernelslist.g", "kernel-1.traceg\n");
    return dir;
}

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string> &more)
{
    a.insert(a.end(), more.begin(), more.end());
    return a;
}

} // namespace

// ---- the config reader's limits (tests/platform/test_config_limits.cpp has the details)

TEST(InputLimits, DevZeroAsAConfigIsANulByte)
{
    expect_only_error(e2e::smsim({"-config", "/dev/zero"}), "/dev/zero:1: NUL byte in config text");
}

TEST(InputLimits, AConfigOverOneMebibyte)
{
    const std::string path = e2e::scratch("limits_big") + "/big.config";
    e2e::write_file(path, "-gpgpu_n_clusters 2\n#" + std::string(1u << 20, 'x') + "\n");
    expect_only_error(e2e::smsim({"-config", path}),
                      path + ": larger than 1048576 bytes, the limit for a config file (-config at <command line>:1)");
}

TEST(InputLimits, IncludesThatMultiply)
{
    const std::string dir = e2e::scratch("limits_tree");
    for (int i = 0; i < 12; i++) {
        const std::string next = dir + "/level" + std::to_string(i + 1) + ".config";
        e2e::write_file(dir + "/level" + std::to_string(i) + ".config", "-config " + next + " -config " + next + "\n");
    }
    e2e::write_file(dir + "/level12.config", "-gpgpu_n_clusters 2\n");
    const e2e::Result r = e2e::smsim({"-config", dir + "/level0.config"});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("smsim: " + dir + "/level", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(".config:1: -config " + dir + "/level"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(": more than 1024 config files in one run"), std::string::npos) << r.err;
}

// ---- -trace ""

TEST(InputLimits, AnEmptyTraceIsAnError)
{
    const std::string msg = ": -trace: empty path (leave -trace out to run the built-in synthetic workload)";
    expect_only_error(e2e::smsim({"-gpgpu_max_cycle", "100", "-trace", ""}), "<command line>:3" + msg);
    expect_only_error(e2e::smsim({"-trace", "", "-smtlm_check_options", "1"}), "<command line>:1" + msg);
    const std::string cfg = e2e::scratch("limits_trace") + "/trace.config";
    e2e::write_file(cfg, "# no trace\n-trace \"\"\n");
    expect_only_error(e2e::smsim({"-config", cfg}), cfg + ":2" + msg);
    expect_only_error(e2e::smsim({"-config", cfg, "-smtlm_check_options", "1"}), cfg + ":2" + msg);
}

// A FIFO nothing writes to, as the kernel list, as a kernel trace in a list, or as a stats file
// to compare: refused at once, in a run and under -smtlm_check_options (which reads the kernel
// headers), never waited for.
TEST(InputLimits, AFifoWithoutWriterIsNeverWaitedFor)
{
    const std::string dir = e2e::scratch("limits_fifo");
    const std::string list = dir + "/kernelslist.g", trace = dir + "/kernel-1.traceg";
    unlink(list.c_str());
    unlink(trace.c_str());
    ASSERT_EQ(mkfifo(list.c_str(), 0600), 0);
    const std::string no_writer = ": a FIFO or pipe that nothing was written to (no writer?)";
    expect_only_error(e2e::smsim({"-trace", list}), list + no_writer);
    expect_only_error(e2e::smsim({"-trace", list, "-smtlm_check_options", "1"}), list + no_writer);
    unlink(list.c_str());
    e2e::write_file(list, "kernel-1.traceg\n");
    ASSERT_EQ(mkfifo(trace.c_str(), 0600), 0);
    expect_only_error(e2e::smsim({"-trace", list}), trace + no_writer);
    expect_only_error(e2e::smsim({"-trace", list, "-smtlm_check_options", "1"}), trace + no_writer);
    e2e::write_file(dir + "/a.json", "{\"a\": 1}\n");
    expect_only_error(e2e::smsim({"-smtlm_compare", dir + "/a.json", trace}), trace + no_writer);
    unlink(trace.c_str());
}

// -smtlm_compare on /dev/zero took memory until the kernel killed it: a NUL byte, at once.
TEST(InputLimits, CompareReadsNoEndlessFile)
{
    const std::string dir = e2e::scratch("limits_compare");
    e2e::write_file(dir + "/a.json", "{\"a\": 1}\n");
    expect_only_error(e2e::smsim({"-smtlm_compare", dir + "/a.json", "/dev/zero"}), "/dev/zero:1: NUL byte (not JSON text)");
}

// ---- machines without a unit the workload needs

TEST(InputLimits, NoSfuUnitForAnSfuInstruction)
{
    const std::string dir = trace_with("no_sfu", "MUFU.RCP 1 R3 0");
    const std::string list = dir + "/kernelslist.g";
    const std::string msg = dir + "/kernel-1.traceg:" + std::to_string(kFirstLine) +
                            ": the instruction needs the SFU unit, of which the configuration has none "
                            "(-gpgpu_num_sfu_units is 0)";
    expect_only_error(e2e::smsim({"-trace", list, "-gpgpu_num_sfu_units", "0"}), msg);
    // without the watchdog too (it would never end), and in muon mode
    expect_only_error(e2e::smsim({"-trace", list, "-gpgpu_num_sfu_units", "0", "-smtlm_watchdog_cycles", "0"}), msg);
    expect_only_error(e2e::smsim({"-config", e2e::project_config("muon-rtl.config"), "-trace", list,
                                  "-gpgpu_num_sfu_units", "0", "-smtlm_watchdog_cycles", "0"}),
                      msg);
    // a kernel without SFU instructions runs on that machine, as in GPGPU-Sim
    const e2e::Result ffma = e2e::smsim({"-trace", trace_with("no_sfu_ffma", "FFMA 3 R3 R4 R5 0") + "/kernelslist.g",
                                         "-gpgpu_num_sfu_units", "0"});
    EXPECT_EQ(ffma.status, 0) << ffma.err;
    EXPECT_EQ(ffma.stat("gpu_sim_insn"), 64);
}

TEST(InputLimits, NoDpUnitAndNoSfuForADpInstruction)
{
    const std::string dir = trace_with("no_dp", "DADD 2 R4 R6 0");
    const std::vector<std::string> run = {"-trace", dir + "/kernelslist.g", "-gpgpu_num_dp_units", "0"};
    expect_only_error(e2e::smsim(with(run, {"-gpgpu_num_sfu_units", "0"})),
                      dir + "/kernel-1.traceg:" + std::to_string(kFirstLine) +
                          ": the instruction needs the SFU unit, of which the configuration has none (-gpgpu_num_sfu_units "
                          "is 0; DP instructions run there too while -gpgpu_num_dp_units is 0)");
    const e2e::Result on_sfu = e2e::smsim(run); // without DP units DP instructions run on the SFU
    EXPECT_EQ(on_sfu.status, 0) << on_sfu.err;
    EXPECT_EQ(on_sfu.stat("gpu_sim_insn"), 64);
}

TEST(InputLimits, TheSyntheticWorkloadIsRefusedBeforeItRuns)
{
    const std::string msg = "<command line>:1: -gpgpu_num_sfu_units: the synthetic workload (-smtlm_synth_mix "
                            "sp=60,int=30,sfu=5,ldst=5) has instructions for the SFU unit, of which the configuration "
                            "has none (-gpgpu_num_sfu_units is 0)";
    expect_only_error(e2e::smsim({"-gpgpu_num_sfu_units", "0"}), msg);
    expect_only_error(e2e::smsim({"-gpgpu_num_sfu_units", "0", "-smtlm_check_options", "1"}), msg);
    const e2e::Result no_sfu_mix =
        e2e::smsim({"-gpgpu_num_sfu_units", "0", "-smtlm_synth_mix", "sp=60,int=40", "-smtlm_synth_insts", "50"});
    EXPECT_EQ(no_sfu_mix.status, 0) << no_sfu_mix.err;
}

TEST(InputLimits, GenericCollectorUnitsWithoutOutPorts)
{
    const std::string what = ": -gpgpu_operand_collector_num_out_ports_gen: 8 gen collector units and no output port "
                             "(dispatch unit): no instruction could leave them";
    expect_only_error(e2e::smsim({"-gpgpu_operand_collector_num_out_ports_gen", "0"}), "<command line>:1" + what);
    const std::string cfg = e2e::scratch("limits_out_ports") + "/oc.config";
    e2e::write_file(cfg, "# collectors\n-gpgpu_operand_collector_num_units_gen 8\n"
                         "-gpgpu_operand_collector_num_out_ports_gen 0\n");
    expect_only_error(e2e::smsim({"-config", cfg, "-smtlm_check_options", "1"}), cfg + ":3" + what);
}

// ---- -smtlm_log_cycles, -smtlm_log_sms, -smtlm_log_warps: where the bad value was set

TEST(InputLimits, ViewFilterErrorsNameWhereTheyWereSet)
{
    const std::string vcd = e2e::scratch("limits_views") + "/v.vcd";
    expect_only_error(e2e::smsim({"-smtlm_vcd", vcd, "-smtlm_log_sms", "99"}),
                      "<command line>:3: -smtlm_log_sms: '99' is not a list of SM numbers from 0 to 79 (e.g. 0,2-3)");
    expect_only_error(e2e::smsim({"-smtlm_log_warps", "64", "-smtlm_check_options", "1"}),
                      "<command line>:1: -smtlm_log_warps: '64' is not a list of warp numbers from 0 to 63 (e.g. 0,2-3)");
    const std::string cfg = e2e::scratch("limits_views") + "/views.config";
    e2e::write_file(cfg, "# views\n-smtlm_log_cycles 20:10\n");
    expect_only_error(e2e::smsim({"-config", cfg}),
                      cfg + ":2: -smtlm_log_cycles: '20:10' is not a cycle window A:B (A <= B; A: or :B leave one end open)");
}

// The option listing read back as a config file gives the same run: -trace, never set, is
// listed as a comment rather than as an empty -trace (which is refused).
TEST(InputLimits, TheOptionListingReadsBackAsAConfig)
{
    const std::string dir = e2e::scratch("input_limits_listing");
    const e2e::Result listing = e2e::smsim({"-smtlm_list_options", "1", "-gpgpu_num_reg_banks", "8"});
    ASSERT_EQ(listing.status, 0) << listing.err;
    EXPECT_NE(listing.out.find("\n# -trace "), std::string::npos);
    e2e::write_file(dir + "/listing.config", listing.out);
    const e2e::Result r = e2e::smsim({"-config", dir + "/listing.config", "-smtlm_check_options", "1"});
    EXPECT_EQ(r.status, 0) << r.err;
    // (the listing holds the -smtlm_list_options 1 that asked for it)
    const e2e::Result a =
        e2e::smsim({"-config", dir + "/listing.config", "-smtlm_list_options", "0", "-smtlm_synth_insts", "40"});
    const e2e::Result b = e2e::smsim({"-gpgpu_num_reg_banks", "8", "-smtlm_synth_insts", "40"});
    EXPECT_EQ(a.status, 0) << a.err;
    EXPECT_EQ(a.stat("gpu_sim_cycle"), b.stat("gpu_sim_cycle"));
}
