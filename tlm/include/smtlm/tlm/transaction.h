// The protocol between the SM's blocks: one small payload type, carried by TLM-2.0 sockets
// (tlm::tlm_initiator_socket / tlm_target_socket over our protocol traits) with zero-delay
// b_transport.
//
// Why a protocol type of our own instead of tlm_generic_payload + an extension: these are not
// memory-mapped accesses. Every hand-off names a pipeline register set, a register or a warp,
// and carries an instruction reference (an index into the SM's instruction pool, the payload
// store the SM shares like a tlm_mm). A generic payload would need an extension on every
// transaction plus address/length/data fields that mean nothing here; a plain struct costs
// nothing to build, lives on the caller's stack (no allocation per transaction) and is checked
// by the compiler. The sockets, binding and b_transport calling convention are TLM-2.0's.
//
// Response: `status` is SMTLM_OK when the target did what was asked; a refused hand-off
// (StagePut into a full set) answers SMTLM_EFULL and leaves the instruction with the initiator
// (back-pressure). Results of queries come back in `result` / `grants`. Every target ignores
// the delay argument (the SM's blocks run inside one cycle, in a fixed order).
#ifndef SMTLM_TLM_TRANSACTION_H
#define SMTLM_TLM_TRANSACTION_H

#include <systemc>
#include <tlm>

extern "C" {
#include "smtlm/muon_collector.h"
#include "smtlm/ports.h"
#include "smtlm/regset.h"
}

