// The silicon core's control bits from `cuobjdump -sass` listings: kernel-N.sass beside the
// trace, or one whole-program listing (-smtlm_sass). A listing that does not match its trace is
// an error naming the trace line and the listing line; without a listing smsim says once that
// the bits are derived. Traces and listings: the kit's dep_ffma_n128 (tests/data/silicon-h100),
// copied and edited by each test.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

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

// Only ENOENT on kernel-N.sass means "no listing". Anything else by that name is something the
// user put there and an error naming it, exit 2, never a run on derived bits: a directory
// (EISDIR), a symbolic link loop (ELOOP), a dangling symbolic link (the name exists, its target
// does not), a FIFO nothing writes to (never waited for, under -smtlm_check_options too). (The
// tests run as root, for whom mode bits cannot make EACCES.)
TEST(SiliconListings, AListingThatExistsButCannotBeReadIsAnError)
{
    struct Case {
        const char *name;
        void (*make)(const std::string &sass);
        const char *what;
    } cases[] = {
        {"sil_eisdir", [](const std::string &p) { mkdir(p.c_str(), 0755); }, "kernel-1.sass: cannot open: Is a directory"},
        {"sil_eloop", [](const std::string &p) { EXPECT_EQ(symlink(p.c_str(), p.c_str()), 0); },
         "kernel-1.sass: cannot open: Too many levels of symbolic links"},
        {"sil_dangling", [](const std::string &p) { EXPECT_EQ(symlink((p + ".gone").c_str(), p.c_str()), 0); },
         "kernel-1.sass: a symbolic link to nothing (the listing beside "},
        {"sil_fifo", [](const std::string &p) { EXPECT_EQ(mkfifo(p.c_str(), 0600), 0); },
         "kernel-1.sass: a FIFO or pipe that nothing was written to (no writer?)"},
    };
    for (const Case &c : cases) {
        const std::string dir = copy_case(c.name, nullptr);
        c.make(dir + "/kernel-1.sass");
        for (const char *check : {"0", "1"}) {
            const e2e::Result r = run(dir, {"-smtlm_check_options", check});
            EXPECT_EQ(r.status, 2) << c.name << ": " << r.err;
            EXPECT_NE(r.err.find(dir + "/" + c.what), std::string::npos) << c.name << ": " << r.err;
            EXPECT_EQ(r.err.find("no SASS listing"), std::string::npos) << c.name << ": " << r.err;
        }
    }
}

// The stats JSON says per kernel whether it had a listing and which: kernels[i].sass_listing.from
// ("beside", "smtlm_sass", "none") and .path.
TEST(SiliconListings, TheStatsSayWhereEachKernelsListingCameFrom)
{
    const std::string beside = copy_case("sil_from_beside", same);
    ASSERT_EQ(run(beside, {"-smtlm_stats_json", beside + "/s.json"}).status, 0);
    EXPECT_EQ(e2e::json_leaf(beside + "/s.json", "kernels[0].sass_listing.from"), "beside");
    EXPECT_EQ(e2e::json_leaf(beside + "/s.json", "kernels[0].sass_listing.path"), beside + "/kernel-1.sass");
    const std::string none = copy_case("sil_from_none", nullptr);
    ASSERT_EQ(run(none, {"-smtlm_stats_json", none + "/s.json"}).status, 0);
    EXPECT_EQ(e2e::json_leaf(none + "/s.json", "kernels[0].sass_listing.from"), "none");
    EXPECT_EQ(e2e::json_leaf(none + "/s.json", "kernels[0].sass_listing.path"), "");
    write(none + "/app.sass", text(e2e::data(kKit + "kernel-1.sass")));
    ASSERT_EQ(run(none, {"-smtlm_sass", none + "/app.sass", "-smtlm_stats_json", none + "/p.json"}).status, 0);
    EXPECT_EQ(e2e::json_leaf(none + "/p.json", "kernels[0].sass_listing.from"), "smtlm_sass");
    EXPECT_EQ(e2e::json_leaf(none + "/p.json", "kernels[0].sass_listing.path"), none + "/app.sass");
}

