// Sm: one streaming multiprocessor's back end as SystemC modules — FrontendIssue,
// OperandCollector, RegisterFile, ExecUnits, LdSt and Writeback — bound socket to socket.
// The Sm owns what the blocks share: the instruction pool (the payload store, like a tlm_mm)
// and the row of pipeline register sets (channels, each read only by the block it feeds).
//
// Time: the Sm has no process and no clock. Its owner (the Gpu's thread, or a test) calls
// cycle(now) once per core cycle; cycle() calls the blocks in GPGPU-Sim's fixed order, exactly
// as the C engine's smtlm_sm_cycle does with the same kernels, so both engines give the same
// cycles and statistics for every input.
#ifndef SMTLM_TLM_SM_H
#define SMTLM_TLM_SM_H

#include "smtlm/tlm/exec_units.h"
#include "smtlm/tlm/frontend_issue.h"
#include "smtlm/tlm/ldst.h"
#include "smtlm/tlm/operand_collector.h"
#include "smtlm/tlm/register_file.h"
#include "smtlm/tlm/writeback.h"

namespace smtlm {

class Sm : public sc_core::sc_module {
  public:
    FrontendIssue issue;
    OperandCollector collector;
    RegisterFile regfile;
    ExecUnits exec;
    LdSt ldst;
    Writeback writeback;

    // Builds every block from cfg; status() is SMTLM_OK or the refusal, cfg_error() its field.
    Sm(sc_core::sc_module_name name, const smtlm_sm_cfg &cfg, unsigned id);
    int status() const { return init_status_; }
    const char *cfg_error() const { return cfg_error_; }
    const smtlm_sm_cfg &cfg() const { return cfg_; }
    unsigned id() const { return id_; }

    // Clears all state and statistics, keeping the configuration.
    void reset();
    void set_source(const smtlm_inst_source &src) { src_ = src; }
    void set_retire_hook(smtlm_retire_hook hook, void *ctx) { issue.set_retire_hook(hook, ctx, id_); }
    void set_cta_done_hook(smtlm_cta_hook hook, void *ctx)
    {
        cta_hook_ = hook;
        cta_ctx_ = ctx;
    }
    int launch_cta(unsigned threads, uint32_t cta_id) { return issue.launch_cta(threads, cta_id); }
    bool active() const { return issue.active(); }
    // One core cycle at `now`. Returns SMTLM_OK or an error (also in error()).
    int cycle(uint64_t now);
    // As smtlm_sm_quiescent / smtlm_sm_skip.
    bool quiescent() const;
    void skip(uint64_t now, uint64_t k);

    int error() const { return error_; }
    uint32_t error_line() const { return error_line_; }
    smtlm_reject reject() const { return reject_; }
    unsigned reject_detail() const { return reject_detail_; }
    uint64_t last_progress() const { return issue.last_progress(); }
    // The SM's counters in smtlm_sm_stats form.
    smtlm_sm_stats stats() const;
    const smtlm_inst_pool &pool() const { return pool_; }

  private:
    int read_operands();
    static int checked_next(void *ctx, unsigned smid, unsigned warp, smtlm_inst_desc *d);
    static int checked_has_more(void *ctx, unsigned smid, unsigned warp);
    static void cta_done(void *owner, unsigned slot);

    smtlm_sm_cfg cfg_;
    unsigned id_;
    int init_status_ = SMTLM_OK;
    const char *cfg_error_ = nullptr;
    smtlm_inst_pool pool_;
    smtlm_regset rs_[SMTLM_NUM_REGSETS];
    smtlm_inst_source src_{};
    smtlm_cta_hook cta_hook_ = nullptr;
    void *cta_ctx_ = nullptr;
    uint64_t now_ = 0, active_cycles_ = 0, conflict_cycles_ = 0;
    int error_ = SMTLM_OK;
    uint32_t error_line_ = 0;
    smtlm_reject reject_ = SMTLM_REJECT_NONE;
    unsigned reject_detail_ = 0;
};

} // namespace smtlm

#endif
