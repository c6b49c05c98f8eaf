// Decoding of synthetic trace lines: address modes, memory spaces and widths, optional fields,
// thread-block structure and the latency table.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "smtlm/trace.h"
#include "test_trace_util.h"

using namespace trace_test;

TEST(TraceFormat, ListAllAddressesOnlyForActiveLanes)
{
    Hdr h;
    // lanes 0, 2, 5 active
    FirstTb f(h.str() + one_warp_tb({"0010 00000025 1 R2 LDG.E.64 1 R4 8 0 0x1000 0x2008 0xdeadbeef0 7"}));
    ASSERT_EQ(f.rc, 1) << f.err;
    smtlm_inst_desc d = f.inst(0, 0);
    EXPECT_EQ(d.op, SMTLM_OP_LOAD);
    EXPECT_EQ(d.mem_space, SMTLM_MEM_GLOBAL);
    EXPECT_EQ(d.mem_width, 8);
    EXPECT_EQ(d.addr[0], 0x1000u);
    EXPECT_EQ(d.addr[1], 0u);
    EXPECT_EQ(d.addr[2], 0x2008u);
    EXPECT_EQ(d.addr[5], 0xdeadbeef0ull);
    EXPECT_EQ(d.addr[31], 0u);
}

TEST(TraceFormat, BaseDeltaAddsSignedDeltasLaneToLane)
{
    Hdr h;
    // lanes 1, 2, 4, 31: base, +16, -8, +4096, then immediate 0
    FirstTb f(h.str() + one_warp_tb({"0020 80000016 0 STG.E 2 R6 R0 4 2 0x7f0000000100 16 -8 4096 0"}));
    ASSERT_EQ(f.rc, 1) << f.err;
    smtlm_inst_desc d = f.inst(0, 0);
    EXPECT_EQ(d.op, SMTLM_OP_STORE);
    EXPECT_EQ(d.addr[1], 0x7f0000000100ull);
    EXPECT_EQ(d.addr[2], 0x7f0000000110ull);
    EXPECT_EQ(d.addr[4], 0x7f0000000108ull);
    EXPECT_EQ(d.addr[31], 0x7f0000001108ull);
    EXPECT_EQ(d.addr[0], 0u);
    EXPECT_EQ(d.addr[3], 0u);
}

TEST(TraceFormat, BaseStrideStopsAtTheFirstGapLikeAccelSim)
{
    Hdr h;
    // lanes 0-1 contiguous, then lane 3 after a gap: Accel-Sim's decompressor gives it 0.
    FirstTb f(h.str() + one_warp_tb({"0030 0000000b 1 R1 LDS 1 R2 4 1 0x100 -4"}));
    ASSERT_EQ(f.rc, 1) << f.err;
    smtlm_inst_desc d = f.inst(0, 0);
    EXPECT_EQ(d.addr[0], 0x100u);
    EXPECT_EQ(d.addr[1], 0xfcu);
    EXPECT_EQ(d.addr[3], 0u);
}

TEST(TraceFormat, ZeroMaskMemoryInstructionHasNoAddresses)
{
    Hdr h;
    FirstTb f(h.str() + one_warp_tb({"0040 00000000 1 R1 LDG.E 1 R2 4 0", "0050 00000000 1 R1 LDG.E 1 R2 4 2 0x10 0"}));
    ASSERT_EQ(f.rc, 1) << f.err;
    smtlm_inst_desc d = f.inst(0, 0);
    EXPECT_EQ(d.mem_space, SMTLM_MEM_GLOBAL);
    for (unsigned lane = 0; lane < 32; lane++)
        EXPECT_EQ(d.addr[lane], 0u);
    EXPECT_EQ(smtlm_trace_tb_warp_count(f.tb, 0), 2u);
}

