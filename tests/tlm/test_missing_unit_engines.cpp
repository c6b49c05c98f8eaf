// A machine without the unit a trace's instruction needs (-gpgpu_num_sfu_units 0 under MUFUs):
// both engines refuse the first such instruction at intake, at the same trace line, with the
// same one message and exit status 2 (the SM's intake check is one body for both), where a
// run used to go on until the watchdog called it a deadlock.
#include <gtest/gtest.h>

#include <algorithm>

#include "micro_trace.hpp"
#include "smsim_run.hpp"
#include "smtlm/tlm/systemc_engine.h"

TEST(MissingUnitEngines, BothEnginesRefuseTheInstructionAtItsLine)
{
    const smtlm_engine *const engines[] = {smtlm_systemc_engine(), smtlm_c_engine()};
    const std::vector<std::string> args = {"-trace", e2e::write_micro_trace("sfu", 64, 4), "-gpgpu_num_sfu_units", "0"};
    auto run = [&](const char *engine) {
        std::vector<std::string> a = args;
        a.insert(a.end(), {"-smtlm_engine", engine});
        return e2e::smsim(a, engines, 2);
    };
    const e2e::Result s = run("systemc"), c = run("c");
    EXPECT_EQ(s.status, 2) << s.err;
    EXPECT_EQ(c.status, 2) << c.err;
    EXPECT_EQ(s.err, c.err);
    EXPECT_EQ(std::count(s.err.begin(), s.err.end(), '\n'), 1) << s.err;
    EXPECT_EQ(s.err.rfind("smsim: ", 0), 0u) << s.err;
    EXPECT_NE(s.err.find(".traceg:"), std::string::npos) << s.err;
    EXPECT_NE(s.err.find(": the instruction needs the SFU unit, of which the configuration has none "
                         "(-gpgpu_num_sfu_units is 0)\n"),
              std::string::npos)
        << s.err;
}
