#include "smtlm/tlm/ldst.h"

#include "smtlm/tlm/mem_waits.h"

#include <sstream>

namespace smtlm {

LdSt::LdSt(sc_core::sc_module_name name, smtlm_ldst &block)
    : sc_core::sc_module(name), oc_ex("oc_ex", this), rf("rf"), events("events"), mem("mem"), u_(block), rf_out_(rf),
      events_out_(events)
{
}

LdSt::~LdSt() = default;

void LdSt::connect_memory(smtlm_mem_model *m, const TimeBase *time, unsigned sm_id, bool real_access,
                          const std::vector<AddrMapping> &map, MemWaits *waits)
{
    time_ = time;
    sm_id_ = sm_id;
    real_access_ = real_access;
    map_ = map;
    mem_model_ = m;
    waits_ = waits;
    const smtlm_mem_ops ops = {this, &LdSt::access_cb};
    smtlm_mem_bind(m, &ops);
}

int LdSt::access_cb(void *ctx, const smtlm_mem_req *req, uint64_t now, uint64_t *latency)
{
    return static_cast<LdSt *>(ctx)->access(*req, now, latency);
}

int LdSt::access(const smtlm_mem_req &req, uint64_t now, uint64_t *latency)
{
    if (waits_ && waits_->on())
        return waits_->issue(*this, mem_model_, smtlm_mem_slot(mem_model_, &req), req, now);
    sc_core::sc_time sent;
    bool waited = false;
    const int rc = transact(direct_, req, now, &sent, latency, &waited);
    if (waits_ && waited) {
        waits_->noticed(*this, now);
        if (waits_->dropping()) // a reset came while the target waited: the rest of the batch is dropped
            return SMTLM_EMEMORY;
    }
    return rc;
}

int LdSt::transact(MemPayload &p, const smtlm_mem_req &req, uint64_t now, sc_core::sc_time *sent, uint64_t *latency,
                   bool *waited)
{
    tlm::tlm_generic_payload &gp = p.gp;
    uint64_t addr = req.addr;
    for (const AddrMapping &m : map_)
        if (addr >= m.trace_base && addr - m.trace_base < m.size) {
            addr = m.soc_base + (addr - m.trace_base);
            break;
        }
    // a store never writes: the model has no data, and zeros would destroy the SoC's memory
    gp.set_command(real_access_ && !req.is_write ? tlm::TLM_READ_COMMAND : tlm::TLM_IGNORE_COMMAND);
    gp.set_address(addr);
    gp.set_data_ptr(p.data);
    gp.set_data_length(SMTLM_SECTOR_BYTES);
    gp.set_streaming_width(SMTLM_SECTOR_BYTES);
    for (unsigned b = 0; b < SMTLM_SECTOR_BYTES; b++)
        p.be[b] = (req.bytes >> b & 1) ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED;
    gp.set_byte_enable_ptr(byte_enables_ ? p.be : nullptr);
    gp.set_byte_enable_length(byte_enables_ ? SMTLM_SECTOR_BYTES : 0);
    gp.set_dmi_allowed(false);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    p.ext.sm = sm_id_;
    p.ext.warp = req.warp;
    p.ext.pc = req.pc;
    p.ext.space = req.space;
    p.ext.atomic = req.atomic;
    p.ext.lanes = req.lanes;
    // The request leaves at its cycle's local time; the call may also wait (legal LT: a target
    // that synchronises, a bridge): the latency is all the time the call consumed.
    const sc_core::sc_time before = sc_core::sc_time_stamp(), at = time_ ? time_->time_of(now) : before;
    sc_core::sc_time delay = ahead_of(at, before);
    *sent = before + delay;
    if (p.wait)
        waits_->sending(*p.wait, *sent);
    mem->b_transport(gp, delay);
    const sc_core::sc_time after = sc_core::sc_time_stamp(), done = after + delay;
    if (waited && after != before)
        *waited = true;
    if (gp.get_response_status() == tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE && byte_enables_) {
        byte_enables_ = false; // a target without byte enables: whole sectors from now on
        return transact(p, req, now, sent, latency, waited);
    }
    if (gp.is_response_error()) {
        std::ostringstream msg;
        msg << gp.get_response_string() << " at address 0x" << std::hex << addr << std::dec << " (SM " << sm_id_
            << ", warp " << req.warp << ", pc 0x" << std::hex << req.pc << std::dec << ", cycle " << now << ")";
        error_ = msg.str();
        return SMTLM_EMEMORY;
    }
    *latency = cycles_between(*sent, done, time_ ? time_->period() : sc_core::sc_time(1, sc_core::SC_NS));
    return SMTLM_OK;
}

void LdSt::bind_ports(smtlm_regset *row, smtlm_inst_pool *pool)
{
    row_ = row;
    oc_ex.grant_stage_dmi(row); // on_put is stage_accept
    const smtlm_write_port w = rf_out_.ops();
    const smtlm_warp_port e = events_out_.ops();
    smtlm_ldst_bind(&u_, &row[SMTLM_OC_EX_MEM], pool, &w, &e);
}

} // namespace smtlm
