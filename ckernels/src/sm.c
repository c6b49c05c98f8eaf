/* One SM cycle in GPGPU-Sim order, and the glue (callbacks) between the blocks. */
#include "smtlm/sm.h"

#include <string.h>

#include "smtlm/port_calls.h"

#include "opcoll_step.h"

void smtlm_sm_cfg_qv100(smtlm_sm_cfg *c)
{
    static const unsigned widths[SMTLM_NUM_STD_REGSETS] = {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 8, 4, 4};
    memset(c, 0, sizeof *c);
    c->shape.n_sched = 4;
    c->shape.sub_core = 1;
    memcpy(c->width, widths, sizeof widths);
    smtlm_units_cfg *u = &c->units;
    u->n_sp = u->n_dp = u->n_int = u->n_sfu = u->n_tensor = 4;
    u->tensor_core_avail = 1;
    u->depth_sp = 13;   /* -ptx_opcode_latency_fp 4,13,4,5,39: index 1 */
    u->depth_dp = 19;   /* -ptx_opcode_latency_dp 8,19,8,8,330 */
    u->depth_int = 21;  /* max(int[1], int[5]) of 4,13,4,5,145,21 */
    u->depth_sfu = 330; /* max(dp[4], sfu) */
    u->depth_tensor = 64;
    static const smtlm_sm_spec_unit spec[3] = {{4, 4, 4, 4, "BRA"}, {4, 200, 4, 4, "TEX"}, {4, 8, 4, 4, "TENSOR"}};
    memcpy(u->spec, spec, sizeof spec);
    c->issue.max_warps = 64;
    c->issue.policy = SMTLM_SCHED_LRR;
    c->issue.two_level_active = 6;
    c->issue.max_issue_per_warp = 1;
    c->issue.dual_issue_diff_units = 1;
    c->issue.fetch_throughput = 4;
    c->oc.num_units[SMTLM_CUS_GEN] = c->oc.num_in_ports[SMTLM_CUS_GEN] = c->oc.num_out_ports[SMTLM_CUS_GEN] = 8;
    c->rf.n_banks = 16;
    c->rf.policy = SMTLM_ALLOC_FIFO;
    c->reg_file_port_throughput = 2;
    c->ldst.smem_latency = 20;
    c->ldst.shmem_banks = 32;
    c->ldst.shmem_warp_parts = 1;
    c->ldst.ports = 1;
}

/* ---- validation ---------------------------------------------------------------------- */

/* Each check returns SMTLM_OK or a code with *why naming the field. */
static int check_width(const smtlm_sm_cfg *c, unsigned set, int present, const char **why)
{
    if (c->width[set] > SMTLM_MAX_REGSET_WIDTH)
        return smtlm_cfg_reject(why, SMTLM_ERANGE, "SM: a width of -gpgpu_pipeline_widths exceeds SMTLM_MAX_REGSET_WIDTH");
    if (c->shape.sub_core && present && c->width[set] != c->shape.n_sched) /* GPGPU-Sim asserts it */
        return smtlm_cfg_reject(why, SMTLM_EINVAL, "SM: under the sub-core model every ID_OC width of "
                                "-gpgpu_pipeline_widths must equal n_sched (-gpgpu_num_sched_per_core)");
    return SMTLM_OK;
}

static int check_units(const smtlm_sm_cfg *c, unsigned n, unsigned depth, unsigned oc_ex_width, const char **why)
{
    if (n == 0)
        return SMTLM_OK;
    if (depth == 0)
        return smtlm_cfg_reject(why, SMTLM_EINVAL, "SM: a unit's pipeline depth (-ptx_opcode_latency_*) must be at least 1");
    if (depth >= SMTLM_MAX_LATENCY)
        return smtlm_cfg_reject(why, SMTLM_ERANGE, "SM: a unit's pipeline depth (-ptx_opcode_latency_*) exceeds SMTLM_MAX_LATENCY");
    if (c->shape.sub_core && (n > oc_ex_width || oc_ex_width < c->shape.n_sched)) /* unit k reads OC_EX slot k */
        return smtlm_cfg_reject(why, SMTLM_EINVAL, "SM: under the sub-core model a unit type's OC_EX width "
                                "(-gpgpu_pipeline_widths) must be at least its unit count and n_sched");
    return SMTLM_OK;
}