// Found by fuzzing (the fuzzer's input, with the empty warp 0 a whole thread block lists): a block
// whose only memory instruction is masked off stores no address at all; reading its records, held
// whole or streamed, must not offset a null address pool (clang's UndefinedBehaviorSanitizer in
// the fuzz build caught that; the input is also a seed of tests/fuzz/corpus/fuzz_trace, so every
// fuzz run replays it).
TEST(TraceFormat, MaskedOffOnlyMemoryInstructionStoresNoAddress)
{
    const std::string text = "-kernel n)ame = _Z4fuzzv\n-kernel id = 1\n-grid dim = (2,1,1)\n-block dim = (33,1,1)\n"
                             "-shmem = 0\n-nregs = 9\n-binary version = 86\n-cuda stream id = 0\n"
                             "-shmem 'base_addr =  0x7f0\n-accelsim tracer version = 5\n-enable lineinfo = 0\n\n"
                             "#traces format\n\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 0\nwarp = 1\n"
                             "insts = 2\n0000 00000000 0 LDGSTS.E.BYPASS.128 2 R1 R2 16 1 0x7f3000 0\n"
                             "0010 00000001 0 DEPBAR.LE 0 0 1\n#END_TB\n";
    unsigned checked = 0;
    for (size_t limit : {SIZE_MAX, (size_t)0}) {
        MemTrace m(text);
        ASSERT_EQ(m.rc, 0) << m.err;
        smtlm_trace_set_stream_limit(m.t, limit);
        smtlm_trace_tb *tb = smtlm_trace_tb_new();
        char err[256] = "";
        ASSERT_EQ(smtlm_trace_next_tb(m.t, tb, err, sizeof err), 1) << err;
        for (unsigned w = 0; w < smtlm_trace_tb_n_warps(tb); w++)
            for (unsigned i = 0; i < smtlm_trace_tb_warp_count(tb, w); i++) {
                smtlm_inst_desc d;
                std::memset(&d, 0xAB, sizeof d);
                if (smtlm_trace_tb_inst(tb, w, i, &d) != 0 || d.mem_space == SMTLM_MEM_NONE)
                    continue; /* a streamed block keeps no records */
                checked++;
                for (unsigned lane = 0; lane < 32; lane++) {
                    EXPECT_EQ(d.addr[lane], 0u) << "limit " << limit;
                }
            }
        smtlm_trace_tb_free(tb);
    }
    EXPECT_EQ(checked, 1u) << "the block held whole gives the LDGSTS record";
}

TEST(TraceFormat, WidthFromOpcodeAsAccelSim)
{
    Hdr h;
    FirstTb f(h.str() + one_warp_tb({
                            "0000 00000001 1 R1 LDG.E.U16.SYS 1 R2 4 0 0x10",     // U16 -> 2
                            "0010 00000001 1 R1 LDG.E.128.CONSTANT 1 R2 4 0 0x10", // 128 -> 16
                            "0020 00000001 1 R1 LDS.U.64 1 R2 4 0 0x10",          // 64 -> 8
                            "0030 00000001 1 R1 LDG.E.S8 1 R2 4 0 0x10",          // S8 not a width -> 4
                            "0040 00000001 1 R1 LDL 1 R2 1 0 0x10",               // default 4
                        }));
    ASSERT_EQ(f.rc, 1) << f.err;
    EXPECT_EQ(f.inst(0, 0).mem_width, 2);
    EXPECT_EQ(f.inst(0, 1).mem_width, 16);
    EXPECT_EQ(f.inst(0, 2).mem_width, 8);
    EXPECT_EQ(f.inst(0, 3).mem_width, 4);
    EXPECT_EQ(f.inst(0, 4).mem_width, 4);
    EXPECT_EQ(f.inst(0, 4).mem_space, SMTLM_MEM_LOCAL);
}

