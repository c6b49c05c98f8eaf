// The three real Accel-Sim traces: complete parse, Accel-Sim's instruction counts, and decoded
// fields of specific lines.
#include <gtest/gtest.h>

#include <string>

#include "smtlm/trace.h"
#include "test_trace_util.h"

using namespace trace_test;

namespace {

struct Opened {
    smtlm_trace *t = nullptr;
    char err[512] = "";
    int rc;
    explicit Opened(const std::string &path) { rc = smtlm_trace_open(path.c_str(), nullptr, &t, err, sizeof err); }
    ~Opened() { smtlm_trace_close(t); }
};

// Finds the instruction decoded from a given file line.
bool find_by_line(const smtlm_trace_tb *tb, unsigned line, smtlm_inst_desc *out, unsigned *warp = nullptr)
{
    for (unsigned w = 0; w < smtlm_trace_tb_n_warps(tb); w++)
        for (unsigned i = 0; i < smtlm_trace_tb_warp_count(tb, w); i++) {
            smtlm_trace_tb_inst(tb, w, i, out);
            if (out->line == line) {
                if (warp)
                    *warp = w;
                return true;
            }
        }
    return false;
}

struct RealTb {
    std::string path, text;
    Opened o;
    smtlm_trace_tb *tb = smtlm_trace_tb_new();
    int rc = 0;
    char err[512] = "";
    explicit RealTb(const std::string &rel) : path(data_path(rel)), text(read_file(path)), o(path)
    {
        rc = o.rc < 0 ? o.rc : smtlm_trace_next_tb(o.t, tb, err, sizeof err);
    }
    ~RealTb() { smtlm_trace_tb_free(tb); }
    smtlm_inst_desc at(const std::string &needle)
    {
        smtlm_inst_desc d{};
        unsigned ln = line_of(text, needle);
        EXPECT_GT(ln, 0u) << needle;
        EXPECT_TRUE(find_by_line(tb, ln, &d)) << needle;
        return d;
    }
};

} // namespace

TEST(TraceReal, LudCountsMatchAccelSim)
{
    Opened o(data_path("lud/kernel-8.traceg"));
    ASSERT_EQ(o.rc, 0) << o.err;
    const smtlm_trace_header *h = smtlm_trace_info(o.t);
    EXPECT_STREQ(h->kernel_name, "_Z13lud_perimeterPfii");
    EXPECT_EQ(h->kernel_id, 8u);
    EXPECT_EQ(h->binary_version, 70u);
    EXPECT_STREQ(h->arch, "volta");
    EXPECT_EQ(h->tracer_version, 0u); // no version line: old format
    EXPECT_EQ(h->shmem, 3072u);
    EXPECT_EQ(h->nregs, 166u);
    EXPECT_EQ(h->n_tbs, 1u);
    EXPECT_EQ(h->warps_per_tb, 1u);
    Counts c = count_all(o.t);
    ASSERT_EQ(c.rc, 0) << c.err;
    EXPECT_EQ(c.tbs, 1u);
    EXPECT_EQ(c.warps_per_tb, std::vector<unsigned>{1});
    EXPECT_EQ(c.warp_insts, 1027u);
    EXPECT_EQ(c.thread_insts, 16080u);
}

TEST(TraceReal, VectoraddCountsMatchAccelSim)
{
    Opened o(data_path("vectoradd-100-32-trace/kernel-1.traceg"));
    ASSERT_EQ(o.rc, 0) << o.err;
    const smtlm_trace_header *h = smtlm_trace_info(o.t);
    EXPECT_EQ(h->binary_version, 61u);
    EXPECT_STREQ(h->arch, "pascal");
    EXPECT_EQ(h->tracer_version, 4u);
    EXPECT_EQ(h->block[0], 1024u);
    EXPECT_EQ(h->warps_per_tb, 32u);
    EXPECT_EQ(h->shmem_base, 0x00007f2b5a000000ull);
    EXPECT_EQ(h->local_base, 0x00007f2b58000000ull);
    EXPECT_STREQ(h->nvbit_version, "1.5.5");
    smtlm_trace_tb *tb = smtlm_trace_tb_new();
    char err[512];
    ASSERT_EQ(smtlm_trace_next_tb(o.t, tb, err, sizeof err), 1) << err;
    for (unsigned w = 0; w < 32; w++)
        EXPECT_EQ(smtlm_trace_tb_warp_count(tb, w), w < 4 ? 23u : 9u) << "warp " << w;
    EXPECT_EQ(smtlm_trace_next_tb(o.t, tb, err, sizeof err), 0);
    smtlm_trace_tb_free(tb);

    Opened again(data_path("vectoradd-100-32-trace/kernel-1.traceg"));
    Counts c = count_all(again.t);
    ASSERT_EQ(c.rc, 0) << c.err;
    EXPECT_EQ(c.tbs, 1u);
    EXPECT_EQ(c.warp_insts, 344u);
    EXPECT_EQ(c.thread_insts, 10516u);
}