int smtlm_sm_validate(const smtlm_sm_cfg *c, const char **why)
{
    if (c->muon.enabled && c->silicon.enabled)
        return smtlm_cfg_reject(why, SMTLM_EINVAL, "SM: -smtlm_core silicon and -smtlm_mode muon exclude each other");
    if (c->issue.max_warps == 0)
        return smtlm_cfg_reject(why, SMTLM_EINVAL, "SM: max_warps (-gpgpu_shader_core_pipeline) must be at least 1");
    if (c->shape.n_sched == 0)
        return smtlm_cfg_reject(why, SMTLM_EINVAL, "SM: n_sched (-gpgpu_num_sched_per_core) must be at least 1");
    if (c->reg_file_port_throughput == 0)
        return smtlm_cfg_reject(why, SMTLM_EINVAL, "SM: reg_file_port_throughput (-gpgpu_reg_file_port_throughput) must be at least 1");
    if (c->issue.fetch_throughput == 0)
        return smtlm_cfg_reject(why, SMTLM_EINVAL, "SM: inst_fetch_throughput (-gpgpu_inst_fetch_throughput) must be at least 1");
    if (c->rf.n_banks == 0)
        return smtlm_cfg_reject(why, SMTLM_EINVAL, "SM: n_banks (-gpgpu_num_reg_banks) must be at least 1");
    if (c->units.n_sp == 0)
        return smtlm_cfg_reject(why, SMTLM_EINVAL, "SM: n_sp (-gpgpu_num_sp_units) must be at least 1");
    if (c->width[SMTLM_EX_WB] == 0)
        return smtlm_cfg_reject(why, SMTLM_EINVAL, "SM: the EX_WB width (11th of -gpgpu_pipeline_widths) must be at least 1");
    if (c->issue.max_warps > SMTLM_MAX_WARPS)
        return smtlm_cfg_reject(why, SMTLM_ERANGE, "SM: max_warps exceeds SMTLM_MAX_WARPS (2048 threads)");
    if (c->shape.n_sched > SMTLM_MAX_SCHED)
        return smtlm_cfg_reject(why, SMTLM_ERANGE, "SM: n_sched (-gpgpu_num_sched_per_core) exceeds SMTLM_MAX_SCHED");
    if (c->rf.n_banks > SMTLM_MAX_BANKS)
        return smtlm_cfg_reject(why, SMTLM_ERANGE, "SM: n_banks (-gpgpu_num_reg_banks) exceeds SMTLM_MAX_BANKS");
    if (c->shape.sub_core && c->rf.n_banks % c->shape.n_sched)
        return smtlm_cfg_reject(why, SMTLM_EINVAL, "SM: n_banks (-gpgpu_num_reg_banks) must be a multiple of n_sched "
                                "(-gpgpu_num_sched_per_core) under the sub-core model");
    int rc;
    if ((rc = check_width(c, SMTLM_ID_OC_SP, 1, why)) || (rc = check_width(c, SMTLM_ID_OC_SFU, 1, why)) ||
        (rc = check_width(c, SMTLM_ID_OC_MEM, 1, why)) || (rc = check_width(c, SMTLM_ID_OC_INT, c->units.n_int > 0, why)) ||
        (rc = check_width(c, SMTLM_ID_OC_DP, c->units.n_dp > 0, why)) ||
        (rc = check_width(c, SMTLM_ID_OC_TENSOR_CORE, c->units.tensor_core_avail, why)))
        return rc;
    for (unsigned i = SMTLM_OC_EX_SP; i <= SMTLM_EX_WB; i++)
        if ((rc = check_width(c, i, 0, why)))
            return rc;
    if ((rc = check_width(c, SMTLM_OC_EX_TENSOR_CORE, 0, why)))
        return rc;
    if ((rc = check_units(c, c->units.n_sp, c->units.depth_sp, c->width[SMTLM_OC_EX_SP], why)) ||
        (rc = check_units(c, c->units.n_dp, c->units.depth_dp, c->width[SMTLM_OC_EX_DP], why)) ||
        (rc = check_units(c, c->units.n_int, c->units.depth_int, c->width[SMTLM_OC_EX_INT], why)) ||
        (rc = check_units(c, c->units.n_sfu, c->units.depth_sfu, c->width[SMTLM_OC_EX_SFU], why)) ||
        (rc = check_units(c, smtlm_units_tensor(&c->units), c->units.depth_tensor, c->width[SMTLM_OC_EX_TENSOR_CORE], why)))
        return rc;
    for (unsigned k = 0; k < SMTLM_MAX_SPEC_UNITS; k++) {
        const smtlm_sm_spec_unit *s = &c->units.spec[k];
        if (s->num_units == 0)
            continue;
        if (s->id_oc_width > SMTLM_MAX_REGSET_WIDTH || s->oc_ex_width > SMTLM_MAX_REGSET_WIDTH)
            return smtlm_cfg_reject(why, SMTLM_ERANGE, "SM: a -specialized_unit_* width exceeds SMTLM_MAX_REGSET_WIDTH");
        if (c->shape.sub_core && s->id_oc_width != c->shape.n_sched)
            return smtlm_cfg_reject(why, SMTLM_EINVAL, "SM: under the sub-core model a -specialized_unit_* ID_OC width "
                                    "must equal n_sched (-gpgpu_num_sched_per_core)");
        if ((rc = check_units(c, s->num_units, s->max_latency, s->oc_ex_width, why)))
            return rc;
    }
    if (c->issue.dual_issue_diff_units != 0 && c->issue.dual_issue_diff_units != 1)
        return smtlm_cfg_reject(why, SMTLM_EINVAL, "SM: dual_issue_diff_units (-gpgpu_dual_issue_diff_exec_units) must be 0 or 1");
    return SMTLM_OK;
}

