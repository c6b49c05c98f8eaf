// The silicon core's control bits from `cuobjdump -sass` listings: kernel-N.sass beside the
// trace, or one whole-program listing (-smtlm_sass). A listing that does not match its trace is
// an error naming the trace line and the listing line; without a listing smsim says once that
// the bits are derived. Traces and listings: the kit's dep_ffma_n128 (tests/data/silicon-h100),
// copied and edited by each test.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "scratch_files.hpp"
#include "smsim_run.hpp"

namespace {

const std::string kKit = "silicon-h100/traces/dep_ffma_n128.w1/";

std::string text(const std::string &path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void write(const std::string &path, const std::string &s) { std::ofstream(path) << s; }

// A copy of the kit trace in a fresh directory; the listing beside it passed through `edit`
// (nullptr: no listing beside it).
std::string copy_case(const std::string &name, std::string (*edit)(std::string))
{
    const std::string dir = e2e::fresh_dir(name);
    write(dir + "/kernelslist.g", "kernel-1.traceg\n");
    write(dir + "/kernel-1.traceg", text(e2e::data(kKit + "kernel-1.traceg")));
    if (edit)
        write(dir + "/kernel-1.sass", edit(text(e2e::data(kKit + "kernel-1.sass"))));
    return dir;
}

e2e::Result run(const std::string &dir, std::vector<std::string> extra = {})
{
    std::vector<std::string> a = {"-config", e2e::project_config("h100.config"), "-trace", dir + "/kernelslist.g"};
    a.insert(a.end(), extra.begin(), extra.end());
    return e2e::smsim(a);
}

std::string same(std::string s) { return s; }

TEST(SiliconListings, TheListingBesideTheTraceGivesTheBits)
{
    const e2e::Result with = run(copy_case("sil_beside", same));
    ASSERT_EQ(with.status, 0) << with.err;
    EXPECT_EQ(with.err, "");
    const e2e::Result without = run(copy_case("sil_none", nullptr));
    ASSERT_EQ(without.status, 0) << without.err;
    EXPECT_NE(without.err.find("no SASS listing"), std::string::npos) << without.err;
    // the same kernel, the same cycles: ptxas's stall counts of this chain (4) are what an
    // ideal compiler derives from the FP32 latency (4)
    EXPECT_EQ(with.stat("gpu_sim_cycle"), without.stat("gpu_sim_cycle"));
}

TEST(SiliconListings, TheDerivedBitsAreAnnouncedOncePerRun)
{
    const std::string dir = copy_case("sil_twice", nullptr);
    write(dir + "/kernelslist.g", "kernel-1.traceg\nkernel-1.traceg\n");
    const e2e::Result r = run(dir);
    ASSERT_EQ(r.status, 0) << r.err;
    size_t n = 0;
    for (size_t p = r.err.find("no SASS listing"); p != std::string::npos; p = r.err.find("no SASS listing", p + 1))
        n++;
    EXPECT_EQ(n, 1u) << r.err;
}

TEST(SiliconListings, AWholeProgramListingServesEveryKernel)
{
    const std::string dir = copy_case("sil_program", nullptr);
    // two functions: another kernel's first, then this one's
    std::string listing = text(e2e::data(kKit + "kernel-1.sass"));
    std::string other = std::regex_replace(listing, std::regex("Function : dep_ffma_n128"), "Function : other_kernel");
    write(dir + "/app.sass", other + listing.substr(listing.find("\t\tFunction")));
    const e2e::Result r = run(dir, {"-smtlm_sass", dir + "/app.sass"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(r.stat("gpu_sim_cycle"), run(copy_case("sil_program_ref", same)).stat("gpu_sim_cycle"));
}

TEST(SiliconListings, AFatbinListingServesTheTracesArchitecture)
{
    // `cuobjdump -sass` of a fatbin built for sm_80 and sm_90a holds the kernel twice; the trace
    // (binary version 90) takes the sm_90a one. The sm_80 copy here has another opcode at 0x0110,
    // which would be an error if it were taken.
    const std::string dir = copy_case("sil_fatbin", nullptr);
    const std::string listing = text(e2e::data(kKit + "kernel-1.sass"));
    const std::string sm80 = std::regex_replace(
        std::regex_replace(listing, std::regex("sm_90a"), "sm_80"), std::regex("FFMA R6, R4, R6, R5"), "FADD R6, R4, R6, R5",
        std::regex_constants::format_first_only);
    write(dir + "/app.sass", "Fatbin elf code:\n================\narch = sm_80\n" + sm80 +
                                 "\nFatbin elf code:\n================\narch = sm_90a\n" + listing);
    const e2e::Result r = run(dir, {"-smtlm_sass", dir + "/app.sass"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(r.stat("gpu_sim_cycle"), run(copy_case("sil_fatbin_ref", same)).stat("gpu_sim_cycle"));
    // with the sm_80 code alone the kernel has no function for its architecture
    write(dir + "/sm80.sass", sm80);
    const e2e::Result only80 = run(dir, {"-smtlm_sass", dir + "/sm80.sass"});
    EXPECT_EQ(only80.status, 2);
    EXPECT_NE(only80.err.find("kernel dep_ffma_n128 is binary version 90, and the listing " + dir +
                              "/sm80.sass has its function only for other architectures (sm_80 at line 5)"),
              std::string::npos)
        << only80.err;
}

// The trace's line 26 holds PC 0x0110 (FFMA R6, R4, R6, R5); the listing's lines 41 and 42 hold
// that instruction.
TEST(SiliconListings, APcTheListingDoesNotHoldIsAnError)
{
    const e2e::Result r = run(copy_case("sil_no_pc", [](std::string s) {
        return std::regex_replace(s, std::regex("        /\\*0110\\*/.*\\n.*\\n"), "");
    }));
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("kernel-1.traceg:26: PC 0x0110 is not in function dep_ffma_n128 of the listing"), std::string::npos)
        << r.err;
}

TEST(SiliconListings, AnotherOpcodeAtThePcIsAnError)
{
    const e2e::Result r = run(copy_case("sil_opcode", [](std::string s) {
        return std::regex_replace(s, std::regex("FFMA R6, R4, R6, R5"), "FADD R6, R4, R6, R5", std::regex_constants::format_first_only);
    }));
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("kernel-1.traceg:26: opcode FFMA at PC 0x0110, but the listing has FADD there"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("kernel-1.sass:41)"), std::string::npos) << r.err;
}

TEST(SiliconListings, OtherSourcesAtThePcAreAnError)
{
    const e2e::Result r = run(copy_case("sil_sources", [](std::string s) {
        return std::regex_replace(s, std::regex("FFMA R6, R4, R6, R5"), "FFMA R6, R4, R7, R5", std::regex_constants::format_first_only);
    }));
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("kernel-1.traceg:26: FFMA at PC 0x0110 reads R4 R6 R5, but the listing's reads R4 R7 R5"),
              std::string::npos)
        << r.err;
}

TEST(SiliconListings, AListingWithoutTheKernelIsAnError)
{
    const e2e::Result r = run(copy_case("sil_no_function", [](std::string s) {
        return std::regex_replace(s, std::regex("Function : dep_ffma_n128"), "Function : something_else");
    }));
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("kernel dep_ffma_n128 (its '-kernel name' line) has no function in the listing"), std::string::npos)
        << r.err;
}

TEST(SiliconListings, AMalformedListingIsAnErrorWithItsLine)
{
    const e2e::Result r = run(copy_case("sil_bad", [](std::string s) {
        return std::regex_replace(s, std::regex("/\\* 0x020fc80000000005 \\*/"), "/* 0xnot-a-word */");
    }));
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("kernel-1.sass:"), std::string::npos) << r.err;
}

TEST(SiliconListings, OnlyTheSiliconCoreReadsListings)
{
    const e2e::Result r = e2e::smsim({"-config", e2e::project_config("qv100.config"), "-smtlm_sass", "app.sass"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("-smtlm_sass: only the silicon core reads listings (-smtlm_core silicon)"), std::string::npos) << r.err;
}

} // namespace
