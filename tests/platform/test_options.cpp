// Tests of the option registry and the GPGPU-Sim config reader (platform/lib/src/options*.c).
#include <gtest/gtest.h>

#include "../param_names.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

extern "C" {
#include "smtlm/options.h"
}

namespace {

const std::string kData = SMTLM_TEST_DATA;
const std::string kConfigs = SMTLM_CONFIGS_DIR;

// The five real Accel-Sim config pairs in tests/data/configs and the project's own file for each.
struct RealPair {
    const char *dir;
    const char *project;
};
const RealPair kPairs[] = {
    {"SM7_QV100", "qv100.config"},       {"SM7_TITANV", "titanv.config"},
    {"SM75_RTX2060", "rtx2060.config"}, {"SM86_RTX3070", "rtx3070.config"},
    {"SM6_TITANX", "titanx.config"},
};

void PrintTo(const RealPair &p, std::ostream *os)
{
    *os << p.dir << " vs configs/" << p.project;
}

std::string real_file(const char *dir, const char *file)
{
    return kData + "/configs/" + dir + "/" + file;
}

// Owns an smtlm_options object for one test.
struct Opts {
    smtlm_options *o;
    char err[512];
    Opts() : o(smtlm_options_new()) { err[0] = '\0'; }
    ~Opts() { smtlm_options_free(o); }
    Opts(const Opts &) = delete;
    Opts &operator=(const Opts &) = delete;

    int text(const std::string &t, const char *name = "t.config")
    {
        err[0] = '\0';
        return smtlm_options_parse_text(o, t.data(), t.size(), name, err, sizeof err);
    }
    int file(const std::string &path)
    {
        err[0] = '\0';
        return smtlm_options_parse_file(o, path.c_str(), err, sizeof err);
    }
    int argv(std::vector<const char *> args)
    {
        err[0] = '\0';
        return smtlm_options_parse_argv(o, (int)args.size(), args.data(), err, sizeof err);
    }
    std::string str(const char *name) const
    {
        const char *v = nullptr;
        EXPECT_EQ(smtlm_options_get_str(o, name, &v), SMTLM_OPT_OK) << name;
        return v ? v : "";
    }
    std::string canon(const char *name) const
    {
        char buf[512];
        EXPECT_EQ(smtlm_options_value_text(o, name, buf, sizeof buf), SMTLM_OPT_OK) << name;
        return buf;
    }
    int64_t i64(const char *name) const
    {
        int64_t v = -12345;
        EXPECT_EQ(smtlm_options_get_i64(o, name, &v), SMTLM_OPT_OK) << name;
        return v;
    }
    int boolean(const char *name) const
    {
        int v = -1;
        EXPECT_EQ(smtlm_options_get_bool(o, name, &v), SMTLM_OPT_OK) << name;
        return v;
    }
    std::string origin(const char *name) const
    {
        char buf[512];
        EXPECT_EQ(smtlm_options_origin(o, name, buf, sizeof buf), SMTLM_OPT_OK) << name;
        return buf;
    }
};

// A scratch directory with helpers to write files into it.
struct TempDir {
    std::string path;
    TempDir()
    {
        std::string tmpl = ::testing::TempDir() + "smtlm_opt_XXXXXX";
        std::vector<char> buf(tmpl.begin(), tmpl.end());
        buf.push_back('\0');
        char *p = mkdtemp(buf.data());
        EXPECT_NE(p, nullptr);
        path = p ? p : "";
    }
    ~TempDir()
    {
        std::string cmd = "rm -rf '" + path + "'";
        if (!path.empty() && std::system(cmd.c_str()) != 0)
            ADD_FAILURE() << "cannot remove " << path;
    }
    std::string write(const std::string &name, const std::string &text) const
    {
        std::string full = path + "/" + name;
        FILE *f = std::fopen(full.c_str(), "wb");
        EXPECT_NE(f, nullptr) << full;
        if (f) {
            std::fwrite(text.data(), 1, text.size(), f);
            std::fclose(f);
        }
        return full;
    }
};

// Everything written to a FILE* by fn, as a string.
template <class F> std::string capture(F fn)
{
    FILE *f = std::tmpfile();
    EXPECT_NE(f, nullptr);
    if (!f)
        return "";
    fn(f);
    std::fflush(f);
    std::rewind(f);
    std::string s;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
        s.append(buf, n);
    std::fclose(f);
    return s;
}

int count_lines(const std::string &s)
{
    int n = 0;
    for (char c : s)
        n += (c == '\n');
    return n;
}

} // namespace

// ---------------------------------------------------------------- the table

TEST(OptionsTable, EveryDefaultParsesAndNamesAreUnique)
{
    size_t n = 0;
    const smtlm_option_def *t = smtlm_option_table(&n);
    ASSERT_GT(n, 200u);
    std::set<std::string> names;
    for (size_t i = 0; i < n; i++) {
        EXPECT_TRUE(names.insert(t[i].name).second) << "duplicate " << t[i].name;
        EXPECT_NE(t[i].name[0], '-') << t[i].name;
        EXPECT_GT(std::strlen(t[i].desc), 0u) << t[i].name;
        EXPECT_EQ(smtlm_option_lookup(t[i].name), &t[i]);
        if (t[i].type != SMTLM_OPT_STRING) {
            smtlm_opt_number num;
            EXPECT_EQ(smtlm_parse_number(t[i].type, t[i].def, &num), SMTLM_OPT_OK) << t[i].name;
        }
    }
    // smtlm_options_new() also refuses a table whose defaults do not parse
    Opts o;
    ASSERT_NE(o.o, nullptr);
    EXPECT_EQ(smtlm_option_lookup("no_such_option"), nullptr);
    EXPECT_STREQ(smtlm_opt_type_name(SMTLM_OPT_UINT64), "uint64");
}