static int checked_miss(void *owner, smtlm_inst *in);
static void cta_done(void *owner, unsigned slot);

/* Binds every block to its ports: its own register sets, the pool and its neighbours' ops.
 * The register sets are the SM's row; each block keeps only the ones it reads, and hands
 * instructions into the next block's sets through stage ops. */
static void bind(smtlm_sm *sm)
{
    const smtlm_warp_port warps = {&sm->iss, 0, 0, 0, 0, 0, 0, 0, 0};
    const smtlm_release_port rfo = {&sm->iss, 0, 0};
    const smtlm_write_port wport = smtlm_rf_write_port(&sm->rf);
    const smtlm_read_port rport = smtlm_rf_read_port(&sm->rf);
    smtlm_stage_port stage;
    smtlm_regset_stage_port(sm->rs, &stage);
    smtlm_issue_ports ip = {&sm->pool, stage, sm->src, sm->id, sm, cta_done, 0, 0, 0, sm->ok_shape, checked_miss,
                            0, 0, 0, 0, 0, 0, 0, 0, 0};
    smtlm_issue_ports_source(&ip, &sm->src);
    smtlm_issue_ports_record(&ip, &sm->stats, &sm->last_progress, &sm->now, &sm->on_retire, &sm->retire_ctx);
    smtlm_issue_bind(&sm->iss, &ip);
    smtlm_opcoll_bind(&sm->oc, sm->rs, &stage, &sm->pool, &rport);
    smtlm_rf_bind(&sm->rf, &rfo);
    smtlm_exec_bind(&sm->ex, sm->rs, &stage, &sm->pool);
    smtlm_wb_bind(&sm->wb, &sm->rs[SMTLM_EX_WB], &sm->pool, &wport, &warps);
    smtlm_ldst_bind(&sm->ldst, &sm->rs[SMTLM_OC_EX_MEM], &sm->pool, &wport, &warps);
}

static void cta_done(void *owner, unsigned slot)
{
    smtlm_sm *sm = owner;
    if (sm->on_cta_done)
        sm->on_cta_done(sm->hook_ctx, sm->id, slot, sm->iss.cta[slot].id);
}

