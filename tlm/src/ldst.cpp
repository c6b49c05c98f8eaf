#include "smtlm/tlm/ldst.h"

#include <cstring>
#include <sstream>

namespace smtlm {

LdSt::LdSt(sc_core::sc_module_name name)
    : sc_core::sc_module(name), oc_ex("oc_ex", this), rf("rf"), events("events"), mem("mem"), rf_out_(rf),
      events_out_(events)
{
    u_.cfg_error = nullptr;
    gp_.set_extension(&ext_);
}

LdSt::~LdSt() { gp_.clear_extension(&ext_); }

void LdSt::connect_memory(smtlm_mem_model *m, const TimeBase *time, unsigned sm_id, bool real_access,
                          const std::vector<AddrMapping> &map)
{
    time_ = time;
    sm_id_ = sm_id;
    real_access_ = real_access;
    map_ = map;
    const smtlm_mem_ops ops = {this, &LdSt::access_cb};
    smtlm_mem_bind(m, &ops);
}

int LdSt::access_cb(void *ctx, const smtlm_mem_req *req, uint64_t now, uint64_t *latency)
{
    return static_cast<LdSt *>(ctx)->access(*req, now, latency);
}

int LdSt::access(const smtlm_mem_req &req, uint64_t now, uint64_t *latency)
{
    uint64_t addr = req.addr;
    for (const AddrMapping &m : map_)
        if (addr >= m.trace_base && addr - m.trace_base < m.size) {
            addr = m.soc_base + (addr - m.trace_base);
            break;
        }
    gp_.set_command(!real_access_ ? tlm::TLM_IGNORE_COMMAND : req.is_write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    gp_.set_address(addr);
    gp_.set_data_ptr(data_);
    gp_.set_data_length(SMTLM_SECTOR_BYTES);
    gp_.set_streaming_width(SMTLM_SECTOR_BYTES);
    for (unsigned b = 0; b < SMTLM_SECTOR_BYTES; b++)
        be_[b] = (req.bytes >> b & 1) ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED;
    gp_.set_byte_enable_ptr(byte_enables_ ? be_ : nullptr);
    gp_.set_byte_enable_length(byte_enables_ ? SMTLM_SECTOR_BYTES : 0);
    gp_.set_dmi_allowed(false);
    gp_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    if (req.is_write)
        std::memset(data_, 0, sizeof data_); // timing-only model: stores write zeros
    ext_.sm = sm_id_;
    ext_.warp = req.warp;
    ext_.pc = req.pc;
    ext_.space = req.space;
    ext_.atomic = req.atomic;
    ext_.lanes = req.lanes;
    const sc_core::sc_time start = time_ ? time_->offset_of(now) : sc_core::SC_ZERO_TIME;
    sc_core::sc_time delay = start;
    mem->b_transport(gp_, delay);
    if (gp_.get_response_status() == tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE && byte_enables_) {
        byte_enables_ = false; // a target without byte enables: whole sectors from now on
        return access(req, now, latency);
    }
    if (gp_.is_response_error()) {
        std::ostringstream msg;
        msg << gp_.get_response_string() << " at address 0x" << std::hex << addr << std::dec << " (SM " << sm_id_
            << ", warp " << req.warp << ", pc 0x" << std::hex << req.pc << std::dec << ", cycle " << now << ")";
        SC_REPORT_ERROR("smtlm/memory", msg.str().c_str());
        return SMTLM_EMEMORY;
    }
    const sc_core::sc_time period = time_ ? time_->period() : sc_core::sc_time(1, sc_core::SC_NS);
    *latency = delay > start ? (uint64_t)((delay - start) / period + 0.5) : 0;
    return SMTLM_OK;
}

int LdSt::init(const smtlm_ldst_cfg &cfg) { return smtlm_ldst_init(&u_, &cfg); }

void LdSt::bind_ports(smtlm_regset *row, smtlm_inst_pool *pool)
{
    row_ = row;
    oc_ex.grant_stage_dmi(row); // on_put is stage_accept
    const smtlm_rf_write_ops w = rf_out_.ops();
    const smtlm_warp_ops e = events_out_.ops();
    smtlm_ldst_bind(&u_, &row[SMTLM_OC_EX_MEM], pool, &w, &e);
}

} // namespace smtlm
