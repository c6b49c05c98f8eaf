#include "smtlm/tlm/muon_sm.h"

namespace smtlm {

MuonSm::MuonSm(sc_core::sc_module_name name, const smtlm_sm_cfg &cfg, unsigned id, const SmHook &hook)
    : Sm(name, cfg, id), issue("issue", c_.iss, c_.muon.iss), collector("collector", c_.muon.coll), exec("exec", c_.ex),
      writeback("writeback")
{
    issue_ = &issue;
    if (hook)
        hook(*this);
    bind_default(issue.id_oc, collector.id_oc);
    bind_default(collector.resp, issue.rf_events);
    bind_default(collector.to_exec, exec.oc_ex);
    bind_default(collector.to_ldst, ldst.oc_ex);
    bind_default(exec.ex_wb, writeback.ex_wb);
    bind_default(writeback.events, issue.wb_events);
    bind_default(ldst.rf, collector.ldst_write);
    bind_default(ldst.events, issue.ldst_events);
    if (status())
        return;
    // the C SM's blocks reach each other through these sockets from here on
    bind_common(&issue, &exec);
    issue.bind_muon(&c_.pool);
    collector.bind_ports(c_.rs, &c_.muon.read_resp);
    writeback.bind_ports(c_.rs, &c_.muon.results);
}

} // namespace smtlm
