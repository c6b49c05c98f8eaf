#include "smtlm/tlm/muon_sm.h"

namespace smtlm {

MuonSm::MuonSm(sc_core::sc_module_name name, const smtlm_sm_cfg &cfg, unsigned id, const SmHook &hook)
    : Sm(name, cfg, id), issue("issue"), collector("collector"), writeback("writeback")
{
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
    if (build())
        return;
    bind_common();
    issue.bind_muon(&pool_);
    collector.bind_ports(rs_);
    writeback.bind_ports(rs_);
    reset();
}

// In the C engine's order: the SM checks and the front end, the units and the LDST, then the
// Muon issue block and collector.
int MuonSm::build()
{
    smtlm_issue_cfg ic;
    smtlm_sm_issue_cfg(&cfg_, &ic);
    int rc = init_validate(&issue, ic);
    if (!rc)
        rc = init_units();
    if (!rc && (rc = issue.init_muon(cfg_.muon, cfg_.max_warps, cfg_.n_sched, cfg_.sub_core)))
        fail(rc, issue.muon_cfg_error());
    smtlm_muon_coll_cfg cc;
    smtlm_sm_muon_coll_cfg(&cfg_, &cc);
    if (!rc && (rc = collector.init(cc)))
        fail(rc, collector.cfg_error());
    return rc;
}

void MuonSm::reset_blocks()
{
    issue.reset_muon();
    collector.reset();
}

// The steps of smtlm_sm_muon_cycle (sm_muon.c), block by block.
int MuonSm::cycle_blocks(uint64_t now)
{
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
    return rc;
}

void MuonSm::view(smtlm_sm_view *v) const
{
    Sm::view(v);
    v->muon = &issue.muon_state();
    v->muon_coll = &collector.state();
}

} // namespace smtlm