unsigned smtlm_sm_op_units(const smtlm_sm_cfg *c, unsigned op, unsigned *unit)
{
    unsigned set;
    const smtlm_units_cfg *u = &c->units;
    return smtlm_op_route(op, u->n_sp, u->n_dp, u->n_int, u->n_sfu, smtlm_units_tensor(u), unit, &set);
}

const char *smtlm_sm_unit_option(const smtlm_sm_cfg *c, unsigned unit)
{
    switch (unit) {
    case SMTLM_UNIT_SFU: return "gpgpu_num_sfu_units";
    case SMTLM_UNIT_DP: return "gpgpu_num_dp_units";
    case SMTLM_UNIT_INT: return "gpgpu_num_int_units";
    case SMTLM_UNIT_TENSOR: return c->units.tensor_core_avail ? "gpgpu_num_tensor_core_units" : "gpgpu_tensor_core_avail";
    case SMTLM_UNIT_MEM: return "gpgpu_mem_unit_ports";
    default: return "gpgpu_num_sp_units";
    }
}

/* Depth of the pipeline of `unit` (smtlm_unit), 0 for the LDST (no latency limit). */
static unsigned unit_depth(const smtlm_sm_cfg *c, unsigned unit, const smtlm_inst_desc *d)
{
    switch (unit) {
    case SMTLM_UNIT_MEM: return 0;
    case SMTLM_UNIT_SFU: return c->units.depth_sfu;
    case SMTLM_UNIT_DP: return c->units.depth_dp;
    case SMTLM_UNIT_INT: return c->units.depth_int;
    case SMTLM_UNIT_TENSOR: return c->units.depth_tensor;
    case SMTLM_UNIT_SPECIALIZED: return c->units.spec[d->spec - 1].max_latency;
    default: return c->units.depth_sp;
    }
}

smtlm_reject smtlm_sm_check_inst(const smtlm_sm_cfg *c, const smtlm_inst_desc *d, unsigned *detail)
{
    unsigned unit;
    *detail = 0;
    if (d->op >= SMTLM_OP_COUNT || d->n_src > SMTLM_MAX_SRC || d->n_dst > SMTLM_MAX_DST ||
        d->mem_space >= SMTLM_MEM_COUNT || !smtlm_ii_fits(d->latency, d->ii))
        return SMTLM_REJECT_FIELDS;
    if (d->op == SMTLM_OP_SPEC && (d->spec < 1 || d->spec > SMTLM_MAX_SPEC_UNITS || c->units.spec[d->spec - 1].num_units == 0)) {
        *detail = d->spec;
        return SMTLM_REJECT_SPEC_UNIT;
    }
    if (!smtlm_sm_op_units(c, d->op, &unit) && d->op != SMTLM_OP_SPEC) { /* it could never issue */
        *detail = unit;
        return SMTLM_REJECT_NO_UNIT;
    }
    for (unsigned i = 0; i < d->n_src; i++)
        if (d->src[i] < 0 || d->src[i] > SMTLM_MAX_REG)
            return SMTLM_REJECT_REGISTER;
    for (unsigned i = 0; i < d->n_dst; i++)
        if (d->dst[i] < 0 || d->dst[i] > SMTLM_MAX_REG)
            return SMTLM_REJECT_REGISTER;
    const unsigned depth = unit_depth(c, unit, d);
    if (depth && smtlm_ii_deepest_stage(d->latency, d->ii) >= depth) { /* start stage must exist */
        *detail = depth;
        return SMTLM_REJECT_DEPTH;
    }
    return SMTLM_REJECT_NONE;
}

smtlm_reject smtlm_sm_check_entry(const smtlm_sm_cfg *c, const smtlm_inst *in, unsigned *detail)
{
    smtlm_inst_desc d;
    smtlm_pool_entry_desc(in, &d);
    return smtlm_sm_check_inst(c, &d, detail);
}

