// Golden files: written in update mode, compared otherwise, with a readable table of what changed.
#include <gmock/gmock.h>
#include <gtest/gtest-spi.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include <dirent.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kit_data.hpp"

using namespace smtlm::testing;
using ::testing::HasSubstr;
using ::testing::StartsWith;

namespace {

std::string read(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

void write(const std::string &path, const std::string &text) { std::ofstream(path) << text; }

// A fresh directory of this test for golden files; update mode off while it runs.
class Goldens : public ::testing::Test {
protected:
    void SetUp() override
    {
        dir_ = ::testing::TempDir() + "smtlm_goldens_XXXXXX";
        ASSERT_NE(mkdtemp(&dir_[0]), nullptr);
        was_updating_ = updating_goldens(); // the binary may run with --smtlm_update_goldens
        set_updating_goldens(false);
    }
    void TearDown() override
    {
        set_updating_goldens(was_updating_);
        std::system(("rm -rf '" + dir_ + "'").c_str());
    }
    std::string dir_;
    bool was_updating_ = false;
};

const Result &lud()
{
    static const Result r = run(kit::lud_qv100());
    return r;
}

} // namespace

TEST_F(Goldens, MissingFileFailsWithTheWayToWriteIt)
{
    const ::testing::AssertionResult a = matches_golden(dir_.c_str(), lud(), "lud.json");
    EXPECT_FALSE(a);
    EXPECT_THAT(a.message(), StartsWith("golden file " + dir_ + "/lud.json does not exist (this run's statistics: "));
    EXPECT_THAT(a.message(), HasSubstr("run the test binary with --smtlm_update_goldens (or SMTLM_UPDATE_GOLDENS=1)"));
}

TEST_F(Goldens, UpdateModeWritesChosenStatsAsFlatJson)
{
    set_updating_goldens(true);
    EXPECT_TRUE(matches_golden(dir_.c_str(), lud(), "sub/lud_cycles.json", {"gpu_tot_sim_cycle", "kernels[0].stall"}));
    EXPECT_EQ(read(dir_ + "/sub/lud_cycles.json"), "{\n  \"gpu_tot_sim_cycle\": 8952,\n  \"kernels[0].stall\": 79\n}\n");
    set_updating_goldens(false);
    EXPECT_TRUE(matches_golden(dir_.c_str(), lud(), "sub/lud_cycles.json", {"gpu_tot_sim_cycle", "kernels[0].stall"}));
}

TEST_F(Goldens, WholeStatsGoldenHoldsEveryCounterButHostTime)
{
    set_updating_goldens(true);
    EXPECT_TRUE(matches_golden(dir_.c_str(), lud(), "lud.json"));
    const std::string text = read(dir_ + "/lud.json");
    // the totals first, then each kernel's own figures, then the finer ones
    EXPECT_THAT(text, StartsWith("{\n  \"schema_version\": 3,\n  \"gpu_tot_sim_cycle\": 8952,\n  \"gpu_tot_sim_insn\": 16080,\n"
                                 "  \"kernels[0].kernel_name\": \"_Z13lud_perimeterPfii\",\n"));
    EXPECT_THAT(text, HasSubstr("\n  \"kernels[0].sms[0].rf_banks[0].reads\": "));
    EXPECT_EQ(text.find("wall_seconds"), std::string::npos);
    // one line per leaf but host time and how the run ended (complete, exit_status, error), and braces
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), (long)lud().stats().size() - 4 + 2);
    set_updating_goldens(false);
    EXPECT_TRUE(matches_golden(dir_.c_str(), lud(), "lud.json"));
    EXPECT_TRUE(matches_golden(dir_.c_str(), run(kit::lud_qv100().on(Engine::SystemC)), "lud.json"));
}

