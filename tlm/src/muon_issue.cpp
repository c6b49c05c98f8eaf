#include "smtlm/tlm/muon_issue.h"

namespace smtlm {

void MuonIssue::bind_muon(smtlm_inst_pool *pool)
{
    const smtlm_muon_coll_ops coll = {this, &MuonIssue::coll_writeback, &MuonIssue::coll_can_accept,
                                      &MuonIssue::coll_request, &MuonIssue::coll_release};
    const smtlm_muon_issue_ports p = {&iss_, pool, out_.ops(), coll, this, &MuonIssue::completed_cb};
    smtlm_muon_issue_bind(&mi_, &p);
}

// One transaction to the collector on id_oc (a call never nests in another of this socket); `a`
// is the command's number (warp, FU bank or entry, by command), `b` the register.
int MuonIssue::coll_call(void *ctx, SmCommand c, uint64_t now, unsigned a, unsigned b, const smtlm_muon_coll_req *q)
{
    MuonIssue *m = static_cast<MuonIssue *>(ctx);
    SmTransaction &t = m->coll_t_;
    t.cmd = c;
    t.status = SMTLM_OK;
    t.result = 0;
    t.cycle = now;
    t.warp = t.bank = t.cu = a;
    t.reg = b;
    t.mreq = q;
    m->id_oc.call(t);
    return t.status;
}

int MuonIssue::coll_writeback(void *ctx, uint64_t now, unsigned warp, int reg)
{
    return coll_call(ctx, SmCommand::MuonWriteback, now, warp, (unsigned)reg, nullptr);
}

int MuonIssue::coll_can_accept(void *ctx, unsigned fu)
{
    coll_call(ctx, SmCommand::MuonCanAccept, 0, fu, 0, nullptr);
    return (int)static_cast<MuonIssue *>(ctx)->coll_t_.result;
}

int MuonIssue::coll_request(void *ctx, uint64_t now, const smtlm_muon_coll_req *req)
{
    const int rc = coll_call(ctx, SmCommand::MuonReadReq, now, 0, 0, req);
    return rc ? rc : (int)static_cast<MuonIssue *>(ctx)->coll_t_.result;
}

int MuonIssue::coll_release(void *ctx, uint64_t now, unsigned entry)
{
    return coll_call(ctx, SmCommand::MuonReadData, now, entry, 0, nullptr);
}

// The Muon events; the LDST's store, atomic and retire events are the front end's as in
// gpgpusim mode.
void MuonIssue::on_warp_event(SmTransaction &t)
{
    switch (t.cmd) {
    case SmCommand::MuonResult: smtlm_muon_issue_result(&mi_, t.inst); break;
    case SmCommand::MuonReadResp: smtlm_muon_issue_collected(&mi_, t.mresp, (unsigned)t.result); break;
    case SmCommand::WarpRelease: smtlm_muon_issue_ldst_release(&mi_, t.warp, t.reg); break;
    case SmCommand::WarpCompleted: smtlm_muon_issue_ldst_completed(&mi_, t.in); break;
    default: FrontendIssue::on_warp_event(t); break;
    }
}

} // namespace smtlm