TEST(TraceFormat, AtomicsFollowAccelSim)
{
    Hdr h;
    FirstTb f(h.str() + one_warp_tb({
                            "0000 00000001 1 R1 ATOMG.E.ADD.STRONG.GPU 2 R2 R3 4 0 0x100",
                            "0010 00000001 0 RED.E.ADD.STRONG.GPU 2 R2 R3 4 0 0x100",
                            "0020 00000001 1 R1 ATOMS.ADD 2 R2 R3 4 0 0x10",
                            "0030 00000001 1 R1 ATOM.E.ADD 2 R2 R3 4 0 0x100",
                        }));
    ASSERT_EQ(f.rc, 1) << f.err;
    for (unsigned i : {0u, 1u, 3u}) {
        smtlm_inst_desc d = f.inst(0, i);
        EXPECT_EQ(d.op, SMTLM_OP_LOAD) << i; // ATOM/ATOMG/RED become loads (done at L2)
        EXPECT_EQ(d.atomic, 1) << i;
        EXPECT_EQ(d.mem_space, SMTLM_MEM_GLOBAL) << i;
        EXPECT_EQ(d.latency, 1) << i;
    }
    smtlm_inst_desc d = f.inst(0, 2);
    EXPECT_EQ(d.op, SMTLM_OP_STORE); // ATOMS keeps STORE_OP
    EXPECT_EQ(d.atomic, 1);
    EXPECT_EQ(d.mem_space, SMTLM_MEM_SHARED);
}

TEST(TraceFormat, GenericLoadStoreSpaceFromBaseAddresses)
{
    Hdr h;
    h.shmem_base = "0x7f0000000000";
    h.local_base = "0x7f0001000000";
    FirstTb f(h.str() + one_warp_tb({
                            "0000 00000001 1 R1 LD.E 1 R2 4 0 0x7f0000000040",  // shared window
                            "0010 00000001 1 R1 LD.E 1 R2 4 0 0x7f0001000040",  // local window
                            "0020 00000001 0 ST.E 2 R2 R3 4 0 0x7f0001004000",  // past 16 KiB local
                            "0030 00000002 1 R1 LD.E 1 R2 4 0 0x7f0000000000",  // first active lane
                        }));
    ASSERT_EQ(f.rc, 1) << f.err;
    EXPECT_EQ(f.inst(0, 0).mem_space, SMTLM_MEM_SHARED);
    EXPECT_EQ(f.inst(0, 1).mem_space, SMTLM_MEM_LOCAL);
    EXPECT_EQ(f.inst(0, 2).mem_space, SMTLM_MEM_GLOBAL);
    EXPECT_EQ(f.inst(0, 2).op, SMTLM_OP_STORE);
    EXPECT_EQ(f.inst(0, 3).mem_space, SMTLM_MEM_SHARED);

    Hdr none; // no base addresses: generic accesses are shared
    FirstTb g(none.str() + one_warp_tb({"0000 00000001 1 R1 LD.E 1 R2 4 0 0x12345678"}));
    ASSERT_EQ(g.rc, 1) << g.err;
    EXPECT_EQ(g.inst(0, 0).mem_space, SMTLM_MEM_SHARED);
}

TEST(TraceFormat, ConstantLoadIsAluNotMemory)
{
    Hdr h;
    FirstTb f(h.str() + one_warp_tb({"0000 ffffffff 1 R1 LDC.64 1 R2 0", "0010 ffffffff 1 R1 LDC 1 R2 4 1 0x10 0"}));
    ASSERT_EQ(f.rc, 1) << f.err;
    for (unsigned i = 0; i < 2; i++) {
        smtlm_inst_desc d = f.inst(0, i);
        EXPECT_EQ(d.op, SMTLM_OP_ALU);
        EXPECT_EQ(d.mem_space, SMTLM_MEM_NONE);
        EXPECT_EQ(d.mem_width, 0);
        EXPECT_EQ(d.addr[0], trace_test::kAddrUntouched) << "a non-memory instruction carries no addresses";
    }
}

TEST(TraceFormat, TuringLdsmIsSharedLoad)
{
    Hdr h;
    h.binary = 75;
    FirstTb f(h.str() + one_warp_tb({"0000 00000001 1 R4 LDSM.16.M88.4 1 R2 16 0 0x200"}));
    ASSERT_EQ(f.rc, 1) << f.err;
    smtlm_inst_desc d = f.inst(0, 0);
    EXPECT_EQ(d.op, SMTLM_OP_LOAD);
    EXPECT_EQ(d.mem_space, SMTLM_MEM_SHARED);
    EXPECT_EQ(d.mem_width, 2); // first numeric token 16 -> 2 bytes, as Accel-Sim computes
}

