// OperandCollector: the SystemC face of one SM's collector units, input ports and dispatch
// units (C kernel smtlm_opcoll, the C SM's block). Instructions arrive in its ID_OC sets from the issue stage; it queues each
// allocated instruction's reads in the register file (one transaction), takes one arbitration
// step's grants per step (one transaction) and hands collected instructions into the units'
// OC_EX sets (OC_EX_MEM goes to the LDST). The SM's cycle runs its steps (smtlm_sm_cycle).
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

    // The face of `block` (the C SM's collector, built by smtlm_sm_init).
    OperandCollector(sc_core::sc_module_name name, smtlm_opcoll &block);
    // The register file's bank map (its configuration, not its state): the collector routes
    // each read to its bank itself, as a router decodes addresses, instead of asking with an
    // RfBank transaction per operand.
    void set_bank_map(const smtlm_rf_cfg &rf, const smtlm_sm_shape &shape)
    {
        rf_cfg_ = rf;
        shape_ = shape;
    }
    // Binds the hand-offs into the OC_EX sets to to_exec / to_ldst and the reads to rf (the SM's
    // row and pool).
    void bind_ports(smtlm_regset *row, smtlm_inst_pool *pool);
    // Puts into the next block's sets without a transaction when every reader grants direct
    // access (StageOut::try_dmi; call once all blocks are bound). Returns whether they did.
    bool use_stage_dmi();
    // Binds the read port to the register file's kernel where it grants that (TLM-2.0 DMI on
    // `rf`): each step then arbitrates and collects in one pass and queues each allocation's
    // reads at once, as the C engine's SM does (same kernels, same results). After use_stage_dmi.
    bool use_rf_dmi();
    const smtlm_opcoll &state() const { return oc_; }

  private:
    static unsigned bank_cb(void *ctx, unsigned reg, unsigned warp, unsigned sched);
    static int request_cb(void *ctx, unsigned bank, smtlm_read_req req);
    static int request_reads_cb(void *ctx, unsigned cu, unsigned warp, unsigned sched, const int16_t *src, unsigned ops,
                                unsigned *queued);
    static unsigned arbitrate_cb(void *ctx, smtlm_read_grant *g);
    smtlm_opcoll &oc_;
    smtlm_rf_cfg rf_cfg_{};
    smtlm_sm_shape shape_{};
    smtlm_regset *row_ = nullptr;
    smtlm_inst_pool *pool_ = nullptr;
    StageOut out_;
    SmInstReads read_; // the one instruction's reads of an RfRequestReads
    SmTransaction reads_{SmCommand::RfRequestReads};
    SmTransaction arbitrate_{SmCommand::RfArbitrate};
};

} // namespace smtlm

#endif
