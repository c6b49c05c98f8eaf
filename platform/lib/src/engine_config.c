/* Option values -> smtlm_gpu_cfg / trace latency table, as GPGPU-Sim derives them
 * (shader_core_config::init, set_pipeline_latency, create_exec_pipeline; trace_config). */
#include "smtlm/engine_config.h"
#include "smtlm/muon_machine.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "option_errors.h"


static int u32(const smtlm_options *o, const char *name, unsigned *out, char *err, size_t n)
{
    uint32_t v = 0;
    if (smtlm_options_get_u32(o, name, &v) != SMTLM_OPT_OK)
        return smtlm_opt_fail(o, name, err, n, "expects an unsigned 32-bit integer");
    *out = v;
    return 0;
}

static int u64(const smtlm_options *o, const char *name, uint64_t *out, char *err, size_t n)
{
    if (smtlm_options_get_u64(o, name, out) != SMTLM_OPT_OK)
        return smtlm_opt_fail(o, name, err, n, "expects an unsigned integer");
    return 0;
}

static int flag(const smtlm_options *o, const char *name, int *out, char *err, size_t n)
{
    uint32_t v = 0;
    if (smtlm_options_get_u32(o, name, &v) != SMTLM_OPT_OK || v > 1)
        return smtlm_opt_fail(o, name, err, n, "expects 0 or 1");
    *out = (int)v;
    return 0;
}

static const char *str(const smtlm_options *o, const char *name)
{
    const char *s = "";
    smtlm_options_get_str(o, name, &s);
    return s ? s : "";
}

static int list(const smtlm_options *o, const char *name, unsigned *vals, int max, int *count, char *err, size_t n)
{
    if (smtlm_parse_uint_list(str(o, name), vals, max, count) != SMTLM_OPT_OK)
        return smtlm_opt_fail(o, name, err, n, "'%s' is not a comma-separated list of at most %d numbers", str(o, name), max);
    return 0;
}

static int lat_ii(const smtlm_options *o, const char *name, smtlm_trace_lat_ii *out, char *err, size_t n)
{
    unsigned lat = 0, ii = 0;
    if (smtlm_parse_lat_ii(str(o, name), &lat, &ii) != SMTLM_OPT_OK)
        return smtlm_opt_fail(o, name, err, n, "'%s' is not '<latency>,<initiation interval>'", str(o, name));
    if (lat == 0)
        return smtlm_opt_fail(o, name, err, n, "latency must be at least 1");
    if (lat >= SMTLM_MAX_LATENCY)
        return smtlm_opt_fail(o, name, err, n, "latency %u must be below %d", lat, SMTLM_MAX_LATENCY);
    if (ii == 0 && lat > SMTLM_MAX_LATENCY_II0) /* II 0: the result one cycle later (smtlm_ii_fits) */
        return smtlm_opt_fail(o, name, err, n, "latency %u with an initiation interval of 0 must be at most %d", lat,
                              SMTLM_MAX_LATENCY_II0);
    if (ii > lat)
        return smtlm_opt_fail(o, name, err, n, "latency %u is below the initiation interval %u", lat, ii);
    out->latency = lat;
    out->ii = ii;
    return 0;
}

/* -smtlm_core silicon: the silicon core's figures (smtlm_silicon_cfg), checked by the core. */
static int silicon_core(const smtlm_options *o, smtlm_sm_cfg *sm, char *err, size_t n)
{
    const char *core = str(o, "smtlm_core");
    if (strcmp(core, "silicon") != 0)
        return 0;
    smtlm_silicon_cfg *c = &sm->silicon;
    smtlm_silicon_cfg_h100(c);
    static const char *lists[2] = {"smtlm_silicon_pipe_interval", "smtlm_silicon_pipe_latency"};
    unsigned *dest[2] = {c->interval, c->latency};
    for (unsigned k = 0; k < 2; k++) {
        unsigned v[SMTLM_PIPE_COUNT - 1];
        int count = 0;
        if (list(o, lists[k], v, SMTLM_PIPE_COUNT - 1, &count, err, n))
            return -1;
        if (count != SMTLM_PIPE_COUNT - 1)
            return smtlm_opt_fail(o, lists[k], err, n, "needs %d numbers <FMA,FMA_HEAVY,ALU,FP16,MMA16,FP64,MUFU,LSU,TENSOR,OTHER>, got %d",
                                  SMTLM_PIPE_COUNT - 1, count);
        for (int i = 0; i < count; i++)
            dest[k][SMTLM_PIPE_FMA + i] = v[i];
    }
    if (u32(o, "smtlm_silicon_rf_banks", &c->rf_banks, err, n) || u32(o, "smtlm_silicon_rf_window", &c->rf_window, err, n) ||
        u32(o, "smtlm_silicon_barrier_delay", &c->bar_delay, err, n) ||
        u32(o, "smtlm_silicon_no_yield_gap", &c->no_yield_gap, err, n) ||
        u32(o, "smtlm_silicon_lds_latency", &c->lds_latency, err, n) ||
        u32(o, "smtlm_silicon_lds_warp_gap", &c->lds_warp_gap, err, n) ||
        u32(o, "smtlm_silicon_shmem_banks", &c->shmem_banks, err, n))
        return -1;
    const char *why = 0;
    smtlm_silicon_bad bad;
    if (smtlm_silicon_cfg_check_at(c, &why, &bad)) {
        static const char *const pipes[] = {"FMA", "FMA_HEAVY", "ALU", "FP16", "MMA16", "FP64", "MUFU", "LSU", "TENSOR", "OTHER"};
        if (bad.index >= 0 && (unsigned)bad.index < sizeof pipes / sizeof pipes[0])
            return smtlm_opt_fail(o, bad.option, err, n, "element %d (%s) is %u, outside %u..%u", bad.index + 1,
                                  pipes[bad.index], bad.value, bad.lo, bad.hi);
        return smtlm_opt_fail(o, bad.option, err, n, "%u is outside %u..%u", bad.value, bad.lo, bad.hi);
    }
    if (sm->muon.enabled)
        return smtlm_opt_fail(o, "smtlm_core", err, n, "silicon cannot be combined with -smtlm_mode muon");
    return 0;
}

