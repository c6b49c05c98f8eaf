#include "smtlm/tlm/operand_collector.h"

namespace smtlm {

OperandCollector::OperandCollector(sc_core::sc_module_name name)
    : sc_core::sc_module(name), id_oc("id_oc", this), rf("rf"), to_exec("to_exec"), to_ldst("to_ldst")
{
    oc_.cfg_error = nullptr;
    arbitrate_.grants = grants_;
}

bool OperandCollector::use_stage_dmi() { return out_.try_dmi(&oc_.out); }

int OperandCollector::init(const smtlm_opcoll_cfg &cfg) { return smtlm_opcoll_init(&oc_, &cfg); }

void OperandCollector::bind_ports(smtlm_regset *row, smtlm_inst_pool *pool)
{
    row_ = row;
    id_oc.grant_stage_dmi(row); // on_put is stage_accept
    out_.bind(row, &to_exec, SMTLM_OC_EX_MEM, &to_ldst);
    const smtlm_stage_ops out = out_.ops();
    const smtlm_rf_read_ops rops = {this, &OperandCollector::bank_cb, &OperandCollector::request_cb,
                                    &OperandCollector::request_reads_cb};
    smtlm_opcoll_bind(&oc_, row, &out, pool, &rops);
}

unsigned OperandCollector::bank_cb(void *ctx, unsigned reg, unsigned warp, unsigned sched)
{
    return smtlm_rf_cfg_bank(&static_cast<OperandCollector *>(ctx)->rf_cfg_, reg, warp, sched);
}

int OperandCollector::request_cb(void *ctx, unsigned bank, smtlm_read_req req)
{
    SmTransaction t{SmCommand::RfRequest};
    t.bank = bank;
    t.req = req;
    return static_cast<OperandCollector *>(ctx)->rf.call(t);
}

// An instruction's reads as one transaction (the register file queues them as the C engine's
// smtlm_rf_request_reads does).
int OperandCollector::request_reads_cb(void *ctx, unsigned cu, unsigned warp, unsigned sched, const int16_t *src,
                                       unsigned ops, unsigned *queued)
{
    OperandCollector *o = static_cast<OperandCollector *>(ctx);
    SmTransaction &t = o->reads_; // one payload object reused (the handler sets status and result)
    t.cu = cu;
    t.warp = warp;
    t.sched = sched;
    t.src = src;
    t.ops = ops;
    const int rc = o->rf.call(t);
    *queued = (unsigned)t.result;
    return rc;
}

} // namespace smtlm
