#include "smtlm/tlm/trace_kernels.h"

#include <systemc>

namespace smtlm {

TraceKernels::TraceKernels(const std::string &list_path, const smtlm_trace_latency &lat, const std::string &sass)
    : lat_(lat)
{
    char msg[2048];
    if (!sass.empty() && smtlm_sass_listing_read(sass.c_str(), &program_, msg, sizeof msg) < 0) {
        program_ = smtlm_sass_listing{};
        error_ = msg;
        return;
    }
    smtlm_kernelslist list;
    if (smtlm_kernelslist_load(list_path.c_str(), &list, msg, sizeof msg) < 0) {
        error_ = msg;
        return;
    }
    for (size_t i = 0; i < list.n; i++)
        if (list.cmds[i].kind == SMTLM_TRACE_CMD_KERNEL)
            paths_.push_back(list.cmds[i].path);
    smtlm_kernelslist_free(&list);
    ok_ = true;
}

TraceKernels::~TraceKernels()
{
    smtlm_trace_source_close(src_);
    smtlm_sass_listing_free(&program_);
}

// Opens kernel k's trace for the Gpu's shape and binds it as the instruction source (the
// previous kernel's source is closed: a Gpu runs one kernel at a time).
int TraceKernels::prepare(unsigned k, Gpu &gpu, smtlm_kernel_desc *desc)
{
    if (k >= paths_.size())
        return SMTLM_ERANGE;
    smtlm_trace_source_close(src_);
    src_ = nullptr;
    error_.clear();
    char msg[2048];
    const smtlm_gpu &g = gpu.engine();
    if (smtlm_trace_source_open(&src_, paths_[k].c_str(), &lat_, g.n_sm, g.cfg.sm.issue.max_warps, msg, sizeof msg) < 0) {
        src_ = nullptr;
        error_ = msg;
        return SMTLM_ESOURCE;
    }
    if (g.cfg.sm.silicon.enabled) {
        const int rc = smtlm_trace_source_use_listing(src_, program_.path ? &program_ : nullptr, msg, sizeof msg);
        if (rc < 0) {
            error_ = msg;
            return SMTLM_ESOURCE;
        }
        if (rc == 0 && !derived_noted_) {
            derived_noted_ = true;
            SC_REPORT_INFO("smtlm/trace", (paths_[k] + ": " SMTLM_SASS_DERIVED_NOTE).c_str());
        }
    } else if (program_.path) {
        error_ = std::string(program_.path) + ": " SMTLM_SASS_ONLY_SILICON;
        return SMTLM_ESOURCE;
    }
    *desc = smtlm_trace_source_kernel(src_);
    const smtlm_cta_binder binder = smtlm_trace_source_binder(src_);
    gpu.set_source(smtlm_trace_source_iface(src_), &binder);
    return SMTLM_OK;
}

const char *TraceKernels::error() const
{
    if (!error_.empty())
        return error_.c_str();
    return src_ ? smtlm_trace_source_error(src_) : nullptr;
}

} // namespace smtlm