/* Pipeline depths come from the PTX latency strings even in trace mode. */
static int depths(const smtlm_options *o, smtlm_sm_cfg *sm, char *err, size_t n)
{
    unsigned v[8];
    int k = 0;
    if (list(o, "ptx_opcode_latency_fp", v, 8, &k, err, n))
        return -1;
    if (k < 2)
        return smtlm_opt_fail(o, "ptx_opcode_latency_fp", err, n, "needs <ADD,MAX,MUL,MAD,DIV>");
    sm->units.depth_sp = v[1];
    if (list(o, "ptx_opcode_latency_int", v, 8, &k, err, n))
        return -1;
    if (k < 2)
        return smtlm_opt_fail(o, "ptx_opcode_latency_int", err, n, "needs <ADD,MAX,MUL,MAD,DIV[,SHFL]>");
    /* max(int[1], int[5]); configs with 5 values leave int[5] undefined in GPGPU-Sim. */
    sm->units.depth_int = (k >= 6 && v[5] > v[1]) ? v[5] : v[1];
    unsigned dp[8];
    int kd = 0;
    if (list(o, "ptx_opcode_latency_dp", dp, 8, &kd, err, n))
        return -1;
    if (kd < 5)
        return smtlm_opt_fail(o, "ptx_opcode_latency_dp", err, n, "needs <ADD,MAX,MUL,MAD,DIV>");
    sm->units.depth_dp = dp[1];
    unsigned sfu = 0, tensor = 0;
    if (list(o, "ptx_opcode_latency_sfu", &sfu, 1, &k, err, n) || list(o, "ptx_opcode_latency_tesnor", &tensor, 1, &k, err, n))
        return -1;
    sm->units.depth_sfu = dp[4] > sfu ? dp[4] : sfu;
    sm->units.depth_tensor = tensor;
    return 0;
}

static int widths(const smtlm_options *o, smtlm_sm_cfg *sm, char *err, size_t n)
{
    unsigned v[SMTLM_NUM_STD_REGSETS];
    int k = 0;
    if (list(o, "gpgpu_pipeline_widths", v, SMTLM_NUM_STD_REGSETS, &k, err, n))
        return -1;
    /* 13 values, or 11 when the tensor core is absent (its two widths are then unused). */
    if (k != SMTLM_NUM_STD_REGSETS && !(k == SMTLM_NUM_STD_REGSETS - 2 && !sm->units.tensor_core_avail))
        return smtlm_opt_fail_conflict(o, (const char *[]){"gpgpu_pipeline_widths", "gpgpu_tensor_core_avail", NULL}, err, n,
                             "-gpgpu_pipeline_widths has %d values; 13 are needed (11 without -gpgpu_tensor_core_avail)", k);
    for (int i = 0; i < SMTLM_NUM_STD_REGSETS; i++)
        sm->width[i] = i < k ? v[i] : 0;
    for (int i = 0; i < k; i++)
        if (v[i] > SMTLM_MAX_REGSET_WIDTH)
            return smtlm_opt_fail(o, "gpgpu_pipeline_widths", err, n, "width %u exceeds the model's limit %d", v[i], SMTLM_MAX_REGSET_WIDTH);
    if (sm->width[SMTLM_EX_WB] == 0)
        return smtlm_opt_fail(o, "gpgpu_pipeline_widths", err, n, "EX_WB width (11th value) must be at least 1");
    return 0;
}

