/* smsim's Muon reports: analytic bank-conflict model and storage cost (smtlm/muon_reports.h). */
#include "smtlm/muon_reports.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "smtlm/muon_analytic.h"
#include "smtlm/muon_bank_probe.h"
#include "smtlm/muon_cost.h"
#include "smtlm/muon_machine.h"

static unsigned opt_u32(const smtlm_options *o, const char *name)
{
    uint32_t v = 0;
    smtlm_options_get_u32(o, name, &v);
    return v;
}

int smtlm_muon_report_requested(const smtlm_options *o)
{
    int cost = 0;
    smtlm_options_get_bool(o, "smtlm_cost_report", &cost);
    return cost || opt_u32(o, "smtlm_analytic_banks") > 0;
}

static int fail(const smtlm_options *o, const char *name, char *err, size_t n, const char *msg)
{
    char where[PATH_MAX + 32] = "<default>"; /* a config file's path and line */
    smtlm_options_origin(o, name, where, sizeof where);
    if (err && n)
        snprintf(err, n, "%s: -%s: %s", where, name, msg);
    return -1;
}

/* ---- analytic bank-conflict model ---------------------------------------------------------- */

/* The measured fraction of cycles with reads in >= 3 distinct banks, for one probe setting. */
static int measure(smtlm_rf *rf, smtlm_muon_probe_cfg cfg, double *p, char *err, size_t n)
{
    smtlm_muon_probe_result r;
    const char *why = "";
    if (smtlm_muon_probe_run(rf, &cfg, SMTLM_MUON_ANALYTIC_CYCLES, &r, &why) != 0) {
        snprintf(err, n, "%s", why);
        return -1;
    }
    *p = (double)r.hits / (double)r.cycles;
    return 0;
}

static int analytic_report(const smtlm_options *o, const smtlm_muon_machine *m, FILE *out, char *err, size_t n)
{
    const unsigned banks = opt_u32(o, "smtlm_analytic_banks"), entries = opt_u32(o, "smtlm_analytic_entries");
    if (banks > SMTLM_MAX_BANKS)
        return fail(o, "smtlm_analytic_banks", err, n, "the arbiter has at most 64 banks (0 = no report)");
    if (entries > SMTLM_MUON_PROBE_MAX_ENTRIES)
        return fail(o, "smtlm_analytic_entries", err, n, "the arbiter serves at most 64 collector entries (0 = 1 to 4)");
    if (m->phys_regs < 4) /* the distinct-register variant needs 3 registers besides x0 */
        return fail(o, "smtlm_muon_phys_regs", err, n, "the analytic report needs at least 4 physical registers");
    const unsigned c_lo = entries ? entries : 1, c_hi = entries ? entries : 4;
    smtlm_rf *rf = malloc(sizeof *rf);
    if (!rf) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    fprintf(out, "Muon analytic bank-conflict model: P(>=3 distinct banks among 3C operand reads), bank = reg mod N\n");
    fprintf(out, "formula: 1 - [N + N(N-1)/2 (2^(3C) - 2)] / N^(3C)\n");
    fprintf(out, "measured: C collector entries of 3 uniformly random registers (0..%u) queue their reads in the "
                 "register-file arbiter; a cycle counts when its arbitration step grants reads in >= 3 distinct banks "
                 "(%u cycles per point, 95%% interval within +-0.1 pp, seed %u)\n",
            m->phys_regs - 1, SMTLM_MUON_ANALYTIC_CYCLES, SMTLM_MUON_ANALYTIC_SEED);
    fprintf(out, "departures (measured): no_x0 = registers 1..%u (x0 is never read from the PRF); distinct = the 3 "
                 "operands of an instruction name 3 different registers; steady = an entry takes a new instruction "
                 "only once all its operands were read\n",
            m->phys_regs - 1);
    double formula[SMTLM_MUON_PROBE_MAX_ENTRIES + 1];
    for (unsigned c = c_lo; c <= c_hi; c++) {
        smtlm_muon_analytic_p(banks, c, &formula[c]);
        fprintf(out, "N=%u, C=%u: %.1f%%\n", banks, c, 100.0 * formula[c]);
    }
    fprintf(out, "%4s %4s %10s %10s %9s %9s %9s %9s\n", "N", "C", "formula%", "measured%", "diff_pp", "no_x0%",
            "distinct%", "steady%");
    int rc = 0;
    for (unsigned c = c_lo; c <= c_hi && !rc; c++) {
        const smtlm_muon_probe_cfg base = {banks, c, m->phys_regs, 0, 0, 0, SMTLM_MUON_ANALYTIC_SEED};
        smtlm_muon_probe_cfg no_x0 = base, distinct = base, steady = base;
        no_x0.first_reg = 1;
        distinct.distinct_regs = 1;
        steady.steady = 1;
        double p, p_no_x0, p_distinct, p_steady;
        rc = measure(rf, base, &p, err, n) || measure(rf, no_x0, &p_no_x0, err, n) ||
             measure(rf, distinct, &p_distinct, err, n) || measure(rf, steady, &p_steady, err, n);
        double diff = 100.0 * (p - formula[c]);
        if (diff > -0.0005 && diff < 0.0005) /* no "-0.000" */
            diff = 0.0;
        if (!rc)
            fprintf(out, "%4u %4u %10.3f %10.3f %+9.3f %9.3f %9.3f %9.3f\n", banks, c, 100.0 * formula[c], 100.0 * p,
                    diff, 100.0 * p_no_x0, 100.0 * p_distinct, 100.0 * p_steady);
    }
    free(rf);
    return rc ? -1 : 0;
}

