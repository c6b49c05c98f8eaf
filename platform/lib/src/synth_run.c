/* -smtlm_synth_* options -> smtlm_synth generator for smsim's default run. */
#include "smtlm/synth_run.h"

#include <stdio.h>
#include <stdlib.h>

#include "option_errors.h"
#include "smtlm/view_names.h"

struct smtlm_synth_run {
    smtlm_synth s;
};

static int opt_fail(const smtlm_options *o, const char *name, const char *what, char *err, size_t n)
{
    return smtlm_opt_fail(o, name, err, n, "%s", what);
}

static smtlm_synth_lat from_trace(smtlm_trace_lat_ii li)
{
    smtlm_synth_lat l = {(uint16_t)li.latency, (uint16_t)li.ii};
    return l;
}

/* A class of the mix whose instructions run on a unit type the machine has none of: the run
 * is refused before it starts (the SM would refuse the first such instruction). */
static int missing_unit(const smtlm_options *o, const smtlm_synth_run *r, const smtlm_sm_cfg *sm, char *err, size_t n)
{
    for (unsigned k = 0; k < SMTLM_SYNTH_CLASSES; k++) {
        unsigned unit;
        if (!r->s.cfg.mix.pct[k] || smtlm_sm_op_units(sm, r->s.op_of[k], &unit))
            continue;
        char mix[128];
        const char *option = smtlm_sm_unit_option(sm, unit);
        smtlm_synth_mix_str(&r->s.cfg.mix, mix, sizeof mix);
        return smtlm_opt_fail_conflict(o, (const char *[]){"smtlm_synth_mix", option, NULL}, err, n,
                                       "the synthetic workload (-smtlm_synth_mix %s) has instructions for the %s unit, "
                                       "of which the configuration has none (-%s is 0)",
                                       mix, smtlm_view_unit_name(unit), option);
    }
    return 0;
}

int smtlm_synth_run_open(smtlm_synth_run **out, const smtlm_options *o, const smtlm_run_cfg *cfg,
                         unsigned n_sm, char *err, size_t n)
{
    (void)n_sm;
    *out = NULL;
    smtlm_synth_cfg c;
    smtlm_synth_cfg_default(&c);
    uint32_t warps = 0, insts = 0, dep = 0, regs = 0, skew = 0, ctas = 0;
    uint64_t seed = 0;
    const char *mix = "";
    smtlm_options_get_u32(o, "smtlm_synth_warps", &warps);
    smtlm_options_get_u32(o, "smtlm_synth_insts", &insts);
    smtlm_options_get_u32(o, "smtlm_synth_dep_distance", &dep);
    smtlm_options_get_u32(o, "smtlm_synth_regs", &regs);
    smtlm_options_get_u32(o, "smtlm_synth_reg_skew", &skew);
    smtlm_options_get_u32(o, "smtlm_synth_ctas", &ctas);
    smtlm_options_get_u64(o, "smtlm_synth_seed", &seed);
    smtlm_options_get_str(o, "smtlm_synth_mix", &mix);
    char what[512];
    if (smtlm_synth_parse_mix(mix, &c.mix, what, sizeof what) != SMTLM_OK)
        return opt_fail(o, "smtlm_synth_mix", what, err, n);
    if (warps == 0 || warps > cfg->gpu.sm.issue.max_warps)
        return opt_fail(o, "smtlm_synth_warps", "must be between 1 and the SM's warp slots", err, n);
    c.warps_per_cta = warps;
    c.insts_per_warp = insts;
    c.dep_distance = dep;
    if (ctas == 0)
        return opt_fail(o, "smtlm_synth_ctas", "must be at least 1", err, n);
    if (regs == 0 || regs > SMTLM_SYNTH_MAX_REGS)
        return opt_fail(o, "smtlm_synth_regs", "must be between 1 and 255", err, n);
    if (skew == 0 || skew > 8)
        return opt_fail(o, "smtlm_synth_reg_skew", "must be between 1 (uniform) and 8", err, n);
    if (dep > SMTLM_SYNTH_MAX_DEP)
        return opt_fail(o, "smtlm_synth_dep_distance", "must be at most 64", err, n);
    if (insts == 0)
        return opt_fail(o, "smtlm_synth_insts", "must be at least 1", err, n);
    c.n_regs = regs;
    c.reg_skew = skew;
    c.n_ctas = ctas;
    c.seed = seed;
    /* The configured machine's latencies (trace.config), so the workload means the same. */
    c.lat[SMTLM_SYNTH_SP] = from_trace(cfg->lat.sp);
    c.lat[SMTLM_SYNTH_INT] = from_trace(cfg->lat.int_op);
    c.lat[SMTLM_SYNTH_SFU] = from_trace(cfg->lat.sfu);
    c.lat[SMTLM_SYNTH_DP] = from_trace(cfg->lat.dp);
    if (smtlm_synth_check(&c, what, sizeof what) != SMTLM_OK)
        return opt_fail(o, "smtlm_synth_insts", what, err, n);
    smtlm_synth_run *r = calloc(1, sizeof *r);
    if (!r || smtlm_synth_init(&r->s, &c) != SMTLM_OK) {
        free(r);
        snprintf(err, n, "<synthetic>: cannot set up the generator");
        return -1;
    }
    if (missing_unit(o, r, &cfg->gpu.sm, err, n)) {
        smtlm_synth_run_close(r);
        return -1;
    }
    *out = r;
    return 0;
}

void smtlm_synth_run_close(smtlm_synth_run *r)
{
    if (!r)
        return;
    smtlm_synth_free(&r->s);
    free(r);
}

smtlm_inst_source smtlm_synth_run_iface(smtlm_synth_run *r) { return smtlm_synth_source(&r->s); }
smtlm_cta_binder smtlm_synth_run_binder(smtlm_synth_run *r) { return smtlm_synth_binder(&r->s); }
smtlm_kernel_desc smtlm_synth_run_kernel(const smtlm_synth_run *r) { return smtlm_synth_kernel(&r->s); }
uint64_t smtlm_synth_run_warp_insts(const smtlm_synth_run *r) { return smtlm_synth_total_warp_insts(&r->s); }