_Static_assert(SMTLM_OP_COUNT <= SMTLM_SHAPE_OPS, "one shape memo slot per op");
_Static_assert(offsetof(smtlm_inst, n_src) == offsetof(smtlm_inst, op) + 3 && offsetof(smtlm_inst, ii) == offsetof(smtlm_inst, latency) + 2 &&
                   offsetof(smtlm_inst_desc, n_src) == offsetof(smtlm_inst_desc, op) + 3 &&
                   offsetof(smtlm_inst_desc, ii) == offsetof(smtlm_inst_desc, latency) + 2,
               "smtlm_sm_shape_key_ reads op .. n_src and latency, ii as two 4-byte blocks");
_Static_assert(SMTLM_MAX_REG == 511 && SMTLM_MAX_SRC == 4 && SMTLM_MAX_DST == 4,
               "smtlm_sm_check_inst_memo tests four 9-bit register numbers at once");

/* Records an input error: the check refused the instruction at `line`. */
static void record_reject(smtlm_sm *sm, unsigned line, smtlm_reject why, unsigned detail)
{
    sm->error = SMTLM_EINPUT;
    sm->error_line = line;
    sm->reject = why;
    sm->reject_detail = detail;
}

/* The full check of an instruction the shape memo did not pass (the issue block's intake). */
static int checked_miss(void *owner, smtlm_inst *in)
{
    smtlm_sm *sm = owner;
    unsigned detail;
    const smtlm_reject why = smtlm_sm_check_entry_memo(&sm->cfg, sm->ok_shape, in, &detail);
    if (why)
        record_reject(sm, in->line, why, detail);
    return why ? SMTLM_EINPUT : 1;
}

/* ---- construction --------------------------------------------------------------------- */

int smtlm_sm_build_exec(const smtlm_sm_cfg *c, smtlm_exec *ex)
{
    const smtlm_units_cfg *u = &c->units;
    int rc;
    if ((rc = smtlm_exec_init(ex, c->width[SMTLM_EX_WB], c->shape.sub_core)))
        return rc;
    if ((rc = smtlm_exec_add_units(ex, SMTLM_FU_SP, 0, u->n_sp, u->depth_sp, SMTLM_OC_EX_SP)) ||
        (rc = smtlm_exec_add_units(ex, SMTLM_FU_DP, 0, u->n_dp, u->depth_dp, SMTLM_OC_EX_DP)) ||
        (rc = smtlm_exec_add_units(ex, SMTLM_FU_INT, 0, u->n_int, u->depth_int, SMTLM_OC_EX_INT)) ||
        (rc = smtlm_exec_add_units(ex, SMTLM_FU_SFU, 0, u->n_sfu, u->depth_sfu, SMTLM_OC_EX_SFU)) ||
        (rc = smtlm_exec_add_units(ex, SMTLM_FU_TENSOR, 0, smtlm_units_tensor(u), u->depth_tensor,
                                   SMTLM_OC_EX_TENSOR_CORE)))
        return rc;
    for (unsigned k = 0; k < SMTLM_MAX_SPEC_UNITS; k++)
        if (u->spec[k].num_units && (rc = smtlm_exec_add_units(ex, SMTLM_FU_SPEC, k + 1, u->spec[k].num_units,
                                                               u->spec[k].max_latency, SMTLM_OC_EX_SPEC(k))))
            return rc;
    return SMTLM_OK;
}

void smtlm_sm_regsets_init(const smtlm_sm_cfg *c, smtlm_regset *rs)
{
    for (unsigned i = 0; i < SMTLM_NUM_STD_REGSETS; i++)
        smtlm_regset_init(&rs[i], c->width[i]);
    for (unsigned k = 0; k < SMTLM_MAX_SPEC_UNITS; k++) {
        smtlm_regset_init(&rs[SMTLM_ID_OC_SPEC(k)], c->units.spec[k].id_oc_width);
        smtlm_regset_init(&rs[SMTLM_OC_EX_SPEC(k)], c->units.spec[k].oc_ex_width);
    }
}

