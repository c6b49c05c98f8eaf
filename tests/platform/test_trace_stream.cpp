// Streaming: many TBs with bounded memory, TB objects independent of the reader, xz input.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "smtlm/trace.h"
#include "test_trace_util.h"

using namespace trace_test;

namespace {

// A kernel of n_tbs TBs x 4 warps x 10 instructions, one of them a list_all global load.
std::string big_kernel(unsigned n_tbs)
{
    Hdr h;
    h.grid = "(" + std::to_string(n_tbs) + ",1,1)";
    h.block = "(128,1,1)";
    std::string s = h.str();
    std::string load = "0040 ffffffff 1 R4 LDG.E 1 R2 4 0";
    for (unsigned lane = 0; lane < 32; lane++) {
        char a[32];
        snprintf(a, sizeof a, " 0x%llx", 0x7f0000001000ull + lane * 4u);
        load += a;
    }
    for (unsigned b = 0; b < n_tbs; b++) {
        s += "#BEGIN_TB\n\nthread block = " + std::to_string(b) + ",0,0\n\n";
        for (unsigned w = 0; w < 4; w++) {
            s += "warp = " + std::to_string(w) + "\ninsts = 10\n";
            for (unsigned i = 0; i < 9; i++)
                s += (i == 4 ? load : "00" + std::to_string(10 + i) + "0 ffffffff 1 R1 IADD3 2 R1 R2 0") + "\n";
            s += "0100 0000ffff 0 EXIT 0 0\n\n";
        }
        s += "#END_TB\n\n";
    }
    return s;
}

} // namespace

TEST(TraceStream, ManyTbsWithOneReusedTbObject)
{
    const unsigned n = 2000;
    TempFile f("big.traceg", big_kernel(n));
    smtlm_trace *t = nullptr;
    char err[512] = "";
    ASSERT_EQ(smtlm_trace_open(f.path.c_str(), nullptr, &t, err, sizeof err), 0) << err;
    EXPECT_EQ(smtlm_trace_info(t)->n_tbs, n);
    smtlm_trace_tb *tb = smtlm_trace_tb_new();
    unsigned long long tbs = 0, insts = 0, threads = 0;
    size_t first_footprint = 0;
    int rc;
    while ((rc = smtlm_trace_next_tb(t, tb, err, sizeof err)) == 1) {
        EXPECT_EQ(smtlm_trace_tb_index(tb), tbs);
        unsigned xyz[3];
        smtlm_trace_tb_label(tb, xyz);
        EXPECT_EQ(xyz[0], tbs);
        tbs++;
        for (unsigned w = 0; w < smtlm_trace_tb_n_warps(tb); w++)
            for (unsigned i = 0; i < smtlm_trace_tb_warp_count(tb, w); i++) {
                insts++;
                threads += (unsigned)__builtin_popcount(smtlm_trace_tb_mask(tb, w, i));
            }
        if (tbs == 1)
            first_footprint = smtlm_trace_tb_footprint(tb);
        // Reuse keeps the storage of the first TB: no growth with the number of TBs.
        ASSERT_EQ(smtlm_trace_tb_footprint(tb), first_footprint) << "TB " << tbs;
    }
    ASSERT_EQ(rc, 0) << err;
    EXPECT_EQ(tbs, n);
    EXPECT_EQ(insts, n * 4ull * 10ull);
    EXPECT_EQ(threads, n * 4ull * (9ull * 32ull + 16ull));
    // A TB's storage is a few KiB while the file is megabytes.
    EXPECT_LT(first_footprint, 64u * 1024u);
    smtlm_trace_tb_free(tb);
    smtlm_trace_close(t);
}

TEST(TraceStream, TbsStayValidAfterTheReaderMovesOnAndCloses)
{
    std::string text = big_kernel(3);
    MemTrace *m = new MemTrace(text);
    ASSERT_EQ(m->rc, 0) << m->err;
    smtlm_trace_tb *a = smtlm_trace_tb_new(), *b = smtlm_trace_tb_new();
    char err[256];
    ASSERT_EQ(smtlm_trace_next_tb(m->t, a, err, sizeof err), 1) << err;
    ASSERT_EQ(smtlm_trace_next_tb(m->t, b, err, sizeof err), 1) << err;
    delete m; // closes the reader and frees the text
    unsigned xa[3], xb[3];
    smtlm_trace_tb_label(a, xa);
    smtlm_trace_tb_label(b, xb);
    EXPECT_EQ(xa[0], 0u);
    EXPECT_EQ(xb[0], 1u);
    smtlm_inst_desc d;
    ASSERT_EQ(smtlm_trace_tb_inst(a, 3, 4, &d), 0);
    EXPECT_EQ(d.op, SMTLM_OP_LOAD);
    EXPECT_EQ(d.addr[0], 0x7f0000001000ull);
    EXPECT_EQ(d.addr[31], 0x7f0000001000ull + 124u);
    EXPECT_EQ(smtlm_trace_tb_warp_count(b, 3), 10u);
    smtlm_trace_tb_free(a);
    smtlm_trace_tb_free(b);
}

