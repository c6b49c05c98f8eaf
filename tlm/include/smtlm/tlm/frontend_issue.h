// FrontendIssue: fetch, decode, instruction buffers, warp schedulers and the scoreboard of one
// SM (C kernel smtlm_issue). It hands issued instructions into the operand collector's ID_OC
// sets and routes the warp events of writeback, the LDST and the register file to the issue
// block's own (issue_events.h). It holds what those events update outside the kernel: the
// completion counters (the SM's instruction statistics), the last cycle of progress the
// watchdog looks at and the retire hook.
#ifndef SMTLM_TLM_FRONTEND_ISSUE_H
#define SMTLM_TLM_FRONTEND_ISSUE_H

#include "smtlm/tlm/stage.h"

extern "C" {
#include "smtlm/issue_events.h"
}

namespace smtlm {

class FrontendIssue : public sc_core::sc_module {
  protected:
    // The warp events of every target socket, each the issue block's own (issue_events.h). An
    // ALU instruction's writeback (one per instruction) is handled here directly; the rest goes
    // to on_warp_event (MuonIssue adds the Muon events there and delegates the others to this
    // class).
    void on_event(SmTransaction &t)
    {
        if (t.cmd == SmCommand::WarpWrittenBack)
            smtlm_issue_written_back(&iss_, t.in, (unsigned)t.result);
        else
            on_warp_event(t);
    }
    virtual void on_warp_event(SmTransaction &t);

  public:
    SmTargetSocket<&FrontendIssue::on_event> wb_events;   // from writeback
    SmTargetSocket<&FrontendIssue::on_event> ldst_events; // from the LDST
    SmTargetSocket<&FrontendIssue::on_event> rf_events;   // from the register file (release of a buffered write)
    SmInitiatorSocket id_oc;                   // StagePut into the collector's ID_OC sets

    explicit FrontendIssue(sc_core::sc_module_name name);
    virtual ~FrontendIssue() = default;
    int init(const smtlm_issue_cfg &cfg);
    const char *cfg_error() const { return iss_.cfg_error; }
    // Binds the kernel: the register-set row (ID_OC room checks), the pool, the instruction
    // source, and the CTA-done hook of the owner.
    void bind_ports(smtlm_regset *row, smtlm_inst_pool *pool, const smtlm_inst_source &src, unsigned sm_id, void *owner,
                    void (*cta_done)(void *, unsigned));
    // Decode's intake from the owner's source, as the C engine's SM binds it
    // (smtlm_issue_ports_source; `src` stays put while bound): `memo` is the owner's shape memo;
    // check_miss(owner, in) fully checks an instruction the memo does not pass. After bind_ports.
    void set_raw_source(const smtlm_inst_source &src, const uint64_t *memo, int (*check_miss)(void *, smtlm_inst *));
    // Puts into the next block's sets without a transaction when every reader grants direct
    // access (StageOut::try_dmi; call once all blocks are bound). Returns whether they did.
    bool use_stage_dmi();
    void reset();
    void set_now(uint64_t now) { now_ = now; }
    int cycle(uint64_t now) { return smtlm_issue_cycle(&iss_, now); }
    int fetch_decode(uint64_t now) { return smtlm_issue_fetch_decode(&iss_, now); }
    int launch_cta(unsigned threads, uint32_t cta_id) { return smtlm_issue_launch_cta(&iss_, threads, cta_id); }
    bool active() const { return iss_.n_active_ctas > 0 || iss_.not_completed > 0; }
    bool idle() const { return smtlm_issue_idle(&iss_); }
    // The kernel, for the SM's composition (smtlm_sm_blocks_skip).
    smtlm_issue &kernel() { return iss_; }
    // Called for every completed instruction (the event log of a run), with the SM id of
    // bind_ports.
    void set_retire_hook(smtlm_retire_hook hook, void *ctx)
    {
        hook_ = hook;
        hook_ctx_ = ctx;
    }
    uint64_t last_progress() const { return last_progress_; }
    void note_progress(uint64_t now) { last_progress_ = now; }
    const smtlm_sm_stats &completions() const { return done_; } // warp/thread/unit counts
    const smtlm_issue &state() const { return iss_; }

  protected:
    smtlm_issue iss_;
    StageOut out_;
    smtlm_sm_stats done_{};
    uint64_t now_ = 0, last_progress_ = 0;
    smtlm_retire_hook hook_ = nullptr;
    void *hook_ctx_ = nullptr;
};

} // namespace smtlm

#endif