TEST(OptionsTable, RequiredOptionsHaveTheirTypesAndDefaults)
{
    struct Want {
        const char *name;
        smtlm_opt_type type;
        const char *def;
        int modelled;
    };
    const Want want[] = {
        {"trace_opcode_latency_initiation_int", SMTLM_OPT_STRING, "4,1", 1},
        {"trace_opcode_latency_initiation_tensor", SMTLM_OPT_STRING, "4,1", 1},
        {"trace_opcode_latency_initiation_spec_op_1", SMTLM_OPT_STRING, "4,4", 1},
        {"trace_opcode_latency_initiation_spec_op_8", SMTLM_OPT_STRING, "4,4", 1},
        {"specialized_unit_1", SMTLM_OPT_STRING, "0,4,4,4,4,BRA", 1},
        {"specialized_unit_8", SMTLM_OPT_STRING, "0,4,4,4,4,BRA", 1},
        {"gpgpu_max_cycle", SMTLM_OPT_INT64, "0", 1},
        {"gpgpu_max_insn", SMTLM_OPT_INT64, "0", 1},
        {"gpgpu_max_cta", SMTLM_OPT_INT32, "0", 1},
        {"gpgpu_perfect_mem", SMTLM_OPT_BOOL, "0", 1},
        {"gpgpu_num_reg_banks", SMTLM_OPT_INT32, "8", 1},
        {"gpgpu_reg_bank_use_warp_id", SMTLM_OPT_BOOL, "0", 0},
        {"gpgpu_deadlock_detect", SMTLM_OPT_BOOL, "1", 0},
        {"gpgpu_concurrent_kernel_sm", SMTLM_OPT_BOOL, "0", 0},
        {"gpgpu_shader_registers", SMTLM_OPT_UINT32, "8192", 1},
        {"gpgpu_pipeline_widths", SMTLM_OPT_STRING, "1,1,1,1,1,1,1,1,1,1,1,1,1", 1},
        {"gpgpu_scheduler", SMTLM_OPT_STRING, "gto", 1},
        {"gpgpu_enable_specialized_operand_collector", SMTLM_OPT_BOOL, "1", 1},
        {"gpgpu_operand_collector_num_units_mem", SMTLM_OPT_INT32, "2", 1},
        {"ptx_opcode_latency_tesnor", SMTLM_OPT_STRING, "64", 1},
        {"gpgpu_n_mem", SMTLM_OPT_UINT32, "8", 0},
        {"trace", SMTLM_OPT_STRING, "", 1},
        {"smtlm_fix_subcore_hol", SMTLM_OPT_BOOL, "0", 1},
        {"smtlm_fix_optype_priority", SMTLM_OPT_BOOL, "0", 1},
        {"smtlm_fix_wb_bank_conflict", SMTLM_OPT_BOOL, "0", 1},
        {"smtlm_oc_allocator", SMTLM_OPT_STRING, "fifo", 1},
        {"smtlm_stats_json", SMTLM_OPT_STRING, "", 1},
        {"smtlm_list_options", SMTLM_OPT_BOOL, "0", 1},
        {"smtlm_skip_idle", SMTLM_OPT_BOOL, "1", 1},
        {"smtlm_watchdog_cycles", SMTLM_OPT_UINT32, "100000", 1},
        {"smtlm_mem_latency", SMTLM_OPT_UINT32, "240", 1},
        {"smtlm_mem_bytes_per_cycle", SMTLM_OPT_UINT32, "64", 1},
        {"smtlm_synth_warps", SMTLM_OPT_UINT32, "32", 1},
        {"smtlm_synth_insts", SMTLM_OPT_UINT32, "2000", 1},
        {"smtlm_synth_mix", SMTLM_OPT_STRING, "sp=60,int=30,sfu=5,ldst=5", 1},
        {"smtlm_synth_dep_distance", SMTLM_OPT_UINT32, "4", 1},
        {"smtlm_synth_regs", SMTLM_OPT_UINT32, "32", 1},
        {"smtlm_synth_seed", SMTLM_OPT_UINT64, "1", 1},
        {"smtlm_synth_reg_skew", SMTLM_OPT_UINT32, "2", 1},
        {"smtlm_synth_ctas", SMTLM_OPT_UINT32, "1", 1},
        {"smtlm_mode", SMTLM_OPT_STRING, "gpgpusim", 1},
    };
    for (const Want &w : want) {
        const smtlm_option_def *d = smtlm_option_lookup(w.name);
        ASSERT_NE(d, nullptr) << w.name;
        EXPECT_EQ(d->type, w.type) << w.name;
        EXPECT_STREQ(d->def, w.def) << w.name;
        EXPECT_EQ(d->modelled, w.modelled) << w.name;
    }
    EXPECT_STREQ(smtlm_option_lookup("smtlm_oc_allocator")->choices, "fifo|wavefront");
}

// ---------------------------------------------------------------- real configs

TEST(OptionsRealConfigs, AllFiveParseUnchangedFileByFileAndAsPairs)
{
    for (const RealPair &p : kPairs) {
        for (const char *f : {"gpgpusim.config", "trace.config"}) {
            Opts o;
            EXPECT_EQ(o.file(real_file(p.dir, f)), SMTLM_OPT_OK) << p.dir << "/" << f << ": " << o.err;
        }
        Opts pair;
        EXPECT_EQ(pair.argv({"smsim", "-config", real_file(p.dir, "gpgpusim.config").c_str(), "-config",
                             real_file(p.dir, "trace.config").c_str()}),
                  SMTLM_OPT_OK)
            << pair.err;
    }
}

TEST(OptionsRealConfigs, QV100ValuesReadBack)
{
    Opts o;
    ASSERT_EQ(o.file(real_file("SM7_QV100", "gpgpusim.config")), SMTLM_OPT_OK) << o.err;
    ASSERT_EQ(o.file(real_file("SM7_QV100", "trace.config")), SMTLM_OPT_OK) << o.err;
    EXPECT_EQ(o.i64("gpgpu_num_reg_banks"), 16);
    EXPECT_EQ(o.i64("gpgpu_n_clusters"), 80);
    EXPECT_EQ(o.i64("gpgpu_reg_file_port_throughput"), 2);
    EXPECT_EQ(o.i64("gpgpu_kernel_launch_latency"), 5000);
    EXPECT_EQ(o.boolean("gpgpu_sub_core_model"), 1);
    EXPECT_EQ(o.boolean("gpgpu_enable_specialized_operand_collector"), 0);
    EXPECT_EQ(o.str("gpgpu_pipeline_widths"), "4,4,4,4,4,4,4,4,4,4,8,4,4");
    EXPECT_EQ(o.str("gpgpu_scheduler"), "lrr");
    EXPECT_EQ(o.str("gpgpu_clock_domains"), "1132.0:1132.0:1132.0:850.0");
    // the quoted value spans two lines; the commented-out variant above it is ignored
    EXPECT_EQ(o.str("gpgpu_dram_timing_opt"),
              "nbk=16:CCD=1:RRD=3:RCD=12:RAS=28:RP=12:RC=40: CL=12:WL=2:CDLR=3:WR=10:nbkgrp=4:CCDL=2:RTPL=3");
    EXPECT_EQ(o.i64("dram_data_command_freq_ratio"), 2); // "-dram_data_command_freq_ratio 2  # HBM is DDR"
    EXPECT_EQ(o.str("gpgpu_cache:dl1"), "S:4:128:64,L:T:m:L:L,A:512:8,16:0,32");
    EXPECT_EQ(o.str("gpgpu_mem_addr_mapping"),
              "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS");
    EXPECT_EQ(o.str("specialized_unit_3"), "1,4,8,4,4,TENSOR");
    EXPECT_EQ(o.str("trace_opcode_latency_initiation_sfu"), "20,8");
    EXPECT_EQ(o.str("specialized_unit_4"), "0,4,4,4,4,BRA"); // not in QV100's trace.config
    EXPECT_EQ(o.boolean("visualizer_enabled"), 0);
    // origins point at the option-name token
    std::string org = o.origin("gpgpu_num_reg_banks");
    EXPECT_NE(org.find("SM7_QV100/gpgpusim.config:122"), std::string::npos) << org;
    org = o.origin("gpgpu_dram_timing_opt");
    EXPECT_NE(org.find("SM7_QV100/gpgpusim.config:216"), std::string::npos) << org;
    org = o.origin("trace_opcode_latency_initiation_int");
    EXPECT_NE(org.find("SM7_QV100/trace.config:1"), std::string::npos) << org;
    EXPECT_EQ(o.origin("gpgpu_max_cycle"), "<default>");
}

