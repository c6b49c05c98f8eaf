#include "smtlm/tlm/writeback.h"

namespace smtlm {

Writeback::Writeback(sc_core::sc_module_name name)
    : sc_core::sc_module(name), ex_wb("ex_wb", this), rf("rf"), events("events"), rf_out_(rf), events_out_(events)
{
}

void Writeback::bind_ports(smtlm_regset *row, smtlm_inst_pool *pool)
{
    row_ = row;
    ex_wb.grant_stage_dmi(row); // on_put is stage_accept
    const smtlm_rf_write_ops w = rf_out_.ops();
    const smtlm_warp_ops e = events_out_.ops();
    smtlm_wb_bind(&wb_, &row[SMTLM_EX_WB], pool, &w, &e);
}

// The written-back event as a direct call into the issue stage (writeback's general drain).
static void written_back_to(void *issue, const smtlm_inst *in, unsigned release_mask)
{
    static_cast<FrontendIssue *>(issue)->written_back_direct(in, release_mask);
}

bool Writeback::use_dmi()
{
    smtlm_rf *r = reinterpret_cast<smtlm_rf *>(rf.dmi(SmTransaction{SmCommand::RfTryWrite}));
    FrontendIssue *is = reinterpret_cast<FrontendIssue *>(events.dmi(SmTransaction{SmCommand::WarpWrittenBack}));
    // Each port for itself: smtlm_wb_cycle then writes into the kernel inline
    // (smtlm_wb_direct_rf) and/or calls the issue stage directly; it uses nothing else of the
    // two bindings. A port whose target grants nothing (a probe) stays on transactions.
    if (r) {
        wb_.rf.ctx = r;
        wb_.rf.try_write = smtlm_rf_port_try_write;
    }
    if (is) {
        wb_.warps = smtlm_warp_ops{};
        wb_.warps.ctx = is;
        wb_.warps.written_back = written_back_to;
    }
    if (!r || !is)
        return false;
    rf_direct_ = r;
    issue_ = is;
    return true;
}

// With direct access and nothing that needs the general drain (a buffered write, a retire
// hook, an oldest-first drain): every destination is released, by the pool entry's summary when
// it covers them, and nothing reads the writeback time before the entry's reuse.
void Writeback::cycle_direct(uint64_t now)
{
    FrontendIssue &is = *issue_;
    is.note_progress(now); // something retires
    if (wb_.oldest_first || rf_direct_->cfg.fix_wb_bank_conflict || is.has_retire_hook()) {
        smtlm_wb_cycle(&wb_, now); // bound to the same two kernels by use_dmi
        return;
    }
    smtlm_regset *exwb = wb_.exwb;
    for (uint32_t occ = smtlm_regset_take_all(exwb); occ; occ &= occ - 1) {
        const unsigned s = smtlm_ctz64(occ);
        const smtlm_iref r = exwb->slot[s];
        exwb->slot[s] = SMTLM_NO_INST;
        is.written_back_fast(rf_direct_, smtlm_pool_get(wb_.pool, r));
        smtlm_pool_free(wb_.pool, r);
    }
}

} // namespace smtlm