// A whole-statistics golden pins the counters it holds: one the run adds (a newer smtlm's new
// counter) is no difference, one it holds that the run lacks is, and so is a changed value.
TEST_F(Goldens, WholeStatsGoldenPinsTheCountersItHolds)
{
    write(dir_ + "/older.json", "{\"gpu_tot_sim_cycle\": 8952, \"kernels[0].stall\": 79}\n");
    EXPECT_TRUE(matches_golden(dir_.c_str(), lud(), "older.json"));
    write(dir_ + "/gone.json", "{\"gpu_tot_sim_cycle\": 8952, \"kernels[0].retired_counter\": 5}\n");
    const ::testing::AssertionResult a = matches_golden(dir_.c_str(), lud(), "gone.json");
    EXPECT_FALSE(a);
    EXPECT_THAT(a.message(), testing::ContainsRegex("\nkernels\\[0\\]\\.retired_counter +5 +- +only in A\n"));
    write(dir_ + "/changed.json", "{\"gpu_tot_sim_cycle\": 8953}\n");
    EXPECT_FALSE(matches_golden(dir_.c_str(), lud(), "changed.json"));
}

// Hand-written golden with other values: the table shows golden (A) against this run (B).
TEST_F(Goldens, ChangeFailsWithReadableDiff)
{
    write(dir_ + "/g.json", "{\"gpu_tot_sim_cycle\": 9000, \"kernels[0].stall\": 79, \"kernels[0].gone\": 1}\n");
    const ::testing::AssertionResult a = matches_golden(dir_.c_str(), lud(), "g.json", {"gpu_tot_sim_cycle", "kernels[0].stall"});
    EXPECT_FALSE(a);
    const std::string m = a.message();
    EXPECT_THAT(m, StartsWith("statistics differ from the golden file:\nA = golden " + dir_ + "/g.json\n"
                              "B = this run: trace lud, config gpgpusim.config, config trace.config, engine c ("));
    EXPECT_THAT(m, testing::ContainsRegex("\ngpu_tot_sim_cycle +9000 +8952 +-48 +-0\\.53%\n"));
    EXPECT_THAT(m, testing::ContainsRegex("\nkernels\\[0\\]\\.gone +1 +- +only in A\n"));
    EXPECT_THAT(m, HasSubstr("\n2 counters in both: 1 differ; 1 only in A, 0 only in B\n"
                             "to accept this run's values: run the test binary with --smtlm_update_goldens"));
}

// Update mode leaves an equal golden alone (whatever its layout) and rewrites a changed one.
TEST_F(Goldens, UpdateRewritesOnlyWhatChanged)
{
    const std::string same = "{ \"gpu_tot_sim_cycle\" : 8952 }";
    write(dir_ + "/same.json", same);
    write(dir_ + "/old.json", "{\"gpu_tot_sim_cycle\": 9000}");
    set_updating_goldens(true);
    EXPECT_TRUE(matches_golden(dir_.c_str(), lud(), "same.json", {"gpu_tot_sim_cycle"}));
    EXPECT_TRUE(matches_golden(dir_.c_str(), lud(), "old.json", {"gpu_tot_sim_cycle"}));
    EXPECT_EQ(read(dir_ + "/same.json"), same);
    EXPECT_EQ(read(dir_ + "/old.json"), "{\n  \"gpu_tot_sim_cycle\": 8952\n}\n");
}

TEST_F(Goldens, FlagAndEnvironmentTurnUpdateModeOn)
{
    set_updating_goldens(false);
    EXPECT_FALSE(updating_goldens());
    char prog[] = "t", flag[] = "--smtlm_update_goldens", other[] = "--x";
    char *argv[] = {prog, flag, other, nullptr};
    int argc = 3;
    init(&argc, argv);
    EXPECT_TRUE(updating_goldens());
    EXPECT_EQ(argc, 2);
    EXPECT_STREQ(argv[1], "--x");
    EXPECT_EQ(argv[2], nullptr);
    set_updating_goldens(false);
    EXPECT_FALSE(updating_goldens());
}

TEST_F(Goldens, EnvironmentTurnsUpdateModeOn)
{
    char prog[] = "t";
    char *argv[] = {prog, nullptr};
    int argc = 1;
    {
        kit::ScopedEnv env("SMTLM_UPDATE_GOLDENS", "0");
        init(&argc, argv);
        EXPECT_FALSE(updating_goldens());
    }
    kit::ScopedEnv env("SMTLM_UPDATE_GOLDENS", "1");
    init(&argc, argv);
    EXPECT_TRUE(updating_goldens());
    EXPECT_EQ(argc, 1);
}