TEST(OptionsRealConfigs, TitanXTraceConfigSetsOnlyFourLatencies)
{
    Opts o;
    ASSERT_EQ(o.file(real_file("SM6_TITANX", "trace.config")), SMTLM_OPT_OK) << o.err;
    EXPECT_EQ(o.str("trace_opcode_latency_initiation_sfu"), "20,4");
    // trace.config alone sits on the built-in QV100 defaults ...
    EXPECT_EQ(o.str("trace_opcode_latency_initiation_tensor"), "2,2");
    EXPECT_EQ(o.str("specialized_unit_1"), "1,4,4,4,4,BRA");
    EXPECT_FALSE(smtlm_options_is_set(o.o, "specialized_unit_1"));
    // ... until a machine config (it sets -gpgpu_ptx_force_max_capability) is read: what neither
    // file sets is then GPGPU-Sim's default, as in Accel-Sim, whatever the order of the files.
    ASSERT_EQ(o.file(real_file("SM6_TITANX", "gpgpusim.config")), SMTLM_OPT_OK) << o.err;
    EXPECT_EQ(o.str("trace_opcode_latency_initiation_tensor"), "4,1");
    EXPECT_EQ(o.str("specialized_unit_1"), "0,4,4,4,4,BRA");
    EXPECT_EQ(o.str("trace_opcode_latency_initiation_sfu"), "20,4"); // set values stay
    EXPECT_EQ(o.str("gpgpu_pipeline_widths"), "4,0,0,4,4,4,0,0,4,4,8");
    EXPECT_EQ(o.boolean("gpgpu_ignore_resources_limitation"), 1);
    EXPECT_EQ(o.str("inter_config_file"), "config_pascal_islip.icnt");
    EXPECT_EQ(o.str("gpgpu_dram_timing_opt"),
              "nbk=16:CCD=2:RRD=8:RCD=16:RAS=37:RP=16:RC=52: CL=16:WL=6:CDLR=7:WR=16:nbkgrp=4:CCDL=4:RTPL=3");
}

TEST(OptionsRealConfigs, RTX2060ValuesDecodeWithTheListHelpers)
{
    Opts o;
    ASSERT_EQ(o.file(real_file("SM75_RTX2060", "gpgpusim.config")), SMTLM_OPT_OK) << o.err;
    ASSERT_EQ(o.file(real_file("SM75_RTX2060", "trace.config")), SMTLM_OPT_OK) << o.err;
    EXPECT_EQ(o.i64("gpgpu_num_reg_banks"), 8);
    unsigned v[8];
    int n = 0;
    // five values although GPGPU-Sim reads six
    EXPECT_EQ(smtlm_parse_uint_list(o.str("ptx_opcode_latency_int").c_str(), v, 8, &n), SMTLM_OPT_OK);
    EXPECT_EQ(n, 5);
    EXPECT_EQ(v[4], 21u);
    smtlm_spec_unit_cfg su;
    ASSERT_EQ(smtlm_parse_specialized_unit(o.str("specialized_unit_4").c_str(), &su), SMTLM_OPT_OK);
    EXPECT_EQ(su.enabled, 1u);
    EXPECT_STREQ(su.name, "UDP");
    unsigned lat = 0, ii = 0;
    ASSERT_EQ(smtlm_parse_lat_ii(o.str("trace_opcode_latency_initiation_spec_op_4").c_str(), &lat, &ii),
              SMTLM_OPT_OK);
    EXPECT_EQ(lat, 4u);
    EXPECT_EQ(ii, 1u);
    double clk[4];
    ASSERT_EQ(smtlm_parse_double_list_sep(o.str("gpgpu_clock_domains").c_str(), ':', clk, 4, &n), SMTLM_OPT_OK);
    EXPECT_EQ(n, 4);
    EXPECT_DOUBLE_EQ(clk[0], 1365.0);
    EXPECT_DOUBLE_EQ(clk[3], 3500.5);
}

// ---------------------------------------------------------------- syntax

TEST(OptionsSyntax, CommentsRunToEndOfLine)
{
    Opts o;
    ASSERT_EQ(o.text("# -gpgpu_n_clusters 99\n"
                     "-gpgpu_n_clusters 7 # trailing -gpgpu_n_clusters 98\n"
                     "-gpgpu_num_reg_banks 3#glued -gpgpu_num_reg_banks 97\n"
                     "#-gpgpu_n_mem 5\n"
                     "   \t\n"),
              SMTLM_OPT_OK)
        << o.err;
    EXPECT_EQ(o.i64("gpgpu_n_clusters"), 7);
    EXPECT_EQ(o.i64("gpgpu_num_reg_banks"), 3);
    EXPECT_FALSE(smtlm_options_is_set(o.o, "gpgpu_n_mem"));
    EXPECT_EQ(o.origin("gpgpu_num_reg_banks"), "t.config:3");
}

TEST(OptionsSyntax, OptionAndValueMayBeOnDifferentLinesAndCRLFIsWhitespace)
{
    Opts o;
    ASSERT_EQ(o.text("-gpgpu_n_clusters\r\n\r\n  12\r\n-gpgpu_scheduler gto\r\n"), SMTLM_OPT_OK) << o.err;
    EXPECT_EQ(o.i64("gpgpu_n_clusters"), 12);
    EXPECT_EQ(o.str("gpgpu_scheduler"), "gto");
    EXPECT_EQ(o.origin("gpgpu_n_clusters"), "t.config:1"); // the line of the option name
}

TEST(OptionsSyntax, QuotesGlueTokensAcrossLines)
{
    Opts o;
    ASSERT_EQ(o.text("-gpgpu_dram_timing_opt \"a=1:b=2:\n      c=3\"\n"
                     "-gpgpu_scheduler \"lrr\"\n"
                     "-smtlm_stats_json \"\"\n"
                     "-gpgpu_runtime_stat \"x   y\" # blanks collapse to one, as in GPGPU-Sim\n"
                     "-trace a\"b\n"),
              SMTLM_OPT_OK)
        << o.err;
    EXPECT_EQ(o.str("gpgpu_dram_timing_opt"), "a=1:b=2: c=3");
    EXPECT_EQ(o.str("gpgpu_scheduler"), "lrr");
    EXPECT_EQ(o.str("smtlm_stats_json"), "");
    EXPECT_TRUE(smtlm_options_is_set(o.o, "smtlm_stats_json"));
    EXPECT_EQ(o.str("gpgpu_runtime_stat"), "x y");
    EXPECT_EQ(o.str("trace"), "a\"b"); // only a leading quote opens a quoted value
}

TEST(OptionsSyntax, UnterminatedQuoteIsReportedAtItsLine)
{
    Opts o;
    EXPECT_EQ(o.text("-gpgpu_n_clusters 4\n-gpgpu_dram_timing_opt \"a=1\n b=2\n"), SMTLM_OPT_E_QUOTE);
    EXPECT_STREQ(o.err, "t.config:2: unterminated quote");
    Opts lone;
    EXPECT_EQ(lone.text("-trace \""), SMTLM_OPT_E_QUOTE);
}

