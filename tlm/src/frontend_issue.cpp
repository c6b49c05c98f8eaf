#include "smtlm/tlm/frontend_issue.h"

#include <cstring>

namespace smtlm {

FrontendIssue::FrontendIssue(sc_core::sc_module_name name)
    : sc_core::sc_module(name), wb_events("wb_events", this), ldst_events("ldst_events", this),
      rf_events("rf_events", this), id_oc("id_oc")
{
    iss_.cfg_error = nullptr;
    wb_events.grant_dmi(SmCommand::WarpWrittenBack, this, sizeof *this); // written_back_direct
}

int FrontendIssue::init(const smtlm_issue_cfg &cfg) { return smtlm_issue_init(&iss_, &cfg); }

void FrontendIssue::bind_ports(smtlm_regset *row, smtlm_inst_pool *pool, const smtlm_inst_source &src, unsigned sm_id,
                               void *owner, void (*cta_done)(void *, unsigned))
{
    out_.bind(row, &id_oc);
    const smtlm_issue_ports p = {pool, out_.ops(), src, sm_id, owner, cta_done, 0, nullptr, nullptr, nullptr, nullptr, 0, 0, nullptr, nullptr};
    smtlm_issue_bind(&iss_, &p);
}

void FrontendIssue::set_raw_source(const smtlm_inst_source &src, const uint64_t *memo,
                                   int (*check_miss)(void *, smtlm_inst *))
{
    smtlm_issue_ports_raw_source(&iss_.ports, &src);
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

// The other warp events, handled exactly as the C engine's smtlm_sm does.
void FrontendIssue::on_warp_event(SmTransaction &t)
{
    smtlm_warp *w = &iss_.warp[t.warp];
    switch (t.cmd) {
    case SmCommand::WarpRelease: smtlm_sb_release_reg(&iss_.sb, t.warp, t.reg); break;
    case SmCommand::WarpCompleted: completed(t.in); break;
    case SmCommand::WarpRetired: smtlm_issue_retired(&iss_, t.warp); break;
    case SmCommand::StoreSent: w->stores_out++; break;
    case SmCommand::StoreAcked:
        if (w->stores_out)
            w->stores_out--;
        last_progress_ = now_;
        break;
    case SmCommand::AtomicDone: w->n_atomic = w->n_atomic > (unsigned)t.result ? w->n_atomic - (unsigned)t.result : 0; break;
    default: t.status = SMTLM_EINVAL; break;
    }
}

} // namespace smtlm
