// MemFunnel: the Gpu's single memory port (GpuParams::single_mem_port). Every SM's `mem` socket
// binds to `in`; each b_transport and transport_dbg goes on to `out` as it came (the same
// payload with its MemAccessExtension naming the SM, the same delay), so requests leave in the
// order the SMs issue them and a target may wait() inside b_transport as behind a direct
// binding. No arbitration and no added time: the SMs' bandwidth and ordering stay in each SM's
// memory port.
#ifndef SMTLM_TLM_MEM_FUNNEL_H
#define SMTLM_TLM_MEM_FUNNEL_H

#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

namespace smtlm {

// The Gpu's `mem`: an initiator socket the Gpu's MemFunnel binds through (hierarchically);
// optional, so that it may stay unbound when every SM's socket is bound instead.
using GpuMemSocket = tlm::tlm_initiator_socket<32, tlm::tlm_base_protocol_types, 1, sc_core::SC_ZERO_OR_MORE_BOUND>;

class MemFunnel : public sc_core::sc_module {
  public:
    // Both optional: with per-SM binding nothing is bound to the funnel (the Gpu reports an
    // unbound `mem` with a single port itself).
    tlm_utils::multi_passthrough_target_socket_optional<MemFunnel> in;
    tlm_utils::simple_initiator_socket_optional<MemFunnel> out;

    explicit MemFunnel(sc_core::sc_module_name name);

  private:
    void b_transport(int id, tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    unsigned transport_dbg(int id, tlm::tlm_generic_payload &gp);
};

} // namespace smtlm

#endif
