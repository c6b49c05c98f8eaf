// Hopper TMA and bulk-copy lines as Accel-Sim 2.0's tracer writes them: a transfer list after
// mem_width (trace_tma_parse), in its two address modes, and the file:line errors of a bad one.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "test_trace_util.h"
extern "C" {
#include "trace_internal.h"
}

using namespace trace_test;

namespace {

struct Tma {
    trace_tma t{};
    uint64_t addrs[8] = {};
    int rc = 0;
    char err[256] = "";
    explicit Tma(const char *list, size_t max = 8)
    {
        trace_ctx c;
        std::memset(&c, 0, sizeof c);
        c.file = "k.traceg";
        const char *p = list;
        rc = trace_tma_parse(&c, &p, 7, &t, addrs, max, err, sizeof err);
    }
};

Hdr hopper()
{
    Hdr h;
    h.binary = 90;
    return h;
}

} // namespace

TEST(TraceTma, ListAllGivesEveryAddress)
{
    // mbarrier 0x400, no multicast, 256 bytes, 0 out of bounds, mode 3, three addresses
    Tma m("400 0 256 0 3 3 7f0000000000 7f0000000080 7f0000001000");
    ASSERT_EQ(m.rc, 0) << m.err;
    EXPECT_EQ(m.t.mbarrier, 0x400u);
    EXPECT_EQ(m.t.multicast, 0u);
    EXPECT_EQ(m.t.bytes, 256u);
    EXPECT_EQ(m.t.mode, TRACE_TMA_LIST_ALL);
    EXPECT_EQ(m.t.count, 3u);
    EXPECT_EQ(m.addrs[0], 0x7f0000000000ull);
    EXPECT_EQ(m.addrs[1], 0x7f0000000080ull);
    EXPECT_EQ(m.addrs[2], 0x7f0000001000ull);
}

TEST(TraceTma, BaseDeltaAddsEachDeltaToThePreviousAddress)
{
    // multicast to CTAs 0 and 2 (mask 5), mode 4: base, count 4, three signed deltas
    Tma m("418 1 5 512 64 4 7f0000000100 4 128 -64 4096");
    ASSERT_EQ(m.rc, 0) << m.err;
    EXPECT_EQ(m.t.multicast, 1u);
    EXPECT_EQ(m.t.cta_mask, 5u);
    EXPECT_EQ(m.t.oob_bytes, 64u);
    EXPECT_EQ(m.t.mode, TRACE_TMA_BASE_DELTA);
    EXPECT_EQ(m.t.count, 4u);
    EXPECT_EQ(m.addrs[0], 0x7f0000000100ull);
    EXPECT_EQ(m.addrs[1], 0x7f0000000180ull);
    EXPECT_EQ(m.addrs[2], 0x7f0000000140ull);
    EXPECT_EQ(m.addrs[3], 0x7f0000001140ull);
}

TEST(TraceTma, CountsEveryTransferBeyondTheAddressesKept)
{
    Tma m("0 0 0 0 4 1000 3 16 16", 1);
    ASSERT_EQ(m.rc, 0) << m.err;
    EXPECT_EQ(m.t.count, 3u);
    EXPECT_EQ(m.addrs[0], 0x1000u);
    EXPECT_EQ(m.addrs[1], 0u) << "only max addresses are written";
}

TEST(TraceTma, MalformedListsNameTheLine)
{
    const struct {
        const char *list, *msg;
    } bad[] = {
        {"400 0 256 0 5 1 1000", "unknown address mode 5"},
        {"400 2 256 0 3 0", "bad multicast flag (0 or 1) '2'"},
        {"400 0 256 0 3 3 1000 1080", "2 of 3 addresses"},
        {"400 0 256 0 4 1000 3 128", "2 of 3 transfers"},
        {"400 0 256 0 4 1000 2 x", "bad address delta 'x'"},
        {"400 0 256 0 3 1 zz", "bad hex address 'zz'"},
        {"400 0 256", "missing out-of-bounds byte count"},
        {"400 1", "missing multicast CTA mask"},
    };
    for (const auto &b : bad) {
        Tma m(b.list);
        EXPECT_EQ(m.rc, SMTLM_TRACE_ERR_FORMAT) << b.list;
        EXPECT_NE(std::string(m.err).find("k.traceg:7: malformed TMA transfer list"), std::string::npos) << m.err;
        EXPECT_NE(std::string(m.err).find(b.msg), std::string::npos) << m.err;
    }
}

