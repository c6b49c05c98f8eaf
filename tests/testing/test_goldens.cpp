// Golden files: written in update mode, compared otherwise, with a readable table of what changed.
#include <gmock/gmock.h>
#include <gtest/gtest-spi.h>

#include <fstream>
#include <sstream>

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
    EXPECT_THAT(bad.message(), HasSubstr("golden " + dir_ + "/bad.json: smsim: " + dir_ + "/bad.json:3: "));
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
