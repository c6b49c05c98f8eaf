// Sm: one streaming multiprocessor's back end as SystemC modules bound socket to socket. The
// composition depends on the mode: GpgpusimSm (FrontendIssue, OperandCollector, RegisterFile,
// ExecUnits, LdSt, Writeback) or MuonSm (MuonIssue, MuonCollector, ExecUnits, LdSt,
// MuonWriteback). Sm::create picks it from the configuration. The Sm owns what the blocks share:
// the instruction pool (the payload store, like a tlm_mm) and the row of pipeline register sets
// (channels, each read only by the block it feeds).
//
// Time: the Sm has no process and no clock. Its owner (the Gpu's thread, or a test) calls
// cycle(now) once per core cycle; cycle() calls the blocks in the fixed order of the C engine's
// smtlm_sm_cycle (or smtlm_sm_muon_cycle) with the same kernels, so both engines give the same
// cycles and statistics for every input.
#ifndef SMTLM_TLM_SM_H
#define SMTLM_TLM_SM_H

#include <functional>
#include <memory>

#include "smtlm/tlm/exec_units.h"
#include "smtlm/tlm/frontend_issue.h"
#include "smtlm/tlm/ldst.h"

extern "C" {
#include "smtlm/gpu.h"
}

namespace smtlm {

class Sm;

// A VP's hook into an SM's composition (GpuParams::sm_hook): called by the SM's constructor once
// its blocks exist and before it binds their sockets. It may bind some of those sockets itself
// (a probe of its own between two blocks; a block of its own in place of one, e.g.
// GpgpusimSm::replace_writeback); the SM then binds only the pairs whose two ends are both
// still unbound. Modules the hook builds become children of the SM (its name is current).
using SmHook = std::function<void(Sm &)>;

// A block of the VP's own that the SM runs in place of one of its own, at that block's place
// in the cycle; it talks to the other blocks only through the sockets it was bound to.
class SmBlock {
  public:
    virtual ~SmBlock() = default;
    virtual void cycle(uint64_t now) = 0; // once per active core cycle
    virtual bool idle() const = 0;        // holds no instruction (the SM may skip cycles)
    virtual void reset() = 0;             // with the SM's (a GPU reset)
};

class Sm : public sc_core::sc_module {
  public:
    ExecUnits exec;
    LdSt ldst;

    // The SM for cfg (muon mode when cfg.muon.enabled); status() is SMTLM_OK or the refusal,
    // cfg_error() its field. `hook` (may be empty) as SmHook says.
    static std::unique_ptr<Sm> create(const char *name, const smtlm_sm_cfg &cfg, unsigned id, const SmHook &hook = {});
    int status() const { return init_status_; }
    const char *cfg_error() const { return cfg_error_; }
    const smtlm_sm_cfg &cfg() const { return cfg_; }
    unsigned id() const { return id_; }
    FrontendIssue &issue() { return *issue_; }
    const FrontendIssue &issue() const { return *issue_; }

    // Clears all state and statistics, keeping the configuration.
    void reset();
    void set_source(const smtlm_inst_source &src);
    void set_retire_hook(smtlm_retire_hook hook, void *ctx) { issue_->set_retire_hook(hook, ctx); }
    void set_cta_done_hook(smtlm_cta_hook hook, void *ctx)
    {
        cta_hook_ = hook;
        cta_ctx_ = ctx;
    }
    int launch_cta(unsigned threads, uint32_t cta_id) { return issue_->launch_cta(threads, cta_id); }
    bool active() const { return issue_->active(); }
    // One core cycle at `now`. Returns SMTLM_OK or an error (also in error()).
    int cycle(uint64_t now);
    // As smtlm_sm_quiescent / smtlm_sm_skip.
    virtual bool quiescent() const = 0;
    virtual void skip(uint64_t now, uint64_t k) = 0;
    // The blocks' kernel states as smtlm_gpu reads them (statistics, diagnostics, views).
    virtual void view(smtlm_sm_view *v) const;
    // Lets each port reach its target by direct access where that target grants it (TLM-2.0
    // DMI; results are identical), each port for itself, once every socket is bound (the Gpu
    // calls it at the end of elaboration): the readers' pipeline register sets, and in
    // GpgpusimSm also the register file's kernel (reads, writeback) and the issue stage
    // (written-back events). A port whose target grants none (a probe) stays on transactions.
    // Returns how many of the composition's direct paths were taken whole (GpgpusimSm: 5, the
    // puts of issue, the collector and execute, the collector's reads, writeback's writes and
    // events); 0 for a composition that keeps every hand-off a transaction (muon mode).
    virtual unsigned use_stage_dmi() { return 0; }

    int error() const { return error_; }
    uint32_t error_line() const { return error_line_; }
    smtlm_reject reject() const { return reject_; }
    unsigned reject_detail() const { return reject_detail_; }
    uint64_t last_progress() const { return issue_->last_progress(); }
    // The SM's counters in smtlm_sm_stats form.
    smtlm_sm_stats stats() const;
    // The instruction pool: a hand-off's `inst` is an index into it (smtlm_pool_get); the block
    // that retires an instruction frees its entry (smtlm_pool_free), as writeback does.
    const smtlm_inst_pool &pool() const { return pool_; }
    smtlm_inst_pool &pool() { return pool_; }

  protected:
    Sm(sc_core::sc_module_name name, const smtlm_sm_cfg &cfg, unsigned id);
    // For the composition's constructor, in the C engine's order (the first refusal is the one
    // reported): the SM checks and its issue module, then its own blocks, then the units and
    // the LDST; once all are built, the common bindings. Each returns SMTLM_OK or the refusal
    // (also in status() / cfg_error()).
    int init_validate(FrontendIssue *issue, const smtlm_issue_cfg &ic);
    int init_units();
    void bind_common();
    // Binds initiator `i` to target `t` unless the SmHook bound either end already.
    template <typename TARGET> static void bind_default(SmInitiatorSocket &i, TARGET &t)
    {
        if (!i.get_base_port().bind_count() && !t.get_base_port().bind_count())
            i.bind(t);
    }
    virtual void reset_blocks() = 0;
    virtual int cycle_blocks(uint64_t now) = 0; // the blocks' part of one cycle
    void fail(int rc, const char *why)
    {
        init_status_ = rc;
        cfg_error_ = why;
    }

    smtlm_sm_cfg cfg_;
    unsigned id_;
    int init_status_ = SMTLM_OK;
    const char *cfg_error_ = nullptr;
    FrontendIssue *issue_ = nullptr;
    smtlm_inst_pool pool_;
    smtlm_regset rs_[SMTLM_NUM_REGSETS];
    uint64_t now_ = 0, active_cycles_ = 0, conflict_cycles_ = 0;

  private:
    void record_reject(unsigned line, smtlm_reject why, unsigned detail);
    static int checked_miss(void *owner, smtlm_inst *in);
    static void cta_done(void *owner, unsigned slot);

    smtlm_inst_source src_{};
    smtlm_cta_hook cta_hook_ = nullptr;
    void *cta_ctx_ = nullptr;
    int error_ = SMTLM_OK;
    uint32_t error_line_ = 0;
    smtlm_reject reject_ = SMTLM_REJECT_NONE;
    unsigned reject_detail_ = 0;
    uint64_t ok_shape_[SMTLM_SHAPE_MEMO] = {}; // smtlm_sm_check_inst_memo's memo
};

} // namespace smtlm

#endif
