#include "smtlm/tlm/router.h"

namespace smtlm {

Router::Router(sc_core::sc_module_name name) : sc_core::sc_module(name), in("in"), out("out")
{
    in.register_b_transport(this, &Router::b_transport);
    in.register_transport_dbg(this, &Router::transport_dbg);
}

const Router::Range *Router::find(uint64_t a) const
{
    for (const Range &r : ranges_)
        if (a >= r.base && a - r.base < r.size)
            return &r;
    return nullptr;
}

void Router::b_transport(int, tlm::tlm_generic_payload &gp, sc_core::sc_time &delay)
{
    const Range *r = find(gp.get_address());
    if (!r || r->target >= out.size()) {
        gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    const uint64_t a = gp.get_address();
    if (r->local)
        gp.set_address(a - r->base);
    out[r->target]->b_transport(gp, delay);
    gp.set_address(a);
}

unsigned Router::transport_dbg(int, tlm::tlm_generic_payload &gp)
{
    const Range *r = find(gp.get_address());
    if (!r || r->target >= out.size())
        return 0;
    const uint64_t a = gp.get_address();
    if (r->local)
        gp.set_address(a - r->base);
    const unsigned n = out[r->target]->transport_dbg(gp);
    gp.set_address(a);
    return n;
}

} // namespace smtlm
