// SiliconSm: the SM of the silicon core (-smtlm_core silicon) — SiliconIssue (front end + the
// silicon core: issue by control bits, register reads, pipes, shared memory) and LdSt (memory
// beyond shared memory), the faces of the C SM's blocks, bound socket to socket; cycle() is the
// C engine's smtlm_sm_silicon_cycle, its blocks reaching each other through the ports those
// sockets set.
#ifndef SMTLM_TLM_SILICON_SM_H
#define SMTLM_TLM_SILICON_SM_H

#include "smtlm/tlm/silicon_issue.h"
#include "smtlm/tlm/sm.h"

namespace smtlm {

class SiliconSm : public Sm {
  public:
    SiliconIssue issue;

    SiliconSm(sc_core::sc_module_name name, const smtlm_sm_cfg &cfg, unsigned id, const SmHook &hook = {});
    int cycle(uint64_t now) override { return smtlm_sm_silicon_cycle(&c_, now); }
    bool quiescent() const override { return !active(); } // never skips cycles while it has work
    void skip(uint64_t, uint64_t) override {}             // (so the GPU never asks)
};

} // namespace smtlm

#endif
