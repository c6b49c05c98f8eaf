#include "smtlm/tlm/sm.h"

#include "smtlm/tlm/gpgpusim_sm.h"
#include "smtlm/tlm/muon_sm.h"
#include "smtlm/tlm/silicon_sm.h"

namespace smtlm {

std::unique_ptr<Sm> Sm::create(const char *name, const smtlm_sm_cfg &cfg, unsigned id, const SmHook &hook)
{
    if (cfg.silicon.enabled)
        return std::unique_ptr<Sm>(new SiliconSm(name, cfg, id, hook));
    if (cfg.muon.enabled)
        return std::unique_ptr<Sm>(new MuonSm(name, cfg, id, hook));
    return std::unique_ptr<Sm>(new GpgpusimSm(name, cfg, id, hook));
}

Sm::Sm(sc_core::sc_module_name name, const smtlm_sm_cfg &cfg, unsigned id)
    : sc_core::sc_module(name), ldst("ldst", c_.ldst)
{
    c_.cfg = cfg; // cfg() reads it even when smtlm_sm_init refuses it
    init_status_ = smtlm_sm_init(&c_, &cfg, id);
}

void Sm::bind_common(FrontendIssue *issue, ExecUnits *exec)
{
    issue_ = issue;
    issue->bind_ports(c_.rs);
    if (exec)
        exec->bind_ports(c_.rs, &c_.pool);
    ldst.bind_ports(c_.rs, &c_.pool);
}

} // namespace smtlm
