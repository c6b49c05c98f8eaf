#include "smtlm/tlm/operand_collector.h"

namespace smtlm {

OperandCollector::OperandCollector(sc_core::sc_module_name name, smtlm_opcoll &block)
    : sc_core::sc_module(name), id_oc("id_oc", this), rf("rf"), to_exec("to_exec"), to_ldst("to_ldst"), oc_(block)
{
    reads_.reads = &read_;
    reads_.n_reads = 1;
}

bool OperandCollector::use_stage_dmi() { return out_.try_dmi(&oc_.out); }

bool OperandCollector::use_rf_dmi()
{
    smtlm_rf *r = reinterpret_cast<smtlm_rf *>(rf.dmi(SmTransaction{SmCommand::RfArbitrate}));
    if (!r)
        return false;
    const smtlm_read_port rops = smtlm_rf_read_port(r);
    const smtlm_stage_port out = oc_.out; // as use_stage_dmi left it
    smtlm_opcoll_bind(&oc_, row_, &out, pool_, &rops);
    return true;
}

void OperandCollector::bind_ports(smtlm_regset *row, smtlm_inst_pool *pool)
{
    row_ = row;
    pool_ = pool;
    id_oc.grant_stage_dmi(row); // on_put is stage_accept
    out_.bind(row, &to_exec, SMTLM_OC_EX_MEM, &to_ldst);
    const smtlm_stage_port out = out_.ops();
    const smtlm_read_port rops = {nullptr, this, &OperandCollector::bank_cb, &OperandCollector::request_cb,
                                    &OperandCollector::request_reads_cb, &OperandCollector::arbitrate_cb};
    smtlm_opcoll_bind(&oc_, row, &out, pool, &rops);
}

unsigned OperandCollector::bank_cb(void *ctx, unsigned reg, unsigned warp, unsigned sched)
{
    const OperandCollector &c = *static_cast<OperandCollector *>(ctx);
    return smtlm_rf_cfg_bank(&c.rf_cfg_, &c.shape_, reg, warp, sched);
}

int OperandCollector::request_cb(void *ctx, unsigned bank, smtlm_read_req req)
{
    SmTransaction t{SmCommand::RfRequest};
    t.bank = bank;
    t.req = req;
    return static_cast<OperandCollector *>(ctx)->rf.call(t);
}

// An allocated instruction's reads, in one RfRequestReads transaction (the register file queues
// them as smtlm_rf_request_reads; result = the instructions queued whole, here 0 or 1).
int OperandCollector::request_reads_cb(void *ctx, unsigned cu, unsigned warp, unsigned sched, const int16_t *src,
                                       unsigned ops, unsigned *queued)
{
    OperandCollector *o = static_cast<OperandCollector *>(ctx);
    o->read_ = SmInstReads{src, (uint16_t)warp, (uint8_t)cu, (uint8_t)sched, (uint8_t)ops};
    SmTransaction &t = o->reads_; // one payload object reused (the handler sets status and result)
    const int st = o->rf.call(t);
    *queued = t.result == 1 ? ops : 0;
    return st;
}

// One arbitration step: the grants land in g (room for every bank's).
unsigned OperandCollector::arbitrate_cb(void *ctx, smtlm_read_grant *g)
{
    OperandCollector *o = static_cast<OperandCollector *>(ctx);
    SmTransaction &t = o->arbitrate_;
    t.grants = g;
    t.result = 0;
    o->rf.call(t);
    return (unsigned)t.result;
}

} // namespace smtlm
