// SiliconIssue: the silicon core's variant of FrontendIssue (-smtlm_core silicon). The same front
// end (fetch, decode, instruction buffers, warps) with the silicon core (C kernel smtlm_silicon:
// issue by control bits, register reads, pipes, shared memory) in place of the schedulers, the
// operand collector, the register file and the units. On the same sockets:
//   id_oc       StagePut of memory instructions beyond shared memory into the LDST's OC_EX_MEM
//   ldst_events the LDST's warp events (a completion also releases the write barrier)
//   rf_events   the LDST's register writes: the core holds the register file, and writes take
//               no read slot (never refused)
//   wb_events   unbound: there is no writeback of the Accel-Sim units
#ifndef SMTLM_TLM_SILICON_ISSUE_H
#define SMTLM_TLM_SILICON_ISSUE_H

#include "smtlm/tlm/frontend_issue.h"

extern "C" {
#include "smtlm/silicon.h"
}

namespace smtlm {

class SiliconIssue : public FrontendIssue {
  public:
    // The face of the C SM's front end `block` and its silicon core `core`.
    SiliconIssue(sc_core::sc_module_name name, smtlm_issue &block, smtlm_silicon &core) : FrontendIssue(name, block), core_(core) {}
    // After bind_ports: the core's ports (the pool, the kernel's source, the hand-off to the
    // LDST onto id_oc).
    void bind_silicon(smtlm_inst_pool *pool, const smtlm_inst_source *src);

    const smtlm_silicon &core_state() const { return core_; }

  private:
    void on_warp_event(SmTransaction &t) override;
    smtlm_silicon &core_;
};

} // namespace smtlm

#endif
