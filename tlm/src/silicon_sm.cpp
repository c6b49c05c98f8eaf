#include "smtlm/tlm/silicon_sm.h"

namespace smtlm {

SiliconSm::SiliconSm(sc_core::sc_module_name name, const smtlm_sm_cfg &cfg, unsigned id, const SmHook &hook)
    : Sm(name, cfg, id), issue("issue", c_.iss, c_.silicon)
{
    issue_ = &issue;
    if (hook)
        hook(*this);
    bind_default(issue.id_oc, ldst.oc_ex);
    bind_default(ldst.events, issue.ldst_events);
    bind_default(ldst.rf, issue.rf_events);
    if (status())
        return;
    // the C SM's blocks reach each other through these sockets from here on
    bind_common(&issue, nullptr);
    issue.bind_silicon(&c_.pool, &c_.src);
}

} // namespace smtlm
