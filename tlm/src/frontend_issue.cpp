#include "smtlm/tlm/frontend_issue.h"

namespace smtlm {

FrontendIssue::FrontendIssue(sc_core::sc_module_name name, smtlm_issue &block)
    : sc_core::sc_module(name), wb_events("wb_events", this), ldst_events("ldst_events", this),
      rf_events("rf_events", this), id_oc("id_oc"), iss_(block)
{
    wb_events.grant_dmi(SmCommand::WarpWrittenBack, &iss_, sizeof iss_); // smtlm_issue_written_back
}

void FrontendIssue::bind_ports(const smtlm_regset *row)
{
    out_.bind(row, &id_oc);
    iss_.ports.out = out_.ops();
}

bool FrontendIssue::use_stage_dmi() { return out_.try_dmi(&iss_.ports.out); }

// The other warp events.
void FrontendIssue::on_warp_event(SmTransaction &t)
{
    switch (t.cmd) {
    case SmCommand::WarpRelease: smtlm_issue_release(&iss_, t.warp, t.reg); break;
    case SmCommand::WarpCompleted: smtlm_issue_completed(&iss_, t.in); break;
    case SmCommand::WarpRetired: smtlm_issue_retired(&iss_, t.warp); break;
    case SmCommand::StoreSent: smtlm_issue_store_sent(&iss_, t.warp); break;
    case SmCommand::StoreAcked: smtlm_issue_store_acked(&iss_, t.warp); break;
    case SmCommand::AtomicDone: smtlm_issue_atomic_done(&iss_, t.warp, (unsigned)t.result); break;
    default: t.status = SMTLM_EINVAL; break;
    }
}

} // namespace smtlm