// Whole lines through the reader: both modes read, the instruction keeps its unit (the model has
// no TMA engine) and the next line is read where the list ends.
TEST(TraceTma, HopperLinesWithTransferListsRead)
{
    FirstTb f(hopper().str() +
              one_warp_tb({"0010 ffffffff 0 UTMALDG.2D 2 R2 R4 128 400 0 8192 0 3 2 7f0000000000 7f0000000080",
                           "0020 ffffffff 0 UBLKCP.S.G 1 R6 16 408 1 3 4096 0 4 7f0000002000 3 128 128",
                           "0030 ffffffff 0 UTMASTG.2D 2 R2 R4 128 0 0 8192 0 4 7f0000004000 0",
                           "0040 ffffffff 0 UTMALDG.2D 2 R2 R4 0", // an earlier tracer: nothing after mem_width
                           "0050 ffffffff 0 EXIT 0 0"}));
    ASSERT_EQ(f.rc, 1) << f.err;
    ASSERT_EQ(smtlm_trace_tb_warp_count(f.tb, 0), 5u);
    smtlm_inst_desc d = f.inst(0, 0);
    EXPECT_EQ(d.op, SMTLM_OP_ALU);
    EXPECT_EQ(d.mem_space, SMTLM_MEM_NONE);
    EXPECT_EQ(f.inst(0, 1).n_src, 1u);
    EXPECT_EQ(f.inst(0, 4).op, SMTLM_OP_EXIT);
}

TEST(TraceTma, AMalformedListInATraceIsAnErrorAtItsLine)
{
    const std::string text = hopper().str() + one_warp_tb({"0010 ffffffff 0 UTMALDG.2D 2 R2 R4 128 400 0 8192 0 3 2 7f00"});
    FirstTb f(text);
    EXPECT_LT(f.rc, 0);
    // the instruction line is the header's lines + the block's "#BEGIN_TB", "", "thread block", "", "warp", "insts" + 1
    size_t line = 1;
    for (char ch : text.substr(0, text.find("0010 ffffffff")))
        line += ch == '\n';
    EXPECT_NE(std::string(f.err).find("mem.traceg:" + std::to_string(line) + ": malformed TMA transfer list: 1 of 2 addresses"),
              std::string::npos)
        << f.err;
}

// LDGSTS as Accel-Sim 2.0's post-processor leaves it: the tracer writes each LDGSTS twice (its
// shared-memory and its global reference) and the post-processor keeps the second, so the line
// in a .traceg is a global load with no destination register, its sources the two address
// registers and its addresses the global ones (here base + stride: lane i at base + 16 i).
TEST(TraceTma, Ldgsts20LineIsAGlobalLoadOfItsGlobalAddresses)
{
    FirstTb f(hopper().str() + one_warp_tb({"0010 ffffffff 0 LDGSTS.E.BYPASS.LTC128B.128 2 R5 R2 16 1 0x7f0000000000 16 0",
                                             "0020 ffffffff 0 LDGDEPBAR 0 0 0", "0030 ffffffff 0 DEPBAR.LE 0 0 0",
                                             "0040 ffffffff 0 EXIT 0 0 0"}));
    ASSERT_EQ(f.rc, 1) << f.err;
    ASSERT_EQ(smtlm_trace_tb_warp_count(f.tb, 0), 4u);
    const smtlm_inst_desc d = f.inst(0, 0);
    EXPECT_EQ(d.op, SMTLM_OP_LOAD);
    EXPECT_EQ(d.mem_space, SMTLM_MEM_GLOBAL);
    EXPECT_EQ(d.n_dst, 0u);
    EXPECT_EQ(d.n_src, 2u);
    EXPECT_EQ(d.mem_width, 16u);
    EXPECT_EQ(d.addr[0], 0x7f0000000000ull);
    EXPECT_EQ(d.addr[31], 0x7f0000000000ull + 31 * 16);
    EXPECT_EQ(f.inst(0, 1).op, SMTLM_OP_ALU);
    EXPECT_EQ(f.inst(0, 3).op, SMTLM_OP_EXIT);
}