namespace smtlm {

enum class SmCommand : uint8_t {
    StagePut,      // pipeline register set `set`: hand `inst` (age `uid`) in, slot per sub_core/slot
    RfBank,        // result = bank of (reg, warp, sched)
    RfRequest,     // queue read `req` on `bank`
    RfRequestReads, // queue, in order, the reads of reads[0 .. n_reads-1] (each the operand slots
                    // of one collector unit's instruction); result = the instructions queued whole
    RfArbitrate,   // one arbitration step: grants[0 .. result-1]
    RfTryWrite,    // result = smtlm_rf_write_result of (warp, sched, reg)
    RfCanWrite,    // result = 1 if the register's bank is free in this step
    RfWrite,       // write (warp, sched, reg)
    WarpRelease,   // scoreboard release of (warp, reg)
    WarpCompleted, // `in` finished executing
    WarpRetired,   // an instruction of `warp` left the pipeline
    StoreSent,
    StoreAcked,
    AtomicDone,    // `result` lanes of `warp`
    WarpWrittenBack, // `in` wrote back: release dst[i] for bit i of `result`, completed, retired
    // muon mode: the issue block (RS) and the Muon collector, Muon writeback to the issue block
    MuonResult,    // EX_WB instruction `inst` writes back (through the scoreboard's gate)
    MuonCanAccept, // readReq.ready for FU bank `bank`: result 1/0
    MuonReadReq,   // readReq `mreq` in `cycle`: result = collector entry, or an error in status
    MuonReadResp,  // readResp of `cycle`: `mresp[0 .. result-1]`
    MuonReadData,  // readData: entry `cu` is read and freed
    MuonWriteback, // (warp, reg) written back in `cycle`: forwarding and cache invalidation
};

// The reads of one instruction in a collector unit: operand slots `ops` (bit i: src[i]) of CU
// `cu`, for warp `warp` of scheduler `sched` (RfRequestReads carries a list of them).
struct SmInstReads {
    const int16_t *src;
    uint16_t warp;
    uint8_t cu, sched, ops;
};

struct SmTransaction {
    SmCommand cmd;
    int status = SMTLM_OK;
    unsigned set = 0, slot = 0, warp = 0, sched = 0, reg = 0, bank = 0;
    int sub_core = 0;
    smtlm_iref inst = SMTLM_NO_INST;
    uint64_t uid = 0;
    const smtlm_inst *in = nullptr;
    smtlm_read_req req{};
    smtlm_read_grant *grants = nullptr; // RfArbitrate: room for every bank
    const SmInstReads *reads = nullptr; // RfRequestReads: the instructions' reads ...
    unsigned n_reads = 0;               // ... and how many
    unsigned cu = 0;                    // MuonReadData: the collector entry
    uint64_t cycle = 0;                 // Muon*: the cycle of the call
    const smtlm_muon_coll_req *mreq = nullptr;
    const smtlm_muon_coll_resp *mresp = nullptr;
    long result = 0;
};

struct SmProtocol {
    typedef SmTransaction tlm_payload_type;
    typedef tlm::tlm_phase tlm_phase_type;
};

// A target socket that hands b_transport to HANDLER, a member function of its module (the LT
// subset of tlm_fw_transport_if; nb_transport completes at once, DMI only as granted below, no
// debug access). The
// handler is a template argument, so b_transport calls it directly (inlined), not through a
// member-function pointer: `SmTargetSocket<&Module::on_put> in{"in", this};`.
// POL: SC_ZERO_OR_MORE_BOUND for a socket some compositions leave unbound (no block of theirs
// sends on it).
template <auto HANDLER, sc_core::sc_port_policy POL = sc_core::SC_ONE_OR_MORE_BOUND>
class SmTargetSocket;

template <typename MODULE, void (MODULE::*HANDLER)(SmTransaction &), sc_core::sc_port_policy POL>
class SmTargetSocket<HANDLER, POL> : public tlm::tlm_target_socket<32, SmProtocol, 1, POL>,
                                     private tlm::tlm_fw_transport_if<SmProtocol> {
  public:
    SmTargetSocket(const char *name, MODULE *m) : tlm::tlm_target_socket<32, SmProtocol, 1, POL>(name), m_(m)
    {
        this->bind(static_cast<tlm::tlm_fw_transport_if<SmProtocol> &>(*this));
    }
    // Grants TLM-2.0 direct access for StagePut: the module's handler does nothing but move the
    // instruction into its pipeline register sets at `row` (stage_accept), so an initiator may
    // do that itself. Only for such handlers; a module that must see every put never grants.
    void grant_stage_dmi(void *row) { grant_dmi(SmCommand::StagePut, row, SMTLM_NUM_REGSETS); }
    // Grants direct access for transactions of command `cmd`: `target` is the kernel state (or
    // module) the handler works on, `size` its extent; the initiator then makes the handler's
    // kernel calls itself, with identical results. One grant per socket.
    void grant_dmi(SmCommand cmd, void *target, size_t size)
    {
        dmi_ = static_cast<unsigned char *>(target);
        dmi_cmd_ = cmd;
        dmi_size_ = size;
    }

  private:
    void b_transport(SmTransaction &t, sc_core::sc_time &) override { (m_->*HANDLER)(t); }
    tlm::tlm_sync_enum nb_transport_fw(SmTransaction &t, tlm::tlm_phase &, sc_core::sc_time &) override
    {
        (m_->*HANDLER)(t);
        return tlm::TLM_COMPLETED;
    }
    bool get_direct_mem_ptr(SmTransaction &t, tlm::tlm_dmi &d) override
    {
        if (dmi_ == nullptr || t.cmd != dmi_cmd_)
            return false;
        d.set_dmi_ptr(dmi_); // StagePut: the row of pipeline register sets ("addresses" are set ids)
        d.set_start_address(0);
        d.set_end_address(dmi_size_ - 1);
        d.allow_read_write();
        return true;
    }
    unsigned transport_dbg(SmTransaction &) override { return 0; }
    MODULE *m_;
    unsigned char *dmi_ = nullptr;
    SmCommand dmi_cmd_ = SmCommand::StagePut;
    size_t dmi_size_ = 0;
};

// An initiator socket for LT calls (the backward path is never used).
class SmInitiatorSocket : public tlm::tlm_initiator_socket<32, SmProtocol>, private tlm::tlm_bw_transport_if<SmProtocol> {
  public:
    explicit SmInitiatorSocket(const char *name) : tlm::tlm_initiator_socket<32, SmProtocol>(name)
    {
        this->bind(static_cast<tlm::tlm_bw_transport_if<SmProtocol> &>(*this));
    }
    // One zero-delay transaction; returns its status.
    int call(SmTransaction &t)
    {
        if (!fw_) /* bound at elaboration: look the target up once */
            fw_ = (*this).operator->();
        fw_->b_transport(t, zero_);
        return t.status;
    }
    // The target's direct-access pointer for transactions like `t`, or nullptr when it grants none.
    unsigned char *dmi(SmTransaction &&t) { return dmi(t); }
    unsigned char *dmi(SmTransaction &t)
    {
        tlm::tlm_dmi d;
        return (*this)->get_direct_mem_ptr(t, d) ? d.get_dmi_ptr() : nullptr;
    }

  private:
    tlm::tlm_sync_enum nb_transport_bw(SmTransaction &, tlm::tlm_phase &, sc_core::sc_time &) override
    {
        return tlm::TLM_COMPLETED;
    }
    void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
    sc_core::sc_time zero_; // SC_ZERO_TIME; never advanced (no namespace-scope sc_time)
    // the target's b_transport interface, kept as the blocking-transport base (no cast per call)
    tlm::tlm_blocking_transport_if<SmTransaction> *fw_ = nullptr;
};

} // namespace smtlm

#endif