TEST(OptionsSyntax, OctalAndHexLikeGpgpuSim)
{
    Opts o;
    ASSERT_EQ(o.text("-gpgpu_n_clusters 010\n-gpgpu_num_reg_banks 0x1f\n-gpgpu_shader_cta 0\n"
                     "-gpgpu_warpdistro_shader -010\n-smtlm_synth_seed 0xffffffffffffffff\n"
                     "-gpgpu_max_cycle 00\n"),
              SMTLM_OPT_OK)
        << o.err;
    EXPECT_EQ(o.i64("gpgpu_n_clusters"), 8);
    EXPECT_EQ(o.i64("gpgpu_num_reg_banks"), 31);
    EXPECT_EQ(o.i64("gpgpu_shader_cta"), 0);
    EXPECT_EQ(o.i64("gpgpu_warpdistro_shader"), -10); // the sign hides the 0: decimal
    uint64_t seed = 0;
    EXPECT_EQ(smtlm_options_get_u64(o.o, "smtlm_synth_seed", &seed), SMTLM_OPT_OK);
    EXPECT_EQ(seed, UINT64_MAX);
    EXPECT_EQ(o.canon("gpgpu_n_clusters"), "8");
    EXPECT_EQ(o.str("gpgpu_n_clusters"), "010"); // the text as given

    Opts bad;
    EXPECT_EQ(bad.text("-gpgpu_n_clusters 08"), SMTLM_OPT_E_BAD_VALUE); // 8 is no octal digit
    Opts upper;
    EXPECT_EQ(upper.text("-gpgpu_n_clusters 0X10"), SMTLM_OPT_E_BAD_VALUE); // GPGPU-Sim knows 0x only
}

TEST(OptionsSyntax, LaterValuesWin)
{
    TempDir d;
    std::string second = d.write("second.config", "-gpgpu_num_reg_banks 12\n");
    Opts o;
    ASSERT_EQ(o.text("-gpgpu_num_reg_banks 4\n-gpgpu_num_reg_banks 6\n"), SMTLM_OPT_OK) << o.err;
    EXPECT_EQ(o.i64("gpgpu_num_reg_banks"), 6);
    EXPECT_EQ(o.origin("gpgpu_num_reg_banks"), "t.config:2");
    ASSERT_EQ(o.file(second), SMTLM_OPT_OK) << o.err;
    EXPECT_EQ(o.i64("gpgpu_num_reg_banks"), 12);
    EXPECT_EQ(o.origin("gpgpu_num_reg_banks"), second + ":1");
    ASSERT_EQ(o.argv({"smsim", "-config", second.c_str(), "-gpgpu_num_reg_banks", "2"}), SMTLM_OPT_OK) << o.err;
    EXPECT_EQ(o.i64("gpgpu_num_reg_banks"), 2);
    EXPECT_EQ(o.origin("gpgpu_num_reg_banks"), "<command line>:3");
}

TEST(OptionsSyntax, BareBoolFlagMeansOne)
{
    Opts o;
    ASSERT_EQ(o.text("-gpgpu_perfect_mem -gpgpu_n_clusters 4 -smtlm_fix_subcore_hol\n"), SMTLM_OPT_OK) << o.err;
    EXPECT_EQ(o.boolean("gpgpu_perfect_mem"), 1);
    EXPECT_EQ(o.i64("gpgpu_n_clusters"), 4);
    EXPECT_EQ(o.boolean("smtlm_fix_subcore_hol"), 1); // bare at the end of the input
    ASSERT_EQ(o.text("-gpgpu_perfect_mem 0 -smtlm_fix_subcore_hol 0 -gpgpu_flush_l2_cache -config"),
              SMTLM_OPT_E_MISSING_VALUE);
    EXPECT_EQ(o.boolean("gpgpu_perfect_mem"), 0);
    EXPECT_EQ(o.boolean("smtlm_fix_subcore_hol"), 0);
    EXPECT_EQ(o.boolean("gpgpu_flush_l2_cache"), 1); // bare before -config
    Opts cl;
    ASSERT_EQ(cl.argv({"smsim", "-smtlm_list_options"}), SMTLM_OPT_OK) << cl.err;
    EXPECT_EQ(cl.boolean("smtlm_list_options"), 1);
}

TEST(OptionsSyntax, BoolValueOtherThanZeroOrOneIsRejected)
{
    for (const char *v : {"2", "-1", "yes", "true", "0x2"}) {
        Opts o;
        std::string text = "\n-gpgpu_perfect_mem " + std::string(v) + "\n";
        EXPECT_EQ(o.text(text), SMTLM_OPT_E_BAD_VALUE) << v;
        EXPECT_EQ(std::string(o.err),
                  "t.config:2: bad value '" + std::string(v) + "' for -gpgpu_perfect_mem (expects 0 or 1)");
        EXPECT_EQ(o.boolean("gpgpu_perfect_mem"), 0); // unchanged
    }
}

// ---------------------------------------------------------------- errors

TEST(OptionsErrors, UnknownOptionNamesFileLineAndNearestName)
{
    Opts o;
    EXPECT_EQ(o.text("# comment\n-gpgpu_n_clusters 4\n-gpgpu_num_reg_bank 8\n", "my.config"), SMTLM_OPT_E_UNKNOWN);
    EXPECT_STREQ(o.err, "my.config:3: unknown option -gpgpu_num_reg_bank (did you mean -gpgpu_num_reg_banks?)");
    EXPECT_EQ(o.i64("gpgpu_n_clusters"), 4); // what came before stays set

    Opts c; // case differences count little
    EXPECT_EQ(c.text("-gpgpu_tb_launch_latency 3"), SMTLM_OPT_E_UNKNOWN);
    EXPECT_STREQ(c.err, "t.config:1: unknown option -gpgpu_tb_launch_latency (did you mean -gpgpu_TB_launch_latency?)");

    Opts a;
    EXPECT_EQ(a.argv({"smsim", "-gpgpu_n_clusters", "4", "-smtlm_oc_alocator", "fifo"}), SMTLM_OPT_E_UNKNOWN);
    EXPECT_STREQ(a.err, "<command line>:3: unknown option -smtlm_oc_alocator (did you mean -smtlm_oc_allocator?)");

    Opts stray;
    EXPECT_EQ(stray.text("-gpgpu_n_clusters 4 5\n"), SMTLM_OPT_E_UNKNOWN);
    EXPECT_STREQ(stray.err, "t.config:1: unexpected '5' where an option (-name) was expected");
}

