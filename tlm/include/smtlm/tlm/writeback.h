// Writeback: drains EX_WB every cycle (C kernel smtlm_wb), writing registers through the
// register file's writeback socket and reporting warp events to the issue stage.
#ifndef SMTLM_TLM_WRITEBACK_H
#define SMTLM_TLM_WRITEBACK_H

#include "smtlm/tlm/stage.h"

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

    explicit Writeback(sc_core::sc_module_name name);
    void init(int oldest_first) { smtlm_wb_init(&wb_, oldest_first); }
    void bind_ports(smtlm_regset *row, smtlm_inst_pool *pool);
    void reset() { smtlm_wb_reset(&wb_); }
    // Writes through the register file's kernel and sends the written-back event into the issue
    // block's kernel directly where both grant that (TLM-2.0 DMI on `rf` and `events`); the
    // drain (smtlm_wb_cycle) is the same either way. Returns whether they did.
    bool use_dmi();
    void cycle(uint64_t now) { smtlm_wb_cycle(&wb_, now); }
    bool idle() const { return smtlm_wb_idle(&wb_); }
    const smtlm_wb &state() const { return wb_; } // its bindings: which ports went direct

  private:
    smtlm_wb wb_;
    smtlm_regset *row_ = nullptr;
    RfWriteOut rf_out_;
    WarpEventsOut events_out_;
};

} // namespace smtlm

#endif