TEST(TraceFormat, LineInfoAndImmediateFields)
{
    Hdr h;
    h.tracer = 5;
    h.lineinfo = 1;
    FirstTb f(h.str() + one_warp_tb({"42 0010 ffffffff 1 R3 FFMA 3 R0 R1 R2 0 0", "43 0020 ffffffff 0 DEPBAR.LE 0 0 1"}));
    ASSERT_EQ(f.rc, 1) << f.err;
    smtlm_inst_desc d = f.inst(0, 0);
    EXPECT_EQ(d.pc, 0x10u);
    EXPECT_EQ(d.op, SMTLM_OP_SP);
    ASSERT_EQ(d.n_src, 3);
    EXPECT_EQ(d.src[2], 3);
    EXPECT_EQ(f.inst(0, 1).op, SMTLM_OP_ALU);
    EXPECT_EQ(f.inst(0, 1).pc, 0x20u);
}

TEST(TraceFormat, OldFormatPrefixIsSkipped)
{
    Hdr h;
    h.tracer = -1; // no version line -> "tb_x tb_y tb_z warp" prefix
    FirstTb f(h.str() + one_warp_tb({"0 0 0 0 0010 0000ffff 1 R7 MUFU.RCP 1 R8 0"}));
    ASSERT_EQ(f.rc, 1) << f.err;
    smtlm_inst_desc d = f.inst(0, 0);
    EXPECT_EQ(d.pc, 0x10u);
    EXPECT_EQ(d.mask, 0xffffu);
    EXPECT_EQ(d.op, SMTLM_OP_SFU);
    EXPECT_EQ(d.dst[0], 8);
    EXPECT_EQ(d.src[0], 9);
}

TEST(TraceFormat, SeveralTbsAndWarps)
{
    Hdr h;
    h.block = "(40,1,1)"; // 2 warps, the second partial
    h.grid = "(3,1,1)";
    std::string text = h.str() +
                       "#BEGIN_TB\nthread block = 0,0,0\nwarp = 1\ninsts = 1\n0000 000000ff 0 EXIT 0 0\n"
                       "warp = 0\ninsts = 2\n0000 ffffffff 0 NOP 0 0\n0010 ffffffff 0 EXIT 0 0\n#END_TB\n"
                       "#BEGIN_TB\nthread block = 1,0,0\nwarp = 0\ninsts = 1\n0000 ffffffff 0 EXIT 0 0\n"
                       "warp = 1\ninsts = 0\n#END_TB\n"
                       "#BEGIN_TB\nthread block = 2,0,0\nwarp = 1\ninsts = 0\nwarp = 0\ninsts = 1\n0000 ffffffff 0 EXIT 0 0\n"
                       "#END_TB";
    MemTrace m(text);
    ASSERT_EQ(m.rc, 0) << m.err;
    EXPECT_EQ(smtlm_trace_info(m.t)->warps_per_tb, 2u);
    EXPECT_EQ(smtlm_trace_info(m.t)->n_tbs, 3u);
    smtlm_trace_tb *tb = smtlm_trace_tb_new();
    char err[512];
    ASSERT_EQ(smtlm_trace_next_tb(m.t, tb, err, sizeof err), 1) << err;
    EXPECT_EQ(smtlm_trace_tb_index(tb), 0u);
    EXPECT_EQ(smtlm_trace_tb_warp_count(tb, 0), 2u);
    EXPECT_EQ(smtlm_trace_tb_warp_count(tb, 1), 1u);
    EXPECT_EQ(smtlm_trace_tb_mask(tb, 1, 0), 0xffu);
    smtlm_inst_desc d;
    ASSERT_EQ(smtlm_trace_tb_inst(tb, 1, 0, &d), 0);
    EXPECT_EQ(d.op, SMTLM_OP_EXIT);
    EXPECT_EQ(d.latency, 1);
    ASSERT_EQ(smtlm_trace_next_tb(m.t, tb, err, sizeof err), 1) << err;
    unsigned xyz[3];
    smtlm_trace_tb_label(tb, xyz);
    EXPECT_EQ(xyz[0], 1u);
    EXPECT_EQ(smtlm_trace_tb_index(tb), 1u);
    EXPECT_EQ(smtlm_trace_tb_warp_count(tb, 1), 0u); // reset: warp 1 ran nothing in this TB
    ASSERT_EQ(smtlm_trace_next_tb(m.t, tb, err, sizeof err), 1) << err; // its #END_TB is the file's last line
    smtlm_trace_tb_label(tb, xyz);
    EXPECT_EQ(xyz[0], 2u);
    EXPECT_EQ(smtlm_trace_tb_warp_count(tb, 0), 1u);
    EXPECT_EQ(smtlm_trace_next_tb(m.t, tb, err, sizeof err), 0);
    EXPECT_EQ(smtlm_trace_next_tb(m.t, tb, err, sizeof err), 0);
    // Out-of-range accessors do not crash.
    EXPECT_EQ(smtlm_trace_tb_inst(tb, 5, 0, &d), SMTLM_TRACE_ERR_ARG);
    EXPECT_EQ(smtlm_trace_tb_inst(tb, 0, 9, &d), SMTLM_TRACE_ERR_ARG);
    EXPECT_EQ(smtlm_trace_tb_mask(tb, 0, 9), 0u);
    smtlm_trace_tb_free(tb);
}

