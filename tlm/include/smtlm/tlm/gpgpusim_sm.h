// GpgpusimSm: the gpgpusim-mode SM — FrontendIssue, OperandCollector, RegisterFile, ExecUnits,
// LdSt and Writeback, the faces of the C SM's blocks, bound socket to socket; cycle() is the C
// engine's smtlm_sm_cycle (GPGPU-Sim's order), its blocks reaching each other through the ports
// those sockets set. An SmHook may bind some of the sockets itself (a probe
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
    ExecUnits exec;
    RegisterFile regfile;
    std::optional<Writeback> writeback; // empty once replaced

    GpgpusimSm(sc_core::sc_module_name name, const smtlm_sm_cfg &cfg, unsigned id, const SmHook &hook = {});
    // From the SmHook only: `block` drains EX_WB in writeback's place (the SM calls its cycle()
    // where it would call writeback's) and the project's Writeback is removed, its sockets with
    // it. The hook binds the block's sockets: a target for StagePut into EX_WB (from
    // exec.ex_wb), and initiators to regfile.wb_write and issue.wb_events.
    void replace_writeback(SmBlock &block);
    int cycle(uint64_t now) override { return smtlm_sm_cycle(&c_, now); }
    bool quiescent() const override { return smtlm_sm_quiescent(&c_); }
    void skip(uint64_t now, uint64_t k) override { smtlm_sm_skip(&c_, now, k); }
    unsigned use_stage_dmi() override;

  private:
    // the hook's block as the C SM's writeback stand-in (smtlm_sm_wb_stand_in)
    static void stand_in_cycle(void *ctx, uint64_t now);
    static int stand_in_idle(const void *ctx);
    static void stand_in_reset(void *ctx);
    SmBlock *own_writeback_ = nullptr; // the hook's block in writeback's place, else null
    bool built_ = false;
};

} // namespace smtlm

#endif
