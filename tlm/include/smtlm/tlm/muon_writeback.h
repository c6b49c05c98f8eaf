// MuonWriteback: drains EX_WB every cycle, oldest first, in muon mode (the variant of
// Writeback). Each result goes to the issue block as one MuonResult transaction: the Muon
// scoreboard's writeback gate decides there whether it writes back now or waits.
#ifndef SMTLM_TLM_MUON_WRITEBACK_H
#define SMTLM_TLM_MUON_WRITEBACK_H

#include "smtlm/tlm/stage.h"

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
    void bind_ports(smtlm_regset *row) { row_ = row; }
    void cycle()
    {
        smtlm_regset *exwb = &row_[SMTLM_EX_WB];
        while (exwb->count) {
            t_.status = SMTLM_OK;
            t_.inst = smtlm_regset_take(exwb, (unsigned)smtlm_regset_oldest(exwb));
            events.call(t_);
        }
    }

  private:
    smtlm_regset *row_ = nullptr;
    SmTransaction t_{SmCommand::MuonResult};
};

} // namespace smtlm

#endif