// The silicon core times H100 silicon: a Volta trace (lud, binary version 70) is refused, or
// timed as H100 would run it when -smtlm_silicon_other_arch 1 asks for that.
TEST(SiliconListings, TracesOfOtherArchitecturesAreRefusedUnlessAskedFor)
{
    const std::string lud = e2e::data("traces/lud/kernelslist.g");
    const std::vector<std::string> base = {"-config", e2e::project_config("h100.config"), "-trace", lud};
    std::vector<std::string> check = base;
    check.insert(check.end(), {"-smtlm_check_options", "1"});
    const e2e::Result refused = e2e::smsim(check);
    EXPECT_EQ(refused.status, 2);
    EXPECT_NE(refused.err.find(".traceg: binary version 70: the silicon core times H100 (sm_90) silicon; "
                               "-smtlm_silicon_other_arch 1 times this trace as H100 would run its instructions"),
              std::string::npos)
        << refused.err;
    std::vector<std::string> asked = base;
    asked.insert(asked.end(), {"-smtlm_silicon_other_arch", "1"});
    const e2e::Result r = e2e::smsim(asked);
    EXPECT_EQ(r.status, 0) << r.err;
}

// The silicon core's event log: the cycles it knows (issue, and writeback: its result's release)
// and '-' for the events it does not have (collector unit, operands, OC->EX, FU issue), never
// 2^64-1. dep_ffma: each FFMA's result 4 cycles after its issue (-smtlm_silicon_pipe_latency,
// FP32 4).
TEST(SiliconListings, TheEventLogHasDashesForEventsTheCoreDoesNotHave)
{
    const std::string dir = copy_case("sil_events", same);
    ASSERT_EQ(run(dir, {"-smtlm_event_log", dir + "/ev.log"}).status, 0);
    std::istringstream in(text(dir + "/ev.log"));
    std::string line;
    unsigned ffma = 0, lines = 0;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        lines++;
        std::istringstream f(line);
        std::string k, sm, w, pc, uid, issue, cu, ops, ocex, fu, wb;
        ASSERT_TRUE(static_cast<bool>(f >> k >> sm >> w >> pc >> uid >> issue >> cu >> ops >> ocex >> fu >> wb)) << line;
        EXPECT_EQ(cu + ops + ocex + fu, "----") << line;
        EXPECT_EQ(line.find("18446744073709551615"), std::string::npos) << line;
        if (wb != "-" && std::stoull(wb) == std::stoull(issue) + 4)
            ffma++;
    }
    EXPECT_GT(lines, 128u);
    EXPECT_GE(ffma, 128u); // the chain's 128 FFMAs
}

// The listings a silicon run reads are inputs, which no output may be: kernel-N.sass beside each
// kernel trace, listed or given as -trace itself, there yet or not (an output there would be the
// next run's listing), or the -smtlm_sass listing instead. Refused in a run and under
// -smtlm_check_options alike, the listing kept.
TEST(SiliconListings, AListingTheRunReadsIsNoOutput)
{
    const std::string dir = copy_case("sil_as_output", same), trace = dir + "/kernel-1.traceg";
    const std::string listing = dir + "/kernel-1.sass", before = text(listing);
    write(dir + "/app.sass", before);
    for (const char *check : {"0", "1"}) {
        e2e::Result r = run(dir, {"-smtlm_stats_json", listing, "-smtlm_check_options", check});
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(r.err, "smsim: <command line>:5: -smtlm_stats_json " + listing + ": is the SASS listing of the kernel "
                         "trace " + trace + " (" + dir + "/kernelslist.g:1); an output never replaces an input\n");
        r = e2e::smsim({"-config", e2e::project_config("h100.config"), "-trace", trace, "-smtlm_stats_csv", listing,
                        "-smtlm_check_options", check});
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(r.err, "smsim: <command line>:5: -smtlm_stats_csv " + listing + ": is the SASS listing of the trace " +
                             trace + " given by -trace (<command line>:3); an output never replaces an input\n");
        r = run(dir, {"-smtlm_sass", dir + "/app.sass", "-smtlm_event_log", dir + "/app.sass", "-smtlm_check_options", check});
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(r.err, "smsim: <command line>:7: -smtlm_event_log " + dir + "/app.sass: is the SASS listing given by "
                         "-smtlm_sass (<command line>:5); an output never replaces an input\n");
    }
    EXPECT_EQ(text(listing), before);
    EXPECT_EQ(text(dir + "/app.sass"), before);
    const std::string none = copy_case("sil_as_output_none", nullptr);
    const e2e::Result r = run(none, {"-smtlm_stats_json", none + "/kernel-1.sass"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find(": is the SASS listing of the kernel trace " + none + "/kernel-1.traceg"), std::string::npos) << r.err;
    EXPECT_EQ(e2e::listing(none), (std::vector<std::string>{"kernel-1.traceg", "kernelslist.g"}));
}

TEST(SiliconListings, OnlyTheSiliconCoreReadsListings)
{
    const e2e::Result r = e2e::smsim({"-config", e2e::project_config("qv100.config"), "-smtlm_sass", "app.sass"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("-smtlm_sass: only the silicon core reads listings (-smtlm_core silicon)"), std::string::npos) << r.err;
}

} // namespace