static int specialized(const smtlm_options *o, smtlm_sm_cfg *sm, smtlm_trace_latency *lat, char *err, size_t n)
{
    int stopped = 0;
    for (unsigned k = 0; k < SMTLM_MAX_SPEC_UNITS; k++) {
        char name[64];
        snprintf(name, sizeof name, "specialized_unit_%u", k + 1);
        smtlm_spec_unit_cfg su;
        if (smtlm_parse_specialized_unit(str(o, name), &su) != SMTLM_OPT_OK)
            return smtlm_opt_fail(o, name, err, n, "'%s' is not '<enabled>,<units>,<max latency>,<ID_OC width>,<OC_EX width>,<name>'", str(o, name));
        stopped |= !su.enabled; /* GPGPU-Sim stops at the first disabled unit */
        memset(&sm->units.spec[k], 0, sizeof sm->units.spec[k]);
        if (!stopped && su.num_units > 0) {
            sm->units.spec[k].num_units = su.num_units;
            sm->units.spec[k].max_latency = su.max_latency;
            sm->units.spec[k].id_oc_width = su.id_oc_width;
            sm->units.spec[k].oc_ex_width = su.oc_ex_width;
            snprintf(sm->units.spec[k].name, sizeof sm->units.spec[k].name, "%s", su.name);
            if (su.max_latency == 0 || su.max_latency >= SMTLM_MAX_LATENCY)
                return smtlm_opt_fail(o, name, err, n, "max latency %u must be in 1..%d", su.max_latency, SMTLM_MAX_LATENCY - 1);
        }
        snprintf(name, sizeof name, "trace_opcode_latency_initiation_spec_op_%u", k + 1);
        if (lat_ii(o, name, &lat->spec[k], err, n))
            return -1;
    }
    return 0;
}

static int scheduler(const smtlm_options *o, smtlm_sm_cfg *sm, char *err, size_t n)
{
    const char *s = str(o, "gpgpu_scheduler");
    /* GPGPU-Sim matches with std::string::find, in this order. */
    if (strstr(s, "lrr")) {
        sm->issue.policy = SMTLM_SCHED_LRR;
    } else if (strstr(s, "two_level_active")) {
        unsigned v[4];
        int k = 0;
        sm->issue.policy = SMTLM_SCHED_TWO_LEVEL;
        if (smtlm_parse_uint_list_sep(s + strlen("two_level_active:"), ':', v, 4, &k) != SMTLM_OPT_OK || k < 1 || v[0] == 0)
            return smtlm_opt_fail(o, "gpgpu_scheduler", err, n, "'%s' is not two_level_active:<N>:0:1", s);
        if (k >= 3 && (v[1] != 0 || v[2] != 1))
            return smtlm_opt_fail(o, "gpgpu_scheduler", err, n, "only inner 0 (LRR) and outer 1 (SRR) are implemented, as in GPGPU-Sim");
        sm->issue.two_level_active = v[0];
    } else if (strstr(s, "gto")) {
        sm->issue.policy = SMTLM_SCHED_GTO;
    } else if (strstr(s, "rrr")) {
        sm->issue.policy = SMTLM_SCHED_RRR;
    } else if (strstr(s, "old")) {
        sm->issue.policy = SMTLM_SCHED_OLDEST;
    } else {
        return smtlm_opt_fail(o, "gpgpu_scheduler", err, n, "unknown scheduler '%s' (lrr, gto, oldest, rrr, two_level_active:N:0:1)", s);
    }
    return 0;
}

