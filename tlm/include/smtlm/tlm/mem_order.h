// MemOrderQuery: how a Gpu learns that its memory answers each access independently of the
// others, so that its SMs may run in windows (GpuParams::sm_windows = SmWindows::Auto, the
// default).
//
// In a window each SM runs alone for up to 1,024 cycles: the memory sees SM 0's accesses of the
// window, then SM 1's, and so on, each at its own cycle's local time, not in the order of the
// cycles. That gives the cycle-by-cycle results only behind an order-independent target: one
// whose answer to an access (its response, its data and the delay it adds) depends on nothing
// but that access and the time it is made, and which never waits in b_transport. A target that
// models bandwidth shared between SMs (a channel busy for len / bandwidth, a DRAM controller's
// queues, a NoC) is not one.
//
// At the start of simulation the Gpu asks the target each memory socket is bound to with a
// transport_dbg of no data carrying this ignorable extension. An order-independent target
// answers it (answer_order_query); an interconnect answers for every target behind it (Router
// asks each of its own). An answer counts only if it comes from the component the socket is
// bound to: one passed on by a component that does not know the question (a bus that forwards
// debug transactions by address, a bandwidth model in front of a plain memory) is no answer.
// No answer means cycle-by-cycle order.
#ifndef SMTLM_TLM_MEM_ORDER_H
#define SMTLM_TLM_MEM_ORDER_H

#include <tlm>

namespace smtlm {

struct MemOrderQuery : tlm::tlm_extension<MemOrderQuery> {
    const tlm::tlm_fw_transport_if<> *answered_through = nullptr; // what the answering component was reached through
    bool independent = false;
    tlm::tlm_extension_base *clone() const override { return new MemOrderQuery(*this); }
    void copy_from(const tlm::tlm_extension_base &e) override { *this = static_cast<const MemOrderQuery &>(e); }
};

// Whether the component behind `target` (the forward interface an initiator socket is bound to:
// `socket[0]`, or `multi_socket[i]`) declares itself order-independent.
bool order_independent(tlm::tlm_fw_transport_if<> &target);

// For a target's transport_dbg: true when `gp` is the question, which it then answers
// (`independent`) as the component reached through `through` (for a simple_target_socket,
// `&socket.get_base_interface()`: what an initiator binding to it is bound to); the caller
// returns 0. False for any other debug transaction.
bool answer_order_query(tlm::tlm_generic_payload &gp, const tlm::tlm_fw_transport_if<> *through, bool independent);

} // namespace smtlm

#endif
