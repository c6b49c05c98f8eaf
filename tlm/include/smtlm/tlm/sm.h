// Sm: one streaming multiprocessor's back end as SystemC modules bound socket to socket. The
// composition depends on the mode: GpgpusimSm (FrontendIssue, OperandCollector, RegisterFile,
// ExecUnits, LdSt, Writeback) or MuonSm (MuonIssue, MuonCollector, ExecUnits, LdSt,
// MuonWriteback). Sm::create picks it from the configuration. The Sm owns one C SM (smtlm_sm):
// the blocks' states, what they share (the instruction pool, the payload store like a tlm_mm,
// and the row of pipeline register sets, channels each read only by the block it feeds) and the
// SM's counters. Each block module is the SystemC face of one block of it: its sockets, bound in
// the composition's constructor, become that block's ports.
//
// Time: the Sm has no process and no clock. Its owner (the Gpu's thread, or a test) calls
// cycle(now) once per core cycle; the cycle is the C engine's own (GpgpusimSm: smtlm_sm_cycle,
// MuonSm: smtlm_sm_muon_cycle), its blocks reaching each other through the ports the sockets
// set, so both engines give the same cycles and statistics for every input.
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
  protected:
    // The C SM (sm.h): every block's state, the pool, the register-set row, the counters and the
    // error bookkeeping. The block modules are its blocks' faces; the cycle, quiescence, skip,
    // checked source and reset are the C SM's own functions, as in the C engine.
    smtlm_sm c_;

  public:
    LdSt ldst; // every composition's (the units are GpgpusimSm's and MuonSm's own)

    // The SM for cfg (muon mode when cfg.muon.enabled); status() is SMTLM_OK or the refusal,
    // cfg_error() its field. `hook` (may be empty) as SmHook says.
    static std::unique_ptr<Sm> create(const char *name, const smtlm_sm_cfg &cfg, unsigned id, const SmHook &hook = {});
    int status() const { return init_status_; }
    const char *cfg_error() const { return c_.cfg_error; }
    const smtlm_sm_cfg &cfg() const { return c_.cfg; }
    unsigned id() const { return c_.id; }
    FrontendIssue &issue() { return *issue_; }
    const FrontendIssue &issue() const { return *issue_; }
    // The C SM underneath (read-only: statistics, tests).
    const smtlm_sm &state() const { return c_; }

    // Clears all state and statistics, keeping the configuration.
    void reset() { smtlm_sm_reset(&c_); }
    void set_source(const smtlm_inst_source &src) { smtlm_sm_set_source(&c_, &src); }
    void set_retire_hook(smtlm_retire_hook hook, void *ctx)
    {
        c_.on_retire = hook;
        c_.retire_ctx = ctx;
    }
    void set_cta_done_hook(smtlm_cta_hook hook, void *ctx)
    {
        c_.on_cta_done = hook;
        c_.hook_ctx = ctx;
    }
    int launch_cta(unsigned threads, uint32_t cta_id) { return smtlm_sm_launch_cta(&c_, threads, cta_id); }
    bool active() const { return smtlm_sm_active(&c_); }
    // One core cycle at `now`. Returns SMTLM_OK or an error (also in error()).
    virtual int cycle(uint64_t now) = 0;
    // As smtlm_sm_quiescent / smtlm_sm_skip.
    virtual bool quiescent() const = 0;
    virtual void skip(uint64_t now, uint64_t k) = 0;
    // The blocks' kernel states as smtlm_gpu reads them (statistics, diagnostics, views).
    void view(smtlm_sm_view *v) const { smtlm_sm_view_of(&c_, v); }
    // Lets each port reach its target by direct access where that target grants it (TLM-2.0
    // DMI; results are identical), each port for itself, once every socket is bound (the Gpu
    // calls it at the end of elaboration): the readers' pipeline register sets, and in
    // GpgpusimSm also the register file's kernel (reads, writeback) and the issue stage
    // (written-back events). A port whose target grants none (a probe) stays on transactions.
    // Returns how many of the composition's direct paths were taken whole (GpgpusimSm: 5, the
    // puts of issue, the collector and execute, the collector's reads, writeback's writes and
    // events); 0 for a composition that keeps every hand-off a transaction (muon mode).
    virtual unsigned use_stage_dmi() { return 0; }

    int error() const { return c_.error; }
    uint32_t error_line() const { return c_.error_line; }
    smtlm_reject reject() const { return c_.reject; }
    unsigned reject_detail() const { return c_.reject_detail; }
    uint64_t last_progress() const { return c_.last_progress; }
    // The SM's counters in smtlm_sm_stats form.
    const smtlm_sm_stats &stats() const { return c_.stats; }
    // The instruction pool: a hand-off's `inst` is an index into it (smtlm_pool_get); the block
    // that retires an instruction frees its entry (smtlm_pool_free), as writeback does.
    const smtlm_inst_pool &pool() const { return c_.pool; }
    smtlm_inst_pool &pool() { return c_.pool; }

  protected:
    // Builds the C SM (smtlm_sm_init: the checks, then every block in order; the first
    // refusal is the one reported in status() / cfg_error()).
    Sm(sc_core::sc_module_name name, const smtlm_sm_cfg &cfg, unsigned id);
    // For the composition's constructor once every socket is bound: the front end's, the
    // units' (a composition with units) and the LDST's ports onto their sockets.
    void bind_common(FrontendIssue *issue, ExecUnits *exec);
    // Binds initiator `i` to target `t` unless the SmHook bound either end already.
    template <typename TARGET> static void bind_default(SmInitiatorSocket &i, TARGET &t)
    {
        if (!i.get_base_port().bind_count() && !t.get_base_port().bind_count())
            i.bind(t);
    }

    int init_status_ = SMTLM_OK;
    FrontendIssue *issue_ = nullptr;
};

} // namespace smtlm

#endif
