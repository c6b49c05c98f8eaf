#include "smtlm/tlm/frontend_issue.h"

#include <cstring>

namespace smtlm {

FrontendIssue::FrontendIssue(sc_core::sc_module_name name)
    : sc_core::sc_module(name), wb_events("wb_events", this), ldst_events("ldst_events", this),
      rf_events("rf_events", this), id_oc("id_oc")
{
    iss_.cfg_error = nullptr;
    wb_events.grant_dmi(SmCommand::WarpWrittenBack, &iss_, sizeof iss_); // smtlm_issue_written_back
}

int FrontendIssue::init(const smtlm_issue_cfg &cfg) { return smtlm_issue_init(&iss_, &cfg); }

void FrontendIssue::bind_ports(smtlm_regset *row, smtlm_inst_pool *pool, const smtlm_inst_source &src, unsigned sm_id,
                               void *owner, void (*cta_done)(void *, unsigned))
{
    out_.bind(row, &id_oc);
    smtlm_issue_ports p = {pool, out_.ops(), src, sm_id, owner, cta_done, 0, nullptr, nullptr, nullptr, nullptr, 0, 0, nullptr, nullptr,
                           nullptr, nullptr, nullptr, nullptr, nullptr};
    smtlm_issue_ports_record(&p, &done_, &last_progress_, &now_, &hook_, &hook_ctx_);
    smtlm_issue_bind(&iss_, &p);
}

void FrontendIssue::set_raw_source(const smtlm_inst_source &src, const uint64_t *memo,
                                   int (*check_miss)(void *, smtlm_inst *))
{
    smtlm_issue_ports_source(&iss_.ports, &src);
    iss_.ports.memo = memo;
    iss_.ports.check_miss = check_miss;
}

bool FrontendIssue::use_stage_dmi() { return out_.try_dmi(&iss_.ports.out); }

void FrontendIssue::reset()
{
    smtlm_issue_reset(&iss_);
    std::memset(&done_, 0, sizeof done_);
    now_ = last_progress_ = 0;
}

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
