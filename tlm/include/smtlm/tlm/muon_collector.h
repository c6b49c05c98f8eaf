// MuonCollector: the Muon operand collector and its banked physical register file (C kernel
// smtlm_muon_coll), the muon-mode variant of OperandCollector + RegisterFile. The kernel owns
// both the collector entries and the PRF bank arbitration, so one module plays both parts:
//   id_oc      from the issue block (MuonIssue): readReq, readData, writebacks, and StagePut of
//              dispatched rows, which it hands on into the units' OC_EX sets with their operands
//   ldst_write the PRF's write port for the LDST (Muon's writes never conflict)
//   resp       readResp to the issue block, once per cycle with that cycle's answers
// The strategy (duplicated, src_banked, inst_banked, min_banked, caching) is the kernel's.
#ifndef SMTLM_TLM_MUON_COLLECTOR_H
#define SMTLM_TLM_MUON_COLLECTOR_H

#include "smtlm/tlm/stage.h"

extern "C" {
#include "smtlm/muon_issue.h"
}

namespace smtlm {

class MuonCollector : public sc_core::sc_module {
    void on_issue(SmTransaction &t); // id_oc
    void on_write(SmTransaction &t); // ldst_write

  public:
    SmTargetSocket<&MuonCollector::on_issue> id_oc;
    SmTargetSocket<&MuonCollector::on_write> ldst_write;
    SmInitiatorSocket resp;
    SmInitiatorSocket to_exec; // StagePut into the OC_EX sets of the execution units
    SmInitiatorSocket to_ldst; // StagePut into OC_EX_MEM

    // The face of `block` (the C SM's Muon collector, built by smtlm_sm_init).
    MuonCollector(sc_core::sc_module_name name, smtlm_muon_coll &block);
    // The hand-offs into the units' OC_EX sets (the SM's row) onto to_exec / to_ldst, and the
    // collector's readResp port onto `resp`.
    void bind_ports(const smtlm_regset *row, smtlm_muon_issue_in *read_resp)
    {
        out_.bind(row, &to_exec, SMTLM_OC_EX_MEM, &to_ldst);
        out_ops_ = out_.ops();
        *read_resp = smtlm_muon_issue_in{nullptr, this, nullptr, &MuonCollector::respond};
    }
    const smtlm_muon_coll &state() const { return c_; }

  private:
    smtlm_muon_coll &c_;
    StageOut out_;
    smtlm_stage_port out_ops_{};
    static void respond(void *ctx, uint64_t now, const smtlm_muon_coll_resp *resp, unsigned n);
    SmTransaction resp_t_{SmCommand::MuonReadResp};
};

} // namespace smtlm

#endif
