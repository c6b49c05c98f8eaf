// RegisterFile: the SystemC face of one SM's register banks, per-bank read FIFOs and port
// arbiter (C kernel smtlm_rf: the C SM's block, or a block of its own when it stands alone). Reads come from the operand collector, writes from writeback and the
// LDST, each on its own socket; a buffered write (fix mode) that lands releases its register in
// the issue stage's scoreboard through `release`.
#ifndef SMTLM_TLM_REGISTER_FILE_H
#define SMTLM_TLM_REGISTER_FILE_H

#include "smtlm/tlm/transaction.h"

#include <memory>

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

    // The face of `block` (the C SM's register file, built by smtlm_sm_init), or of a register
    // file of its own (none given: a module that stands alone; then init() builds it).
    explicit RegisterFile(sc_core::sc_module_name name, smtlm_rf *block = nullptr);
    // Alone only: builds the register file. SMTLM_OK, or a status code with cfg_error()
    // naming the rejected field.
    int init(const smtlm_rf_cfg &cfg, const smtlm_sm_shape &shape, unsigned n_cus);
    const char *cfg_error() const { return rf_.cfg_error; }
    // Binds the release of a buffered write that lands to `release` (init() does it alone).
    void bind_ports();
    // The kernel (a test bench standing in for the SM runs its steps: smtlm_rf_end_step, smtlm_rf_drain_writes).
    smtlm_rf &kernel() { return rf_; }
    bool idle() const { return smtlm_rf_idle(&rf_); }
    const smtlm_rf &state() const { return rf_; } // statistics, read-only

  private:
    static void release_cb(void *ctx, unsigned warp, unsigned reg);
    std::unique_ptr<smtlm_rf> own_; // alone only
    smtlm_rf &rf_;
};

} // namespace smtlm

#endif
