#include "smtlm/tlm/muon_sm.h"

namespace smtlm {

MuonSm::MuonSm(sc_core::sc_module_name name, const smtlm_sm_cfg &cfg, unsigned id, const SmHook &hook)
    : Sm(name, cfg, id), issue("issue", c_.iss, c_.muon.iss), collector("collector", c_.muon.coll),
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
    bind_common(&issue);
    issue.bind_muon(&c_.pool);
    collector.bind_ports(c_.rs);
    writeback.bind_ports(c_.rs);
}

// The steps of smtlm_sm_muon_cycle (sm_muon.c), block by block, between the C SM's bookkeeping.
int MuonSm::cycle(uint64_t now)
{
    if (!smtlm_sm_cycle_begin(&c_, now))
        return smtlm_sm_idle_result(&c_);
    issue.begin(now);
    writeback.cycle();
    int rc = exec.cycle(now);
    if (!rc)
        rc = ldst.cycle(now);
    if (!rc)
        rc = collector.deliver(now);
    if (!rc)
        rc = issue.read_data();
    if (!rc) {
        issue.dispatch();
        rc = issue.collect();
    }
    if (!rc)
        rc = collector.arbitrate(now);
    if (!rc) {
        issue.wake();
        rc = issue.admit();
    }
    if (!rc)
        rc = issue.fetch_decode(now);
    issue.sample();
    return smtlm_sm_cycle_end(&c_, now, rc);
}

} // namespace smtlm