static int collectors(const smtlm_options *o, smtlm_sm_cfg *sm, char *err, size_t n)
{
    /* option suffix for each smtlm_cu_set_kind */
    static const char *kind[SMTLM_CUS_KINDS] = {"gen", "sp", "dp", "tensor_core", "sfu", "mem", "int"};
    for (unsigned k = 0; k < SMTLM_CUS_KINDS; k++) {
        char a[96], b[96], c[96];
        snprintf(a, sizeof a, "gpgpu_operand_collector_num_units_%s", kind[k]);
        snprintf(b, sizeof b, "gpgpu_operand_collector_num_in_ports_%s", kind[k]);
        snprintf(c, sizeof c, "gpgpu_operand_collector_num_out_ports_%s", kind[k]);
        if (u32(o, a, &sm->oc.num_units[k], err, n) || u32(o, b, &sm->oc.num_in_ports[k], err, n) ||
            u32(o, c, &sm->oc.num_out_ports[k], err, n))
            return -1;
    }
    if (flag(o, "gpgpu_enable_specialized_operand_collector", &sm->oc.enable_specialized, err, n))
        return -1;
    unsigned total = sm->oc.num_units[SMTLM_CUS_GEN];
    if (sm->oc.enable_specialized)
        for (unsigned k = 1; k < SMTLM_CUS_KINDS; k++)
            total += sm->oc.num_units[k];
    if (total == 0)
        return smtlm_opt_fail(o, "gpgpu_operand_collector_num_units_gen", err, n, "no collector unit at all: nothing could read operands");
    if (total > SMTLM_MAX_CUS)
        return smtlm_opt_fail(o, "gpgpu_operand_collector_num_units_gen", err, n, "%u collector units exceed the model's limit %d", total, SMTLM_MAX_CUS);
    for (unsigned k = 0; k < (sm->oc.enable_specialized ? SMTLM_CUS_KINDS : 1u); k++)
        if (sm->oc.num_units[k] && !sm->oc.num_out_ports[k]) {
            char units[96], out[96];
            snprintf(units, sizeof units, "gpgpu_operand_collector_num_units_%s", kind[k]);
            snprintf(out, sizeof out, "gpgpu_operand_collector_num_out_ports_%s", kind[k]);
            return smtlm_opt_fail_conflict(o, (const char *[]){out, units, NULL}, err, n,
                                           "%u %s collector units and no output port (dispatch unit): no instruction "
                                           "could leave them", sm->oc.num_units[k], kind[k]);
        }
    if (sm->oc.num_in_ports[SMTLM_CUS_GEN] == 0 && !sm->oc.enable_specialized)
        return smtlm_opt_fail(o, "gpgpu_operand_collector_num_in_ports_gen", err, n, "no input port: nothing could reach a collector unit");
    if (sm->shape.sub_core && sm->oc.num_units[SMTLM_CUS_GEN] % sm->shape.n_sched)
        return smtlm_opt_fail_conflict(o, (const char *[]){"gpgpu_operand_collector_num_units_gen", "gpgpu_num_sched_per_core", "gpgpu_sub_core_model", NULL},
                             err, n, "%u generic collector units cannot be split over %u schedulers (sub-core model)",
                             sm->oc.num_units[SMTLM_CUS_GEN], sm->shape.n_sched);
    const char *alloc = str(o, "smtlm_oc_allocator");
    if (!strcmp(alloc, "fifo"))
        sm->rf.policy = SMTLM_ALLOC_FIFO;
    else if (!strcmp(alloc, "wavefront"))
        sm->rf.policy = SMTLM_ALLOC_WAVEFRONT;
    else
        return smtlm_opt_fail(o, "smtlm_oc_allocator", err, n, "'%s' is not fifo or wavefront", alloc);
    return 0;
}

static int sub_core_checks(const smtlm_options *o, const smtlm_sm_cfg *sm, char *err, size_t n)
{
    if (!sm->shape.sub_core)
        return 0;
    if (sm->rf.n_banks % sm->shape.n_sched)
        return smtlm_opt_fail_conflict(o, (const char *[]){"gpgpu_num_reg_banks", "gpgpu_num_sched_per_core", "gpgpu_sub_core_model", NULL}, err, n,
                             "%u register banks cannot be split over %u schedulers (sub-core model)", sm->rf.n_banks, sm->shape.n_sched);
    const unsigned ids[] = {SMTLM_ID_OC_SP, SMTLM_ID_OC_SFU, SMTLM_ID_OC_MEM, SMTLM_ID_OC_INT, SMTLM_ID_OC_DP, SMTLM_ID_OC_TENSOR_CORE};
    const int present[] = {1, 1, 1, sm->units.n_int > 0, sm->units.n_dp > 0, sm->units.tensor_core_avail};
    for (unsigned i = 0; i < 6; i++)
        if (present[i] && sm->width[ids[i]] != sm->shape.n_sched)
            return smtlm_opt_fail_conflict(o, (const char *[]){"gpgpu_pipeline_widths", "gpgpu_num_sched_per_core", "gpgpu_sub_core_model", NULL}, err, n,
                                 "under the sub-core model every ID_OC width of -gpgpu_pipeline_widths must equal "
                                 "-gpgpu_num_sched_per_core (%u); value %u is %u",
                                 sm->shape.n_sched, ids[i] + 1, sm->width[ids[i]]);
    return 0;
}

