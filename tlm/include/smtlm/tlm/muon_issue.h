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
    explicit MuonIssue(sc_core::sc_module_name name) : FrontendIssue(name) { mi_.cfg_error = nullptr; }
    int init_muon(const smtlm_sm_muon_cfg &cfg, unsigned n_warps, unsigned n_sched, int sub_core)
    {
        return smtlm_muon_issue_init(&mi_, &cfg, n_warps, n_sched, sub_core);
    }
    const char *muon_cfg_error() const { return mi_.cfg_error; }
    // After bind_ports: the issue block's ports (the pool, OC_EX room checks, the collector).
    void bind_muon(smtlm_inst_pool *pool);
    void reset_muon() { smtlm_muon_issue_reset(&mi_); }

    // The cycle's steps (muon_issue.h), called by MuonSm in the C engine's order.
    void begin(uint64_t now)
    {
        iss_.issued_this_cycle = 0;
        smtlm_muon_issue_begin(&mi_, now);
    }
    int read_data() { return smtlm_muon_issue_read_data(&mi_); }
    void dispatch() { smtlm_muon_issue_dispatch(&mi_); }
    int collect() { return smtlm_muon_issue_collect(&mi_); }
    void wake() { smtlm_muon_issue_wake(&mi_); }
    int admit() { return smtlm_muon_issue_admit(&mi_); }
    void sample() { smtlm_muon_rs_sample(&mi_.rs); }
    const smtlm_muon_issue &muon_state() const { return mi_; }

  private:
    void on_warp_event(SmTransaction &t) override;
    static void completed_cb(void *ctx, const smtlm_inst *in) { smtlm_issue_completed(&static_cast<MuonIssue *>(ctx)->iss_, in); }
    static int coll_call(void *ctx, SmCommand c, uint64_t now, unsigned a, unsigned b, const smtlm_muon_coll_req *q);
    static int coll_writeback(void *ctx, uint64_t now, unsigned warp, int reg);
    static int coll_can_accept(void *ctx, unsigned fu);
    static int coll_request(void *ctx, uint64_t now, const smtlm_muon_coll_req *req);
    static int coll_release(void *ctx, uint64_t now, unsigned entry);
    smtlm_muon_issue mi_;
    SmTransaction coll_t_{SmCommand::MuonReadReq};
};

} // namespace smtlm

#endif
