// TraceKernels with the silicon core: a VP's kernels take their control bits from the listing
// beside each trace or from the whole-program listing (GpuConfig::sass, -smtlm_sass), exactly as
// smsim does (the same cycles as the C engine on the same files); without one they are derived
// and one info report says so; a listing that does not match fails the kernel's start with the
// message. Trace: the kit's dep_ffma chain with its stall counts lowered to 1 (tests/data/
// silicon-h100), where the listing's bits (2.01 cycles per link) and the derived ones (4, the
// FP32 latency) differ.
#include <gtest/gtest.h>

#include "vp_harness.hpp"

#include "smtlm/tlm/gpu_config.h"

namespace {

using namespace vp;

const std::string kKit = "silicon-h100/traces/dep_ffma_n256.stall1.w1/";

std::string text(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The kit trace in a fresh directory, its listing beside it when `beside`.
std::string copy_case(const std::string &name, bool beside)
{
    const std::string dir = e2e::scratch(name);
    std::ofstream(dir + "/kernelslist.g") << "kernel-1.traceg\n";
    std::ofstream(dir + "/kernel-1.traceg", std::ios::binary) << text(e2e::data(kKit + "kernel-1.traceg"));
    std::remove((dir + "/kernel-1.sass").c_str());
    if (beside)
        std::ofstream(dir + "/kernel-1.sass", std::ios::binary) << text(e2e::data(kKit + "kernel-1.sass"));
    return dir;
}

smtlm::GpuConfig h100(std::vector<std::string> extra = {})
{
    std::vector<std::string> a = {"-config", e2e::project_config("h100.config"), "-gpgpu_n_clusters", "1"};
    a.insert(a.end(), extra.begin(), extra.end());
    std::vector<const char *> argv = {"vp"};
    for (const std::string &s : a)
        argv.push_back(s.c_str());
    smtlm::GpuConfig c;
    EXPECT_EQ(c.from_argv((int)argv.size(), argv.data()), "");
    return c;
}

// What smsim's C engine gives on the same files.
uint64_t smsim_cycles(const std::string &dir, std::vector<std::string> extra = {})
{
    std::vector<std::string> a = {"-config", e2e::project_config("h100.config"), "-gpgpu_n_clusters", "1",
                                  "-trace", dir + "/kernelslist.g", "-smtlm_engine", "c"};
    a.insert(a.end(), extra.begin(), extra.end());
    const e2e::Result r = e2e::smsim(a);
    EXPECT_EQ(r.status, 0) << r.err;
    return (uint64_t)r.stat("gpu_sim_cycle");
}

std::vector<std::string> &infos()
{
    static std::vector<std::string> v;
    return v;
}

// Runs kernel 0 on a Gpu of machine c over the list; the CYCLES register (0 when the start
// failed), with the STATUS register in *status.
uint64_t run_vp(const smtlm::GpuConfig &c, const std::string &dir, uint32_t *status, std::string *error = nullptr)
{
    sc_core::sc_report_handler::set_handler([](const sc_core::sc_report &r, const sc_core::sc_actions &a) {
        if (std::string(r.get_msg_type()) == "smtlm/trace")
            infos().push_back(r.get_msg());
        else
            sc_core::sc_report_handler::default_handler(r, a);
    });
    smtlm_run_cfg cfg{};
    cfg.gpu = c.gpu;
    cfg.lat = c.lat;
    cfg.core_clock_mhz = c.core_clock_mhz;
    uint64_t cycles = 0;
    std::vector<std::unique_ptr<GpuNode>> g;
    g.push_back(std::unique_ptr<GpuNode>(
        new GpuNode("gpu", dir + "/kernelslist.g", cfg, GpuNode::params(0), nullptr, false, c.sass)));
    GpuNode *n = g[0].get();
    Soc soc(
        [&](Cpu &cpu) {
            cpu.wr(reg::IRQ_EN, reg::IRQ_KERNEL_END);
            cpu.wr(reg::CTRL, reg::CTRL_START);
            if (cpu.rd(reg::STATUS) & reg::STATUS_BUSY)
                wait_irq(*n);
            *status = cpu.rd(reg::STATUS);
            cycles = cpu.rd64(reg::CYCLES);
        },
        std::move(g));
    sc_core::sc_start();
    if (error)
        *error = n->kernels.error() ? n->kernels.error() : "";
    return cycles;
}

const uint32_t kDone = reg::STATUS_DONE | SMTLM_RUN_DONE << reg::STATUS_CODE_SHIFT;

TEST(TraceKernelsListings, TheListingBesideTheTraceGivesTheBits)
{
    const std::string dir = copy_case("tk_beside", true);
    uint32_t status = 0;
    const uint64_t cycles = run_vp(h100(), dir, &status);
    EXPECT_EQ(status, kDone);
    EXPECT_EQ(cycles, smsim_cycles(dir));
    EXPECT_TRUE(infos().empty()) << infos().front();
    // the listing's stall counts of 1 run the 256 links at 2 cycles each, not 4
    EXPECT_LT(cycles, smsim_cycles(copy_case("tk_beside_derived", false)));
}

TEST(TraceKernelsListings, AWholeProgramListingComesFromTheConfiguration)
{
    const std::string dir = copy_case("tk_program", false);
    std::ofstream(dir + "/app.sass", std::ios::binary) << text(e2e::data(kKit + "kernel-1.sass"));
    const smtlm::GpuConfig c = h100({"-smtlm_sass", dir + "/app.sass"});
    EXPECT_EQ(c.sass, dir + "/app.sass");
    uint32_t status = 0;
    EXPECT_EQ(run_vp(c, dir, &status), smsim_cycles(dir, {"-smtlm_sass", dir + "/app.sass"}));
    EXPECT_EQ(status, kDone);
    EXPECT_TRUE(infos().empty());
}

TEST(TraceKernelsListings, WithoutAListingTheBitsAreDerivedAndOneInfoSaysSo)
{
    const std::string dir = copy_case("tk_none", false);
    uint32_t status = 0;
    EXPECT_EQ(run_vp(h100(), dir, &status), smsim_cycles(dir));
    EXPECT_EQ(status, kDone);
    ASSERT_EQ(infos().size(), 1u);
    EXPECT_NE(infos()[0].find("kernel-1.traceg: no SASS listing"), std::string::npos) << infos()[0];
}

TEST(TraceKernelsListings, AListingThatDoesNotMatchFailsTheStart)
{
    const std::string dir = copy_case("tk_mismatch", false);
    std::ofstream(dir + "/kernel-1.sass", std::ios::binary)
        << std::regex_replace(text(e2e::data(kKit + "kernel-1.sass")), std::regex("Function : dep_ffma_n256"),
                              "Function : another_kernel");
    uint32_t status = 0;
    std::string error;
    run_vp(h100(), dir, &status, &error);
    EXPECT_TRUE(status & reg::STATUS_ERROR) << std::hex << status;
    EXPECT_NE(error.find("kernel dep_ffma_n256 (its '-kernel name' line) has no function in the listing " + dir +
                         "/kernel-1.sass"),
              std::string::npos)
        << error;
}

TEST(TraceKernelsListings, AListingWithoutTheSiliconCoreIsRefused)
{
    smtlm::GpuConfig c;
    const char *argv[] = {"vp", "-smtlm_sass", "app.sass"};
    EXPECT_EQ(c.from_argv(3, argv),
              "<command line>:1: -smtlm_sass: only the silicon core reads listings (-smtlm_core silicon)");
}

} // namespace
