// Helpers shared by the trace front-end tests (test_trace*.cpp).
#ifndef SMTLM_TEST_TRACE_UTIL_H
#define SMTLM_TEST_TRACE_UTIL_H

#include <cstring>
#include <gtest/gtest.h>
#include <lzma.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "smtlm/trace.h"

namespace trace_test {

constexpr uint64_t kAddrUntouched = 0xABABABABABABABABull;

inline std::string data_path(const std::string &rel)
{
    return std::string(SMTLM_TEST_DATA) + "/traces/" + rel;
}

inline std::string read_file(const std::string &path)
{
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// xz of `in` at `preset`; block_size > 0: in blocks of that many bytes (as xz -T0 writes).
inline std::string xz_compress(const std::string &in, uint32_t preset = 6, uint64_t block_size = 0)
{
    std::vector<uint8_t> out(lzma_stream_buffer_bound(in.size()) + 4096);
    size_t pos = 0;
    lzma_ret r;
    if (block_size == 0) {
        r = lzma_easy_buffer_encode(preset, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const uint8_t *>(in.data()),
                                    in.size(), out.data(), &pos, out.size());
    } else {
        lzma_stream s = LZMA_STREAM_INIT;
        lzma_mt mt;
        std::memset(&mt, 0, sizeof mt);
        mt.threads = 1;
        mt.block_size = block_size;
        mt.preset = preset;
        mt.check = LZMA_CHECK_CRC64;
        r = lzma_stream_encoder_mt(&s, &mt);
        if (r == LZMA_OK) {
            s.next_in = reinterpret_cast<const uint8_t *>(in.data());
            s.avail_in = in.size();
            s.next_out = out.data();
            s.avail_out = out.size();
            do
                r = lzma_code(&s, LZMA_FINISH);
            while (r == LZMA_OK);
            pos = out.size() - s.avail_out;
            if (r == LZMA_STREAM_END)
                r = LZMA_OK;
        }
        lzma_end(&s);
    }
    EXPECT_EQ(r, LZMA_OK);
    return std::string(reinterpret_cast<const char *>(out.data()), pos);
}

// A file in the test temp dir, removed when the object dies.
struct TempFile {
    std::string path;
    TempFile(const std::string &name, const std::string &content)
    {
        const testing::TestInfo *ti = testing::UnitTest::GetInstance()->current_test_info();
        path = testing::TempDir() + "smtlm_" + ti->test_suite_name() + "_" + ti->name() + "_" +
               std::to_string(getpid()) + "_" + name;
        std::ofstream f(path, std::ios::binary);
        f << content;
    }
    ~TempFile() { std::remove(path.c_str()); }
};

// 1-based number of the first line of `text` that contains `needle` (0 if none).
inline unsigned line_of(const std::string &text, const std::string &needle)
{
    std::istringstream in(text);
    std::string l;
    unsigned n = 0;
    while (std::getline(in, l)) {
        n++;
        if (l.find(needle) != std::string::npos)
            return n;
    }
    return 0;
}

struct Counts {
    unsigned long long tbs = 0, warp_insts = 0, thread_insts = 0;
    std::vector<unsigned> warps_per_tb;
    int rc = 0;
    std::string err;
};

// Reads a whole open trace, counting like Accel-Sim (thread insts = popcount of each mask).
inline Counts count_all(smtlm_trace *t)
{
    Counts c;
    char err[512] = "";
    smtlm_trace_tb *tb = smtlm_trace_tb_new();
    int rc;
    while ((rc = smtlm_trace_next_tb(t, tb, err, sizeof err)) == 1) {
        c.tbs++;
        c.warps_per_tb.push_back(smtlm_trace_tb_n_warps(tb));
        for (unsigned w = 0; w < smtlm_trace_tb_n_warps(tb); w++)
            for (unsigned i = 0; i < smtlm_trace_tb_warp_count(tb, w); i++) {
                c.warp_insts++;
                c.thread_insts += (unsigned)__builtin_popcount(smtlm_trace_tb_mask(tb, w, i));
            }
    }
    c.rc = rc;
    c.err = err;
    smtlm_trace_tb_free(tb);
    return c;
}

// Standard header of synthetic traces.
struct Hdr {
    unsigned binary = 70;
    int tracer = 4;          // < 0: no version line (old format)
    std::string block = "(32,1,1)";
    std::string grid = "(1,1,1)";
    std::string nregs = "16";
    std::string shmem = "0";
    int lineinfo = -1;       // < 0: no line
    std::string shmem_base;  // empty: no line
    std::string local_base;
    std::string str() const
    {
        std::string s = "-kernel name = _Z4testv\n-kernel id = 1\n-grid dim = " + grid +
                        "\n-block dim = " + block + "\n-shmem = " + shmem + "\n-nregs = " + nregs + "\n" +
                        "-binary version = " + std::to_string(binary) + "\n-cuda stream id = 0\n";
        if (!shmem_base.empty())
            s += "-shmem base_addr = " + shmem_base + "\n";
        if (!local_base.empty())
            s += "-local mem base_addr = " + local_base + "\n";
        s += "-nvbit version = 1.5.5\n";
        if (tracer >= 0)
            s += "-accelsim tracer version = " + std::to_string(tracer) + "\n";
        if (lineinfo >= 0)
            s += "-enable lineinfo = " + std::to_string(lineinfo) + "\n";
        s += "\n#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num "
             "[reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n\n";
        return s;
    }
};

// One TB holding warp 0 with the given instruction lines.
inline std::string one_warp_tb(const std::vector<std::string> &lines, unsigned warp = 0)
{
    std::string s = "#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = " + std::to_string(warp) +
                    "\ninsts = " + std::to_string(lines.size()) + "\n";
    for (const std::string &l : lines)
        s += l + "\n";
    return s + "\n#END_TB\n\n";
}

// An in-memory trace that owns its text.
struct MemTrace {
    std::string text;
    smtlm_trace *t = nullptr;
    int rc = 0;
    char err[512] = "";
    explicit MemTrace(std::string s, const smtlm_trace_latency *lat = nullptr) : text(std::move(s))
    {
        rc = smtlm_trace_open_mem(text.data(), text.size(), "mem.traceg", lat, &t, err, sizeof err);
    }
    ~MemTrace() { smtlm_trace_close(t); }
    MemTrace(const MemTrace &) = delete;
    MemTrace &operator=(const MemTrace &) = delete;
};

// Reads the first TB of a synthetic trace and expands instruction i of warp w.
struct FirstTb {
    MemTrace m;
    smtlm_trace_tb *tb = smtlm_trace_tb_new();
    int rc = 0;
    char err[512] = "";
    explicit FirstTb(std::string s, const smtlm_trace_latency *lat = nullptr) : m(std::move(s), lat)
    {
        if (m.rc < 0) {
            rc = m.rc;
            snprintf(err, sizeof err, "%s", m.err);
            return;
        }
        rc = smtlm_trace_next_tb(m.t, tb, err, sizeof err);
    }
    ~FirstTb() { smtlm_trace_tb_free(tb); }
    FirstTb(const FirstTb &) = delete;
    FirstTb &operator=(const FirstTb &) = delete;
    smtlm_inst_desc inst(unsigned w, unsigned i) const
    {
        smtlm_inst_desc d;
        std::memset(&d, 0xAB, sizeof d); // what the reader leaves alone shows as kAddrUntouched
        EXPECT_EQ(smtlm_trace_tb_inst(tb, w, i, &d), 0);
        return d;
    }
};

} // namespace trace_test

#endif