/* Each trace latency must fit the pipeline its instructions run on (start stage L - II). */
static int latency_fits(const smtlm_options *o, const smtlm_sm_cfg *sm, const smtlm_trace_latency *lat, char *err, size_t n)
{
    struct { const char *opt, *depth_opt; smtlm_trace_lat_ii li; unsigned depth; const char *unit; } c[] = {
        {"trace_opcode_latency_initiation_sp", "ptx_opcode_latency_fp", lat->sp, sm->units.depth_sp, "SP (depth from -ptx_opcode_latency_fp)"},
        {"trace_opcode_latency_initiation_int", sm->units.n_int ? "ptx_opcode_latency_int" : "ptx_opcode_latency_fp", lat->int_op,
         sm->units.n_int ? sm->units.depth_int : sm->units.depth_sp, "INT (depth from -ptx_opcode_latency_int)"},
        {"trace_opcode_latency_initiation_sfu", "ptx_opcode_latency_sfu", lat->sfu, sm->units.depth_sfu, "SFU (depth from -ptx_opcode_latency_sfu/dp)"},
        {"trace_opcode_latency_initiation_dp", sm->units.n_dp ? "ptx_opcode_latency_dp" : "ptx_opcode_latency_sfu", lat->dp,
         sm->units.n_dp ? sm->units.depth_dp : sm->units.depth_sfu, "DP (depth from -ptx_opcode_latency_dp)"},
        {"trace_opcode_latency_initiation_tensor", "ptx_opcode_latency_tesnor", lat->tensor, sm->units.depth_tensor,
         "tensor core (depth from -ptx_opcode_latency_tesnor)"},
    };
    for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++)
        if (smtlm_ii_deepest_stage(c[i].li.latency, c[i].li.ii) >= c[i].depth)
            return smtlm_opt_fail_conflict(o, (const char *[]){c[i].opt, c[i].depth_opt, NULL}, err, n,
                                 "latency %u (initiation interval %u) does not fit the %s pipeline of depth %u",
                                 c[i].li.latency, c[i].li.ii, c[i].unit, c[i].depth);
    for (unsigned k = 0; k < SMTLM_MAX_SPEC_UNITS; k++) {
        if (!sm->units.spec[k].num_units ||
            smtlm_ii_deepest_stage(lat->spec[k].latency, lat->spec[k].ii) < sm->units.spec[k].max_latency)
            continue;
        char name[64], unit[32];
        snprintf(name, sizeof name, "trace_opcode_latency_initiation_spec_op_%u", k + 1);
        snprintf(unit, sizeof unit, "specialized_unit_%u", k + 1);
        return smtlm_opt_fail_conflict(o, (const char *[]){name, unit, NULL}, err, n, "latency %u does not fit specialized unit %u (%s) of depth %u",
                             lat->spec[k].latency, k + 1, sm->units.spec[k].name, sm->units.spec[k].max_latency);
    }
    return 0;
}

/* -gpgpu_clock_domains <core>:<interconnect>:<L2>:<DRAM> in MHz. Only the core clock is used
 * (it turns cycles into time); all four must be positive numbers, as GPGPU-Sim divides by them. */
static int clock_domains(const smtlm_options *o, smtlm_run_cfg *out, char *err, size_t n)
{
    double clk[4];
    int k = 0;
    const char *s = str(o, "gpgpu_clock_domains");
    if (smtlm_parse_double_list_sep(s, ':', clk, 4, &k) != SMTLM_OPT_OK || k != 4)
        return smtlm_opt_fail(o, "gpgpu_clock_domains", err, n, "'%s' is not <core>:<interconnect>:<L2>:<DRAM> (four clocks in MHz)", s);
    for (int i = 0; i < 4; i++)
        if (!(clk[i] > 0) || clk[i] > 1e6)
            return smtlm_opt_fail(o, "gpgpu_clock_domains", err, n, "clock %d of '%s' must be above 0 and at most 1e6 MHz", i + 1, s);
    out->core_clock_mhz = clk[0];
    return 0;
}

/* The Muon kernels' configuration from the validated -smtlm_muon_* options. Register 256 is
 * the trace front end's RZ: never tracked, never read. */
static void muon_sm_cfg(const smtlm_muon_machine *m, smtlm_sm_muon_cfg *c)
{
    static const smtlm_muon_war war[] = {SMTLM_MUON_WAR_OPTION1, SMTLM_MUON_WAR_OPTION2, SMTLM_MUON_WAR_OPTION2_FWD,
                                         SMTLM_MUON_WAR_OPTION2_EPOCH};
    static const smtlm_muon_rs_policy pol[] = {SMTLM_MUON_RS_RR, SMTLM_MUON_RS_OLDEST, SMTLM_MUON_RS_GTO};
    static const smtlm_muon_coll_kind kind[] = {SMTLM_MUON_COLL_DUPLICATED, SMTLM_MUON_COLL_SRC_BANKED,
                                                SMTLM_MUON_COLL_INST_BANKED, SMTLM_MUON_COLL_MIN_BANKED,
                                                SMTLM_MUON_COLL_CACHING};
    memset(c, 0, sizeof *c);
    c->enabled = 1;
    c->sb.war = war[m->war];
    c->sb.pending_read_bits = m->pending_read_bits;
    c->sb.past_waw = m->past_waw;
    c->sb.forwarding = m->forwarding;
    c->sb.zero_reg = 256;
    c->rs.rs_entries = m->rs_entries;
    c->rs.rs_per_warp = m->rs_per_warp;
    c->rs.rs_policy = pol[m->rs_policy];
    c->rs.in_order = m->in_order;
    c->rs.forwarding = m->forwarding;
    c->coll.kind = kind[m->collector];
    c->coll.prf_banks = m->prf_banks;
    c->coll.entries = m->collector_entries;
    /* by default source-slot banks rs1/rs2/rs3 (src_banked, caching), one FU bank (inst_banked) */
    c->coll.collector_banks = m->collector_banks ? m->collector_banks : m->collector == SMTLM_MUON_OPT_COLL_INST_BANKED ? 1 : 3;
    c->coll.forwarding = m->forwarding;
    c->coll.zero_reg = 256;
}