TEST(TraceFormat, HeaderKeysUnknownLinesAndCrLf)
{
    std::string text = "-kernel name = _Z3fooPf\r\n-kernel id = 7\r\n-grid dim = (2,3,4)\r\n"
                       "-block dim = (8, 8, 1)\r\n-shmem = 123\r\n-nregs = 40\r\n-binary version = 86\r\n"
                       "-cuda stream id = 5\r\n-some future key = 1\r\nstray header text\r\n"
                       "-accelsim tracer version = 5\r\n#traces format\r\n";
    MemTrace m(text);
    ASSERT_EQ(m.rc, 0) << m.err;
    const smtlm_trace_header *h = smtlm_trace_info(m.t);
    EXPECT_STREQ(h->kernel_name, "_Z3fooPf");
    EXPECT_EQ(h->kernel_id, 7u);
    EXPECT_EQ(h->grid[2], 4u);
    EXPECT_EQ(h->n_tbs, 24u);
    EXPECT_EQ(h->block[1], 8u);
    EXPECT_EQ(h->warps_per_tb, 2u);
    EXPECT_EQ(h->shmem, 123u);
    EXPECT_EQ(h->nregs, 40u);
    EXPECT_EQ(h->cuda_stream_id, 5u);
    EXPECT_STREQ(h->arch, "ampere");
    EXPECT_EQ(h->tracer_version, 5u);
    EXPECT_EQ(h->lineinfo, 0u);
    EXPECT_EQ(h->shmem_base, 0u);
    EXPECT_STREQ(h->nvbit_version, "");
    smtlm_trace_tb *tb = smtlm_trace_tb_new();
    char err[256];
    // header only: every block of the grid is absent, and comes as an empty one in id order
    for (unsigned id = 0; id < 24; id++) {
        ASSERT_EQ(smtlm_trace_next_tb(m.t, tb, err, sizeof err), 1) << err;
        unsigned xyz[3];
        smtlm_trace_tb_label(tb, xyz);
        EXPECT_EQ(xyz[0] + 2 * (xyz[1] + 3 * xyz[2]), id);
        EXPECT_EQ(smtlm_trace_tb_absent(tb), 1);
        EXPECT_EQ(smtlm_trace_tb_warp_count(tb, 0) + smtlm_trace_tb_warp_count(tb, 1), 0u);
    }
    EXPECT_EQ(smtlm_trace_next_tb(m.t, tb, err, sizeof err), 0);
    smtlm_trace_tb_free(tb);
}