TEST(OptionsErrors, BadValueNamesFileLineAndExpectedType)
{
    Opts o;
    EXPECT_EQ(o.text("-gpgpu_n_mem 4\n-gpgpu_n_clusters xyz\n", "x.config"), SMTLM_OPT_E_BAD_VALUE);
    EXPECT_STREQ(o.err, "x.config:2: bad value 'xyz' for -gpgpu_n_clusters (expects an unsigned integer)");
    Opts neg;
    EXPECT_EQ(neg.text("-gpgpu_n_clusters -1"), SMTLM_OPT_E_BAD_VALUE);
    EXPECT_STREQ(neg.err, "t.config:1: bad value '-1' for -gpgpu_n_clusters (expects an unsigned integer)");
    Opts junk;
    EXPECT_EQ(junk.text("-gpgpu_num_reg_banks 12abc"), SMTLM_OPT_E_BAD_VALUE);
    EXPECT_STREQ(junk.err, "t.config:1: bad value '12abc' for -gpgpu_num_reg_banks (expects an integer)");
    Opts range;
    EXPECT_EQ(range.text("-gpgpu_n_clusters 4294967296"), SMTLM_OPT_E_RANGE);
    EXPECT_STREQ(range.err, "t.config:1: value '4294967296' out of range for -gpgpu_n_clusters (0..4294967295)");
    Opts range32;
    EXPECT_EQ(range32.text("-gpgpu_num_reg_banks -2147483649"), SMTLM_OPT_E_RANGE);
    Opts ok32;
    EXPECT_EQ(ok32.text("-gpgpu_num_reg_banks -2147483648"), SMTLM_OPT_OK) << ok32.err;
    Opts choice;
    EXPECT_EQ(choice.text("-smtlm_oc_allocator round_robin"), SMTLM_OPT_E_BAD_VALUE);
    EXPECT_STREQ(choice.err,
                 "t.config:1: bad value 'round_robin' for -smtlm_oc_allocator (expects one of fifo|wavefront)");
    Opts wf;
    EXPECT_EQ(wf.text("-smtlm_oc_allocator wavefront"), SMTLM_OPT_OK) << wf.err;
}

TEST(OptionsErrors, MissingValue)
{
    Opts end;
    EXPECT_EQ(end.text("-gpgpu_n_clusters 4\n-gpgpu_num_reg_banks\n"), SMTLM_OPT_E_MISSING_VALUE);
    EXPECT_STREQ(end.err, "t.config:2: missing value for -gpgpu_num_reg_banks");
    Opts next;
    EXPECT_EQ(next.text("-gpgpu_scheduler -gpgpu_n_clusters 4"), SMTLM_OPT_E_MISSING_VALUE);
    EXPECT_STREQ(next.err, "t.config:1: missing value for -gpgpu_scheduler (next is the option -gpgpu_n_clusters)");
    Opts cfg;
    EXPECT_EQ(cfg.argv({"smsim", "-config"}), SMTLM_OPT_E_MISSING_VALUE);
    EXPECT_STREQ(cfg.err, "<command line>:1: missing value for -config (a file name)");
    Opts negative; // a negative number is a value, not an option
    EXPECT_EQ(negative.text("-gpgpu_warpdistro_shader -3"), SMTLM_OPT_OK) << negative.err;
    EXPECT_EQ(negative.i64("gpgpu_warpdistro_shader"), -3);
}

TEST(OptionsErrors, MissingFile)
{
    TempDir d;
    std::string missing = d.path + "/nope.config";
    Opts o;
    EXPECT_EQ(o.file(missing), SMTLM_OPT_E_OPEN);
    EXPECT_EQ(std::string(o.err), missing + ": cannot open: No such file or directory");

    std::string top = d.write("top.config", "-gpgpu_n_clusters 2\n-config /nonexistent/dir/x.config\n");
    Opts inc;
    EXPECT_EQ(inc.file(top), SMTLM_OPT_E_OPEN);
    EXPECT_EQ(std::string(inc.err),
              "/nonexistent/dir/x.config: cannot open: No such file or directory (-config at " + top + ":2)");

    std::string rel = d.write("rel.config", "-config not_here.config\n");
    Opts tried; // a relative path is looked for in the working directory, then next to rel.config
    EXPECT_EQ(tried.file(rel), SMTLM_OPT_E_OPEN);
    EXPECT_EQ(std::string(tried.err), "not_here.config: cannot open: No such file or directory (-config at " + rel +
                                          ":1; also tried " + d.path + "/not_here.config)");

    Opts cl;
    EXPECT_EQ(cl.argv({"smsim", "-gpgpu_n_clusters", "2", "-config", missing.c_str()}), SMTLM_OPT_E_OPEN);
    EXPECT_EQ(std::string(cl.err),
              missing + ": cannot open: No such file or directory (-config at <command line>:3)");

    Opts dir;
    EXPECT_EQ(dir.file(d.path), SMTLM_OPT_E_OPEN); // a directory is no config file
    EXPECT_NE(std::string(dir.err).find("cannot open: Is a directory"), std::string::npos) << dir.err;
}

TEST(OptionsErrors, NulByteInTextIsRejected)
{
    Opts o;
    std::string t = "-gpgpu_n_clusters 4\n-gpgpu_n_mem 3";
    t += '\0';
    t += " 5\n";
    EXPECT_EQ(o.text(t), SMTLM_OPT_E_SYNTAX);
    EXPECT_STREQ(o.err, "t.config:2: NUL byte in config text");
    Opts empty;
    EXPECT_EQ(smtlm_options_parse_text(empty.o, nullptr, 0, nullptr, empty.err, sizeof empty.err), SMTLM_OPT_OK);
}

TEST(OptionsErrors, MessageFitsSmallBufferAndNullArgumentsAreRefused)
{
    Opts o;
    char small[16];
    std::string t = "-" + std::string(5000, 'x') + " 1";
    EXPECT_EQ(smtlm_options_parse_text(o.o, t.data(), t.size(), "t", small, sizeof small), SMTLM_OPT_E_UNKNOWN);
    EXPECT_EQ(std::strlen(small), sizeof small - 1);
    EXPECT_EQ(smtlm_options_parse_file(nullptr, "x", nullptr, 0), SMTLM_OPT_E_ARG);
    EXPECT_EQ(smtlm_options_parse_file(o.o, nullptr, nullptr, 0), SMTLM_OPT_E_ARG);
    EXPECT_EQ(smtlm_options_parse_argv(o.o, 2, nullptr, nullptr, 0), SMTLM_OPT_E_ARG);
}

// ---------------------------------------------------------------- -config

TEST(OptionsInclude, NestedFilesAndIncluderDirectoryFallback)
{
    TempDir d;
    ASSERT_EQ(mkdir((d.path + "/sub").c_str(), 0700), 0);
    d.write("sub/leaf.config", "-gpgpu_num_reg_banks 10\n");
    // "leaf.config" is not in the working directory: found next to the including file
    d.write("sub/mid.config", "-gpgpu_n_clusters 3\n-config leaf.config\n-gpgpu_shader_cta 7\n");
    std::string top = d.write("top.config", "-config " + d.path + "/sub/mid.config\n-gpgpu_n_mem 9\n");
    Opts o;
    ASSERT_EQ(o.file(top), SMTLM_OPT_OK) << o.err;
    EXPECT_EQ(o.i64("gpgpu_num_reg_banks"), 10);
    EXPECT_EQ(o.i64("gpgpu_n_clusters"), 3);
    EXPECT_EQ(o.i64("gpgpu_shader_cta"), 7); // processing resumes after the -config
    EXPECT_EQ(o.i64("gpgpu_n_mem"), 9);
    EXPECT_EQ(o.origin("gpgpu_num_reg_banks"), d.path + "/sub/leaf.config:1");
    EXPECT_EQ(o.origin("gpgpu_shader_cta"), d.path + "/sub/mid.config:3");

    // the working directory comes first, as in GPGPU-Sim
    d.write("cwd.config", "-gpgpu_num_reg_banks 20\n");
    d.write("sub/cwd.config", "-gpgpu_num_reg_banks 21\n");
    std::string inc = d.write("sub/inc.config", "-config cwd.config\n");
    char old[4096];
    ASSERT_NE(getcwd(old, sizeof old), nullptr);
    ASSERT_EQ(chdir(d.path.c_str()), 0);
    Opts w;
    int rc = w.file(inc);
    ASSERT_EQ(chdir(old), 0);
    ASSERT_EQ(rc, SMTLM_OPT_OK) << w.err;
    EXPECT_EQ(w.i64("gpgpu_num_reg_banks"), 20);
}