static int build(smtlm_sm *sm)
{
    const smtlm_sm_cfg *c = &sm->cfg;
    int rc;
    if ((rc = smtlm_issue_init(&sm->iss, &c->issue, &c->shape, &c->units)))
        return rc;
    if (!c->muon.enabled && !c->silicon.enabled) { /* muon and silicon have their own */
        if ((rc = smtlm_opcoll_init(&sm->oc, &c->oc, &c->shape, &c->units)) ||
            (rc = smtlm_rf_init(&sm->rf, &c->rf, &c->shape, sm->oc.n_cus)))
            return rc;
    } else { /* bind() still binds these two: empty, never read from memory the SM was given */
        memset(&sm->oc, 0, sizeof sm->oc);
        memset(&sm->rf, 0, sizeof sm->rf);
    }
    if ((rc = smtlm_sm_build_exec(c, &sm->ex)))
        return rc;
    if ((rc = smtlm_ldst_init(&sm->ldst, &c->ldst)))
        return rc;
    smtlm_wb_init(&sm->wb, c->rf.fix_wb_bank_conflict);
    bind(sm);
    if (c->muon.enabled) {
        if ((rc = smtlm_sm_muon_init(sm)))
            return rc;
        smtlm_sm_muon_bind(sm);
    }
    if (c->silicon.enabled) {
        if ((rc = smtlm_sm_silicon_init(sm)))
            return rc;
        smtlm_sm_silicon_bind(sm);
    }
    return SMTLM_OK;
}

int smtlm_sm_init(smtlm_sm *sm, const smtlm_sm_cfg *cfg, unsigned id)
{
    sm->cfg_error = 0;
    int rc = smtlm_sm_validate(cfg, &sm->cfg_error);
    if (rc)
        return rc;
    sm->cfg = *cfg;
    sm->id = id;
    sm->on_retire = 0;
    sm->on_cta_done = 0;
    sm->hook_ctx = 0;
    sm->retire_ctx = 0;
    memset(&sm->src, 0, sizeof sm->src);
    memset(&sm->wb_stand_in, 0, sizeof sm->wb_stand_in);
    sm->iss.cfg_error = sm->oc.cfg_error = sm->rf.cfg_error = sm->ex.cfg_error = sm->ldst.cfg_error = 0;
    if ((rc = build(sm))) { /* the block that refused says why */
        const char *why[] = {sm->iss.cfg_error, sm->oc.cfg_error, sm->rf.cfg_error, sm->ex.cfg_error, sm->ldst.cfg_error};
        for (unsigned i = 0; i < sizeof why / sizeof why[0] && !sm->cfg_error; i++)
            sm->cfg_error = why[i];
        return rc;
    }
    smtlm_sm_reset(sm);
    return SMTLM_OK;
}

void smtlm_sm_reset(smtlm_sm *sm)
{
    const smtlm_sm_cfg *c = &sm->cfg;
    smtlm_pool_init(&sm->pool);
    smtlm_sm_regsets_init(c, sm->rs);
    smtlm_issue_reset(&sm->iss);
    if (!c->muon.enabled && !c->silicon.enabled) {
        smtlm_opcoll_reset(&sm->oc);
        smtlm_rf_reset(&sm->rf);
    }
    smtlm_exec_reset(&sm->ex);
    smtlm_ldst_reset(&sm->ldst);
    smtlm_wb_reset(&sm->wb);
    if (sm->wb_stand_in.reset)
        sm->wb_stand_in.reset(sm->wb_stand_in.ctx);
    if (c->muon.enabled)
        smtlm_sm_muon_reset(sm);
    if (c->silicon.enabled)
        smtlm_sm_silicon_reset(sm);
    memset(&sm->stats, 0, sizeof sm->stats);
    sm->now = 0;
    sm->last_progress = 0;
    sm->error = SMTLM_OK;
    sm->error_line = 0;
    sm->reject = SMTLM_REJECT_NONE;
    sm->reject_detail = 0;
    smtlm_sm_memo_clear(sm->ok_shape);
}

/* The issue block reads the source itself (its intake checks each instruction with the SM's memo
 * and check_miss); sm->src stays put for it. */
void smtlm_sm_set_source(smtlm_sm *sm, const smtlm_inst_source *src)
{
    sm->src = *src;
    smtlm_issue_ports_source(&sm->iss.ports, &sm->src);
}

