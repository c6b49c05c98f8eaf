// MuonWriteback: the SystemC face of the Muon SM's writeback, which drains EX_WB every cycle,
// oldest first (the variant of Writeback; the C SM's cycle drains it). Each result goes to the
// issue block as one MuonResult transaction on `events`: the Muon scoreboard's writeback gate
// decides there whether it writes back now or waits.
#ifndef SMTLM_TLM_MUON_WRITEBACK_H
#define SMTLM_TLM_MUON_WRITEBACK_H

#include "smtlm/tlm/stage.h"

extern "C" {
#include "smtlm/muon_issue.h"
}

namespace smtlm {

class MuonWriteback : public sc_core::sc_module {
    void on_put(SmTransaction &t) { stage_accept(row_, t); } // ex_wb

  public:
    SmTargetSocket<&MuonWriteback::on_put> ex_wb; // StagePut into EX_WB (from the execution units)
    SmInitiatorSocket events;            // MuonResult (to the issue block)

    explicit MuonWriteback(sc_core::sc_module_name name)
        : sc_core::sc_module(name), ex_wb("ex_wb", this), events("events")
    {
    }
    // The SM's row (EX_WB) and the writeback's results port, bound to `events`.
    void bind_ports(smtlm_regset *row, smtlm_muon_issue_in *results)
    {
        row_ = row;
        *results = smtlm_muon_issue_in{nullptr, this, &MuonWriteback::result, nullptr};
    }

  private:
    static void result(void *ctx, smtlm_iref r)
    {
        MuonWriteback *w = static_cast<MuonWriteback *>(ctx);
        w->t_.status = SMTLM_OK;
        w->t_.inst = r;
        w->events.call(w->t_);
    }
    smtlm_regset *row_ = nullptr;
    SmTransaction t_{SmCommand::MuonResult};
};

} // namespace smtlm

#endif
