// MuonSm: the muon-mode SM — MuonIssue (front end + scoreboard + reservation station),
// MuonCollector (collector entries + banked PRF), ExecUnits, LdSt and MuonWriteback, the faces
// of the C SM's blocks, bound socket to socket; cycle() is the C engine's smtlm_sm_muon_cycle,
// its stages reaching each other through the ports those sockets set.
#ifndef SMTLM_TLM_MUON_SM_H
#define SMTLM_TLM_MUON_SM_H

#include "smtlm/tlm/muon_collector.h"
#include "smtlm/tlm/muon_issue.h"
#include "smtlm/tlm/muon_writeback.h"
#include "smtlm/tlm/sm.h"

namespace smtlm {

class MuonSm : public Sm {
  public:
    MuonIssue issue;
    MuonCollector collector;
    ExecUnits exec;
    MuonWriteback writeback;

    MuonSm(sc_core::sc_module_name name, const smtlm_sm_cfg &cfg, unsigned id, const SmHook &hook = {});
    int cycle(uint64_t now) override { return smtlm_sm_muon_cycle(&c_, now); }
    bool quiescent() const override { return !active(); } // never skips cycles while it has work
    void skip(uint64_t, uint64_t) override {}             // (so the GPU never asks)
};

} // namespace smtlm

#endif
