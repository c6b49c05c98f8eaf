#include "smtlm/tlm/sm.h"

namespace smtlm {

Sm::Sm(sc_core::sc_module_name name, const smtlm_sm_cfg &cfg, unsigned id)
    : sc_core::sc_module(name), issue("issue"), collector("collector"), regfile("regfile"), exec("exec"), ldst("ldst"),
      writeback("writeback"), cfg_(cfg), id_(id)
{
    // sockets: every hand-off and every cross-block call is a transaction
    issue.id_oc.bind(collector.id_oc);
    collector.rf.bind(regfile.read);
    collector.to_exec.bind(exec.oc_ex);
    collector.to_ldst.bind(ldst.oc_ex);
    exec.ex_wb.bind(writeback.ex_wb);
    writeback.rf.bind(regfile.wb_write);
    ldst.rf.bind(regfile.ldst_write);
    writeback.events.bind(issue.wb_events);
    ldst.events.bind(issue.ldst_events);
    regfile.release.bind(issue.rf_events);

    // kernels: the SM checks, then each block builds itself from its part of the configuration
    int rc = smtlm_sm_validate(&cfg_, &cfg_error_);
    smtlm_issue_cfg ic;
    smtlm_opcoll_cfg oc;
    smtlm_rf_cfg rf;
    smtlm_ldst_cfg lc;
    smtlm_sm_issue_cfg(&cfg_, &ic);
    smtlm_sm_opcoll_cfg(&cfg_, &oc);
    smtlm_sm_ldst_cfg(&cfg_, &lc);
    if (!rc && (rc = issue.init(ic)))
        cfg_error_ = issue.cfg_error();
    if (!rc && (rc = collector.init(oc)))
        cfg_error_ = collector.cfg_error();
    if (!rc) {
        smtlm_sm_rf_cfg(&cfg_, collector.n_cus(), &rf);
        if ((rc = regfile.init(rf)))
            cfg_error_ = regfile.cfg_error();
        collector.set_bank_map(rf);
    }
    if (!rc && (rc = exec.init(cfg_)))
        cfg_error_ = exec.cfg_error();
    if (!rc && (rc = ldst.init(lc)))
        cfg_error_ = ldst.cfg_error();
    init_status_ = rc;
    if (rc)
        return;
    writeback.init(cfg_.fix_wb_bank_conflict);
    const smtlm_inst_source checked = {this, &Sm::checked_next, &Sm::checked_has_more};
    issue.bind_ports(rs_, &pool_, checked, id_, this, &Sm::cta_done);
    collector.bind_ports(rs_, &pool_);
    exec.bind_ports(rs_, &pool_);
    ldst.bind_ports(rs_, &pool_);
    writeback.bind_ports(rs_, &pool_);
    reset();
}

void Sm::reset()
{
    smtlm_pool_init(&pool_);
    smtlm_sm_regsets_init(&cfg_, rs_);
    issue.reset();
    collector.reset();
    regfile.reset();
    exec.reset();
    ldst.reset();
    writeback.reset();
    now_ = active_cycles_ = conflict_cycles_ = 0;
    error_ = SMTLM_OK;
    error_line_ = 0;
    reject_ = SMTLM_REJECT_NONE;
    reject_detail_ = 0;
}

int Sm::checked_next(void *ctx, unsigned smid, unsigned warp, smtlm_inst_desc *d)
{
    Sm *sm = static_cast<Sm *>(ctx);
    const int got = sm->src_.next(sm->src_.ctx, smid, warp, d);
    if (got <= 0)
        return got;
    unsigned detail;
    const smtlm_reject why = smtlm_sm_check_inst(&sm->cfg_, d, &detail);
    if (why) {
        sm->error_ = SMTLM_EINPUT;
        sm->error_line_ = d->line;
        sm->reject_ = why;
        sm->reject_detail_ = detail;
        return SMTLM_EINPUT;
    }
    return 1;
}

int Sm::checked_has_more(void *ctx, unsigned smid, unsigned warp)
{
    Sm *sm = static_cast<Sm *>(ctx);
    return sm->src_.has_more ? sm->src_.has_more(sm->src_.ctx, smid, warp) : 1;
}

void Sm::cta_done(void *owner, unsigned slot)
{
    Sm *sm = static_cast<Sm *>(owner);
    if (sm->cta_hook_)
        sm->cta_hook_(sm->cta_ctx_, sm->id_, slot, sm->issue.state().cta[slot].id);
}

int Sm::read_operands()
{
    const uint64_t waits_before = regfile.state().steps_with_wait;
    for (unsigned step = 0; step < cfg_.reg_file_port_throughput; step++) {
        const int rc = collector.step(now_);
        if (rc)
            return rc;
        regfile.end_step();
    }
    if (regfile.state().steps_with_wait != waits_before)
        conflict_cycles_++;
    return SMTLM_OK;
}

// GPGPU-Sim's order: writeback, execute (units, then the LDST), read operands, issue, fetch.
int Sm::cycle(uint64_t now)
{
    if (!active())
        return SMTLM_OK;
    if (error_)
        return error_;
    now_ = now;
    issue.set_now(now);
    active_cycles_++;
    regfile.drain_writes();
    writeback.cycle(now);
    int rc = exec.cycle(now);
    if (!rc)
        rc = ldst.cycle(now);
    if (!rc)
        rc = read_operands();
    if (!rc)
        rc = issue.cycle(now);
    if (!rc)
        rc = issue.fetch_decode(now);
    if (issue.state().issued_this_cycle)
        issue.note_progress(now);
    collector.sample();
    if (rc && !error_) { // an input error was already recorded by checked_next
        error_ = rc;
        error_line_ = issue.state().error_line;
    }
    return error_;
}

bool Sm::quiescent() const
{
    if (!active())
        return true;
    return !error_ && issue.idle() && collector.idle() && regfile.idle() && exec.idle() && ldst.idle() && writeback.idle();
}

void Sm::skip(uint64_t now, uint64_t k)
{
    if (k == 0 || !active())
        return;
    now_ = now;
    issue.set_now(now);
    issue.skip(now, k);
    collector.skip(k);
    exec.skip(k);
    active_cycles_ += k;
    now_ = now + k - 1;
    issue.set_now(now_);
}

smtlm_sm_stats Sm::stats() const
{
    smtlm_sm_stats s = issue.completions();
    s.active_cycles = active_cycles_;
    s.conflict_cycles = conflict_cycles_;
    return s;
}

} // namespace smtlm
