#include "smtlm/tlm/gpgpusim_sm.h"

#include <string>

namespace smtlm {

GpgpusimSm::GpgpusimSm(sc_core::sc_module_name name, const smtlm_sm_cfg &cfg, unsigned id, const SmHook &hook)
    : Sm(name, cfg, id), issue("issue"), collector("collector"), regfile("regfile"), writeback(std::in_place, "writeback")
{
    if (hook)
        hook(*this);
    built_ = true;
    // sockets: every hand-off and every cross-block call is a transaction (or direct access
    // where the target grants it, use_stage_dmi); pairs the hook bound stay as it bound them
    bind_default(issue.id_oc, collector.id_oc);
    bind_default(collector.rf, regfile.read);
    bind_default(collector.to_exec, exec.oc_ex);
    bind_default(collector.to_ldst, ldst.oc_ex);
    bind_default(ldst.rf, regfile.ldst_write);
    bind_default(ldst.events, issue.ldst_events);
    bind_default(regfile.release, issue.rf_events);
    if (writeback) {
        bind_default(exec.ex_wb, writeback->ex_wb);
        bind_default(writeback->rf, regfile.wb_write);
        bind_default(writeback->events, issue.wb_events);
    }
    if (build())
        return;
    if (writeback)
        writeback->init(cfg_.fix_wb_bank_conflict);
    bind_common();
    collector.bind_ports(rs_, &pool_);
    if (writeback)
        writeback->bind_ports(rs_, &pool_);
    reset();
}

void GpgpusimSm::replace_writeback(SmBlock &block)
{
    if (built_) {
        SC_REPORT_ERROR("smtlm/sm", (std::string(name()) + ": replace_writeback is for the SM hook only").c_str());
        return;
    }
    writeback.reset();
    own_writeback_ = &block;
}

unsigned GpgpusimSm::use_stage_dmi()
{
    const unsigned stages = (unsigned)issue.use_stage_dmi() + (unsigned)collector.use_stage_dmi() + (unsigned)exec.use_stage_dmi();
    return stages + (unsigned)collector.use_rf_dmi() + (unsigned)(writeback && writeback->use_dmi());
}

// Each block builds itself from its part of the configuration, in the C engine's order (the
// first refusal is the one reported).
int GpgpusimSm::build()
{
    smtlm_issue_cfg ic;
    smtlm_opcoll_cfg oc;
    smtlm_rf_cfg rf;
    smtlm_sm_issue_cfg(&cfg_, &ic);
    smtlm_sm_opcoll_cfg(&cfg_, &oc);
    int rc = init_validate(&issue, ic);
    if (!rc && (rc = collector.init(oc)))
        fail(rc, collector.cfg_error());
    if (!rc) {
        smtlm_sm_rf_cfg(&cfg_, collector.n_cus(), &rf);
        if ((rc = regfile.init(rf)))
            fail(rc, regfile.cfg_error());
        collector.set_bank_map(rf);
    }
    return rc ? rc : init_units();
}

void GpgpusimSm::reset_blocks()
{
    collector.reset();
    regfile.reset();
    if (own_writeback_)
        own_writeback_->reset();
    else
        writeback->reset();
}

// GPGPU-Sim's order: writeback, execute (units, then the LDST), read operands, issue, fetch.
int GpgpusimSm::cycle_blocks(uint64_t now)
{
    regfile.drain_writes();
    if (own_writeback_)
        own_writeback_->cycle(now);
    else
        writeback->cycle(now);
    int rc = exec.cycle(now);
    if (!rc)
        rc = ldst.cycle(now);
    if (!rc)
        rc = smtlm_sm_read_operands(&collector.kernel(), &regfile.kernel(), cfg_.reg_file_port_throughput, now,
                                    &conflict_cycles_);
    if (!rc)
        rc = issue.cycle(now);
    if (!rc)
        rc = issue.fetch_decode(now);
    collector.sample();
    return rc;
}

bool GpgpusimSm::quiescent() const
{
    if (!active())
        return true;
    return !error() && smtlm_sm_blocks_idle(&issue.state(), &collector.state(), &regfile.state(), &exec.state(),
                                            &ldst.state(), own_writeback_ ? own_writeback_->idle() : writeback->idle());
}

void GpgpusimSm::skip(uint64_t now, uint64_t k)
{
    if (k == 0 || !active())
        return;
    now_ = now;
    issue.set_now(now);
    smtlm_sm_blocks_skip(&issue.kernel(), &collector.kernel(), &exec.kernel(), now, k);
    active_cycles_ += k;
    now_ = now + k - 1;
    issue.set_now(now_);
}

void GpgpusimSm::view(smtlm_sm_view *v) const
{
    Sm::view(v);
    v->oc = &collector.state();
    v->rf = &regfile.state();
}

} // namespace smtlm