int smtlm_engine_config(const smtlm_options *o, smtlm_run_cfg *out, char *err, size_t n)
{
    memset(out, 0, sizeof *out);
    smtlm_gpu_cfg *g = &out->gpu;
    smtlm_sm_cfg *sm = &g->sm;
    unsigned pipe[2];
    int k = 0;
    if (smtlm_parse_uint_list_sep(str(o, "gpgpu_shader_core_pipeline"), ':', pipe, 2, &k) != SMTLM_OPT_OK || k != 2)
        return smtlm_opt_fail(o, "gpgpu_shader_core_pipeline", err, n, "'%s' is not <threads per SM>:<warp size>", str(o, "gpgpu_shader_core_pipeline"));
    if (pipe[1] != SMTLM_WARP_SIZE)
        return smtlm_opt_fail(o, "gpgpu_shader_core_pipeline", err, n, "warp size %u: the model supports 32", pipe[1]);
    if (pipe[0] == 0 || pipe[0] % SMTLM_WARP_SIZE || pipe[0] / SMTLM_WARP_SIZE > SMTLM_MAX_WARPS)
        return smtlm_opt_fail(o, "gpgpu_shader_core_pipeline", err, n, "%u threads per SM: must be a multiple of 32 and at most %d",
                    pipe[0], SMTLM_MAX_WARPS * SMTLM_WARP_SIZE);
    g->threads_per_sm = pipe[0];
    sm->issue.max_warps = pipe[0] / SMTLM_WARP_SIZE;
    if (u32(o, "gpgpu_n_clusters", &g->n_clusters, err, n) || u32(o, "gpgpu_n_cores_per_cluster", &g->cores_per_cluster, err, n) ||
        u32(o, "gpgpu_shader_cta", &g->max_cta_per_sm, err, n) || u32(o, "gpgpu_shmem_size", &g->shmem_per_sm, err, n) ||
        u32(o, "gpgpu_shader_registers", &g->regs_per_sm, err, n) ||
        u32(o, "gpgpu_kernel_launch_latency", &g->kernel_launch_latency, err, n) ||
        u32(o, "gpgpu_TB_launch_latency", &g->tb_launch_latency, err, n) ||
        u64(o, "gpgpu_max_cycle", &g->max_cycle, err, n) || u64(o, "gpgpu_max_insn", &g->max_insn, err, n) ||
        u64(o, "gpgpu_max_cta", &g->max_cta, err, n) ||
        flag(o, "gpgpu_ignore_resources_limitation", &g->ignore_resources_limitation, err, n) ||
        u32(o, "smtlm_watchdog_cycles", &g->watchdog_cycles, err, n) ||
        u32(o, "smtlm_mem_latency", &g->mem_latency, err, n) ||
        u32(o, "smtlm_mem_bytes_per_cycle", &g->mem_bytes_per_cycle, err, n))
        return -1;
    if (g->n_clusters == 0)
        return smtlm_opt_fail(o, "gpgpu_n_clusters", err, n, "must be at least 1");
    if (g->n_clusters > SMTLM_MAX_CLUSTERS)
        return smtlm_opt_fail(o, "gpgpu_n_clusters", err, n, "%u exceeds the model's limit %d", g->n_clusters, SMTLM_MAX_CLUSTERS);
    if (g->cores_per_cluster == 0)
        return smtlm_opt_fail(o, "gpgpu_n_cores_per_cluster", err, n, "must be at least 1");
    if (g->max_cta_per_sm == 0)
        return smtlm_opt_fail(o, "gpgpu_shader_cta", err, n, "must be at least 1");
    if (g->mem_bytes_per_cycle == 0)
        return smtlm_opt_fail(o, "smtlm_mem_bytes_per_cycle", err, n, "must be at least 1");
    const char *mode = str(o, "smtlm_mode");
    if (!strcmp(mode, "muon")) {
        smtlm_muon_machine muon;
        if (smtlm_muon_machine_read(o, &muon, err, n))
            return -1;
        muon_sm_cfg(&muon, &sm->muon);
    } else if (strcmp(mode, "gpgpusim") != 0)
        return smtlm_opt_fail(o, "smtlm_mode", err, n, "'%s': the modes are gpgpusim and muon", mode);
    int skip_idle = 1;
    if (flag(o, "smtlm_skip_idle", &skip_idle, err, n))
        return -1;
    g->no_skip = !skip_idle;
    int perfect_mem = 0;
    if (flag(o, "gpgpu_perfect_mem", &perfect_mem, err, n))
        return -1;
    if (perfect_mem) { /* every request answered at once, no bandwidth limit */
        g->mem_latency = 0;
        g->mem_bytes_per_cycle = 1u << 20;
    }

    if (u32(o, "gpgpu_num_sched_per_core", &sm->shape.n_sched, err, n) || flag(o, "gpgpu_sub_core_model", &sm->shape.sub_core, err, n) ||
        u32(o, "gpgpu_max_insn_issue_per_warp", &sm->issue.max_issue_per_warp, err, n) ||
        flag(o, "gpgpu_dual_issue_diff_exec_units", &sm->issue.dual_issue_diff_units, err, n) ||
        u32(o, "gpgpu_inst_fetch_throughput", &sm->issue.fetch_throughput, err, n) ||
        u32(o, "gpgpu_num_sp_units", &sm->units.n_sp, err, n) || u32(o, "gpgpu_num_dp_units", &sm->units.n_dp, err, n) ||
        u32(o, "gpgpu_num_int_units", &sm->units.n_int, err, n) || u32(o, "gpgpu_num_sfu_units", &sm->units.n_sfu, err, n) ||
        u32(o, "gpgpu_num_tensor_core_units", &sm->units.n_tensor, err, n) ||
        flag(o, "gpgpu_tensor_core_avail", &sm->units.tensor_core_avail, err, n) ||
        u32(o, "gpgpu_num_reg_banks", &sm->rf.n_banks, err, n) ||
        u32(o, "gpgpu_reg_file_port_throughput", &sm->reg_file_port_throughput, err, n) ||
        u32(o, "gpgpu_smem_latency", &sm->ldst.smem_latency, err, n) || u32(o, "gpgpu_shmem_num_banks", &sm->ldst.shmem_banks, err, n) ||
        u32(o, "gpgpu_shmem_warp_parts", &sm->ldst.shmem_warp_parts, err, n) ||
        u32(o, "gpgpu_mem_unit_ports", &sm->ldst.ports, err, n) ||
        flag(o, "smtlm_fix_subcore_hol", &sm->oc.fix_subcore_hol, err, n) ||
        flag(o, "smtlm_fix_optype_priority", &sm->oc.fix_optype_priority, err, n) ||
        flag(o, "smtlm_fix_wb_bank_conflict", &sm->rf.fix_wb_bank_conflict, err, n))
        return -1;
    if (sm->shape.n_sched == 0 || sm->shape.n_sched > SMTLM_MAX_SCHED)
        return smtlm_opt_fail(o, "gpgpu_num_sched_per_core", err, n, "must be in 1..%d", SMTLM_MAX_SCHED);
    if (sm->rf.n_banks == 0 || sm->rf.n_banks > SMTLM_MAX_BANKS)
        return smtlm_opt_fail(o, "gpgpu_num_reg_banks", err, n, "must be in 1..%d", SMTLM_MAX_BANKS);
    if (sm->reg_file_port_throughput == 0)
        return smtlm_opt_fail(o, "gpgpu_reg_file_port_throughput", err, n, "must be at least 1");
    if (sm->issue.fetch_throughput == 0)
        return smtlm_opt_fail(o, "gpgpu_inst_fetch_throughput", err, n, "must be at least 1");
    if (sm->issue.max_issue_per_warp == 0 || sm->issue.max_issue_per_warp > 2)
        return smtlm_opt_fail(o, "gpgpu_max_insn_issue_per_warp", err, n, "must be 1 or 2");
    if (sm->units.n_sp == 0)
        return smtlm_opt_fail(o, "gpgpu_num_sp_units", err, n, "must be at least 1");
    if (sm->ldst.smem_latency < 2 || sm->ldst.smem_latency >= SMTLM_MAX_LATENCY)
        return smtlm_opt_fail(o, "gpgpu_smem_latency", err, n, "must be in 2..%d", SMTLM_MAX_LATENCY - 1);
    if (sm->ldst.shmem_banks == 0)
        return smtlm_opt_fail(o, "gpgpu_shmem_num_banks", err, n, "must be at least 1");
    if (sm->ldst.shmem_warp_parts == 0 || SMTLM_WARP_SIZE % sm->ldst.shmem_warp_parts)
        return smtlm_opt_fail(o, "gpgpu_shmem_warp_parts", err, n, "must divide the warp size 32");
    if (sm->ldst.ports == 0)
        return smtlm_opt_fail(o, "gpgpu_mem_unit_ports", err, n, "must be at least 1");
    if (scheduler(o, sm, err, n) || widths(o, sm, err, n) || depths(o, sm, err, n) || collectors(o, sm, err, n) ||
        sub_core_checks(o, sm, err, n) || silicon_core(o, sm, err, n))
        return -1;

    out->lat = smtlm_trace_latency_defaults();
    if (lat_ii(o, "trace_opcode_latency_initiation_int", &out->lat.int_op, err, n) ||
        lat_ii(o, "trace_opcode_latency_initiation_sp", &out->lat.sp, err, n) ||
        lat_ii(o, "trace_opcode_latency_initiation_dp", &out->lat.dp, err, n) ||
        lat_ii(o, "trace_opcode_latency_initiation_sfu", &out->lat.sfu, err, n) ||
        lat_ii(o, "trace_opcode_latency_initiation_tensor", &out->lat.tensor, err, n) ||
        specialized(o, sm, &out->lat, err, n) || latency_fits(o, sm, &out->lat, err, n))
        return -1;

    if (clock_domains(o, out, err, n))
        return -1;
    return 0; /* whatever these checks miss, smtlm_gpu_init still refuses */
}

