// What the tests of the Gpu on the SoC side share: a QV100 GPU of a few SMs, and what a
// recording memory target keeps of each transaction the GPU sends (command, address, length,
// byte enables and the MemAccessExtension).
#ifndef SMTLM_TESTS_SOC_TEST_UTIL_HPP
#define SMTLM_TESTS_SOC_TEST_UTIL_HPP

#include <string>

#include "smtlm/tlm/mem_extension.h"

extern "C" {
#include "smtlm/gpu.h"
}

namespace soc {

// QV100 with n_sms SMs and no kernel launch latency.
inline smtlm_gpu_cfg qv100_gpu(unsigned n_sms)
{
    smtlm_gpu_cfg c;
    smtlm_gpu_cfg_qv100(&c);
    c.n_clusters = n_sms;
    c.kernel_launch_latency = 0;
    return c;
}

struct Access {
    tlm::tlm_command cmd;
    uint64_t addr;
    unsigned len;
    std::string be; // one char per byte: 1 enabled, 0 not
    smtlm::MemAccessExtension ext;
    bool has_ext;
};

inline Access record(const tlm::tlm_generic_payload &gp)
{
    Access s{gp.get_command(), gp.get_address(), gp.get_data_length(), "", {}, false};
    for (unsigned i = 0; i < gp.get_byte_enable_length(); i++)
        s.be += gp.get_byte_enable_ptr()[i] == TLM_BYTE_ENABLED ? '1' : '0';
    smtlm::MemAccessExtension *e = nullptr;
    gp.get_extension(e);
    if (e) {
        s.ext = *e;
        s.has_ext = true;
    }
    return s;
}

} // namespace soc

#endif
