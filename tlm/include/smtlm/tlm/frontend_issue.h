// FrontendIssue: the SystemC face of one SM's issue block (C kernel smtlm_issue: fetch, decode,
// instruction buffers, warp schedulers and the scoreboard). It hands issued instructions into
// the operand collector's ID_OC sets and routes the warp events of writeback, the LDST and the
// register file to the issue block's own (issue_events.h). The block, its source and what its
// events update (the SM's counters, the watchdog's last progress, the retire hook) are the C
// SM's, bound by smtlm_sm_init; the face binds only the hand-off into ID_OC.
#ifndef SMTLM_TLM_FRONTEND_ISSUE_H
#define SMTLM_TLM_FRONTEND_ISSUE_H

#include "smtlm/tlm/stage.h"

extern "C" {
#include "smtlm/issue_events.h"
}

namespace smtlm {

class FrontendIssue : public sc_core::sc_module {
  protected:
    // The warp events of every target socket, each the issue block's own (issue_events.h). An
    // ALU instruction's writeback (one per instruction) is handled here directly; the rest goes
    // to on_warp_event (MuonIssue adds the Muon events there and delegates the others to this
    // class).
    void on_event(SmTransaction &t)
    {
        if (t.cmd == SmCommand::WarpWrittenBack)
            smtlm_issue_written_back(&iss_, t.in, (unsigned)t.result);
        else
            on_warp_event(t);
    }
    virtual void on_warp_event(SmTransaction &t);

  public:
    // from writeback (the silicon core's SM has none: unbound there)
    SmTargetSocket<&FrontendIssue::on_event, sc_core::SC_ZERO_OR_MORE_BOUND> wb_events;
    SmTargetSocket<&FrontendIssue::on_event> ldst_events; // from the LDST
    SmTargetSocket<&FrontendIssue::on_event> rf_events;   // from the register file (release of a buffered write)
    SmInitiatorSocket id_oc;                   // StagePut into the collector's ID_OC sets

    // The face of `block` (the C SM's issue block).
    FrontendIssue(sc_core::sc_module_name name, smtlm_issue &block);
    virtual ~FrontendIssue() = default;
    // Binds the hand-off into the collector's ID_OC sets (of the SM's row `row`) to id_oc.
    void bind_ports(const smtlm_regset *row);
    // Puts into the next block's sets without a transaction when every reader grants direct
    // access (StageOut::try_dmi; call once all blocks are bound). Returns whether they did.
    bool use_stage_dmi();
    const smtlm_issue &state() const { return iss_; }

  protected:
    smtlm_issue &iss_;
    StageOut out_;
};

} // namespace smtlm

#endif
