// GpgpusimSm: the gpgpusim-mode SM — FrontendIssue, OperandCollector, RegisterFile, ExecUnits,
// LdSt and Writeback bound socket to socket; cycle() runs them in GPGPU-Sim's order exactly
// as the C engine's smtlm_sm_cycle does.
#ifndef SMTLM_TLM_GPGPUSIM_SM_H
#define SMTLM_TLM_GPGPUSIM_SM_H

#include "smtlm/tlm/operand_collector.h"
#include "smtlm/tlm/register_file.h"
#include "smtlm/tlm/sm.h"
#include "smtlm/tlm/writeback.h"

namespace smtlm {

class GpgpusimSm : public Sm {
  public:
    FrontendIssue issue;
    OperandCollector collector;
    RegisterFile regfile;
    Writeback writeback;

    GpgpusimSm(sc_core::sc_module_name name, const smtlm_sm_cfg &cfg, unsigned id);
    bool quiescent() const override;
    void skip(uint64_t now, uint64_t k) override;
    void view(smtlm_sm_view *v) const override;
    unsigned use_stage_dmi() override;

  private:
    int build();
    void reset_blocks() override;
    int cycle_blocks(uint64_t now) override;
    int read_operands();
};

} // namespace smtlm

#endif