TEST(OptionsInclude, CycleIsCaughtByTheDepthLimit)
{
    TempDir d;
    std::string self = d.write("self.config", "-gpgpu_n_clusters 1\n-config " + d.path + "/self.config\n");
    Opts o;
    EXPECT_EQ(o.file(self), SMTLM_OPT_E_DEPTH);
    EXPECT_EQ(std::string(o.err), self + ":2: -config " + self + ": nested deeper than 32 files (include cycle?)");
    std::string a = d.write("a.config", "-config b.config\n");
    d.write("b.config", "-gpgpu_n_mem 2\n-config a.config\n");
    Opts ab;
    EXPECT_EQ(ab.file(a), SMTLM_OPT_E_DEPTH);
    EXPECT_NE(std::string(ab.err).find("include cycle"), std::string::npos) << ab.err;

    // exactly 32 levels are fine
    for (int i = 1; i <= 32; i++)
        d.write("l" + std::to_string(i) + ".config",
                i < 32 ? "-config l" + std::to_string(i + 1) + ".config\n" : "-gpgpu_n_clusters 32\n");
    Opts deep;
    EXPECT_EQ(deep.argv({"smsim", "-config", (d.path + "/l1.config").c_str()}), SMTLM_OPT_OK) << deep.err;
    EXPECT_EQ(deep.i64("gpgpu_n_clusters"), 32);
}

TEST(OptionsInclude, RefusedWhenIncludesAreOff)
{
    Opts o;
    smtlm_options_set_include_allowed(o.o, 0);
    EXPECT_EQ(o.text("-gpgpu_n_clusters 2\n-config /etc/passwd\n"), SMTLM_OPT_E_NO_INCLUDE);
    EXPECT_STREQ(o.err, "t.config:2: -config is not allowed here");
    smtlm_options_set_include_allowed(o.o, 1);
    EXPECT_EQ(o.text("-config /nonexistent.config"), SMTLM_OPT_E_OPEN);
}

// ---------------------------------------------------------------- getters, set, origin

TEST(OptionsGetters, TypedAccessChecksTypeAndRange)
{
    Opts o;
    ASSERT_EQ(o.text("-gpgpu_warpdistro_shader -1\n-smtlm_synth_seed 18446744073709551615\n"), SMTLM_OPT_OK);
    int b;
    int64_t i64;
    uint64_t u64;
    int32_t i32;
    uint32_t u32;
    double d;
    const char *s;
    EXPECT_EQ(smtlm_options_get_bool(o.o, "gpgpu_n_clusters", &b), SMTLM_OPT_E_TYPE);
    EXPECT_EQ(smtlm_options_get_i64(o.o, "gpgpu_scheduler", &i64), SMTLM_OPT_E_TYPE);
    EXPECT_EQ(smtlm_options_get_double(o.o, "gpgpu_scheduler", &d), SMTLM_OPT_E_TYPE);
    EXPECT_EQ(smtlm_options_get_u32(o.o, "gpgpu_warpdistro_shader", &u32), SMTLM_OPT_E_RANGE);
    EXPECT_EQ(smtlm_options_get_i32(o.o, "gpgpu_warpdistro_shader", &i32), SMTLM_OPT_OK);
    EXPECT_EQ(i32, -1);
    EXPECT_EQ(smtlm_options_get_i64(o.o, "smtlm_synth_seed", &i64), SMTLM_OPT_E_RANGE);
    EXPECT_EQ(smtlm_options_get_u32(o.o, "smtlm_synth_seed", &u32), SMTLM_OPT_E_RANGE);
    EXPECT_EQ(smtlm_options_get_u64(o.o, "smtlm_synth_seed", &u64), SMTLM_OPT_OK);
    EXPECT_EQ(u64, UINT64_MAX);
    EXPECT_EQ(smtlm_options_get_u32(o.o, "smtlm_watchdog_cycles", &u32), SMTLM_OPT_OK);
    EXPECT_EQ(u32, 100000u);
    EXPECT_EQ(smtlm_options_get_double(o.o, "gpgpu_shader_registers", &d), SMTLM_OPT_OK);
    EXPECT_DOUBLE_EQ(d, 65536.0); // the built-in QV100's value
    EXPECT_EQ(smtlm_options_get_u32(o.o, "gpgpu_deadlock_detect", &u32), SMTLM_OPT_OK); // bool as 0/1
    EXPECT_EQ(u32, 1u);
    EXPECT_EQ(smtlm_options_get_str(o.o, "gpgpu_shader_registers", &s), SMTLM_OPT_OK);
    EXPECT_STREQ(s, "65536");
    EXPECT_EQ(smtlm_options_get_str(o.o, "nope", &s), SMTLM_OPT_E_UNKNOWN);
    EXPECT_EQ(smtlm_options_get_bool(o.o, "nope", &b), SMTLM_OPT_E_UNKNOWN);
    EXPECT_EQ(smtlm_options_get_bool(nullptr, "gpgpu_perfect_mem", &b), SMTLM_OPT_E_ARG);
}

TEST(OptionsGetters, SetFromCodeValidatesAndRecordsOrigin)
{
    Opts o;
    EXPECT_EQ(o.origin("smtlm_oc_allocator"), "<default>");
    EXPECT_FALSE(smtlm_options_is_set(o.o, "smtlm_oc_allocator"));
    EXPECT_EQ(smtlm_options_set(o.o, "smtlm_oc_allocator", "wavefront", o.err, sizeof o.err), SMTLM_OPT_OK);
    EXPECT_EQ(o.str("smtlm_oc_allocator"), "wavefront");
    EXPECT_EQ(o.origin("smtlm_oc_allocator"), "<api>:0");
    EXPECT_TRUE(smtlm_options_is_set(o.o, "smtlm_oc_allocator"));
    EXPECT_EQ(smtlm_options_set(o.o, "-gpgpu_n_clusters", "0x10", o.err, sizeof o.err), SMTLM_OPT_OK);
    EXPECT_EQ(o.i64("gpgpu_n_clusters"), 16);
    EXPECT_EQ(smtlm_options_set(o.o, "gpgpu_n_clusters", "many", o.err, sizeof o.err), SMTLM_OPT_E_BAD_VALUE);
    EXPECT_STREQ(o.err, "<api>:0: bad value 'many' for -gpgpu_n_clusters (expects an unsigned integer)");
    EXPECT_EQ(smtlm_options_set(o.o, "gpgpu_n_cluster", "1", o.err, sizeof o.err), SMTLM_OPT_E_UNKNOWN);
    EXPECT_STREQ(o.err, "<api>:0: unknown option -gpgpu_n_cluster (did you mean -gpgpu_n_clusters?)");
}

