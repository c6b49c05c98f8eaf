// Memory: the SoC-side memory of smsim's default platform, a TLM-2.0 LT target. Every access
// is answered after a fixed latency (added to the b_transport delay); it holds no data (the GPU
// model is timing-only): reads return zeros, writes are dropped. An address outside
// [base, base + size) answers TLM_ADDRESS_ERROR_RESPONSE. Byte enables are accepted. Its answers
// depend only on the access, so it declares itself order-independent (mem_order.h): a Gpu
// behind it keeps its SMs' windows.
#ifndef SMTLM_TLM_MEMORY_H
#define SMTLM_TLM_MEMORY_H

#include <tlm>
#include <tlm_utils/simple_target_socket.h>

namespace smtlm {

class Memory : public sc_core::sc_module {
  public:
    tlm_utils::simple_target_socket<Memory> socket;
    Memory(sc_core::sc_module_name name, const sc_core::sc_time &latency, uint64_t base = 0, uint64_t size = ~0ull);
    uint64_t accesses() const { return accesses_; }

  private:
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    unsigned transport_dbg(tlm::tlm_generic_payload &gp);
    sc_core::sc_time latency_;
    uint64_t base_, size_;
    uint64_t accesses_ = 0;
};

} // namespace smtlm

#endif