TEST(TraceStream, XzFileReadsLikeThePlainFile)
{
    std::string plain = read_file(data_path("lud/kernel-8.traceg"));
    ASSERT_FALSE(plain.empty());
    std::string xz = xz_compress(plain);
    ASSERT_LT(xz.size(), plain.size());
    TempFile f("kernel-8.traceg.xz", xz);
    smtlm_trace *t = nullptr;
    char err[512] = "";
    ASSERT_EQ(smtlm_trace_open(f.path.c_str(), nullptr, &t, err, sizeof err), 0) << err;
    EXPECT_STREQ(smtlm_trace_info(t)->kernel_name, "_Z13lud_perimeterPfii");
    Counts c = count_all(t);
    smtlm_trace_close(t);
    ASSERT_EQ(c.rc, 0) << c.err;
    EXPECT_EQ(c.tbs, 1u);
    EXPECT_EQ(c.warp_insts, 1027u);
    EXPECT_EQ(c.thread_insts, 16080u);

    // Same bytes from memory, and a multi-chunk stream (the 2000-TB kernel, several MiB).
    ASSERT_EQ(smtlm_trace_open_mem(xz.data(), xz.size(), "lud.xz", nullptr, &t, err, sizeof err), 0) << err;
    c = count_all(t);
    smtlm_trace_close(t);
    EXPECT_EQ(c.warp_insts, 1027u);
    std::string big = xz_compress(big_kernel(500));
    ASSERT_EQ(smtlm_trace_open_mem(big.data(), big.size(), "big.xz", nullptr, &t, err, sizeof err), 0) << err;
    c = count_all(t);
    smtlm_trace_close(t);
    ASSERT_EQ(c.rc, 0) << c.err;
    EXPECT_EQ(c.tbs, 500u);
    EXPECT_EQ(c.warp_insts, 500u * 40u);
}

TEST(TraceStream, TruncatedXzIsAnError)
{
    std::string xz = xz_compress(read_file(data_path("matrixmul-32-32-trace/kernel-1.traceg")));
    TempFile f("cut.traceg.xz", xz.substr(0, xz.size() / 2));
    smtlm_trace *t = nullptr;
    char err[512] = "";
    int rc = smtlm_trace_open(f.path.c_str(), nullptr, &t, err, sizeof err);
    if (rc == 0) { // the header survived the cut: the error comes while reading TBs
        Counts c = count_all(t);
        smtlm_trace_close(t);
        rc = c.rc;
        snprintf(err, sizeof err, "%s", c.err.c_str());
    }
    EXPECT_EQ(rc, SMTLM_TRACE_ERR_IO);
    std::string msg = err;
    EXPECT_EQ(msg.rfind(f.path + ":", 0), 0u) << msg;
    EXPECT_NE(msg.find("truncated xz stream"), std::string::npos) << msg;
    // The message names the line being decoded when the stream ended ("<file>:<n>: ...").
    EXPECT_GT(std::atoi(msg.c_str() + f.path.size() + 1), 0) << msg;

    // Trailing garbage after a complete stream is corrupt input, not silently ignored.
    std::string bad = xz_compress("-binary version = 70\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n#\n") + "junk";
    rc = smtlm_trace_open_mem(bad.data(), bad.size(), "junk.xz", nullptr, &t, err, sizeof err);
    if (rc == 0) {
        Counts c = count_all(t);
        smtlm_trace_close(t);
        rc = c.rc;
        snprintf(err, sizeof err, "%s", c.err.c_str());
    }
    EXPECT_EQ(rc, SMTLM_TRACE_ERR_IO);
    EXPECT_EQ(std::string(err).rfind("junk.xz:", 0), 0u) << err;
}
