#include "smtlm/tlm/muon_collector.h"

#include "smtlm/port_calls.h"
#include "smtlm/regfile.h"

namespace smtlm {

MuonCollector::MuonCollector(sc_core::sc_module_name name, smtlm_muon_coll &block)
    : sc_core::sc_module(name), id_oc("id_oc", this), ldst_write("ldst_write", this), resp("resp"), to_exec("to_exec"),
      to_ldst("to_ldst"), c_(block)
{
}

// The readResp of the cycle (n > 0 answers), as one MuonReadResp.
void MuonCollector::respond(void *ctx, uint64_t now, const smtlm_muon_coll_resp *answers, unsigned n)
{
    MuonCollector *m = static_cast<MuonCollector *>(ctx);
    SmTransaction &t = m->resp_t_;
    t.status = SMTLM_OK;
    t.cycle = now;
    t.mresp = answers;
    t.result = n;
    m->resp.call(t);
}

void MuonCollector::on_issue(SmTransaction &t)
{
    switch (t.cmd) {
    case SmCommand::MuonCanAccept: t.result = smtlm_muon_coll_can_accept(&c_, t.bank); break;
    case SmCommand::MuonReadReq: {
        const int e = smtlm_muon_coll_request(&c_, t.cycle, t.mreq);
        t.result = e;
        t.status = e < 0 ? e : SMTLM_OK;
        break;
    }
    case SmCommand::MuonReadData: t.status = smtlm_muon_coll_release(&c_, t.cycle, t.cu); break;
    case SmCommand::MuonWriteback: t.status = smtlm_muon_coll_writeback(&c_, t.cycle, t.warp, (int)t.reg); break;
    case SmCommand::StagePut: { // a dispatched row: its instruction goes on to its unit with the operands
        const int slot = smtlm_stage_put(&out_ops_, t.set, t.sub_core, t.slot, t.inst, t.uid);
        t.result = slot;
        t.status = slot < 0 ? SMTLM_EFULL : SMTLM_OK;
        break;
    }
    default: t.status = SMTLM_EINVAL; break;
    }
}

// The PRF write port: Muon's register writes have their own port and never conflict.
void MuonCollector::on_write(SmTransaction &t) { serve_rf_write(smtlm_rf_free_write_port(), t); }

} // namespace smtlm
