// Writeback: the SystemC face of one SM's writeback (C kernel smtlm_wb: the C SM's block, or a
// block of its own when it stands alone). It drains EX_WB every cycle, writing registers through
// the register file's writeback socket and reporting warp events to the issue stage.
#ifndef SMTLM_TLM_WRITEBACK_H
#define SMTLM_TLM_WRITEBACK_H

#include "smtlm/tlm/stage.h"

#include <memory>

extern "C" {
#include "smtlm/writeback.h"
}

namespace smtlm {

class Writeback : public sc_core::sc_module {
    void on_put(SmTransaction &t) { stage_accept(row_, t); } // ex_wb

  public:
    SmTargetSocket<&Writeback::on_put> ex_wb; // StagePut into EX_WB (from the execution units)
    SmInitiatorSocket rf;            // RfTryWrite
    SmInitiatorSocket events;        // warp events (to the issue stage)

    // The face of `block` (the C SM's writeback, built by smtlm_sm_init), or of a writeback of
    // its own (none given: a module that stands alone; then init() builds it).
    explicit Writeback(sc_core::sc_module_name name, smtlm_wb *block = nullptr);
    void init(int oldest_first) { smtlm_wb_init(&wb_, oldest_first); } // alone only
    // Binds the register writes and warp events to rf and events (the SM's row and pool).
    void bind_ports(smtlm_regset *row, smtlm_inst_pool *pool);
    // Writes through the register file's kernel and sends the written-back event into the issue
    // block's kernel directly where both grant that (TLM-2.0 DMI on `rf` and `events`); the
    // drain (smtlm_wb_cycle) is the same either way. Returns whether they did.
    bool use_dmi();
    void cycle(uint64_t now) { smtlm_wb_cycle(&wb_, now); } // alone (in an SM, the SM's cycle drains it)
    bool idle() const { return smtlm_wb_idle(&wb_); }
    const smtlm_wb &state() const { return wb_; } // its bindings: which ports went direct

  private:
    std::unique_ptr<smtlm_wb> own_; // alone only
    smtlm_wb &wb_;
    smtlm_regset *row_ = nullptr;
    RfWriteOut rf_out_;
    WarpEventsOut events_out_;
};

} // namespace smtlm

#endif