// Accel-Sim 2.0's cluster lines are kept with their block; a block without them has none.
TEST(TraceFormat, ClusterLinesKeptWithTheBlock)
{
    Hdr h;
    h.grid = "(2,1,1)";
    const std::string text = h.str() +
                             "#BEGIN_TB\nthread block = 1,0,0\ncluster id = 0,0,0\ncluster cta = 1,0,0\ncluster rank = 1\n"
                             "warp = 0\ninsts = 1\n0000 ffffffff 0 EXIT 0 0\n#END_TB\n"
                             "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0000 ffffffff 0 EXIT 0 0\n#END_TB\n";
    MemTrace m(text);
    ASSERT_EQ(m.rc, 0) << m.err;
    smtlm_trace_tb *tb = smtlm_trace_tb_new();
    char err[256];
    unsigned id[3], cta[3], rank;
    ASSERT_EQ(smtlm_trace_next_tb(m.t, tb, err, sizeof err), 1) << err;
    EXPECT_EQ(smtlm_trace_tb_cluster(tb, id, cta, &rank), 1);
    EXPECT_EQ(id[0] + id[1] + id[2], 0u);
    EXPECT_EQ(cta[0], 1u);
    EXPECT_EQ(rank, 1u);
    EXPECT_EQ(smtlm_trace_tb_absent(tb), 0);
    ASSERT_EQ(smtlm_trace_next_tb(m.t, tb, err, sizeof err), 1) << err;
    EXPECT_EQ(smtlm_trace_tb_cluster(tb, id, cta, &rank), 0);
    EXPECT_EQ(cta[0] + rank, 0u);
    EXPECT_EQ(smtlm_trace_next_tb(m.t, tb, err, sizeof err), 0);
    smtlm_trace_tb_free(tb);
}

TEST(TraceFormat, LatencyTableAppliedPerCategory)
{
    smtlm_trace_latency lat = smtlm_trace_latency_defaults();
    lat.int_op = {2, 2};
    lat.sp = {6, 4};
    lat.dp = {8, 4};
    lat.sfu = {20, 8};
    lat.spec[0] = {5, 3};
    lat.spec[2] = {32, 32};
    Hdr h; // Volta
    FirstTb f(h.str() + one_warp_tb({
                            "0000 ffffffff 1 R1 FFMA 2 R1 R2 0",      // sp
                            "0010 ffffffff 1 R1 HFMA2 2 R1 R2 0",     // sp, ii/2
                            "0020 ffffffff 1 R1 HMUL2 2 R1 R2 0",     // sp, NOT halved
                            "0030 ffffffff 1 R1 HMUL2_32I 1 R1 0",    // sp, ii/2
                            "0040 ffffffff 1 R2 DFMA 2 R2 R4 0",      // dp
                            "0050 ffffffff 1 R1 MUFU.EX2 1 R1 0",     // sfu
                            "0060 ffffffff 1 R1 IADD3 2 R1 R2 0",     // int
                            "0070 ffffffff 1 R1 MOV 1 R2 0",          // ALU -> int
                            "0080 ffffffff 0 BRA 0 0",                // spec 1
                            "0090 ffffffff 1 R4 HMMA.884.F32 2 R4 R8 0", // spec 3
                            "00a0 ffffffff 0 BAR.SYNC 0 0",           // 1,1
                            "00b0 ffffffff 0 MEMBAR.GPU 0 0",         // 1,1
                            "00c0 ffffffff 1 R1 LDG.E 1 R2 4 1 0x100 4", // 1,1
                            "00d0 ffffffff 0 EXIT 0 0",               // 1,1
                        }),
              &lat);
    ASSERT_EQ(f.rc, 1) << f.err;
    struct { unsigned lat, ii; uint8_t op; } want[] = {
        {6, 4, SMTLM_OP_SP},  {6, 2, SMTLM_OP_SP},    {6, 4, SMTLM_OP_SP},      {6, 2, SMTLM_OP_SP},
        {8, 4, SMTLM_OP_DP},  {20, 8, SMTLM_OP_SFU},  {2, 2, SMTLM_OP_INTP},    {2, 2, SMTLM_OP_ALU},
        {5, 3, SMTLM_OP_SPEC}, {32, 32, SMTLM_OP_SPEC}, {1, 1, SMTLM_OP_BARRIER}, {1, 1, SMTLM_OP_MEMBAR},
        {1, 1, SMTLM_OP_LOAD}, {1, 1, SMTLM_OP_EXIT},
    };
    for (unsigned i = 0; i < sizeof want / sizeof want[0]; i++) {
        smtlm_inst_desc d = f.inst(0, i);
        EXPECT_EQ(d.latency, want[i].lat) << "inst " << i;
        EXPECT_EQ(d.ii, want[i].ii) << "inst " << i;
        EXPECT_EQ(d.op, want[i].op) << "inst " << i;
    }
    EXPECT_EQ(f.inst(0, 8).spec, 1);
    EXPECT_EQ(f.inst(0, 9).spec, 3);
}

