// BusWidthBridge<IN, OUT>: joins initiators whose sockets are IN bits wide to a target socket OUT
// bits wide. The Gpu's sockets are 32 bits wide, TLM's default (its memory side, `mem` and
// mem_socket(i), and its registers, `ctrl`); TLM-2.0 binds only sockets of one width, so a
// platform whose interconnect is 64 bits wide puts a bridge on each side:
//
//     smtlm::BusWidthBridge<32, 64> mem_bridge("mem_bridge");    // every SM -> a 64-bit NoC
//     for (unsigned i = 0; i < gpu.n_sm(); i++)
//         gpu.mem_socket(i).bind(mem_bridge.in);
//     mem_bridge.out.bind(noc.in);
//     smtlm::BusWidthBridge<64, 32> ctrl_bridge("ctrl_bridge");  // a 64-bit CPU bus -> registers
//     cpu_bus.out.bind(ctrl_bridge.in);
//     ctrl_bridge.out.bind(gpu.ctrl);
//
// It passes b_transport, transport_dbg and DMI on as they come and adds no time (the width only
// says what a beat carries; the Gpu's transactions are whole 32-byte sectors and 4- or 8-byte
// registers, whatever the bus), and answers the order question (mem_order.h) as its target
// does, so a Gpu behind it keeps its windows in front of an order-independent memory.
#ifndef SMTLM_TLM_BUS_WIDTH_BRIDGE_H
#define SMTLM_TLM_BUS_WIDTH_BRIDGE_H

#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "smtlm/tlm/mem_order.h"

namespace smtlm {

template <unsigned IN, unsigned OUT> class BusWidthBridge : public sc_core::sc_module {
  public:
    tlm_utils::multi_passthrough_target_socket<BusWidthBridge, IN> in; // any number of initiators
    tlm_utils::simple_initiator_socket<BusWidthBridge, OUT> out;

    explicit BusWidthBridge(sc_core::sc_module_name name) : sc_core::sc_module(name), in("in"), out("out")
    {
        in.register_b_transport(this, &BusWidthBridge::b_transport);
        in.register_transport_dbg(this, &BusWidthBridge::transport_dbg);
        in.register_get_direct_mem_ptr(this, &BusWidthBridge::get_direct_mem_ptr);
        out.register_invalidate_direct_mem_ptr(this, &BusWidthBridge::invalidate_direct_mem_ptr);
    }

  private:
    void b_transport(int, tlm::tlm_generic_payload &gp, sc_core::sc_time &delay) { out->b_transport(gp, delay); }
    unsigned transport_dbg(int id, tlm::tlm_generic_payload &gp)
    {
        if (gp.template get_extension<MemOrderQuery>()) { // for the binding it came through
            tlm_utils::multi_target_base<IN> &base = in;
            answer_order_query(gp, base.get_hierarch_bind()->get_binders()[id], order_independent(*out[0]));
            return 0;
        }
        return out->transport_dbg(gp);
    }
    bool get_direct_mem_ptr(int, tlm::tlm_generic_payload &gp, tlm::tlm_dmi &dmi)
    {
        return out->get_direct_mem_ptr(gp, dmi);
    }
    void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end)
    {
        for (unsigned i = 0; i < in.size(); i++)
            in[i]->invalidate_direct_mem_ptr(start, end);
    }
};

} // namespace smtlm

#endif