/* One number of -smtlm_addr_map: 0x.. hex, else decimal (a leading 0 too, as the other lists
 * and Accel-Sim's read theirs: 010 is ten, never octal eight); unsigned and within 64 bits (no
 * sign: a negative number would wrap to the top of the address space); *s moves past it. 0 or
 * -1. */
static int map_number(const char **s, uint64_t *v)
{
    const char *p = *s;
    if (*p < '0' || *p > '9')
        return -1;
    const int hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
    if (hex && !((p[2] >= '0' && p[2] <= '9') || (p[2] >= 'a' && p[2] <= 'f') || (p[2] >= 'A' && p[2] <= 'F')))
        return -1;
    char *end;
    errno = 0;
    const unsigned long long x = strtoull(p, &end, hex ? 16 : 10);
    if (errno == ERANGE || end == p)
        return -1;
    *v = x;
    *s = end;
    return 0;
}

/* -smtlm_addr_map "<trace_base>:<size>:<soc_base>[,...]": each window inside the 64-bit space. */
static int addr_map(const smtlm_options *o, smtlm_engine_params *p, char *msg, size_t n)
{
    const char *s = str(o, "smtlm_addr_map");
    while (*s) {
        uint64_t v[3];
        int ok = p->n_map < SMTLM_MAX_ADDR_MAP;
        for (int k = 0; k < 3 && ok; k++) {
            ok = map_number(&s, &v[k]) == 0;
            if (ok && k < 2)
                ok = *s++ == ':';
        }
        ok = ok && (!*s || (*s == ',' && s[1])) && v[1] > 0 && v[1] - 1 <= UINT64_MAX - v[0] &&
             v[1] - 1 <= UINT64_MAX - v[2];
        if (!ok)
            return smtlm_opt_fail(o, "smtlm_addr_map", msg, n,
                                  "'%s' is not <trace_base>:<size>:<soc_base>[,...] (unsigned 64-bit numbers, size > 0, "
                                  "each window within the 64-bit address space, at most %d entries)",
                                  str(o, "smtlm_addr_map"), SMTLM_MAX_ADDR_MAP);
        p->map[p->n_map].trace_base = v[0];
        p->map[p->n_map].size = v[1];
        p->map[p->n_map].soc_base = v[2];
        p->n_map++;
        s += *s == ',';
    }
    return 0;
}