// ---------------------------------------------------------------- listing and warning

TEST(OptionsWarn, NamesUnmodelledOptionsSetToNonDefaultValues)
{
    Opts o;
    ASSERT_EQ(o.text("-gpgpu_n_mem 32\n"               // unmodelled, non-default: named
                     "-gpgpu_l1_banks 1\n"             // unmodelled, set to its default: not named
                     "-gpgpu_l2_rop_latency 0125\n"    // octal 85 == default 85: not named
                     "-visualizer_enabled 0\n"         // unmodelled bool, non-default: named
                     "-gpgpu_dram_partition_queues 8:8:8:8\n" // default string: not named
                     "-gpgpu_num_reg_banks 16\n"       // modelled: never named
                     "-gpgpu_cache:dl1 S:4:128:64,L:T:m:L:L,A:512:8,16:0,32\n"), // named
              SMTLM_OPT_OK)
        << o.err;
    int count = -1;
    std::string out = capture([&](FILE *f) { count = smtlm_options_warn_unmodelled(o.o, 1, f); });
    EXPECT_EQ(count, 3);
    EXPECT_EQ(count_lines(out), 1) << out;
    EXPECT_EQ(out.rfind("warning: ", 0), 0u) << out;
    EXPECT_NE(out.find(" -gpgpu_n_mem"), std::string::npos) << out;
    EXPECT_NE(out.find(" -visualizer_enabled"), std::string::npos) << out;
    EXPECT_NE(out.find(" -gpgpu_cache:dl1"), std::string::npos) << out;
    EXPECT_EQ(out.find("gpgpu_l1_banks"), std::string::npos) << out;
    EXPECT_EQ(out.find("gpgpu_l2_rop_latency"), std::string::npos) << out;
    EXPECT_EQ(out.find("gpgpu_dram_partition_queues"), std::string::npos) << out;
    EXPECT_EQ(out.find("gpgpu_num_reg_banks"), std::string::npos) << out;
}

TEST(OptionsWarn, SilentWhenNothingUnmodelledDiffers)
{
    Opts o;
    ASSERT_EQ(o.text("-gpgpu_num_reg_banks 16 -gpgpu_n_mem 8"), SMTLM_OPT_OK);
    int count = -1;
    std::string out = capture([&](FILE *f) { count = smtlm_options_warn_unmodelled(o.o, 0, f); });
    EXPECT_EQ(count, 0);
    EXPECT_EQ(out, "");
}

TEST(OptionsList, PrintsEveryOptionInGpgpuSimLayoutAndParsesBack)
{
    Opts o;
    ASSERT_EQ(o.file(real_file("SM7_QV100", "gpgpusim.config")), SMTLM_OPT_OK) << o.err;
    ASSERT_EQ(o.file(real_file("SM7_QV100", "trace.config")), SMTLM_OPT_OK) << o.err;
    std::string out = capture([&](FILE *f) { smtlm_options_list(o.o, f); });
    size_t n = 0;
    smtlm_option_table(&n);
    EXPECT_EQ(count_lines(out), (int)n);
    // GPGPU-Sim: "-name" left in 20 columns, value right in 20, " # ", then marker and description
    auto row = [](const char *name, const char *value, const char *marker) {
        char buf[128];
        std::snprintf(buf, sizeof buf, "\n%-20s %20s # %s", name, value, marker);
        return std::string(buf);
    };
    EXPECT_NE(out.find(row("-gpgpu_num_reg_banks", "16", "[modelled]     ")), std::string::npos) << out;
    EXPECT_NE(out.find(row("-gpgpu_n_mem", "32", "[not modelled] ")), std::string::npos) << out;
    EXPECT_NE(out.find("\n-gpgpu_dram_timing_opt \"nbk=16:CCD=1:"), std::string::npos);

    Opts back; // the listing is itself a config file with the same values
    ASSERT_EQ(back.text(out, "listing"), SMTLM_OPT_OK) << back.err;
    const smtlm_option_def *t = smtlm_option_table(&n);
    for (size_t i = 0; i < n; i++)
        EXPECT_EQ(back.canon(t[i].name), o.canon(t[i].name)) << t[i].name;
}

// ---------------------------------------------------------------- value helpers

TEST(OptionsNumbers, ParseNumberFollowsTheReaderRules)
{
    smtlm_opt_number v;
    EXPECT_EQ(smtlm_parse_number(SMTLM_OPT_DOUBLE, "1132.0", &v), SMTLM_OPT_OK);
    EXPECT_DOUBLE_EQ(v.d, 1132.0);
    EXPECT_EQ(smtlm_parse_number(SMTLM_OPT_DOUBLE, "0.5", &v), SMTLM_OPT_OK);
    EXPECT_DOUBLE_EQ(v.d, 0.5);
    EXPECT_EQ(smtlm_parse_number(SMTLM_OPT_DOUBLE, "-2e3", &v), SMTLM_OPT_OK);
    EXPECT_DOUBLE_EQ(v.d, -2000.0);
    EXPECT_EQ(smtlm_parse_number(SMTLM_OPT_DOUBLE, "inf", &v), SMTLM_OPT_E_BAD_VALUE);
    EXPECT_EQ(smtlm_parse_number(SMTLM_OPT_DOUBLE, "1e999", &v), SMTLM_OPT_E_RANGE);
    EXPECT_EQ(smtlm_parse_number(SMTLM_OPT_DOUBLE, ".", &v), SMTLM_OPT_E_BAD_VALUE);
    EXPECT_EQ(smtlm_parse_number(SMTLM_OPT_INT64, "-9223372036854775808", &v), SMTLM_OPT_OK);
    EXPECT_EQ(v.i, INT64_MIN);
    EXPECT_EQ(smtlm_parse_number(SMTLM_OPT_INT64, "9223372036854775808", &v), SMTLM_OPT_E_RANGE);
    EXPECT_EQ(smtlm_parse_number(SMTLM_OPT_UINT64, "18446744073709551616", &v), SMTLM_OPT_E_RANGE);
    EXPECT_EQ(smtlm_parse_number(SMTLM_OPT_UINT32, "+7", &v), SMTLM_OPT_OK);
    EXPECT_EQ(v.u, 7u);
    EXPECT_EQ(smtlm_parse_number(SMTLM_OPT_BOOL, "01", &v), SMTLM_OPT_OK);
    EXPECT_EQ(v.i, 1);
    EXPECT_EQ(smtlm_parse_number(SMTLM_OPT_INT32, "", &v), SMTLM_OPT_E_BAD_VALUE);
    EXPECT_EQ(smtlm_parse_number(SMTLM_OPT_INT32, "0x", &v), SMTLM_OPT_E_BAD_VALUE);
    EXPECT_EQ(smtlm_parse_number(SMTLM_OPT_INT32, "-", &v), SMTLM_OPT_E_BAD_VALUE);
    EXPECT_EQ(smtlm_parse_number(SMTLM_OPT_STRING, "1", &v), SMTLM_OPT_E_TYPE);
}

