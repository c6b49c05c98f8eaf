// Option values read as their documentation says: numbers in lists are decimal (010 is ten, as
// Accel-Sim reads its lists), and a silicon figure out of its range is an error at the line that
// set that option, naming the value (not at the -smtlm_core line that chose the core).
#include <gtest/gtest.h>

#include <string>

extern "C" {
#include "smtlm/engine_config.h"
#include "smtlm/options.h"
}

namespace {

struct Opts {
    smtlm_options *o = smtlm_options_new();
    char err[512] = "";
    explicit Opts(const std::string &text)
    {
        EXPECT_EQ(smtlm_options_parse_text(o, text.data(), text.size(), "t.config", err, sizeof err), SMTLM_OPT_OK) << err;
    }
    Opts(const Opts &) = delete;
    Opts &operator=(const Opts &) = delete;
    ~Opts() { smtlm_options_free(o); }
    std::string engine_error()
    {
        static smtlm_run_cfg cfg; // large: not on the stack
        err[0] = '\0';
        EXPECT_NE(smtlm_engine_config(o, &cfg, err, sizeof err), 0);
        return err;
    }
};

} // namespace

TEST(OptionValues, AddrMapNumbersAreDecimalOrHexNeverOctal)
{
    Opts a("-smtlm_addr_map 010:010:0x10\n");
    smtlm_engine_params p;
    ASSERT_EQ(smtlm_engine_params_config(a.o, 1000.0, &p, a.err, sizeof a.err), 0) << a.err;
    ASSERT_EQ(p.n_map, 1u);
    EXPECT_EQ(p.map[0].trace_base, 10u);
    EXPECT_EQ(p.map[0].size, 10u);
    EXPECT_EQ(p.map[0].soc_base, 16u);
    Opts b("-smtlm_addr_map 0x:16:0\n"); // a 0x without digits is no number
    EXPECT_NE(smtlm_engine_params_config(b.o, 1000.0, &p, b.err, sizeof b.err), 0);
    EXPECT_NE(std::string(b.err).find("t.config:1: -smtlm_addr_map: '0x:16:0' is not"), std::string::npos) << b.err;
}

TEST(OptionValues, SiliconRangeErrorsNameTheOptionTheLineAndTheValue)
{
    Opts banks("-smtlm_core silicon\n\n-smtlm_silicon_rf_banks 9\n");
    EXPECT_EQ(banks.engine_error(), "t.config:3: -smtlm_silicon_rf_banks: 9 is outside 1..8");
    Opts gap("-smtlm_core silicon\n-smtlm_silicon_no_yield_gap 0\n");
    EXPECT_EQ(gap.engine_error(), "t.config:2: -smtlm_silicon_no_yield_gap: 0 is outside 1..15");
    Opts interval("-smtlm_core silicon\n-smtlm_silicon_pipe_interval 2,2,2,2,2,2,8,1,2000,1\n");
    EXPECT_EQ(interval.engine_error(), "t.config:2: -smtlm_silicon_pipe_interval: element 9 (TENSOR) is 2000, outside 1..1024");
    Opts zero("-smtlm_core silicon\n-smtlm_silicon_pipe_interval 0,2,2,2,2,2,8,1,1,1\n");
    EXPECT_EQ(zero.engine_error(), "t.config:2: -smtlm_silicon_pipe_interval: element 1 (FMA) is 0, outside 1..1024");
    Opts latency("-smtlm_core silicon\n-smtlm_silicon_pipe_latency 4,4,4,6,8,8,512,0,0,0\n");
    EXPECT_EQ(latency.engine_error(), "t.config:2: -smtlm_silicon_pipe_latency: element 7 (MUFU) is 512, outside 0..511");
    // list elements are decimal here too: 010 is ten
    Opts ten("-smtlm_core silicon\n-smtlm_silicon_pipe_interval 2,2,2,2,2,2,010,1,1,1\n");
    static smtlm_run_cfg cfg;
    ASSERT_EQ(smtlm_engine_config(ten.o, &cfg, ten.err, sizeof ten.err), 0) << ten.err;
    EXPECT_EQ(cfg.gpu.sm.silicon.interval[SMTLM_PIPE_MUFU], 10u);
}
