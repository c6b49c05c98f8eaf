#include "smtlm/tlm/writeback.h"

namespace smtlm {

Writeback::Writeback(sc_core::sc_module_name name, smtlm_wb *block)
    : sc_core::sc_module(name), ex_wb("ex_wb", this), rf("rf"), events("events"), own_(block ? nullptr : new smtlm_wb()),
      wb_(block ? *block : *own_), rf_out_(rf), events_out_(events)
{
}

void Writeback::bind_ports(smtlm_regset *row, smtlm_inst_pool *pool)
{
    row_ = row;
    ex_wb.grant_stage_dmi(row); // on_put is stage_accept
    const smtlm_write_port w = rf_out_.ops();
    const smtlm_warp_port e = events_out_.ops();
    smtlm_wb_bind(&wb_, &row[SMTLM_EX_WB], pool, &w, &e);
}

bool Writeback::use_dmi()
{
    smtlm_rf *r = reinterpret_cast<smtlm_rf *>(rf.dmi(SmTransaction{SmCommand::RfTryWrite}));
    smtlm_issue *is = reinterpret_cast<smtlm_issue *>(events.dmi(SmTransaction{SmCommand::WarpWrittenBack}));
    // Each port for itself: a port whose target grants nothing (a probe) stays on transactions.
    // The drain (smtlm_wb_drain) is the same either way; its fast path needs both direct.
    if (r)
        wb_.rf = smtlm_rf_write_port(r);
    if (is)
        wb_.warps.issue = is;
    if (!r || !is)
        return false;
    return true;
}

} // namespace smtlm