TEST(OptionsLists, UnsignedLists)
{
    unsigned v[16];
    int n = -1;
    ASSERT_EQ(smtlm_parse_uint_list("4,4,4,4,4,4,4,4,4,4,8,4,4", v, 16, &n), SMTLM_OPT_OK);
    EXPECT_EQ(n, 13);
    EXPECT_EQ(v[10], 8u);
    ASSERT_EQ(smtlm_parse_uint_list(" 2 , 3 ", v, 16, &n), SMTLM_OPT_OK);
    EXPECT_EQ(n, 2);
    EXPECT_EQ(v[1], 3u);
    ASSERT_EQ(smtlm_parse_uint_list_sep("2048:32", ':', v, 2, &n), SMTLM_OPT_OK);
    EXPECT_EQ(v[0], 2048u);
    EXPECT_EQ(v[1], 32u);
    EXPECT_EQ(smtlm_parse_uint_list("1,2,3", v, 2, &n), SMTLM_OPT_E_RANGE);
    EXPECT_EQ(smtlm_parse_uint_list("4,,4", v, 16, &n), SMTLM_OPT_E_BAD_VALUE);
    EXPECT_EQ(smtlm_parse_uint_list("4,", v, 16, &n), SMTLM_OPT_E_BAD_VALUE);
    EXPECT_EQ(smtlm_parse_uint_list("", v, 16, &n), SMTLM_OPT_E_BAD_VALUE);
    EXPECT_EQ(smtlm_parse_uint_list("4,x", v, 16, &n), SMTLM_OPT_E_BAD_VALUE);
    EXPECT_EQ(smtlm_parse_uint_list("-1", v, 16, &n), SMTLM_OPT_E_BAD_VALUE);
    EXPECT_EQ(smtlm_parse_uint_list("4294967296", v, 16, &n), SMTLM_OPT_E_RANGE);
    EXPECT_EQ(smtlm_parse_uint_list(nullptr, v, 16, &n), SMTLM_OPT_E_ARG);
}

TEST(OptionsLists, DoubleListsAndLatencyPairs)
{
    double d[4];
    int n = 0;
    ASSERT_EQ(smtlm_parse_double_list_sep("1132.0:1132.0:1132.0:850.0", ':', d, 4, &n), SMTLM_OPT_OK);
    EXPECT_EQ(n, 4);
    EXPECT_DOUBLE_EQ(d[3], 850.0);
    EXPECT_EQ(smtlm_parse_double_list_sep("1:2:3:4:5", ':', d, 4, &n), SMTLM_OPT_E_RANGE);
    EXPECT_EQ(smtlm_parse_double_list_sep("1::2", ':', d, 4, &n), SMTLM_OPT_E_BAD_VALUE);
    unsigned lat = 0, ii = 0;
    ASSERT_EQ(smtlm_parse_lat_ii("20,8", &lat, &ii), SMTLM_OPT_OK);
    EXPECT_EQ(lat, 20u);
    EXPECT_EQ(ii, 8u);
    EXPECT_EQ(smtlm_parse_lat_ii("20", &lat, &ii), SMTLM_OPT_E_BAD_VALUE);
    EXPECT_EQ(smtlm_parse_lat_ii("1,2,3", &lat, &ii), SMTLM_OPT_E_BAD_VALUE);
}

TEST(OptionsLists, SpecializedUnitStrings)
{
    smtlm_spec_unit_cfg u;
    ASSERT_EQ(smtlm_parse_specialized_unit("1,4,200,4,4,TEX", &u), SMTLM_OPT_OK);
    EXPECT_EQ(u.enabled, 1u);
    EXPECT_EQ(u.num_units, 4u);
    EXPECT_EQ(u.max_latency, 200u);
    EXPECT_EQ(u.id_oc_width, 4u);
    EXPECT_EQ(u.oc_ex_width, 4u);
    EXPECT_STREQ(u.name, "TEX");
    ASSERT_EQ(smtlm_parse_specialized_unit(smtlm_option_lookup("specialized_unit_5")->def, &u), SMTLM_OPT_OK);
    EXPECT_EQ(u.enabled, 0u);
    EXPECT_STREQ(u.name, "BRA");
    EXPECT_EQ(smtlm_parse_specialized_unit("1,4,4,4,BRA", &u), SMTLM_OPT_E_BAD_VALUE);
    EXPECT_EQ(smtlm_parse_specialized_unit("2,4,4,4,4,BRA", &u), SMTLM_OPT_E_BAD_VALUE);
    EXPECT_EQ(smtlm_parse_specialized_unit("1,4,4,4,4,", &u), SMTLM_OPT_E_BAD_VALUE);
    EXPECT_EQ(smtlm_parse_specialized_unit("1,4,4,4,4,A_VERY_LONG_UNIT_NAME", &u), SMTLM_OPT_E_BAD_VALUE);
}

// ---------------------------------------------------------------- the project's configs

class OptionsProjectConfigs : public ::testing::TestWithParam<RealPair> {};

// configs/<gpu>.config must mean the same timing as the real pair: every modelled option
// carries the same value (compared as canonical text, so 010 == 8), and nothing unmodelled
// is set.
TEST_P(OptionsProjectConfigs, CarryTheRealPairsValueForEveryModelledOption)
{
    const RealPair &p = GetParam();
    Opts real, mine;
    ASSERT_EQ(real.file(real_file(p.dir, "gpgpusim.config")), SMTLM_OPT_OK) << real.err;
    ASSERT_EQ(real.file(real_file(p.dir, "trace.config")), SMTLM_OPT_OK) << real.err;
    ASSERT_EQ(mine.file(kConfigs + "/" + p.project), SMTLM_OPT_OK) << mine.err;
    size_t n = 0;
    const smtlm_option_def *t = smtlm_option_table(&n);
    int compared = 0, set_by_real = 0;
    for (size_t i = 0; i < n; i++) {
        if (!t[i].modelled)
            continue;
        EXPECT_EQ(mine.canon(t[i].name), real.canon(t[i].name)) << p.project << ": -" << t[i].name;
        compared++;
        set_by_real += smtlm_options_is_set(real.o, t[i].name);
    }
    EXPECT_GT(compared, 80);
    EXPECT_GT(set_by_real, 20); // the comparison is not between two sets of defaults
    EXPECT_EQ(smtlm_options_warn_unmodelled(mine.o, 0, nullptr), 0) << p.project;
}

INSTANTIATE_TEST_SUITE_P(Options, OptionsProjectConfigs, ::testing::ValuesIn(kPairs),
                         [](const ::testing::TestParamInfo<RealPair> &info) {
                             std::string s = info.param.project;
                             return s.substr(0, s.find('.'));
                         });

namespace {
SMTLM_PARAM_NAMES_GUARD()
} // namespace
