// The stats JSON of a run of many kernels: each kernel's per-SM sections (sms) and per-warp
// entries (warp_stall_per_warp) cover the SMs that ran in that kernel, not every SM that ran
// so far, so the file grows with the kernels' own SMs; and -smtlm_compare between a file of
// the earlier layout (schema_version 2) and one of this layout.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>

extern "C" {
#include "smtlm/json_flat.h"
#include "smtlm/stats.h"
}

#include "smsim_run.hpp"

namespace {

// A kernel list naming the one-block vectoradd trace n times (a copy beside the list).
std::string vectoradd_list(unsigned n)
{
    const std::string dir = e2e::scratch("per_kernel_sms_" + std::to_string(n));
    std::ifstream f(e2e::data("traces/vectoradd-100-32-trace/kernel-1.traceg"), std::ios::binary);
    e2e::write_file(dir + "/kernel-1.traceg", std::string(std::istreambuf_iterator<char>(f), {}));
    std::string list;
    for (unsigned i = 0; i < n; i++)
        list += "kernel-1.traceg\n";
    e2e::write_file(dir + "/kernelslist.g", list);
    return dir + "/kernelslist.g";
}

// Every numeric leaf of a stats file by its path.
std::map<std::string, double> leaves(const std::string &path)
{
    smtlm_json_flat f;
    char msg[512];
    std::map<std::string, double> v;
    if (smtlm_json_flatten_file(path.c_str(), &f, msg, sizeof msg) != 0) {
        ADD_FAILURE() << msg;
        return v;
    }
    for (size_t i = 0; i < f.n; i++)
        if (f.leaf[i].is_number)
            v[f.leaf[i].path] = f.leaf[i].number;
    smtlm_json_flat_free(&f);
    return v;
}

long file_size(const std::string &path)
{
    std::ifstream f(path, std::ios::binary | std::ios::ate);
    return f ? (long)f.tellg() : -1;
}

// 100 one-block vectoradd kernels on the built-in 80-SM QV100. An SM's counters are cumulative
// over the run, so SM s ran in kernel i exactly when its active cycles grew since the last
// kernel that lists it: every listed SM must have grown, and the listed SMs' growth must add up
// to the growth of the kernel-level sm_active_cycles (the sum over every SM), so no SM that ran
// is left out. One thread block per kernel: one SM each. The per-warp entries lie on the
// listed SM only, and the file stays under 2 MB (it was 40 MB when every kernel listed every
// SM used so far).
TEST(StatsPerKernelSms, EachKernelListsExactlyTheSmsThatRanInIt)
{
    const unsigned kernels = 100;
    const std::string json = e2e::scratch("per_kernel_sms_json") + "/stats.json";
    const e2e::Result r = e2e::smsim({"-trace", vectoradd_list(kernels), "-smtlm_stats_json", json});
    ASSERT_EQ(r.status, 0) << r.err;
    const long size = file_size(json);
    EXPECT_GT(size, 0);
    EXPECT_LE(size, 2L * 1024 * 1024);
    std::map<std::string, double> v = leaves(json);
    EXPECT_EQ(v["schema_version"], 3);

    const std::regex sm_field("kernels\\[([0-9]+)\\]\\.sms\\[([0-9]+)\\]\\.sm");
    const std::regex warp_sm("kernels\\[([0-9]+)\\]\\.warp_stall_per_warp\\[([0-9]+)\\]\\.sm");
    std::vector<std::map<unsigned, unsigned>> listed(kernels); // kernel -> SM -> its index j in sms
    std::vector<std::set<unsigned>> warp_sms(kernels);
    std::smatch m;
    for (const auto &kv : v) {
        if (std::regex_match(kv.first, m, sm_field) && std::stoul(m[1]) < kernels)
            listed[std::stoul(m[1])][(unsigned)kv.second] = (unsigned)std::stoul(m[2]);
        else if (std::regex_match(kv.first, m, warp_sm) && std::stoul(m[1]) < kernels)
            warp_sms[std::stoul(m[1])].insert((unsigned)kv.second);
    }
    EXPECT_EQ(v.count("kernels[" + std::to_string(kernels) + "].gpu_sim_cycle"), 0u);
    std::map<unsigned, double> last; // SM -> active cycles at the last kernel that listed it
    double total_before = 0;
    for (unsigned k = 0; k < kernels; k++) {
        SCOPED_TRACE("kernel " + std::to_string(k));
        const std::string kp = "kernels[" + std::to_string(k) + "].";
        EXPECT_EQ(listed[k].size(), 1u);
        double grown = 0;
        std::set<unsigned> sms;
        for (const auto &[sm, j] : listed[k]) {
            const double now = v[kp + "sms[" + std::to_string(j) + "].active_cycles"];
            EXPECT_GT(now, last[sm]) << "SM " << sm << " is listed but did not run in the kernel";
            grown += now - last[sm];
            last[sm] = now;
            sms.insert(sm);
        }
        const double total = v[kp + "sm_active_cycles"];
        EXPECT_EQ(grown, total - total_before) << "an SM that ran in the kernel is not listed";
        total_before = total;
        EXPECT_EQ(warp_sms[k], sms);
    }
    EXPECT_EQ(last.size(), 80u); // 100 one-block kernels go round all 80 SMs
}

// The per-kernel lists of a run whose kernels share SMs: two SMs, six kernels of one block;
// each kernel's entry for its SM holds that SM's counters since the run began.
TEST(StatsPerKernelSms, AnSmReusedByALaterKernelKeepsItsRunWideCounters)
{
    const std::string json = e2e::scratch("per_kernel_sms_reuse") + "/stats.json";
    const e2e::Result r = e2e::smsim({"-trace", vectoradd_list(6), "-gpgpu_n_clusters", "2", "-gpgpu_n_cores_per_cluster",
                                      "1", "-smtlm_stats_json", json});
    ASSERT_EQ(r.status, 0) << r.err;
    std::map<std::string, double> v = leaves(json);
    // each kernel lists one SM, and its active cycles are the kernel's share plus the SM's earlier ones
    std::map<unsigned, double> last;
    for (unsigned k = 0; k < 6; k++) {
        const std::string kp = "kernels[" + std::to_string(k) + "].";
        EXPECT_EQ(v.count(kp + "sms[1].sm"), 0u) << kp;
        const unsigned sm = (unsigned)v[kp + "sms[0].sm"];
        const double now = v[kp + "sms[0].active_cycles"];
        const double mine = v[kp + "sm_active_cycles"] - (k ? v["kernels[" + std::to_string(k - 1) + "].sm_active_cycles"] : 0);
        EXPECT_GT(mine, 0) << kp;
        EXPECT_EQ(now, last[sm] + mine) << kp;
        last[sm] = now;
    }
    EXPECT_EQ(last.size(), 2u);
}

std::string write(const std::string &name, const std::string &text)
{
    const std::string path = e2e::scratch("per_kernel_sms_compare") + "/" + name;
    e2e::write_file(path, text);
    return path;
}

// Two kernels on two SMs, the second kernel on SM 1 only: in layout 2 its sms list holds SM 0
// (it ran before) then SM 1, in layout 3 SM 1 alone, so sms[0] is another SM in each file.
// -smtlm_compare compares everything else, shows the version as a changed counter and says
// how many per-SM counters of later kernels it left out.
const char *const v2_file =
    "{\"schema_version\":2,\"kernels\":[\n"
    "{\"gpu_sim_cycle\":10,\"sms\":[{\"sm\":0,\"active_cycles\":9}],\"warp_stall_per_warp\":[{\"sm\":0,\"warp\":0,\"issued\":4}]},\n"
    "{\"gpu_sim_cycle\":12,\"sms\":[{\"sm\":0,\"active_cycles\":9},{\"sm\":1,\"active_cycles\":11}],"
    "\"warp_stall_per_warp\":[{\"sm\":0,\"warp\":0,\"issued\":4},{\"sm\":1,\"warp\":0,\"issued\":5}]}],\n"
    "\"gpu_tot_sim_cycle\":22,\"wall_seconds\":0.5}\n";
const char *const v3_file =
    "{\"schema_version\":3,\"kernels\":[\n"
    "{\"gpu_sim_cycle\":10,\"sms\":[{\"sm\":0,\"active_cycles\":9}],\"warp_stall_per_warp\":[{\"sm\":0,\"warp\":0,\"issued\":4}]},\n"
    "{\"gpu_sim_cycle\":12,\"sms\":[{\"sm\":1,\"active_cycles\":11}],\"warp_stall_per_warp\":[{\"sm\":1,\"warp\":0,\"issued\":5}]}],\n"
    "\"gpu_tot_sim_cycle\":22,\"wall_seconds\":0.7}\n";

TEST(StatsPerKernelSms, CompareOfLayouts2And3LeavesOutLaterKernelsSmLists)
{
    const std::string a = write("v2.json", v2_file), b = write("v3.json", v3_file);
    const e2e::Result r = e2e::smsim({"-smtlm_compare", a, b, "-smtlm_compare_all", "1"});
    EXPECT_EQ(r.status, 1) << r.out << r.err; // the version differs
    EXPECT_TRUE(std::regex_search(r.out, std::regex("\nschema_version +2 +3 +\\+1 +\\+50\\.00%\n"))) << r.out;
    EXPECT_NE(r.out.find("\nkernels[0].sms[0].active_cycles "), std::string::npos) << r.out; // same in both layouts
    EXPECT_NE(r.out.find("\nkernels[0].warp_stall_per_warp[0].issued "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\nkernels[1].gpu_sim_cycle "), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("kernels[1].sms"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("kernels[1].warp_stall_per_warp"), std::string::npos) << r.out;
    // A's kernels[1] lists: 2 + 2 SM leaves, 3 + 3 warp leaves; B's are all at paths A has
    EXPECT_NE(r.out.find("\n9 counters in both: 1 differ; 0 only in A, 0 only in B; wall_seconds (host time) not "
                         "compared; 10 per-SM and per-warp counters of kernels after the first not compared "
                         "(schema_version 2 against 3: those lists name other SMs)\n"),
              std::string::npos)
        << r.out;
    // files of one layout compare their lists as usual
    const e2e::Result same = e2e::smsim({"-smtlm_compare", b, b});
    EXPECT_EQ(same.status, 0) << same.out;
    EXPECT_NE(same.out.find("\n14 counters in both: 0 differ; 0 only in A, 0 only in B; wall_seconds (host time) not "
                            "compared\n"),
              std::string::npos)
        << same.out;
}

} // namespace