TEST(TraceReal, MatrixmulCountsMatchAccelSim)
{
    Opened o(data_path("matrixmul-32-32-trace/kernel-1.traceg"));
    ASSERT_EQ(o.rc, 0) << o.err;
    const smtlm_trace_header *h = smtlm_trace_info(o.t);
    EXPECT_EQ(h->block[0], 32u);
    EXPECT_EQ(h->block[1], 32u);
    EXPECT_EQ(h->shmem, 8192u);
    EXPECT_EQ(h->warps_per_tb, 32u);
    Counts c = count_all(o.t);
    ASSERT_EQ(c.rc, 0) << c.err;
    EXPECT_EQ(c.tbs, 1u);
    EXPECT_EQ(c.warps_per_tb, std::vector<unsigned>{32});
    EXPECT_EQ(c.warp_insts, 4416u);
    EXPECT_EQ(c.thread_insts, 139264u);
}

TEST(TraceReal, LudOldFormatRegistersAndRz)
{
    RealTb r("lud/kernel-8.traceg");
    ASSERT_EQ(r.rc, 1) << r.err;
    unsigned xyz[3];
    smtlm_trace_tb_label(r.tb, xyz);
    EXPECT_EQ(xyz[0] + xyz[1] + xyz[2], 0u);
    // First line: "0 0 0 0 0000 00000000 0 SHFL.IDX 4 R255 R255 R255 R255 0"
    smtlm_inst_desc d;
    ASSERT_EQ(smtlm_trace_tb_inst(r.tb, 0, 0, &d), 0);
    EXPECT_EQ(d.pc, 0u);
    EXPECT_EQ(d.mask, 0u);
    EXPECT_EQ(d.op, SMTLM_OP_ALU);
    EXPECT_EQ(d.n_dst, 0);
    ASSERT_EQ(d.n_src, 4);
    for (int i = 0; i < 4; i++)
        EXPECT_EQ(d.src[i], 256); // RZ
    EXPECT_EQ(d.mem_space, SMTLM_MEM_NONE);
    EXPECT_EQ(d.line, line_of(r.text, "0000 00000000 0 SHFL.IDX"));

    d = r.at("0 0 0 0 0060 ffffffff 1 R24 IADD3 2 R24 R255 0");
    EXPECT_EQ(d.pc, 0x60u);
    EXPECT_EQ(d.mask, 0xffffffffu);
    EXPECT_EQ(d.op, SMTLM_OP_INTP);
    ASSERT_EQ(d.n_dst, 1);
    EXPECT_EQ(d.dst[0], 25);
    ASSERT_EQ(d.n_src, 2);
    EXPECT_EQ(d.src[0], 25);
    EXPECT_EQ(d.src[1], 256);
    EXPECT_EQ(d.latency, 4);
    EXPECT_EQ(d.ii, 1);
}

TEST(TraceReal, LudMaskedLinesAndVoltaBranchUnit)
{
    RealTb r("lud/kernel-8.traceg");
    ASSERT_EQ(r.rc, 1) << r.err;
    smtlm_inst_desc d = r.at("0 0 0 0 00a0 ffff0000 1 R49 MOV 0 0");
    EXPECT_EQ(d.mask, 0xffff0000u);
    EXPECT_EQ(d.op, SMTLM_OP_ALU);
    EXPECT_EQ(d.dst[0], 50);
    EXPECT_EQ(d.n_src, 0);

    d = r.at("0 0 0 0 0090 0000ffff 0 BRA 0 0");
    EXPECT_EQ(d.mask, 0x0000ffffu);
    EXPECT_EQ(d.op, SMTLM_OP_SPEC);
    EXPECT_EQ(d.spec, 1);
    EXPECT_EQ(d.latency, 4); // spec_op_1 default "4,4"
    EXPECT_EQ(d.ii, 4);
}

