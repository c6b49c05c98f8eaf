#include "smtlm/tlm/router.h"

#include "smtlm/tlm/mem_order.h"

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

// The order question (mem_order.h) is about everything behind the router: it answers as the
// binding it was asked through, order-independent only when each of its targets is.
unsigned Router::transport_dbg(int id, tlm::tlm_generic_payload &gp)
{
    if (gp.get_extension<MemOrderQuery>()) {
        bool all = true;
        for (unsigned t = 0; t < out.size() && all; t++)
            all = order_independent(*out[t]);
        tlm_utils::multi_target_base<> &base = in;
        answer_order_query(gp, base.get_hierarch_bind()->get_binders()[id], all);
        return 0;
    }
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
