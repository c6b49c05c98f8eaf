// ExecUnits: the SystemC face of one SM's pipelined units (SP, DP, INT, SFU, tensor,
// specialized) and result buses (C kernel smtlm_exec, the C SM's block). Instructions arrive in its OC_EX sets from the operand
// collector; finished ones are handed into writeback's EX_WB.
#ifndef SMTLM_TLM_EXEC_UNITS_H
#define SMTLM_TLM_EXEC_UNITS_H

#include "smtlm/tlm/stage.h"

extern "C" {
#include "smtlm/exec.h"
#include "smtlm/sm.h"
}

namespace smtlm {

class ExecUnits : public sc_core::sc_module {
    void on_put(SmTransaction &t) { stage_accept(row_, t); } // oc_ex

  public:
    SmTargetSocket<&ExecUnits::on_put> oc_ex; // StagePut into its OC_EX sets (from the operand collector)
    SmInitiatorSocket ex_wb;         // StagePut into EX_WB (writeback)

    // The face of `block` (the C SM's units, built by smtlm_sm_init).
    ExecUnits(sc_core::sc_module_name name, smtlm_exec &block);
    // Binds the hand-off into EX_WB to ex_wb (the SM's row and pool).
    void bind_ports(smtlm_regset *row, smtlm_inst_pool *pool);
    // Puts into the next block's sets without a transaction when every reader grants direct
    // access (StageOut::try_dmi; call once all blocks are bound). Returns whether they did.
    bool use_stage_dmi();
    const smtlm_exec &state() const { return ex_; }

  private:
    smtlm_exec &ex_;
    smtlm_regset *row_ = nullptr;
    StageOut out_;
};

} // namespace smtlm

#endif