TEST(TraceReal, LudSharedLoadBaseStride)
{
    RealTb r("lud/kernel-8.traceg");
    ASSERT_EQ(r.rc, 1) << r.err;
    // "0c70 ffff0000 1 R136 LDS.U 1 R0 4 1 0x0000000000000800 64": lanes 16..31 from 0x800 by 64.
    smtlm_inst_desc d = r.at("0 0 0 0 0c70 ffff0000 1 R136 LDS.U 1 R0 4 1 0x0000000000000800 64");
    EXPECT_EQ(d.pc, 0xc70u);
    EXPECT_EQ(d.op, SMTLM_OP_LOAD);
    EXPECT_EQ(d.mem_space, SMTLM_MEM_SHARED);
    EXPECT_EQ(d.mem_width, 4);
    EXPECT_EQ(d.atomic, 0);
    EXPECT_EQ(d.dst[0], 137);
    EXPECT_EQ(d.src[0], 1);
    EXPECT_EQ(d.latency, 1);
    EXPECT_EQ(d.ii, 1);
    for (unsigned lane = 0; lane < 32; lane++)
        EXPECT_EQ(d.addr[lane], lane < 16 ? 0u : 0x800u + (lane - 16) * 64u) << "lane " << lane;

    d = r.at("0 0 0 0 0cc0 ffff0000 1 R144 LDS.U.128 1 R255 16 1 0x0000000000000000 0");
    EXPECT_EQ(d.mem_width, 16);
    EXPECT_EQ(d.src[0], 256);
    for (unsigned lane = 16; lane < 32; lane++)
        EXPECT_EQ(d.addr[lane], 0u);
}

TEST(TraceReal, VectoraddPascalGlobalAccesses)
{
    RealTb r("vectoradd-100-32-trace/kernel-1.traceg");
    ASSERT_EQ(r.rc, 1) << r.err;
    smtlm_inst_desc d = r.at("0098 ffffffff 1 R4 LDG.E.CG 1 R4 4 1 0x7f2b2d500000 4");
    EXPECT_EQ(d.op, SMTLM_OP_LOAD);
    EXPECT_EQ(d.mem_space, SMTLM_MEM_GLOBAL);
    EXPECT_EQ(d.mem_width, 4);
    EXPECT_EQ(d.dst[0], 5);
    EXPECT_EQ(d.src[0], 5);
    for (unsigned lane = 0; lane < 32; lane++)
        EXPECT_EQ(d.addr[lane], 0x7f2b2d500000ull + 4u * lane);

    d = r.at("00d8 ffffffff 0 STG.E 2 R6 R0 4 1 0x7f2b2d500400 4");
    EXPECT_EQ(d.op, SMTLM_OP_STORE);
    EXPECT_EQ(d.mem_space, SMTLM_MEM_GLOBAL);
    EXPECT_EQ(d.n_dst, 0);
    ASSERT_EQ(d.n_src, 2);
    EXPECT_EQ(d.src[0], 7);
    EXPECT_EQ(d.src[1], 1);
    EXPECT_EQ(d.addr[31], 0x7f2b2d500400ull + 124u);

    d = r.at("0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0");
    EXPECT_EQ(d.op, SMTLM_OP_INTP); // XMAD is INTP on Pascal
    EXPECT_EQ(d.latency, 4);
    EXPECT_EQ(d.ii, 1);
}

TEST(TraceReal, MatrixmulWideSharedLoad)
{
    RealTb r("matrixmul-32-32-trace/kernel-1.traceg");
    ASSERT_EQ(r.rc, 1) << r.err;
    // Any LDS.U.128 in the file is 16 bytes per lane and shared.
    unsigned ln = line_of(r.text, "LDS.U.128");
    ASSERT_GT(ln, 0u);
    smtlm_inst_desc d{};
    ASSERT_TRUE(find_by_line(r.tb, ln, &d));
    EXPECT_EQ(d.op, SMTLM_OP_LOAD);
    EXPECT_EQ(d.mem_space, SMTLM_MEM_SHARED);
    EXPECT_EQ(d.mem_width, 16);
    ln = line_of(r.text, " STS ");
    ASSERT_GT(ln, 0u);
    ASSERT_TRUE(find_by_line(r.tb, ln, &d));
    EXPECT_EQ(d.op, SMTLM_OP_STORE);
    EXPECT_EQ(d.mem_space, SMTLM_MEM_SHARED);
    EXPECT_EQ(d.mem_width, 4);
}