/* ---- storage cost ------------------------------------------------------------------------- */

static void cost_report(const smtlm_muon_machine *m, FILE *out)
{
    smtlm_muon_cost_cfg c;
    smtlm_muon_cost k;
    smtlm_muon_machine_cost_cfg(m, &c);
    smtlm_muon_cost_compute(&c, &k, NULL); /* the machine was validated: the inputs are in range */
    const unsigned long long vec = (unsigned long long)m->threads * m->xlen;
    fprintf(out, "Muon storage cost (bits): %u physical registers, WAR %s, %u-entry RS, %u warps, %u threads x %u bit, "
                 "%s collector with %u entries, %u PRF bank%s, forwarding %d\n",
            m->phys_regs, smtlm_muon_opt_war_name(m->war), m->rs_entries, m->warps, m->threads, m->xlen,
            smtlm_muon_collector_name(m->collector), m->collector_entries, m->prf_banks, m->prf_banks == 1 ? "" : "s",
            m->forwarding);
    fprintf(out, "muon_scoreboard_bits = %llu (%u registers x (1 pendingWrite + %u pendingReads))\n",
            (unsigned long long)k.scoreboard_bits, m->phys_regs, m->pending_read_bits);
    fprintf(out, "muon_scoreboard_epoch_bits = %llu (%s)\n", (unsigned long long)k.scoreboard_epoch_bits,
            c.epochs ? "option2_epoch: per register a second pendingReads counter and an epoch bit" : "no epochs");
    fprintf(out, "muon_scoreboard_fence_bits = %llu (%s)\n", (unsigned long long)k.scoreboard_fence_bits,
            c.fences ? "past-WAW admission: a Fence bit per register" : "no past-WAW fences");
    fprintf(out, "muon_scoreboard_total_bits = %llu\n", (unsigned long long)k.scoreboard_total_bits);
    fprintf(out, "muon_rs_entry_bits = %llu (metadata %llu + data %llu)\n", (unsigned long long)k.rs_entry_bits,
            (unsigned long long)k.rs_meta_entry_bits, (unsigned long long)k.rs_data_entry_bits);
    fprintf(out, "muon_rs_metadata_entry_bits = %llu (1 valid + 3 x (%u preg + 1 valid + 1 busy)", (unsigned long long)k.rs_meta_entry_bits,
            k.preg_bits);
    if (k.seq_bits)
        fprintf(out, " + %u in-order sequence", k.seq_bits);
    fprintf(out, ")\n");
    fprintf(out, "muon_rs_data_entry_bits = %llu (%u warp + %u PC + %u opcode + %u tmask", (unsigned long long)k.rs_data_entry_bits,
            k.warp_bits, SMTLM_MUON_COST_PC_BITS, SMTLM_MUON_COST_OPCODE_BITS, m->threads);
    if (k.rs_operand_data_bits)
        fprintf(out, " + 3 x %u x %u data)\n", m->threads, m->xlen);
    else
        fprintf(out, "; no operand data without forwarding: it lives in the collector)\n");
    fprintf(out, "muon_rs_metadata_table_bits = %llu (%u entries x %llu)\n", (unsigned long long)k.rs_meta_table_bits,
            m->rs_entries, (unsigned long long)k.rs_meta_entry_bits);
    fprintf(out, "muon_rs_data_table_bits = %llu (%u entries x %llu)\n", (unsigned long long)k.rs_data_table_bits,
            m->rs_entries, (unsigned long long)k.rs_data_entry_bits);
    fprintf(out, "muon_prf_bits = %llu (%u registers x %u x %u", (unsigned long long)k.prf_bits, m->phys_regs, m->threads,
            m->xlen);
    if (c.prf_copies > 1)
        fprintf(out, " x %u copies, one per source slot", c.prf_copies);
    fprintf(out, "; %u bank%s of %u registers)\n", m->prf_banks, m->prf_banks == 1 ? "" : "s", m->phys_regs / m->prf_banks);
    fprintf(out, "muon_collector_bits = %llu (%u entries x 3 operands x %llu", (unsigned long long)k.collector_bits,
            m->collector_entries, vec);
    if (k.collector_tag_bits)
        fprintf(out, " + %llu tag bits", (unsigned long long)k.collector_tag_bits);
    fprintf(out, ")\n");
    fprintf(out, "muon_crossbar_bits = %llu (B x C x NT x XLEN = %u x %u x %u x %u)\n", (unsigned long long)k.crossbar_bits,
            m->prf_banks, m->collector_entries, m->threads, m->xlen);
}

int smtlm_muon_reports(const smtlm_options *o, FILE *out, char *err, size_t n)
{
    smtlm_muon_machine m;
    int cost = 0;
    if (smtlm_muon_machine_read(o, &m, err, n))
        return -1;
    smtlm_options_get_bool(o, "smtlm_cost_report", &cost);
    if (opt_u32(o, "smtlm_analytic_banks") > 0 && analytic_report(o, &m, out, err, n))
        return -1;
    if (cost)
        cost_report(&m, out);
    return 0;
}
