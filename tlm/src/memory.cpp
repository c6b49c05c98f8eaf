#include "smtlm/tlm/memory.h"

#include "smtlm/tlm/mem_order.h"

#include <cstring>

namespace smtlm {

Memory::Memory(sc_core::sc_module_name name, const sc_core::sc_time &latency, uint64_t base, uint64_t size)
    : sc_core::sc_module(name), socket("socket"), latency_(latency), base_(base), size_(size)
{
    socket.register_b_transport(this, &Memory::b_transport);
    socket.register_transport_dbg(this, &Memory::transport_dbg);
}

void Memory::b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay)
{
    const uint64_t a = gp.get_address();
    if (a < base_ || a - base_ >= size_ || gp.get_data_length() > size_ - (a - base_)) {
        gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    if (gp.is_read() && gp.get_data_ptr())
        std::memset(gp.get_data_ptr(), 0, gp.get_data_length());
    accesses_++;
    delay += latency_;
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

// Its answers depend only on the access (its address) and add a fixed latency: order-independent.
unsigned Memory::transport_dbg(tlm::tlm_generic_payload &gp)
{
    if (answer_order_query(gp, &socket.get_base_interface(), true))
        return 0;
    if (gp.is_read() && gp.get_data_ptr())
        std::memset(gp.get_data_ptr(), 0, gp.get_data_length());
    return gp.get_data_length();
}

} // namespace smtlm
