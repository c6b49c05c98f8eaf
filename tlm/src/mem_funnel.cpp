#include "smtlm/tlm/mem_funnel.h"

namespace smtlm {

MemFunnel::MemFunnel(sc_core::sc_module_name name) : sc_core::sc_module(name), in("in"), out("out")
{
    in.register_b_transport(this, &MemFunnel::b_transport);
    in.register_transport_dbg(this, &MemFunnel::transport_dbg);
}

void MemFunnel::b_transport(int, tlm::tlm_generic_payload &gp, sc_core::sc_time &delay) { out->b_transport(gp, delay); }

unsigned MemFunnel::transport_dbg(int, tlm::tlm_generic_payload &gp) { return out->transport_dbg(gp); }

} // namespace smtlm