TEST(TraceFormat, LatencyDefaultsAndFp16HalvingFloor)
{
    smtlm_trace_latency d = smtlm_trace_latency_defaults();
    EXPECT_EQ(d.int_op.latency, 4u);
    EXPECT_EQ(d.int_op.ii, 1u);
    EXPECT_EQ(d.sp.ii, 1u);
    EXPECT_EQ(d.tensor.latency, 4u);
    for (unsigned k = 0; k < SMTLM_MAX_SPEC_UNITS; k++) {
        EXPECT_EQ(d.spec[k].latency, 4u);
        EXPECT_EQ(d.spec[k].ii, 4u);
    }
    EXPECT_EQ(smtlm_trace_latency_check(&d, nullptr, 0), 0);
    uint16_t lat, ii;
    smtlm_trace_latency_apply(&d, SMTLM_OPCAT_SP, SMTLM_OPF_FP16_HALF_II, &lat, &ii);
    EXPECT_EQ(lat, 4);
    EXPECT_EQ(ii, 1); // max(1, 1/2)
    smtlm_trace_latency_apply(&d, SMTLM_OPCAT_TENSOR_CORE, 0, &lat, &ii);
    EXPECT_EQ(lat, 4);
    EXPECT_EQ(ii, 1);
    smtlm_trace_latency_apply(&d, SMTLM_OPCAT_CALL, 0, &lat, &ii);
    EXPECT_EQ(lat, 4);
    smtlm_trace_latency_apply(&d, SMTLM_OPCAT_STORE, 0, &lat, &ii);
    EXPECT_EQ(lat, 1);
    EXPECT_EQ(ii, 1);

    smtlm_trace_latency bad = d;
    bad.spec[4] = {4, 5};
    char err[256] = "";
    EXPECT_EQ(smtlm_trace_latency_check(&bad, err, sizeof err), SMTLM_TRACE_ERR_ARG);
    EXPECT_NE(std::string(err).find("spec_op_5"), std::string::npos) << err;
    smtlm_trace *t = nullptr;
    EXPECT_EQ(smtlm_trace_open(data_path("lud/kernel-8.traceg").c_str(), &bad, &t, err, sizeof err),
              SMTLM_TRACE_ERR_ARG);
    EXPECT_EQ(t, nullptr);
}

TEST(TraceFormat, HeaderWithoutFormatLineEndsAtFirstBeginTb)
{
    // Hand-written traces may omit "#traces format": the #BEGIN_TB that ends the header also
    // opens the first TB (Accel-Sim would swallow it and then assert).
    std::string text = "-grid dim = (2,1,1)\n-block dim = (32,1,1)\n-binary version = 70\n"
                       "-accelsim tracer version = 3\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                       "0000 ffffffff 0 EXIT 0 0\n#END_TB\n#BEGIN_TB\nthread block = 1,0,0\nwarp = 0\ninsts = 1\n"
                       "0000 0000000f 0 EXIT 0 0\n#END_TB\n";
    MemTrace m(text);
    ASSERT_EQ(m.rc, 0) << m.err;
    Counts c = count_all(m.t);
    ASSERT_EQ(c.rc, 0) << c.err;
    EXPECT_EQ(c.tbs, 2u);
    EXPECT_EQ(c.thread_insts, 36u);
}
