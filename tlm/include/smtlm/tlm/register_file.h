// RegisterFile: the register banks, per-bank read FIFOs and the port arbiter of one SM
// (C kernel smtlm_rf). Reads come from the operand collector, writes from writeback and the
// LDST, each on its own socket; a buffered write (fix mode) that lands releases its register in
// the issue stage's scoreboard through `release`.
#ifndef SMTLM_TLM_REGISTER_FILE_H
#define SMTLM_TLM_REGISTER_FILE_H

#include "smtlm/tlm/transaction.h"

extern "C" {
#include "smtlm/regfile.h"
}

namespace smtlm {

class RegisterFile : public sc_core::sc_module {
    // read: the arbitration step (every step) here, the rest in on_read_other
    void on_read(SmTransaction &t)
    {
        if (t.cmd == SmCommand::RfArbitrate) // an empty file grants nothing (and moves no priority)
            t.result = rf_.nonempty ? smtlm_rf_arbitrate(&rf_, t.grants) : 0;
        else
            on_read_other(t);
    }
    void on_read_other(SmTransaction &t);
    void on_write(SmTransaction &t); // wb_write, ldst_write

  public:
    SmTargetSocket<&RegisterFile::on_read> read;        // RfBank, RfRequest(Reads), RfArbitrate (operand collector)
    SmTargetSocket<&RegisterFile::on_write> wb_write;   // RfTryWrite (writeback)
    SmTargetSocket<&RegisterFile::on_write> ldst_write; // RfCanWrite, RfWrite (LDST)
    SmInitiatorSocket release;               // WarpRelease (to the issue stage)

    explicit RegisterFile(sc_core::sc_module_name name);
    // SMTLM_OK, or a status code with cfg_error() naming the rejected field.
    int init(const smtlm_rf_cfg &cfg);
    const char *cfg_error() const { return rf_.cfg_error; }
    void reset() { smtlm_rf_reset(&rf_); }
    // Writeback phase (fix mode): one buffered write lands in every bank that holds some.
    void drain_writes()
    {
        if (smtlm_rf_writes_pending(&rf_))
            smtlm_rf_drain_writes(&rf_);
    }
    // The kernel, for the SM that ends each read step (smtlm_sm_read_operands).
    smtlm_rf &kernel() { return rf_; }
    bool idle() const { return smtlm_rf_idle(&rf_); }
    const smtlm_rf &state() const { return rf_; } // statistics, read-only

  private:
    static void release_cb(void *ctx, unsigned warp, unsigned reg);
    smtlm_rf rf_;
};

} // namespace smtlm

#endif
