// TraceKernels: an Accel-Sim kernel list (kernelslist.g, or one .traceg/.traceg.xz) as the
// Gpu's KernelList, so software on a virtual platform starts its kernels by index through the
// control registers (KERNEL, CTRL.START). Kernel k is the list's k-th kernel line; MemcpyHtoD
// lines are not kernels (the model times no copies).
//
// With the silicon core each kernel takes its control bits from a `cuobjdump -sass` listing:
// the whole-program one given (GpuConfig::sass, -smtlm_sass), else kernel-N.sass beside its
// trace; without either they are derived, said once per TraceKernels (SC_REPORT_INFO
// "smtlm/trace"). A listing that does not match its trace fails the kernel's start with the
// message (error()).
#ifndef SMTLM_TLM_TRACE_KERNELS_H
#define SMTLM_TLM_TRACE_KERNELS_H

#include <string>
#include <vector>

#include "smtlm/tlm/gpu.h"

extern "C" {
#include "smtlm/sass_listing.h"
#include "smtlm/trace.h"
#include "smtlm/trace_source.h"
}

namespace smtlm {

class TraceKernels : public KernelList {
  public:
    // Reads the list (every trace it names must be readable) and the listing; ok() and error()
    // tell how it went. lat: the opcode latencies (-trace_opcode_latency_initiation_*); sass: a
    // whole-program listing ("": none).
    TraceKernels(const std::string &list_path, const smtlm_trace_latency &lat, const std::string &sass = "");
    ~TraceKernels() override;
    TraceKernels(const TraceKernels &) = delete;
    TraceKernels &operator=(const TraceKernels &) = delete;

    bool ok() const { return ok_; }
    unsigned count() const override { return (unsigned)paths_.size(); }
    const std::string &path(unsigned k) const { return paths_[k]; }
    int prepare(unsigned k, Gpu &gpu, smtlm_kernel_desc *desc) override;
    const char *error() const override;
    std::string where(unsigned k) const override { return paths_[k]; }

  private:
    smtlm_trace_latency lat_;
    std::vector<std::string> paths_;
    smtlm_trace_source *src_ = nullptr;
    smtlm_sass_listing program_{}; // the whole-program listing (path NULL: none)
    bool derived_noted_ = false;
    bool ok_ = false;
    std::string error_;
};

} // namespace smtlm

#endif
