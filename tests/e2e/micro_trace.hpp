// Accel-Sim's back-end microbenchmarks as real .traceg files (one CTA, every warp the same
// program), written from their published description; shared by the end-to-end tests.
#pragma once

#include <cstdio>
#include <string>

#include "smsim_run.hpp"

namespace e2e {

inline std::string micro_body_line(const std::string &kind, unsigned i)
{
    const unsigned d = 20 + i % 8;
    char base[32];
    std::snprintf(base, sizeof base, "0x%x", (i % 4) * 0x100);
    if (kind == "dep_nc") return "1 R2 FFMA 3 R2 R4 R5 0";
    if (kind == "dep") return "1 R2 FFMA 3 R2 R4 R6 0";
    if (kind == "dep3") return "1 R2 FFMA 3 R2 R6 R10 0";
    if (kind == "indep") return "1 R" + std::to_string(d) + " FFMA 3 R3 R4 R5 0";
    if (kind == "indep3") return "1 R" + std::to_string(d) + " FFMA 3 R2 R6 R10 0";
    if (kind == "sfu") return "1 R" + std::to_string(d) + " MUFU.RCP 1 R3 0";
    if (kind == "imix")
        return "1 R" + std::to_string(d) + (i % 2 ? " IADD3 3 R3 R4 R5 0" : " FFMA 3 R3 R4 R5 0");
    if (kind.rfind("ldsdep", 0) == 0) return "1 R2 LDS.32 1 R2 4 1 0x0 " + std::to_string(4 * std::stoul(kind.substr(6)));
    if (kind.rfind("lds", 0) == 0)
        return "1 R" + std::to_string(d) + " LDS.32 1 R3 4 1 " + base + " " + std::to_string(4 * std::stoul(kind.substr(3)));
    return std::string("0 STS 2 R3 R4 4 1 ") + base + " " + std::to_string(4 * std::stoul(kind.substr(3)));
}

inline std::string write_micro_trace(const std::string &kind, unsigned n, unsigned warps)
{
    const std::string dir = scratch(kind + "_" + std::to_string(n) + "_" + std::to_string(warps));
    const bool shared = kind.rfind("lds", 0) == 0 || kind.rfind("sts", 0) == 0;
    std::string t = "-kernel name = micro_" + kind + "\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (" +
                    std::to_string(32 * warps) + ",1,1)\n-shmem = " + (shared ? "16384" : "0") +
                    "\n-nregs = 64\n-binary version = 70\n-cuda stream id = 0\n-shmem base_addr = 0x00007f0000000000\n"
                    "-local mem base_addr = 0x00007f1000000000\n-nvbit version = 1.5.5\n-accelsim tracer version = 4\n"
                    "-enable lineinfo = 0\n\n#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num "
                    "[reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n\n#BEGIN_TB\n\nthread block = 0,0,0\n\n";
    for (unsigned w = 0; w < warps; w++) {
        t += "warp = " + std::to_string(w) + "\ninsts = " + std::to_string(n + 1) + "\n";
        char pc[16];
        for (unsigned i = 0; i < n; i++) {
            std::snprintf(pc, sizeof pc, "%04x", i * 16);
            t += std::string(pc) + " ffffffff " + micro_body_line(kind, i) + "\n";
        }
        std::snprintf(pc, sizeof pc, "%04x", n * 16);
        t += std::string(pc) + " ffffffff 0 EXIT 0 0\n\n";
    }
    t += "#END_TB\n";
    write_file(dir + "/kernel-1.traceg", t);
    write_file(dir + "/kernelslist.g", "kernel-1.traceg\n");
    return dir + "/kernelslist.g";
}

} // namespace e2e
