// A generated trace of one kernel with one warp: the given body, then EXIT.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "smsim_run.hpp"

namespace e2e {

// A one-warp kernel with the given body (each line "<dst part> <opcode> <src part>"), then EXIT;
// returns its kernelslist.g in the scratch directory `name`.
inline std::string one_warp_trace(const std::string &name, const std::vector<std::string> &body)
{
    const std::string dir = scratch(name);
    std::string t = "-kernel name = " + name +
                    "\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n-nregs = 64\n"
                    "-binary version = 70\n-cuda stream id = 0\n-shmem base_addr = 0x00007f0000000000\n"
                    "-local mem base_addr = 0x00007f1000000000\n-nvbit version = 1.5.5\n-accelsim tracer version = 4\n"
                    "-enable lineinfo = 0\n\n#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = " +
                    std::to_string(body.size() + 1) + "\n";
    char pc[32];
    for (size_t i = 0; i < body.size(); i++) {
        std::snprintf(pc, sizeof pc, "%04zx", i * 16);
        t += std::string(pc) + " ffffffff " + body[i] + "\n";
    }
    std::snprintf(pc, sizeof pc, "%04zx", body.size() * 16);
    t += std::string(pc) + " ffffffff 0 EXIT 0 0\n\n#END_TB\n";
    write_file(dir + "/kernel-1.traceg", t);
    write_file(dir + "/kernelslist.g", "kernel-1.traceg\n");
    return dir + "/kernelslist.g";
}

} // namespace e2e
