// MuonIssue: the muon-mode variant of FrontendIssue. The same front end (fetch, decode,
// instruction buffers, warps) with the Muon issue block in place of the schedulers: scoreboard
// and reservation station (C kernel smtlm_muon_issue). On the same sockets:
//   id_oc      to the MuonCollector: readReq, readData, writebacks, and StagePut of dispatched
//              rows (the collector hands them on to the units with their operands)
//   wb_events  MuonResult from MuonWriteback
//   ldst_events the LDST's warp events (a load's release goes through the writeback gate)
//   rf_events  readResp from the MuonCollector
#ifndef SMTLM_TLM_MUON_ISSUE_H
#define SMTLM_TLM_MUON_ISSUE_H

#include "smtlm/tlm/frontend_issue.h"

extern "C" {
#include "smtlm/muon_issue.h"
}

namespace smtlm {

class MuonIssue : public FrontendIssue {
  public:
    // The face of the C SM's front end `block` and its Muon issue block `muon`.
    MuonIssue(sc_core::sc_module_name name, smtlm_issue &block, smtlm_muon_issue &muon) : FrontendIssue(name, block), mi_(muon) {}
    // After bind_ports: the Muon block's ports (the pool, the hand-off, the collector) onto
    // id_oc.
    void bind_muon(smtlm_inst_pool *pool);

    const smtlm_muon_issue &muon_state() const { return mi_; }

  private:
    void on_warp_event(SmTransaction &t) override;
    static void completed_cb(void *ctx, const smtlm_inst *in) { smtlm_issue_completed(&static_cast<MuonIssue *>(ctx)->iss_, in); }
    static int coll_call(void *ctx, SmCommand c, uint64_t now, unsigned a, unsigned b, const smtlm_muon_coll_req *q);
    static int coll_writeback(void *ctx, uint64_t now, unsigned warp, int reg);
    static int coll_can_accept(void *ctx, unsigned fu);
    static int coll_request(void *ctx, uint64_t now, const smtlm_muon_coll_req *req);
    static int coll_release(void *ctx, uint64_t now, unsigned entry);
    smtlm_muon_issue &mi_;
    SmTransaction coll_t_{SmCommand::MuonReadReq};
};

} // namespace smtlm

#endif
