#include "smtlm/tlm/register_file.h"

namespace smtlm {

RegisterFile::RegisterFile(sc_core::sc_module_name name)
    : sc_core::sc_module(name), read("read", this), wb_write("wb_write", this), ldst_write("ldst_write", this), release("release")
{
    rf_.cfg_error = nullptr;
}

int RegisterFile::init(const smtlm_rf_cfg &cfg)
{
    int rc = smtlm_rf_init(&rf_, &cfg);
    const smtlm_rf_ops ops = {this, &RegisterFile::release_cb};
    smtlm_rf_bind(&rf_, &ops);
    return rc;
}

void RegisterFile::release_cb(void *ctx, unsigned warp, unsigned reg)
{
    SmTransaction t{SmCommand::WarpRelease};
    t.warp = warp;
    t.reg = reg;
    static_cast<RegisterFile *>(ctx)->release.call(t);
}

void RegisterFile::on_read(SmTransaction &t)
{
    switch (t.cmd) {
    case SmCommand::RfBank: t.result = smtlm_rf_bank(&rf_, t.reg, t.warp, t.sched); break;
    case SmCommand::RfRequest: t.status = smtlm_rf_request(&rf_, t.bank, t.req); break;
    case SmCommand::RfRequestReads: {
        unsigned queued = 0;
        t.status = smtlm_rf_request_reads(&rf_, t.cu, t.warp, t.sched, t.src, t.ops, &queued);
        t.result = queued;
        break;
    }
    case SmCommand::RfArbitrate: // an empty file grants nothing (and moves no priority)
        t.result = rf_.nonempty ? smtlm_rf_arbitrate(&rf_, t.grants) : 0;
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
