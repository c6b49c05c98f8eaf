#include "smtlm/tlm/register_file.h"

namespace smtlm {

RegisterFile::RegisterFile(sc_core::sc_module_name name, smtlm_rf *block)
    : sc_core::sc_module(name), read("read", this), wb_write("wb_write", this), ldst_write("ldst_write", this), release("release"),
      own_(block ? nullptr : new smtlm_rf()), rf_(block ? *block : *own_)
{
    // Direct access: the read and writeback handlers only call the kernel on rf_, so their
    // initiators may do so themselves (the LDST's writes stay transactions).
    read.grant_dmi(SmCommand::RfArbitrate, &rf_, sizeof rf_);
    wb_write.grant_dmi(SmCommand::RfTryWrite, &rf_, sizeof rf_);
}

int RegisterFile::init(const smtlm_rf_cfg &cfg, const smtlm_sm_shape &shape, unsigned n_cus)
{
    const int rc = smtlm_rf_init(&rf_, &cfg, &shape, n_cus);
    bind_ports();
    return rc;
}

void RegisterFile::bind_ports()
{
    const smtlm_release_port ops = {nullptr, this, &RegisterFile::release_cb};
    smtlm_rf_bind(&rf_, &ops);
}

void RegisterFile::release_cb(void *ctx, unsigned warp, unsigned reg)
{
    SmTransaction t{SmCommand::WarpRelease};
    t.warp = warp;
    t.reg = reg;
    static_cast<RegisterFile *>(ctx)->release.call(t);
}

void RegisterFile::on_read_other(SmTransaction &t)
{
    switch (t.cmd) {
    case SmCommand::RfBank: t.result = smtlm_rf_bank(&rf_, t.reg, t.warp, t.sched); break;
    case SmCommand::RfRequest: t.status = smtlm_rf_request(&rf_, t.bank, t.req); break;
    case SmCommand::RfRequestReads: // in order, as the C engine queues them one instruction at a time
        for (t.result = 0; t.result < (long)t.n_reads; t.result++) {
            const SmInstReads &r = t.reads[t.result];
            unsigned queued;
            t.status = smtlm_rf_request_reads(&rf_, r.cu, r.warp, r.sched, r.src, r.ops, &queued);
            if (t.status != SMTLM_OK)
                break;
        }
        break;
    default: t.status = SMTLM_EINVAL; break;
    }
}

void RegisterFile::on_write(SmTransaction &t)
{
    if (t.cmd == SmCommand::RfTryWrite) { // writeback: one per written register
        t.result = smtlm_rf_try_write(&rf_, t.warp, t.sched, t.reg);
        return;
    }
    switch (t.cmd) {
    case SmCommand::RfCanWrite: t.result = smtlm_rf_can_write(&rf_, t.warp, t.sched, t.reg); break;
    case SmCommand::RfWrite: smtlm_rf_write_reg(&rf_, t.warp, t.sched, t.reg); break;
    default: t.status = SMTLM_EINVAL; break;
    }
}

} // namespace smtlm
