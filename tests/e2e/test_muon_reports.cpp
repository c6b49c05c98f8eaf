// smsim's Muon reports (docs/MUON-MODELS.md): they print and exit 0 without simulating, even
// with -smtlm_mode muon.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <regex>
#include <sstream>

#include "smsim_run.hpp"

namespace {

const std::string kMuon = e2e::project_config("muon.config");
const std::string kMuonRtl = e2e::project_config("muon-rtl.config");

bool has_line(const std::string &out, const std::string &line)
{
    std::istringstream in(out);
    for (std::string l; std::getline(in, l);)
        if (l == line)
            return true;
    return false;
}

void expect_lines(const e2e::Result &r, const std::vector<std::string> &lines)
{
    for (const std::string &l : lines)
        EXPECT_TRUE(has_line(r.out, l)) << "missing line: " << l << "\n" << r.out;
}

void expect_no_simulation(const e2e::Result &r)
{
    EXPECT_EQ(r.out.find("gpu_sim_cycle"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("simulation thread exiting"), std::string::npos) << r.out;
}

// The design's figures: a 768-bit scoreboard (256 x (1 + 2)), 1625 bits per RS entry
// (31 metadata + 1594 data), 496 b + 25504 b for the 16-entry RS, 16 KiB of PRF, and the
// crossbar example B=8, C=4: 8 x 4 x 16 x 32. Epochs (option2_epoch) add 256 x (2 + 1) bits.
TEST(MuonCostReport, TheDesignConfigReproducesTheDesignFigures)
{
    e2e::Result r = e2e::smsim({"-config", kMuon, "-smtlm_cost_report", "1"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    expect_no_simulation(r);
    expect_lines(r, {
        "muon_scoreboard_bits = 768 (256 registers x (1 pendingWrite + 2 pendingReads))",
        "muon_scoreboard_epoch_bits = 768 (option2_epoch: per register a second pendingReads counter and an epoch bit)",
        "muon_scoreboard_fence_bits = 0 (no past-WAW fences)",
        "muon_scoreboard_total_bits = 1536",
        "muon_rs_entry_bits = 1625 (metadata 31 + data 1594)",
        "muon_rs_metadata_entry_bits = 31 (1 valid + 3 x (8 preg + 1 valid + 1 busy))",
        "muon_rs_data_entry_bits = 1594 (3 warp + 32 PC + 7 opcode + 16 tmask + 3 x 16 x 32 data)",
        "muon_rs_metadata_table_bits = 496 (16 entries x 31)",
        "muon_rs_data_table_bits = 25504 (16 entries x 1594)",
        "muon_prf_bits = 131072 (256 registers x 16 x 32; 8 banks of 32 registers)",
        "muon_collector_bits = 6144 (4 entries x 3 operands x 512)",
        "muon_crossbar_bits = 16384 (B x C x NT x XLEN = 8 x 4 x 16 x 32)",
    });
}

// The RTL: 3-bit pendingReads (1024-bit scoreboard), 8 RS entries without operand data,
// three PRF copies of 16 KiB, 2 collector entries of 3 x 512 bits.
TEST(MuonCostReport, TheRtlConfig)
{
    e2e::Result r = e2e::smsim({"-config", kMuonRtl, "-smtlm_cost_report", "1"});
    ASSERT_EQ(r.status, 0) << r.err;
    expect_no_simulation(r);
    expect_lines(r, {
        "muon_scoreboard_bits = 1024 (256 registers x (1 pendingWrite + 3 pendingReads))",
        "muon_scoreboard_total_bits = 1024",
        "muon_rs_entry_bits = 89 (metadata 31 + data 58)",
        "muon_rs_data_table_bits = 464 (8 entries x 58)",
        "muon_prf_bits = 393216 (256 registers x 16 x 32 x 3 copies, one per source slot; 1 bank of 256 registers)",
        "muon_collector_bits = 3072 (2 entries x 3 operands x 512)",
        "muon_crossbar_bits = 1024 (B x C x NT x XLEN = 1 x 2 x 16 x 32)",
    });
}

// One row of the measured table: N C formula% measured% diff_pp no_x0% distinct% steady%.
struct Row {
    unsigned n, c;
    double formula, measured, diff, no_x0, distinct, steady;
};

std::vector<Row> rows(const std::string &out)
{
    std::vector<Row> v;
    std::regex re("^ +([0-9]+) +([0-9]+) +([0-9.]+) +([0-9.]+) +([-+0-9.]+) +([0-9.]+) +([0-9.]+) +([0-9.]+)$");
    std::istringstream in(out);
    for (std::string l; std::getline(in, l);) {
        std::smatch m;
        if (std::regex_match(l, m, re))
            v.push_back({(unsigned)std::stoul(m[1]), (unsigned)std::stoul(m[2]), std::stod(m[3]), std::stod(m[4]),
                         std::stod(m[5]), std::stod(m[6]), std::stod(m[7]), std::stod(m[8])});
    }
    return v;
}

// The design's table (N=4: 37.5 / 90.8 / 98.8 / 99.9 %, N=8: 65.6 / 99.3 / 100.0 / 100.0 %)
// and the measurement through the register-file arbiter within 0.5 pp of it; in steady state
// (entries keep the reads that lost a conflict) fewer cycles find 3 banks.
TEST(MuonAnalyticReport, ReproducesTheDesignTableAndAgreesWithTheArbiter)
{
    const char *want[2][4] = {{"N=4, C=1: 37.5%", "N=4, C=2: 90.8%", "N=4, C=3: 98.8%", "N=4, C=4: 99.9%"},
                              {"N=8, C=1: 65.6%", "N=8, C=2: 99.3%", "N=8, C=3: 100.0%", "N=8, C=4: 100.0%"}};
    const char *banks[2] = {"4", "8"};
    for (int i = 0; i < 2; i++) {
        // -smtlm_mode muon in the config: the report still runs
        e2e::Result r = e2e::smsim({"-config", kMuon, "-smtlm_analytic_banks", banks[i]});
        ASSERT_EQ(r.status, 0) << r.err;
        EXPECT_EQ(r.err, "");
        expect_no_simulation(r);
        expect_lines(r, {want[i][0], want[i][1], want[i][2], want[i][3]});
        std::vector<Row> v = rows(r.out);
        ASSERT_EQ(v.size(), 4u) << r.out;
        for (unsigned c = 1; c <= 4; c++) {
            const Row &x = v[c - 1];
            EXPECT_EQ(x.n, (unsigned)std::stoul(banks[i]));
            EXPECT_EQ(x.c, c);
            EXPECT_LE(std::fabs(x.measured - x.formula), 0.5) << r.out;
            EXPECT_NEAR(x.diff, x.measured - x.formula, 0.0015);
            EXPECT_LT(x.steady, x.formula) << r.out;
            EXPECT_GE(x.distinct, x.formula - 0.5) << r.out;
        }
    }
}

TEST(MuonAnalyticReport, OneEntryCountAndBothReportsTogether)
{
    e2e::Result r = e2e::smsim({"-smtlm_analytic_banks", "4", "-smtlm_analytic_entries", "2", "-smtlm_cost_report", "1"});
    ASSERT_EQ(r.status, 0) << r.err;
    expect_lines(r, {"N=4, C=2: 90.8%"});
    EXPECT_EQ(r.out.find("N=4, C=1:"), std::string::npos);
    ASSERT_EQ(rows(r.out).size(), 1u);
    // the analytic report comes first, then the cost report of the default (RTL) machine
    EXPECT_LT(r.out.find("N=4, C=2"), r.out.find("muon_scoreboard_bits = 1024"));
}

int lines(const std::string &s) { return (int)std::count(s.begin(), s.end(), '\n'); }

TEST(MuonReports, BadValuesAreOneErrorAtTheirOrigin)
{
    e2e::Result a = e2e::smsim({"-smtlm_analytic_banks", "65"});
    EXPECT_EQ(a.status, 2);
    EXPECT_EQ(lines(a.err), 1) << a.err;
    EXPECT_NE(a.err.find("<command line>:1: -smtlm_analytic_banks"), std::string::npos) << a.err;
    e2e::Result b = e2e::smsim({"-smtlm_analytic_banks", "4", "-smtlm_analytic_entries", "65"});
    EXPECT_EQ(b.status, 2);
    EXPECT_NE(b.err.find("<command line>:3: -smtlm_analytic_entries"), std::string::npos) << b.err;
    e2e::Result c = e2e::smsim({"-config", kMuon, "-smtlm_cost_report", "1", "-smtlm_muon_xlen", "48"});
    EXPECT_EQ(c.status, 2);
    EXPECT_EQ(lines(c.err), 1) << c.err;
    EXPECT_NE(c.err.find("<command line>:5: -smtlm_muon_xlen"), std::string::npos) << c.err;
    EXPECT_EQ(c.out, "");
}

// Without a report, the Muon configs run a Muon simulation on the default (SystemC) engine; a
// bad Muon option is named with where it was given.
TEST(MuonReports, WithoutAReportTheMuonConfigsSimulate)
{
    e2e::Result r = e2e::smsim({"-config", kMuon, "-smtlm_synth_warps", "8", "-smtlm_synth_insts", "40"});
    EXPECT_EQ(r.status, 0) << r.err;
    // 8 warps x (40 instructions + EXIT) x 32 threads
    EXPECT_EQ(r.stat("gpu_sim_insn"), 8 * 41 * 32);
    e2e::Result bad = e2e::smsim({"-config", kMuonRtl, "-smtlm_muon_rs_entries", "0"});
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("<command line>:3: -smtlm_muon_rs_entries: 0 is outside 1..64"), std::string::npos) << bad.err;
}

} // namespace
