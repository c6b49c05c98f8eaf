// Kernel traces written by the end-to-end tests: a header, whole thread blocks, and a kernel
// list of them in a scratch directory, plain or xz.
#pragma once

#include <algorithm>
#include <cstdint>
#include <lzma.h>
#include <string>
#include <vector>

#include "smsim_run.hpp"

namespace e2e {

// A Volta header (tracer 4) with these dims, -nregs and -shmem.
inline std::string header(const std::string &grid, const std::string &block, const std::string &nregs = "16",
                          const std::string &shmem = "0")
{
    return "-kernel name = k\n-kernel id = 1\n-grid dim = " + grid + "\n-block dim = " + block + "\n-shmem = " + shmem +
           "\n-nregs = " + nregs +
           "\n-binary version = 70\n-cuda stream id = 0\n-shmem base_addr = 0x0\n-local mem base_addr = 0x0\n"
           "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n#traces format\n\n";
}

// A block's lines up to its #END_TB: `warps` warps of two instructions each.
inline std::string open_block(const std::string &label, unsigned warps)
{
    std::string s = "#BEGIN_TB\nthread block = " + label + "\n";
    for (unsigned w = 0; w < warps; w++)
        s += "warp = " + std::to_string(w) + "\ninsts = 2\n0000 ffffffff 1 R2 IADD3 2 R2 R3 0\n0010 ffffffff 0 EXIT 0 0\n";
    return s;
}

inline std::string block(const std::string &label, unsigned warps) { return open_block(label, warps) + "#END_TB\n"; }

// Line numbers (1-based) of a byte position and of the first occurrence of needle (0 if none).
inline unsigned line_at(const std::string &text, size_t pos)
{
    return (unsigned)std::count(text.begin(), text.begin() + (long)pos, '\n') + 1;
}

inline unsigned line_of(const std::string &text, const std::string &needle)
{
    const size_t at = text.find(needle);
    return at == std::string::npos ? 0 : line_at(text, at);
}

inline unsigned last_line(const std::string &text) { return (unsigned)std::count(text.begin(), text.end(), '\n'); }

inline std::string xz(const std::string &in)
{
    std::vector<uint8_t> out(lzma_stream_buffer_bound(in.size()) + 4096);
    size_t pos = 0;
    EXPECT_EQ(lzma_easy_buffer_encode(1, LZMA_CHECK_CRC64, nullptr, (const uint8_t *)in.data(), in.size(), out.data(),
                                      &pos, out.size()),
              LZMA_OK);
    return std::string((const char *)out.data(), pos);
}

// A kernel list of these traces in a scratch directory, as .traceg or .traceg.xz; returns the
// list's path. traces[k] is kernel-(k+1).
inline std::string write_list(const std::string &name, const std::vector<std::string> &traces, bool compressed)
{
    const std::string dir = scratch("input_" + name + (compressed ? "_xz" : ""));
    std::string list;
    for (size_t k = 0; k < traces.size(); k++) {
        const std::string file = "kernel-" + std::to_string(k + 1) + ".traceg" + (compressed ? ".xz" : "");
        write_file(dir + "/" + file, compressed ? xz(traces[k]) : traces[k]);
        list += file + "\n";
    }
    write_file(dir + "/kernelslist.g", list);
    return dir + "/kernelslist.g";
}

inline std::string dir_of(const std::string &list) { return list.substr(0, list.rfind('/')); }

} // namespace e2e