TEST_F(Goldens, UnknownStatAndMalformedFileAreErrors)
{
    const ::testing::AssertionResult unknown = matches_golden(dir_.c_str(), lud(), "u.json", {"cycles"});
    EXPECT_FALSE(unknown);
    EXPECT_THAT(unknown.message(), HasSubstr(": no stat named \"cycles\""));
    write(dir_ + "/bad.json", "{\n\"gpu_tot_sim_cycle\": 8952,\n}\n");
    const ::testing::AssertionResult bad = matches_golden(dir_.c_str(), lud(), "bad.json", {"gpu_tot_sim_cycle"});
    EXPECT_FALSE(bad);
    EXPECT_THAT(bad.message(), HasSubstr("golden " + dir_ + "/bad.json: " + dir_ + "/bad.json:3: "));
}

// A golden that pins nothing passed every run, and update mode left it so: now it fails naming
// the file, whole or with chosen stats, and update mode writes the run's counters into it.
TEST_F(Goldens, AGoldenThatPinsNothingFails)
{
    write(dir_ + "/empty.json", "{}\n");
    for (const std::vector<std::string> &stats : {std::vector<std::string>{}, std::vector<std::string>{"gpu_tot_sim_cycle"}}) {
        const ::testing::AssertionResult a = matches_golden(dir_.c_str(), lud(), "empty.json", stats);
        EXPECT_FALSE(a);
        EXPECT_THAT(a.message(), StartsWith("golden " + dir_ + "/empty.json: pins nothing (no counter)"));
        EXPECT_THAT(a.message(), HasSubstr("--smtlm_update_goldens"));
    }
    write(dir_ + "/array.json", "[]\n");
    EXPECT_THAT(matches_golden(dir_.c_str(), lud(), "array.json").message(),
                StartsWith("golden " + dir_ + "/array.json: pins nothing (no counter)"));
    set_updating_goldens(true);
    EXPECT_TRUE(matches_golden(dir_.c_str(), lud(), "empty.json"));
    EXPECT_THAT(read(dir_ + "/empty.json"), StartsWith("{\n  \"schema_version\": 3,\n  \"gpu_tot_sim_cycle\": 8952,\n"));
    set_updating_goldens(false);
    EXPECT_TRUE(matches_golden(dir_.c_str(), lud(), "empty.json"));
}

// A golden cut short after a line (a disk that filled, a bad merge) fails at the line where it
// ends, naming the file.
TEST_F(Goldens, AGoldenCutShortFailsAtItsLine)
{
    set_updating_goldens(true);
    ASSERT_TRUE(matches_golden(dir_.c_str(), lud(), "cut.json"));
    set_updating_goldens(false);
    const std::string whole = read(dir_ + "/cut.json");
    const size_t at = whole.find('\n', whole.size() / 2);
    write(dir_ + "/cut.json", whole.substr(0, at + 1));
    const size_t lines = (size_t)std::count(whole.begin(), whole.begin() + (long)at + 1, '\n');
    const ::testing::AssertionResult a = matches_golden(dir_.c_str(), lud(), "cut.json");
    EXPECT_FALSE(a);
    EXPECT_THAT(a.message(), StartsWith("golden " + dir_ + "/cut.json: " + dir_ + "/cut.json:" + std::to_string(lines + 1) +
                                        ": expected a string"));
}

// A JSON file of another schema or tool (none of its names is a statistic of the run), or one
// that is not an object of statistics by name, is no golden: it fails naming the file.
TEST_F(Goldens, AGoldenOfAnotherSchemaFails)
{
    write(dir_ + "/other.json", "{\"cycles\": 8952, \"tool\": {\"name\": \"x\"}}\n");
    const ::testing::AssertionResult a = matches_golden(dir_.c_str(), lud(), "other.json");
    EXPECT_FALSE(a);
    EXPECT_THAT(a.message(), StartsWith("golden " + dir_ + "/other.json: none of its 2 counters is a statistic of this run "
                                        "(a file of another schema or tool?)"));
    write(dir_ + "/list.json", "[8952, 16080]\n");
    EXPECT_THAT(matches_golden(dir_.c_str(), lud(), "list.json").message(),
                StartsWith("golden " + dir_ + "/list.json: not a golden: a JSON object of statistics by name expected"));
}

