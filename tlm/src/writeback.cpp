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

bool Writeback::use_dmi()
{
    smtlm_rf *r = reinterpret_cast<smtlm_rf *>(rf.dmi(SmTransaction{SmCommand::RfTryWrite}));
    FrontendIssue *is = reinterpret_cast<FrontendIssue *>(events.dmi(SmTransaction{SmCommand::WarpWrittenBack}));
    if (!r || !is)
        return false;
    rf_direct_ = r;
    issue_ = is;
    return true;
}

// smtlm_wb_cycle with the writes and the written-back event as direct calls (EX_WB holds one).
// Fast (no buffered write, no retire hook): every destination is released, by the pool entry's
// summary when it covers them, and nothing reads the writeback time before the entry's reuse.
void Writeback::cycle_direct(uint64_t now)
{
    smtlm_regset *exwb = wb_.exwb;
    smtlm_inst_pool *pool = wb_.pool;
    smtlm_rf *rf = rf_direct_;
    FrontendIssue &is = *issue_;
    is.note_progress(now); // something retires
    if (wb_.oldest_first || rf->cfg.fix_wb_bank_conflict || is.has_retire_hook()) {
        do {
            const smtlm_iref r = smtlm_wb_take(&wb_);
            smtlm_inst *in = smtlm_pool_get(pool, r);
            const unsigned release = smtlm_wb_write_direct(rf, in);
            in->ev[SMTLM_EV_WRITEBACK] = now;
            is.written_back_direct(in, release);
            smtlm_pool_free(pool, r);
        } while (exwb->count);
        return;
    }
    for (uint32_t occ = smtlm_regset_take_all(exwb); occ; occ &= occ - 1) {
        const unsigned s = smtlm_ctz64(occ);
        const smtlm_iref r = exwb->slot[s];
        exwb->slot[s] = SMTLM_NO_INST;
        is.written_back_fast(rf, smtlm_pool_get(pool, r));
        smtlm_pool_free(pool, r);
    }
}

} // namespace smtlm
