#include "smtlm/tlm/gpgpusim_sm.h"

#include <string>

namespace smtlm {

GpgpusimSm::GpgpusimSm(sc_core::sc_module_name name, const smtlm_sm_cfg &cfg, unsigned id, const SmHook &hook)
    : Sm(name, cfg, id), issue("issue", c_.iss), collector("collector", c_.oc), exec("exec", c_.ex), regfile("regfile", &c_.rf),
      writeback(std::in_place, "writeback", &c_.wb)
{
    issue_ = &issue;
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
    if (status())
        return;
    // the C SM's blocks reach each other through these sockets from here on
    bind_common(&issue, &exec);
    collector.set_bank_map(c_.cfg.rf, c_.cfg.shape);
    collector.bind_ports(c_.rs, &c_.pool);
    regfile.bind_ports();
    if (writeback)
        writeback->bind_ports(c_.rs, &c_.pool);
    else
        c_.wb_stand_in = smtlm_sm_wb_stand_in{own_writeback_, &GpgpusimSm::stand_in_cycle, &GpgpusimSm::stand_in_idle,
                                              &GpgpusimSm::stand_in_reset};
    reset(); // the stand-in too, as at every reset
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

void GpgpusimSm::stand_in_cycle(void *ctx, uint64_t now) { static_cast<SmBlock *>(ctx)->cycle(now); }
int GpgpusimSm::stand_in_idle(const void *ctx) { return static_cast<const SmBlock *>(ctx)->idle(); }
void GpgpusimSm::stand_in_reset(void *ctx) { static_cast<SmBlock *>(ctx)->reset(); }

unsigned GpgpusimSm::use_stage_dmi()
{
    const unsigned stages = (unsigned)issue.use_stage_dmi() + (unsigned)collector.use_stage_dmi() + (unsigned)exec.use_stage_dmi();
    return stages + (unsigned)collector.use_rf_dmi() + (unsigned)(writeback && writeback->use_dmi());
}

} // namespace smtlm
