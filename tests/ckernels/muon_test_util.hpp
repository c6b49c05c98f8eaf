// Builders shared by the Muon kernel tests (test_muon_sb.cpp, test_muon_rs.cpp,
// test_muon_issue.cpp): instructions as the kernels take them, and configurations.
#pragma once

#include <cstring>
#include <memory>
#include <vector>

extern "C" {
#include "smtlm/muon_rs.h"
#include "smtlm/muon_sb.h"
}

namespace muon {

// An instruction of warp w: destinations and sources are register numbers (0 / negative = none).
inline smtlm_inst inst(unsigned w, std::vector<int> dst, std::vector<int> src, uint32_t pc = 0)
{
    smtlm_inst in;
    std::memset(&in, 0, sizeof in);
    in.warp = (uint16_t)w;
    in.pc = pc;
    in.n_dst = (uint8_t)dst.size();
    for (size_t i = 0; i < dst.size(); i++)
        in.dst[i] = (int16_t)dst[i];
    in.n_src = (uint8_t)src.size();
    for (size_t i = 0; i < src.size(); i++)
        in.src[i] = (int16_t)src[i];
    return in;
}

inline smtlm_muon_sb_cfg sb_cfg(smtlm_muon_war war, int forwarding = 0, unsigned bits = 2, int past_waw = 0)
{
    smtlm_muon_sb_cfg c{};
    c.n_warps = 8;
    c.war = war;
    c.pending_read_bits = bits;
    c.past_waw = past_waw;
    c.forwarding = forwarding;
    c.zero_reg = 0;
    return c;
}

inline smtlm_muon_rs_cfg rs_cfg(unsigned entries = 8, smtlm_muon_rs_policy p = SMTLM_MUON_RS_RR, int in_order = 0,
                                int forwarding = 0, unsigned per_warp = 0)
{
    smtlm_muon_rs_cfg c{};
    c.n_warps = 8;
    c.rs_entries = entries;
    c.rs_per_warp = per_warp;
    c.rs_policy = p;
    c.in_order = in_order;
    c.forwarding = forwarding;
    return c;
}

// The kernel states are large fixed arrays: keep them on the heap.
struct Sb {
    std::unique_ptr<smtlm_muon_sb> p{new smtlm_muon_sb};
    int rc;
    explicit Sb(const smtlm_muon_sb_cfg &c) { rc = smtlm_muon_sb_init(p.get(), &c); }
    smtlm_muon_sb *operator->() { return p.get(); }
    smtlm_muon_sb *get() { return p.get(); }
};

struct Rs {
    std::unique_ptr<smtlm_muon_rs> p{new smtlm_muon_rs};
    int rc;
    explicit Rs(const smtlm_muon_rs_cfg &c) { rc = smtlm_muon_rs_init(p.get(), &c); }
    smtlm_muon_rs *operator->() { return p.get(); }
    smtlm_muon_rs *get() { return p.get(); }
};

} // namespace muon