// Update mode on a full disk: the golden is not written, the test fails with the reason, and no
// temporary file (<golden>.tmp<pid>) is left behind. A real full disk: a 64 KiB tmpfs mounted
// (as root, as CI runs) in a mount namespace of this test's own process, filled to the last page.
TEST_F(Goldens, AFullDiskLeavesNoTemporaryFile)
{
    ASSERT_EQ(geteuid(), 0u) << "the full-disk test mounts a tmpfs and must run as root (as CI does)";
    ASSERT_EQ(unshare(CLONE_NEWNS), 0) << std::strerror(errno);
    ASSERT_EQ(mount("none", "/", nullptr, MS_REC | MS_PRIVATE, nullptr), 0) << std::strerror(errno);
    const std::string disk = dir_ + "/disk";
    ASSERT_EQ(mkdir(disk.c_str(), 0755), 0);
    ASSERT_EQ(mount("tmpfs", disk.c_str(), "tmpfs", 0, "size=64k"), 0) << std::strerror(errno);
    {
        std::ofstream fill(disk + "/fill", std::ios::binary);
        const std::string block(4096, 'x');
        for (int i = 0; i < 64 && fill; i++)
            fill << block << std::flush;
    }
    set_updating_goldens(true);
    const ::testing::AssertionResult a = matches_golden(disk.c_str(), lud(), "lud.json");
    set_updating_goldens(false);
    EXPECT_FALSE(a);
    EXPECT_THAT(a.message(), HasSubstr("cannot write: No space left on device"));
    std::vector<std::string> left;
    if (DIR *d = opendir(disk.c_str())) {
        while (dirent *e = readdir(d))
            left.push_back(e->d_name);
        closedir(d);
    }
    std::sort(left.begin(), left.end());
    EXPECT_EQ(left, (std::vector<std::string>{".", "..", "fill"}));
    umount(disk.c_str());
}

TEST_F(Goldens, RelativePathsFromTheEnvironmentsGoldenDir)
{
    write(dir_ + "/e.json", "{\"gpu_tot_sim_insn\": 16080}");
    kit::ScopedEnv env("SMTLM_GOLDEN_DIR", dir_.c_str());
    EXPECT_TRUE(matches_golden("/elsewhere", lud(), "e.json", {"gpu_tot_sim_insn"}));
    EXPECT_TRUE(matches_golden("/elsewhere", lud(), dir_ + "/e.json", {"gpu_tot_sim_insn"}));
}

TEST_F(Goldens, MacroReportsTheTableAsAFailure)
{
    write(dir_ + "/m.json", "{\"gpu_tot_sim_insn\": 16081}");
    const std::string path = dir_ + "/m.json";
    EXPECT_NONFATAL_FAILURE(EXPECT_MATCHES_GOLDEN(lud(), path, {"gpu_tot_sim_insn"}),
                            "\ngpu_tot_sim_insn          16081          16080           -1     -0.01%\n");
    write(path, "{\"gpu_tot_sim_insn\": 16080}");
    EXPECT_MATCHES_GOLDEN(lud(), path, {"gpu_tot_sim_insn"});
}

namespace {
void assert_against_missing_golden()
{
    ASSERT_MATCHES_GOLDEN(lud(), "/nonexistent/smtlm/x.json");
    ADD_FAILURE() << "ASSERT_MATCHES_GOLDEN let the test go on";
}
} // namespace

TEST_F(Goldens, AssertStopsTheTest)
{
    EXPECT_FATAL_FAILURE(assert_against_missing_golden(), "golden file /nonexistent/smtlm/x.json does not exist");
}