int smtlm_sm_launch_cta(smtlm_sm *sm, unsigned threads, uint32_t cta_id)
{
    const int slot = smtlm_issue_launch_cta(&sm->iss, threads, cta_id);
    if (slot >= 0 && sm->cfg.silicon.enabled)
        smtlm_silicon_launch(&sm->silicon, sm->iss.cta[slot].warps);
    return slot;
}

/* ---- the cycle ------------------------------------------------------------------------ */

static int execute(smtlm_sm *sm)
{
    int rc = smtlm_exec_step(&sm->ex, sm->now);
    if (rc)
        return rc;
    return smtlm_ldst_step(&sm->ldst, sm->now);
}

/* The read-operand stage of one cycle: reg_file_port_throughput (`steps`) collector steps
 * (smtlm_opcoll_step_), each ending the register file's step; a cycle in which some step left a
 * read waiting counts in *conflict_cycles. One end of step stands for them all when every step
 * would do nothing. */
static SMTLM_ALWAYS_INLINE int read_operands(smtlm_opcoll *oc, smtlm_rf *rf, unsigned steps, uint64_t now,
                                             uint64_t *conflict_cycles)
{
    if (!rf->nonempty && smtlm_opcoll_quiet(oc)) { /* every step would do nothing but end */
        smtlm_rf_end_step(rf);
        return SMTLM_OK;
    }
    const uint64_t waits_before = rf->steps_with_wait;
    for (; steps; steps--) {
        int rc = smtlm_opcoll_step_(oc, now);
        if (rc)
            return rc;
        smtlm_rf_end_step(rf);
    }
    if (rf->steps_with_wait != waits_before)
        ++*conflict_cycles;
    return SMTLM_OK;
}

int smtlm_sm_cycle(smtlm_sm *sm, uint64_t now)
{
    if (!smtlm_sm_cycle_begin(sm, now))
        return smtlm_sm_idle_result(sm);
    if (smtlm_rf_writes_pending(&sm->rf)) /* fix mode: buffered writes land first */
        smtlm_rf_drain_writes(&sm->rf);
    if (sm->wb_stand_in.cycle) /* a VP's own writeback block */
        sm->wb_stand_in.cycle(sm->wb_stand_in.ctx, now);
    else
        smtlm_wb_drain(&sm->wb, now);
    int rc = execute(sm);
    if (!rc)
        rc = read_operands(&sm->oc, &sm->rf, sm->cfg.reg_file_port_throughput, now, &sm->stats.conflict_cycles);
    if (!rc)
        rc = smtlm_issue_cycle(&sm->iss, now);
    if (!rc)
        rc = smtlm_issue_fetch_decode(&sm->iss, now);
    smtlm_opcoll_sample(&sm->oc);
    return smtlm_sm_cycle_end(sm, now, rc);
}

/* ---- skipping quiescent cycles ------------------------------------------------------- */

static int wb_idle(const smtlm_sm *sm)
{
    return sm->wb_stand_in.cycle ? sm->wb_stand_in.idle(sm->wb_stand_in.ctx) : smtlm_wb_idle(&sm->wb);
}

int smtlm_sm_quiescent(const smtlm_sm *sm)
{
    if (!smtlm_sm_active(sm))
        return 1;
    return !sm->error && wb_idle(sm) && smtlm_issue_idle(&sm->iss) && smtlm_opcoll_idle(&sm->oc) &&
           smtlm_rf_idle(&sm->rf) && smtlm_exec_idle(&sm->ex) && smtlm_ldst_idle(&sm->ldst);
}

void smtlm_sm_skip(smtlm_sm *sm, uint64_t now, uint64_t k)
{
    if (k == 0 || !smtlm_sm_active(sm))
        return;
    sm->now = now;
    smtlm_issue_skip(&sm->iss, now, k);
    smtlm_opcoll_skip(&sm->oc, k);
    smtlm_exec_skip(&sm->ex, k);
    sm->stats.active_cycles += k;
    sm->now = now + k - 1;
}

uint64_t smtlm_sm_distro(const smtlm_sm *sm, unsigned category)
{
    uint64_t sum = 0;
    for (unsigned s = 0; s < sm->cfg.shape.n_sched; s++)
        sum += sm->iss.distro[s][category];
    return sum;
}
