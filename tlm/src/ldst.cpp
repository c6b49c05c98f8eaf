#include "smtlm/tlm/ldst.h"

namespace smtlm {

LdSt::LdSt(sc_core::sc_module_name name)
    : sc_core::sc_module(name), oc_ex("oc_ex", this, &LdSt::on_put), rf("rf"), events("events"), rf_out_(rf), events_out_(events)
{
    u_.cfg_error = nullptr;
}

int LdSt::init(const smtlm_ldst_cfg &cfg) { return smtlm_ldst_init(&u_, &cfg); }

void LdSt::bind_ports(smtlm_regset *row, smtlm_inst_pool *pool)
{
    row_ = row;
    const smtlm_rf_write_ops w = rf_out_.ops();
    const smtlm_warp_ops e = events_out_.ops();
    smtlm_ldst_bind(&u_, &row[SMTLM_OC_EX_MEM], pool, &w, &e);
}

} // namespace smtlm