TEST(TraceReal, HopperMiniReadsThrough)
{
    const std::string path = data_path("hopper-mini/kernel-1.traceg");
    const std::string text = read_file(path);
    smtlm_trace_latency lat = smtlm_trace_latency_defaults();
    lat.sp.latency = 6;
    lat.sp.ii = 4; // FP16's half initiation interval shows as 2
    smtlm_trace *t = nullptr;
    char err[512] = "";
    ASSERT_EQ(smtlm_trace_open(path.c_str(), &lat, &t, err, sizeof err), 0) << err;
    const smtlm_trace_header *h = smtlm_trace_info(t);
    EXPECT_EQ(h->binary_version, 90u);
    EXPECT_STREQ(h->arch, "hopper");
    EXPECT_EQ(h->warps_per_tb, 2u);
    smtlm_trace_tb *tb = smtlm_trace_tb_new();
    ASSERT_EQ(smtlm_trace_next_tb(t, tb, err, sizeof err), 1) << err;
    EXPECT_EQ(smtlm_trace_tb_warp_count(tb, 0), 12u);
    EXPECT_EQ(smtlm_trace_tb_warp_count(tb, 1), 5u);
    auto at = [&](const std::string &needle) {
        smtlm_inst_desc d{};
        unsigned ln = line_of(text, needle);
        EXPECT_GT(ln, 0u) << needle;
        EXPECT_TRUE(find_by_line(tb, ln, &d)) << needle;
        return d;
    };
    for (const char *ip : {" IMAD ", " IADD3 ", " LOP3.LUT ", " SHF.L.W.U32.HI "})
        EXPECT_EQ(at(ip).op, SMTLM_OP_INTP) << ip;
    for (const char *sp : {" FFMA ", " FADD ", " FMUL "}) {
        EXPECT_EQ(at(sp).op, SMTLM_OP_SP) << sp;
        EXPECT_EQ(at(sp).ii, 4) << sp;
    }
    for (const char *half : {" HFMA2 ", " HFMA2.MMA "}) {
        EXPECT_EQ(at(half).op, SMTLM_OP_SP) << half;
        EXPECT_EQ(at(half).ii, 2) << half;
    }
    EXPECT_EQ(at(" MUFU.EX2 ").op, SMTLM_OP_SFU);
    EXPECT_EQ(at(" DFMA ").op, SMTLM_OP_DP);
    EXPECT_EQ(at(" EXIT ").op, SMTLM_OP_EXIT);
    EXPECT_EQ(at(" WARPGROUP.ARRIVE ").op, SMTLM_OP_ALU);
    smtlm_inst_desc lds = at(" LDS ");
    EXPECT_EQ(lds.op, SMTLM_OP_LOAD);
    EXPECT_EQ(lds.mem_space, SMTLM_MEM_SHARED);
    EXPECT_EQ(lds.mem_width, 4);
    EXPECT_EQ(lds.addr[0], 0x400u);
    EXPECT_EQ(lds.addr[31], 0x400u + 31 * 4);
    smtlm_inst_desc stsm = at(" STSM.16.M88.4 ");
    EXPECT_EQ(stsm.op, SMTLM_OP_STORE);
    EXPECT_EQ(stsm.mem_space, SMTLM_MEM_SHARED);
    EXPECT_EQ(smtlm_trace_next_tb(t, tb, err, sizeof err), 0) << err;
    smtlm_trace_tb_free(tb);
    smtlm_trace_close(t);
}

TEST(TraceReal, HopperMiniUnknownOpcodeNamesFileAndLine)
{
    std::string text = read_file(data_path("hopper-mini/kernel-1.traceg"));
    const size_t at = text.find(" HFMA2.MMA ");
    ASSERT_NE(at, std::string::npos);
    text.replace(at + 1, 5, "HFMX2"); // an opcode no map has
    TempFile f("kernel-1.traceg", text);
    Opened o(f.path);
    ASSERT_EQ(o.rc, 0) << o.err;
    smtlm_trace_tb *tb = smtlm_trace_tb_new();
    char err[512] = "";
    EXPECT_EQ(smtlm_trace_next_tb(o.t, tb, err, sizeof err), SMTLM_TRACE_ERR_FORMAT);
    EXPECT_EQ(std::string(err), f.path + ":" + std::to_string(line_of(text, " HFMX2.MMA ")) +
                                    ": unknown opcode HFMX2 for binary version 90");
    smtlm_trace_tb_free(tb);
}
