#include "smtlm/tlm/silicon_issue.h"

extern "C" {
#include "smtlm/regfile.h"
}

namespace smtlm {

void SiliconIssue::bind_silicon(smtlm_inst_pool *pool, const smtlm_inst_source *src)
{
    const smtlm_sil_ports p = {&iss_, pool, src, out_.ops()};
    smtlm_silicon_bind(&core_, &p);
}

// The LDST's warp events, as the C engine's silicon SM takes them (smtlm_silicon_warp_port), and
// its register writes (smtlm_rf_free_write_port).
void SiliconIssue::on_warp_event(SmTransaction &t)
{
    const smtlm_warp_port w = smtlm_silicon_warp_port(&core_);
    switch (t.cmd) {
    case SmCommand::WarpRelease: w.release(w.ctx, t.warp, t.reg); break;
    case SmCommand::WarpCompleted: w.completed(w.ctx, t.in); break;
    case SmCommand::WarpRetired: w.retired(w.ctx, t.warp); break;
    case SmCommand::StoreSent: w.store_sent(w.ctx, t.warp); break;
    case SmCommand::StoreAcked: w.store_acked(w.ctx, t.warp); break;
    case SmCommand::AtomicDone: w.atomic_done(w.ctx, t.warp, (unsigned)t.result); break;
    case SmCommand::RfTryWrite:
    case SmCommand::RfCanWrite:
    case SmCommand::RfWrite: serve_rf_write(smtlm_rf_free_write_port(), t); break;
    default: t.status = SMTLM_EINVAL; break;
    }
}

} // namespace smtlm
