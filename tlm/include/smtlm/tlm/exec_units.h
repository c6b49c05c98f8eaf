// ExecUnits: the pipelined units of one SM (SP, DP, INT, SFU, tensor, specialized) and its
// result buses (C kernel smtlm_exec). Instructions arrive in its OC_EX sets from the operand
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

    explicit ExecUnits(sc_core::sc_module_name name);
    // Builds the units as the SM configuration says (GPGPU-Sim's m_fu order).
    int init(const smtlm_sm_cfg &cfg);
    const char *cfg_error() const { return ex_.cfg_error; }
    void bind_ports(smtlm_regset *row, smtlm_inst_pool *pool);
    // Puts into the next block's sets without a transaction when every reader grants direct
    // access (StageOut::try_dmi; call once all blocks are bound). Returns whether they did.
    bool use_stage_dmi();
    void reset() { smtlm_exec_reset(&ex_); }
    int cycle(uint64_t now) { return smtlm_exec_step(&ex_, now); } // as the C engine's SM runs it
    bool idle() const { return smtlm_exec_idle(&ex_); }
    // The kernel, for the SM's composition (smtlm_sm_blocks_skip).
    smtlm_exec &kernel() { return ex_; }
    const smtlm_exec &state() const { return ex_; }

  private:
    smtlm_exec ex_;
    smtlm_regset *row_ = nullptr;
    StageOut out_;
};

} // namespace smtlm

#endif
