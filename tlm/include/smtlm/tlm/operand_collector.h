// OperandCollector: collector units, input ports and dispatch units of one SM (C kernel
// smtlm_opcoll). Instructions arrive in its ID_OC sets from the issue stage; it queues each
// allocated instruction's reads in the register file (one transaction), takes one arbitration
// step's grants per step (one transaction) and hands collected instructions into the units'
// OC_EX sets (OC_EX_MEM goes to the LDST). The SM runs its steps (smtlm_sm_read_operands).
#ifndef SMTLM_TLM_OPERAND_COLLECTOR_H
#define SMTLM_TLM_OPERAND_COLLECTOR_H

#include "smtlm/tlm/stage.h"

extern "C" {
#include "smtlm/opcoll.h"
#include "smtlm/regfile.h"
}

namespace smtlm {

class OperandCollector : public sc_core::sc_module {
    void on_put(SmTransaction &t) { stage_accept(row_, t); } // id_oc

  public:
    SmTargetSocket<&OperandCollector::on_put> id_oc; // StagePut into its ID_OC sets (from the issue stage)
    SmInitiatorSocket rf;                   // RfRequestReads, RfArbitrate
    SmInitiatorSocket to_exec;              // StagePut into the OC_EX sets of the execution units
    SmInitiatorSocket to_ldst;              // StagePut into OC_EX_MEM

    explicit OperandCollector(sc_core::sc_module_name name);
    int init(const smtlm_opcoll_cfg &cfg);
    // The register file's bank map (its configuration, not its state): the collector routes
    // each read to its bank itself, as a router decodes addresses, instead of asking with an
    // RfBank transaction per operand.
    void set_bank_map(const smtlm_rf_cfg &rf) { rf_cfg_ = rf; }
    const char *cfg_error() const { return oc_.cfg_error; }
    // Binds the kernel to the SM's register-set row and instruction pool.
    void bind_ports(smtlm_regset *row, smtlm_inst_pool *pool);
    // Puts into the next block's sets without a transaction when every reader grants direct
    // access (StageOut::try_dmi; call once all blocks are bound). Returns whether they did.
    bool use_stage_dmi();
    // Binds the read port to the register file's kernel where it grants that (TLM-2.0 DMI on
    // `rf`): each step then arbitrates and collects in one pass and queues each allocation's
    // reads at once, as the C engine's SM does (same kernels, same results). After use_stage_dmi.
    bool use_rf_dmi();
    void reset() { smtlm_opcoll_reset(&oc_); }
    // The kernel, for the SM that runs its steps and skips (smtlm_sm_read_operands,
    // smtlm_sm_blocks_skip).
    smtlm_opcoll &kernel() { return oc_; }
    void sample() { smtlm_opcoll_sample(&oc_); }
    bool idle() const { return smtlm_opcoll_idle(&oc_); }
    unsigned n_cus() const { return oc_.n_cus; }
    const smtlm_opcoll &state() const { return oc_; }

  private:
    static unsigned bank_cb(void *ctx, unsigned reg, unsigned warp, unsigned sched);
    static int request_cb(void *ctx, unsigned bank, smtlm_read_req req);
    static int request_reads_cb(void *ctx, unsigned cu, unsigned warp, unsigned sched, const int16_t *src, unsigned ops,
                                unsigned *queued);
    static unsigned arbitrate_cb(void *ctx, smtlm_read_grant *g);
    smtlm_opcoll oc_;
    smtlm_rf_cfg rf_cfg_{};
    smtlm_regset *row_ = nullptr;
    smtlm_inst_pool *pool_ = nullptr;
    StageOut out_;
    SmInstReads read_; // the one instruction's reads of an RfRequestReads
    SmTransaction reads_{SmCommand::RfRequestReads};
    SmTransaction arbitrate_{SmCommand::RfArbitrate};
};

} // namespace smtlm

#endif
