// Router: N initiators (the GPU's SM memory sockets, a CPU) to M targets by address range, in
// the order the ranges were added (first match wins); an unmapped address answers
// TLM_ADDRESS_ERROR_RESPONSE. A range passes addresses on unchanged (a memory sees system
// addresses) or, mapped `local`, as offsets from its base (a device's registers); the
// initiator gets its address back either way. b_transport and transport_dbg. It answers the
// order question (mem_order.h) for all of its targets: order-independent when each of them is.
#ifndef SMTLM_TLM_ROUTER_H
#define SMTLM_TLM_ROUTER_H

#include <vector>

#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

namespace smtlm {

class Router : public sc_core::sc_module {
  public:
    tlm_utils::multi_passthrough_target_socket<Router> in;
    tlm_utils::multi_passthrough_initiator_socket<Router> out;

    explicit Router(sc_core::sc_module_name name);
    // Addresses [base, base + size) go to out[target] (the target-th binding of `out`); with
    // `local` the target sees address - base.
    void map(uint64_t base, uint64_t size, unsigned target, bool local = false)
    {
        ranges_.push_back({base, size, target, local});
    }

  private:
    struct Range {
        uint64_t base, size;
        unsigned target;
        bool local;
    };
    const Range *find(uint64_t a) const;
    void b_transport(int id, tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    unsigned transport_dbg(int id, tlm::tlm_generic_payload &gp);
    std::vector<Range> ranges_;
};

} // namespace smtlm

#endif
