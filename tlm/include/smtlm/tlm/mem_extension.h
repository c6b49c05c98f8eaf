// The ignorable extension on every memory transaction the GPU sends: who sent it and why.
// A target that does not know it ignores it (TLM-2.0 ignorable-extension rules).
#ifndef SMTLM_TLM_MEM_EXTENSION_H
#define SMTLM_TLM_MEM_EXTENSION_H

#include <tlm>

namespace smtlm {

struct MemAccessExtension : tlm::tlm_extension<MemAccessExtension> {
    unsigned sm = 0, warp = 0;
    uint32_t pc = 0;
    unsigned space = 0;   // smtlm_mem_space: global, local, const, texture
    unsigned atomic = 0;  // nonzero for an atomic (GPGPU-Sim's atomic flag)
    uint32_t lanes = 0;   // lanes of the warp this sector serves
    tlm::tlm_extension_base *clone() const override { return new MemAccessExtension(*this); }
    void copy_from(const tlm::tlm_extension_base &e) override { *this = static_cast<const MemAccessExtension &>(e); }
};

} // namespace smtlm

#endif