/* -smtlm_threads 1..64 (host threads for the C engine's SMs), or -1: automatic (threads = 0 here;
 * the program that picks the engine settles it, as smsim_settle_threads does). */
static int threads(const smtlm_options *o, smtlm_engine_params *p, char *msg, size_t n)
{
    int32_t v = 1;
    smtlm_options_get_i32(o, "smtlm_threads", &v);
    if (v == -1) {
        p->threads = 0;
        return 0;
    }
    if (v < 1 || v > SMTLM_MAX_THREADS)
        return smtlm_opt_fail(o, "smtlm_threads", msg, n, "%d is not -1 (automatic) or a thread count from 1 to %d",
                              (int)v, SMTLM_MAX_THREADS);
    p->threads = (unsigned)v;
    if (v > 1 && p->sm_windows == SMTLM_WINDOWS_OFF)
        return smtlm_opt_fail(o, "smtlm_sm_windows", msg, n, "0 with -smtlm_threads %d: the threads need the SMs "
                              "stepped in windows", (int)v);
    return 0;
}

int smtlm_engine_params_config(const smtlm_options *opts, double core_clock_mhz, smtlm_engine_params *p, char *err,
                               size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->core_clock_mhz = core_clock_mhz;
    smtlm_options_get_u64(opts, "smtlm_quantum_cycles", &p->quantum_cycles);
    smtlm_options_get_bool(opts, "smtlm_mem_real_access", &p->real_access);
    smtlm_options_get_bool(opts, "smtlm_tlm_dmi", &p->stage_dmi);
    smtlm_options_get_bool(opts, "smtlm_mem_single_port", &p->single_mem_port);
    smtlm_options_get_bool(opts, "smtlm_mem_waits", &p->memory_waits);
    const char *windows = "auto";
    smtlm_options_get_str(opts, "smtlm_sm_windows", &windows);
    p->sm_windows = !strcmp(windows, "0") ? SMTLM_WINDOWS_OFF : !strcmp(windows, "1") ? SMTLM_WINDOWS_ON : SMTLM_WINDOWS_AUTO;
    return addr_map(opts, p, err, errlen) || threads(opts, p, err, errlen) ? -1 : 0;
}
