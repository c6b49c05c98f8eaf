#include "smtlm/tlm/sm.h"

#include "smtlm/tlm/gpgpusim_sm.h"
#include "smtlm/tlm/muon_sm.h"

#include <algorithm>
#include <iterator>

namespace smtlm {

std::unique_ptr<Sm> Sm::create(const char *name, const smtlm_sm_cfg &cfg, unsigned id, const SmHook &hook)
{
    if (cfg.muon.enabled)
        return std::unique_ptr<Sm>(new MuonSm(name, cfg, id, hook));
    return std::unique_ptr<Sm>(new GpgpusimSm(name, cfg, id, hook));
}

Sm::Sm(sc_core::sc_module_name name, const smtlm_sm_cfg &cfg, unsigned id)
    : sc_core::sc_module(name), exec("exec"), ldst("ldst"), cfg_(cfg), id_(id)
{
}

int Sm::init_validate(FrontendIssue *issue, const smtlm_issue_cfg &ic)
{
    issue_ = issue;
    int rc = smtlm_sm_validate(&cfg_, &cfg_error_);
    if (!rc && (rc = issue->init(ic)))
        cfg_error_ = issue->cfg_error();
    init_status_ = rc;
    return rc;
}

int Sm::init_units()
{
    int rc = exec.init(cfg_);
    if (rc)
        fail(rc, exec.cfg_error());
    smtlm_ldst_cfg lc;
    smtlm_sm_ldst_cfg(&cfg_, &lc);
    if (!rc && (rc = ldst.init(lc)))
        fail(rc, ldst.cfg_error());
    return rc;
}

void Sm::bind_common()
{
    issue_->bind_ports(rs_, &pool_, src_, id_, this, &Sm::cta_done);
    issue_->set_raw_source(src_, ok_shape_, &Sm::checked_miss);
    exec.bind_ports(rs_, &pool_);
    ldst.bind_ports(rs_, &pool_);
}

void Sm::reset()
{
    smtlm_pool_init(&pool_);
    smtlm_sm_regsets_init(&cfg_, rs_);
    issue_->reset();
    exec.reset();
    ldst.reset();
    reset_blocks();
    now_ = active_cycles_ = conflict_cycles_ = 0;
    error_ = SMTLM_OK;
    error_line_ = 0;
    reject_ = SMTLM_REJECT_NONE;
    reject_detail_ = 0;
    smtlm_sm_memo_clear(ok_shape_);
}

// Records an input error: the check refused the instruction at `line`.
void Sm::record_reject(unsigned line, smtlm_reject why, unsigned detail)
{
    error_ = SMTLM_EINPUT;
    error_line_ = line;
    reject_ = why;
    reject_detail_ = detail;
}

// The full check of an instruction the shape memo did not pass (the issue block's intake).
int Sm::checked_miss(void *owner, smtlm_inst *in)
{
    Sm *sm = static_cast<Sm *>(owner);
    unsigned detail;
    const smtlm_reject why = smtlm_sm_check_entry_memo(&sm->cfg_, sm->ok_shape_, in, &detail);
    if (why)
        sm->record_reject(in->line, why, detail);
    return why ? SMTLM_EINPUT : 1;
}

// The issue block reads the source itself (its intake checks with the memo and checked_miss).
void Sm::set_source(const smtlm_inst_source &src)
{
    src_ = src;
    issue_->set_raw_source(src_, ok_shape_, &Sm::checked_miss);
}

void Sm::cta_done(void *owner, unsigned slot)
{
    Sm *sm = static_cast<Sm *>(owner);
    if (sm->cta_hook_)
        sm->cta_hook_(sm->cta_ctx_, sm->id_, slot, sm->issue_->state().cta[slot].id);
}

int Sm::cycle(uint64_t now)
{
    if (!active())
        return SMTLM_OK;
    if (error_)
        return error_;
    now_ = now;
    issue_->set_now(now);
    active_cycles_++;
    const int rc = cycle_blocks(now);
    if (issue_->state().issued_this_cycle)
        issue_->note_progress(now);
    if (rc && !error_) // an input error was already recorded by checked_miss
        error_ = rc;
    return error_;
}

void Sm::view(smtlm_sm_view *v) const
{
    v->cfg = &cfg_;
    v->stats = stats();
    v->last_progress = last_progress();
    v->error = error_;
    v->error_line = error_line_;
    v->reject = reject_;
    v->reject_detail = reject_detail_;
    v->pool = &pool_;
    v->iss = &issue_->state();
    v->ex = &exec.state();
    v->ldst = &ldst.state();
    v->oc = nullptr;
    v->rf = nullptr;
    v->muon = nullptr;
    v->muon_coll = nullptr;
}

smtlm_sm_stats Sm::stats() const
{
    smtlm_sm_stats s = issue_->completions();
    s.active_cycles = active_cycles_;
    s.conflict_cycles = conflict_cycles_;
    return s;
}

} // namespace smtlm
