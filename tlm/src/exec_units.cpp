#include "smtlm/tlm/exec_units.h"

namespace smtlm {

ExecUnits::ExecUnits(sc_core::sc_module_name name, smtlm_exec &block)
    : sc_core::sc_module(name), oc_ex("oc_ex", this), ex_wb("ex_wb"), ex_(block)
{
}

bool ExecUnits::use_stage_dmi() { return out_.try_dmi(&ex_.out); }

void ExecUnits::bind_ports(smtlm_regset *row, smtlm_inst_pool *pool)
{
    row_ = row;
    oc_ex.grant_stage_dmi(row); // on_put is stage_accept
    out_.bind(row, &ex_wb);
    const smtlm_stage_port out = out_.ops();
    smtlm_exec_bind(&ex_, row, &out, pool);
}

} // namespace smtlm
