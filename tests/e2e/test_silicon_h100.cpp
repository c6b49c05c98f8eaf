// The silicon core (configs/h100.config) against H100 silicon: a representative subset of the
// published measurements of the H100 validation kit (tests/data/silicon-h100: the kit's rows of
// those checks, with their traces and listings; SOURCES.md there). Each check's model figure is
// worked out from gpu_sim_cycle exactly as the kit's `formula` column says, and must lie within
// the kit's tolerance (±2 %) of the silicon figure:
//   slope:A,B        (cyc(B) - cyc(A)) / (insts(B) - insts(A))
//   intercept:A,B,C  (cyc(C) - (cyc(A) - s * insts(A))) / insts(C), s = slope:A,B
// divided by the warps when the metric is sm_cyc_per_warp_inst. The silicon figure is the row's
// cyc_per_inst, or for sm_cyc_per_warp_inst subcore_cyc_per_warp_inst * ceil(warps/4) / warps
// (cyc_per_inst / warps for the stall-patched rows, which have no span), as the kit defines them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "smsim_run.hpp"

namespace {

struct Row {
    std::map<std::string, std::string> f;
    const std::string &operator[](const std::string &k) const { return f.at(k); }
};

std::vector<Row> kit_rows()
{
    std::ifstream in(e2e::data("silicon-h100/cases.tsv"));
    std::vector<Row> rows;
    std::vector<std::string> head;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#')
            continue;
        std::vector<std::string> cols;
        std::stringstream ss(line);
        for (std::string c; std::getline(ss, c, '\t');)
            cols.push_back(c);
        if (head.empty()) {
            head = cols;
            continue;
        }
        Row r;
        for (size_t i = 0; i < head.size(); i++)
            r.f[head[i]] = i < cols.size() ? cols[i] : "";
        rows.push_back(r);
    }
    return rows;
}

const std::vector<Row> &kit_rows_cached()
{
    static const std::vector<Row> rows = kit_rows();
    return rows;
}

// One name per check (the n128 and n256 rows of a slope share it).
std::vector<std::string> checks()
{
    std::vector<std::string> out;
    for (const Row &r : kit_rows_cached())
        if (std::find(out.begin(), out.end(), r["check"]) == out.end())
            out.push_back(r["check"]);
    return out;
}

long long cycles_of(const std::string &trace)
{
    static std::map<std::string, long long> memo;
    auto it = memo.find(trace);
    if (it != memo.end())
        return it->second;
    e2e::Result r = e2e::smsim({"-config", e2e::project_config("h100.config"), "-trace",
                                e2e::data("silicon-h100/traces/" + trace + "/kernelslist.g")});
    EXPECT_EQ(r.status, 0) << trace << ": " << r.err;
    EXPECT_EQ(r.err.find("derives the control bits"), std::string::npos) << "the listing beside " << trace << " was not used";
    return memo[trace] = r.stat("gpu_sim_cycle");
}

class SiliconH100 : public ::testing::TestWithParam<std::string> {};

TEST_P(SiliconH100, WithinTheKitsTolerance)
{
    const std::string check = GetParam();
    std::map<std::string, double> insts; // trace -> SASS instructions of its region
    const Row *row = nullptr;
    for (const Row &r : kit_rows_cached()) {
        insts[r["trace"]] = std::stod(r["insts"]);
        if (r["check"] == check && !row)
            row = &r;
    }
    ASSERT_NE(row, nullptr);
    const std::string formula = (*row)["formula"];
    const std::string kind = formula.substr(0, formula.find(':'));
    std::vector<std::string> t;
    std::stringstream ss(formula.substr(formula.find(':') + 1));
    for (std::string a; std::getline(ss, a, ',');)
        t.push_back(a);
    const double s = double(cycles_of(t[1]) - cycles_of(t[0])) / (insts.at(t[1]) - insts.at(t[0]));
    double model = s;
    if (kind == "intercept") {
        ASSERT_EQ(t.size(), 3u);
        model = (double(cycles_of(t[2])) - (double(cycles_of(t[0])) - s * insts.at(t[0]))) / insts.at(t[2]);
    } else {
        ASSERT_EQ(kind, "slope");
    }
    const double warps = std::stod((*row)["warps"]);
    double silicon = std::stod((*row)["cyc_per_inst"]);
    if ((*row)["metric"] == "sm_cyc_per_warp_inst") {
        model /= warps;
        const std::string sub = (*row)["subcore_cyc_per_warp_inst"];
        silicon = sub.empty() ? silicon / warps : std::stod(sub) * std::ceil(warps / 4) / warps;
    } else {
        ASSERT_EQ((*row)["metric"], "cyc_per_inst");
    }
    EXPECT_LE(std::fabs(model - silicon) / silicon, 0.02) << check << ": silicon " << silicon << ", model " << model;
}

INSTANTIATE_TEST_SUITE_P(Kit, SiliconH100, ::testing::ValuesIn(checks()), [](const ::testing::TestParamInfo<std::string> &i) {
    std::string n = i.param;
    for (char &c : n)
        if (!std::isalnum(static_cast<unsigned char>(c)))
            c = '_';
    return n;
});

} // namespace
