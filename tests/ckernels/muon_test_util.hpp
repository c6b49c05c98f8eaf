// Builders shared by the Muon tests (test_muon_sb.cpp, test_muon_rs.cpp, test_muon_issue.cpp,
// test_sm_muon.cpp, the SystemC test_sm_faces.cpp): instructions as the kernels take them, and configurations.
#pragma once

#include <cstring>
#include <memory>
#include <vector>

extern "C" {
#include "smtlm/muon_rs.h"
#include "smtlm/muon_sb.h"
#include "smtlm/sm.h"
}

namespace muon {

// configs/muon-rtl.config's issue logic (scoreboard, RS, duplicated collector), turned on.
inline void rtl_issue(smtlm_sm_muon_cfg &m)
{
    m.enabled = 1;
    m.sb.war = SMTLM_MUON_WAR_OPTION1;
    m.sb.pending_read_bits = 3;
    m.sb.zero_reg = 256;
    m.rs.rs_entries = 8;
    m.rs.rs_policy = SMTLM_MUON_RS_RR;
    m.coll.kind = SMTLM_MUON_COLL_DUPLICATED;
    m.coll.prf_banks = 1;
    m.coll.entries = 2;
    m.coll.collector_banks = 3;
    m.coll.zero_reg = 256;
}

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
