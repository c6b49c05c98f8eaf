#include "smtlm/tlm/operand_collector.h"

namespace smtlm {

OperandCollector::OperandCollector(sc_core::sc_module_name name)
    : sc_core::sc_module(name), id_oc("id_oc", this), rf("rf"), to_exec("to_exec"), to_ldst("to_ldst")
{
    oc_.cfg_error = nullptr;
    arbitrate_.grants = grants_;
    reads_.reads = pending_;
}

bool OperandCollector::use_stage_dmi() { return out_.try_dmi(&oc_.out); }

bool OperandCollector::use_rf_dmi()
{
    smtlm_rf *r = reinterpret_cast<smtlm_rf *>(rf.dmi(SmTransaction{SmCommand::RfArbitrate}));
    if (!r)
        return false;
    const smtlm_rf_read_ops rops = smtlm_rf_read_port(r);
    const smtlm_stage_ops out = oc_.out; // as use_stage_dmi left it
    smtlm_opcoll_bind(&oc_, row_, &out, pool_, &rops);
    rf_direct_ = r;
    return true;
}

int OperandCollector::init(const smtlm_opcoll_cfg &cfg) { return smtlm_opcoll_init(&oc_, &cfg); }

void OperandCollector::bind_ports(smtlm_regset *row, smtlm_inst_pool *pool)
{
    row_ = row;
    pool_ = pool;
    rf_direct_ = nullptr;
    id_oc.grant_stage_dmi(row); // on_put is stage_accept
    out_.bind(row, &to_exec, SMTLM_OC_EX_MEM, &to_ldst);
    const smtlm_stage_ops out = out_.ops();
    const smtlm_rf_read_ops rops = {nullptr, this, &OperandCollector::bank_cb, &OperandCollector::request_cb,
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

// An allocated instruction's reads, posted: they go to the register file in one RfRequestReads
// transaction at the end of the step (send_reads), in allocation order. The result is the C
// engine's, where each allocation queues its reads at once:
// - nothing looks at the read queues between an allocation and the end of its step (the
//   arbitration comes first in a step, the writes in earlier phases of the cycle);
// - every read is queued: a bank's queue holds SMTLM_RF_QUEUE_CAP = 256 reads, and at most
//   SMTLM_MAX_CUS (64) units x SMTLM_MAX_SRC (4) operands = 256 wait at any time; a valid
//   instruction's scheduler always has its banks. So *queued = every slot asked for.
// Should a register file still refuse (it reports why), the step ends with its error and the SM
// stops, as the C engine would (after the rest of that step's allocations).
static_assert(SMTLM_MAX_CUS * SMTLM_MAX_SRC <= SMTLM_RF_QUEUE_CAP, "a bank's read queue holds every waiting read");

int OperandCollector::request_reads_cb(void *ctx, unsigned cu, unsigned warp, unsigned sched, const int16_t *src,
                                       unsigned ops, unsigned *queued)
{
    OperandCollector *o = static_cast<OperandCollector *>(ctx);
    o->pending_[o->n_reads_++] = SmInstReads{src, (uint16_t)warp, (uint8_t)cu, (uint8_t)sched, (uint8_t)ops};
    *queued = ops;
    return SMTLM_OK;
}

int OperandCollector::send_reads(int rc)
{
    SmTransaction &t = reads_; // one payload object reused (the handler sets status and result)
    t.n_reads = n_reads_;
    n_reads_ = 0;
    const int st = rf.call(t);
    return rc ? rc : st;
}

} // namespace smtlm
