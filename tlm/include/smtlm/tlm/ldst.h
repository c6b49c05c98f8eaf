// LdSt: the SystemC face of one SM's load/store unit (C kernel smtlm_ldst, the C SM's block):
// shared memory inside the SM, the coalescer and the memory port. Instructions arrive in
// OC_EX_MEM from the operand collector; results are written through the register file's LDST
// write socket and the warp events go to the issue stage.
#ifndef SMTLM_TLM_LDST_H
#define SMTLM_TLM_LDST_H

#include <string>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>

#include "smtlm/tlm/mem_extension.h"
#include "smtlm/tlm/stage.h"
#include "smtlm/tlm/wait_bounds.h"

extern "C" {
#include "smtlm/ldst.h"
#include "smtlm/mem_model.h"
}

namespace smtlm {

// Where the SM's cycles are in SystemC time (the Gpu's thread keeps it): the time of core
// cycle `cycle` (a request's local-time offset is how far that is ahead of the simulation
// time, none once it has passed: a target waited longer), and the clock period.
struct TimeBase {
    virtual ~TimeBase() = default;
    virtual sc_core::sc_time time_of(uint64_t cycle) const = 0;
    virtual sc_core::sc_time period() const = 0;
};

// Core cycles from `from` to `to`, rounded up: a response is due at the first cycle boundary
// at or after it arrives (0 if `to` is not later). In whole time-resolution ticks, exactly.
inline uint64_t cycles_between(const sc_core::sc_time &from, const sc_core::sc_time &to, const sc_core::sc_time &period)
{
    const uint64_t p = period.value() ? period.value() : 1;
    return to > from ? ((to - from).value() + p - 1) / p : 0;
}

// How far time `t` is ahead of `now` (none once it has passed): a local-time offset.
inline sc_core::sc_time ahead_of(const sc_core::sc_time &t, const sc_core::sc_time &now)
{
    return t > now ? t - now : sc_core::SC_ZERO_TIME;
}

// One memory access's transaction: the payload with its extension and buffers, reused.
struct MemPayload {
    tlm::tlm_generic_payload gp;
    MemAccessExtension ext;
    unsigned char data[SMTLM_SECTOR_BYTES] = {}, be[SMTLM_SECTOR_BYTES] = {};
    WaitBounds::Entry *wait = nullptr; // a MemWaits worker's: told when the access leaves
    MemPayload() { gp.set_extension(&ext); }
    ~MemPayload() { gp.clear_extension(&ext); }
    MemPayload(const MemPayload &) = delete;
    MemPayload &operator=(const MemPayload &) = delete;
};

class MemWaits;

// A trace address window moved to where the SoC has memory: [trace_base, trace_base + size)
// -> soc_base (-smtlm_addr_map).
struct AddrMapping {
    uint64_t trace_base, size, soc_base;
};

class LdSt : public sc_core::sc_module {
    void on_put(SmTransaction &t) { stage_accept(row_, t); } // oc_ex

  public:
    SmTargetSocket<&LdSt::on_put> oc_ex; // StagePut into OC_EX_MEM (from the operand collector)
    SmInitiatorSocket rf;       // RfCanWrite, RfWrite
    SmInitiatorSocket events;   // warp events (to the issue stage)
    // Global/local/const/texture accesses to the SoC: one LT transaction per 32-byte sector,
    // byte enables for the lanes' bytes, a MemAccessExtension. The request's latency is the
    // time the call consumed: what the target waited plus what it added to the delay.
    // TLM_IGNORE_COMMAND, or with real accesses a read for a load (a store stays
    // TLM_IGNORE_COMMAND: the model has no data to write).
    tlm_utils::simple_initiator_socket<LdSt> mem;

    // The face of `block` (the C SM's LDST, built by smtlm_sm_init).
    LdSt(sc_core::sc_module_name name, smtlm_ldst &block);
    ~LdSt() override;
    // Binds the register writes and warp events to rf and events (the SM's row and pool).
    void bind_ports(smtlm_regset *row, smtlm_inst_pool *pool);
    // One cycle of the memory port (bandwidth credit, in-order delivery) over model m.
    void memory_cycle(smtlm_mem_model *m, uint64_t now) { smtlm_mem_cycle(m, &u_, now); }
    // Sends m's accepted requests out through `mem` (else m answers with its fixed latency).
    // With `waits`, an access runs there (in a process of its own) once the memory is known
    // to wait in b_transport; until then here, and a call that waits tells it.
    void connect_memory(smtlm_mem_model *m, const TimeBase *time, unsigned sm_id, bool real_access,
                        const std::vector<AddrMapping> &map, MemWaits *waits = nullptr);
    // One access through `mem` from the calling process: its latency in cycles (the time the
    // call consumed from `*sent`, the request's time, written before the call), or
    // SMTLM_EMEMORY with error_message() set; *waited: the call used simulated time.
    int transact(MemPayload &p, const smtlm_mem_req &req, uint64_t now, sc_core::sc_time *sent, uint64_t *latency,
                 bool *waited = nullptr);
    unsigned sm_id() const { return sm_id_; }
    // The last error response, for a report.
    const tlm::tlm_generic_payload &last_transaction() const { return direct_.gp; }
    // What the last error response was (response, address, SM, warp, pc, cycle): the Gpu
    // reports it once the kernel has ended and STATUS says so.
    const std::string &error_message() const { return error_; }
    unsigned pending_requests() const { return smtlm_ldst_pending_requests(&u_); }
    const smtlm_ldst &state() const { return u_; }

  private:
    static int access_cb(void *ctx, const smtlm_mem_req *req, uint64_t now, uint64_t *latency);
    int access(const smtlm_mem_req &req, uint64_t now, uint64_t *latency);
    smtlm_ldst &u_;
    // the memory path: one payload reused for every access made here (no allocation per transaction)
    MemPayload direct_;
    smtlm_mem_model *mem_model_ = nullptr;
    MemWaits *waits_ = nullptr;
    const TimeBase *time_ = nullptr;
    unsigned sm_id_ = 0;
    bool real_access_ = false, byte_enables_ = true;
    std::vector<AddrMapping> map_;
    std::string error_;
    smtlm_regset *row_ = nullptr;
    RfWriteOut rf_out_;
    WarpEventsOut events_out_;
};

} // namespace smtlm

#endif
