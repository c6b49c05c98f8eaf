// LdSt: the load/store unit of one SM (C kernel smtlm_ldst): shared memory inside the SM, the
// coalescer and the memory port. Instructions arrive in OC_EX_MEM from the operand collector;
// results are written through the register file's LDST write socket and the warp events go to
// the issue stage.
#ifndef SMTLM_TLM_LDST_H
#define SMTLM_TLM_LDST_H

#include "smtlm/tlm/stage.h"

extern "C" {
#include "smtlm/ldst.h"
#include "smtlm/mem_model.h"
}

namespace smtlm {

class LdSt : public sc_core::sc_module {
  public:
    SmTargetSocket<LdSt> oc_ex; // StagePut into OC_EX_MEM (from the operand collector)
    SmInitiatorSocket rf;       // RfCanWrite, RfWrite
    SmInitiatorSocket events;   // warp events (to the issue stage)

    explicit LdSt(sc_core::sc_module_name name);
    int init(const smtlm_ldst_cfg &cfg);
    const char *cfg_error() const { return u_.cfg_error; }
    void bind_ports(smtlm_regset *row, smtlm_inst_pool *pool);
    void reset() { smtlm_ldst_reset(&u_); }
    int cycle(uint64_t now) { return smtlm_ldst_cycle(&u_, now); }
    // One cycle of the C engine's memory model behind the memory port.
    void memory_cycle(smtlm_mem_model *m, uint64_t now) { smtlm_mem_cycle(m, &u_, now); }
    unsigned pending_requests() const { return smtlm_ldst_pending_requests(&u_); }
    bool idle() const { return smtlm_ldst_idle(&u_); }
    const smtlm_ldst &state() const { return u_; }

  private:
    void on_put(SmTransaction &t) { stage_accept(row_, t); }
    smtlm_ldst u_;
    smtlm_regset *row_ = nullptr;
    RfWriteOut rf_out_;
    WarpEventsOut events_out_;
};

} // namespace smtlm

#endif
