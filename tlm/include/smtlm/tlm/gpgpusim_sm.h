// GpgpusimSm: the gpgpusim-mode SM — FrontendIssue, OperandCollector, RegisterFile, ExecUnits,
// LdSt and Writeback bound socket to socket; cycle() runs them in GPGPU-Sim's order exactly
// as the C engine's smtlm_sm_cycle does. An SmHook may bind some of the sockets itself (a probe
// between two blocks) or put a block of its own in writeback's place (replace_writeback).
#ifndef SMTLM_TLM_GPGPUSIM_SM_H
#define SMTLM_TLM_GPGPUSIM_SM_H

#include "smtlm/tlm/operand_collector.h"
#include "smtlm/tlm/register_file.h"
#include "smtlm/tlm/sm.h"
#include "smtlm/tlm/writeback.h"

#include <optional>

namespace smtlm {

class GpgpusimSm : public Sm {
  public:
    FrontendIssue issue;
    OperandCollector collector;
    RegisterFile regfile;
    std::optional<Writeback> writeback; // empty once replaced

    GpgpusimSm(sc_core::sc_module_name name, const smtlm_sm_cfg &cfg, unsigned id, const SmHook &hook = {});
    // From the SmHook only: `block` drains EX_WB in writeback's place (the SM calls its cycle()
    // where it would call writeback's) and the project's Writeback is removed, its sockets with
    // it. The hook binds the block's sockets: a target for StagePut into EX_WB (from
    // exec.ex_wb), and initiators to regfile.wb_write and issue.wb_events.
    void replace_writeback(SmBlock &block);
    bool quiescent() const override;
    void skip(uint64_t now, uint64_t k) override;
    void view(smtlm_sm_view *v) const override;
    unsigned use_stage_dmi() override;

  private:
    int build();
    void reset_blocks() override;
    int cycle_blocks(uint64_t now) override;
    SmBlock *own_writeback_ = nullptr; // the hook's block in writeback's place, else null
    bool built_ = false;
};

} // namespace smtlm

#endif
