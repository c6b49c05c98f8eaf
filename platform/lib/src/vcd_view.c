/* -smtlm_vcd: the signals of vcd_view.h, from the kernels' state and counters after every
 * sample. Counts per cycle are counter differences since the last sample divided by the cycles
 * it covers; levels are read as they are. */
#include "smtlm/vcd_view.h"

#include <stdlib.h>
#include <string.h>

#include "smtlm/vcd_writer.h"
#include "smtlm/view_names.h"

enum { ST_OFF = 0, ST_ISSUED, ST_IDLE, ST_SCOREBOARD, ST_STALL };

typedef struct vv_sm {
    unsigned id;
    /* variables (-1: not declared) */
    int cu_busy, result_buses, ldst_busy;
    int issued[SMTLM_MAX_SCHED], state[SMTLM_MAX_SCHED];
    int rd[SMTLM_MAX_BANKS], wr[SMTLM_MAX_BANKS], queue[SMTLM_MAX_BANKS];
    int fu[SMTLM_MAX_FUS];
    int verdict[SMTLM_MAX_WARPS], in_flight[SMTLM_MAX_WARPS];
    /* counters at the last sample */
    uint64_t active, single[SMTLM_MAX_SCHED], dual[SMTLM_MAX_SCHED], distro[SMTLM_MAX_SCHED][3];
    uint64_t reads[SMTLM_MAX_BANKS], writes[SMTLM_MAX_BANKS], stall[SMTLM_MAX_WARPS][SMTLM_WS_COUNT];
    int still; /* it did not run in the last sample (its values are those of a still SM) */
} vv_sm;

struct smtlm_vcd_view {
    smtlm_vcd *vcd;
    smtlm_view_filter flt;
    unsigned n, n_banks, n_sched, n_fu, n_warps;
    vv_sm *sm;
    uint64_t end;   /* the cycle after the last sample */
    int has_end;
};

static unsigned bits(uint64_t max)
{
    unsigned b = 1;
    while (b < 64 && (max >> b))
        b++;
    return b;
}

static void remember(vv_sm *s, const smtlm_sm_view *v, unsigned n_sched, unsigned n_banks, unsigned n_warps)
{
    s->active = v->stats.active_cycles;
    for (unsigned k = 0; k < n_sched; k++) {
        s->single[k] = smtlm_issue_single(v->iss, k);
        s->dual[k] = v->iss->dual_issue[k];
        memcpy(s->distro[k], v->iss->distro[k], sizeof s->distro[k]);
    }
    memcpy(s->reads, v->rf->reads, n_banks * sizeof *s->reads);
    memcpy(s->writes, v->rf->writes, n_banks * sizeof *s->writes);
    memcpy(s->stall, v->iss->warp_stall, n_warps * sizeof *s->stall);
}

static void declare(smtlm_vcd_view *vv, vv_sm *s, const smtlm_sm_view *v)
{
    smtlm_vcd *d = vv->vcd;
    char name[32];
    snprintf(name, sizeof name, "sm%u", s->id);
    smtlm_vcd_scope(d, name);
    s->cu_busy = smtlm_vcd_var(d, "cu_busy", bits(v->oc->n_cus));
    s->result_buses = smtlm_vcd_var(d, "result_buses", bits(v->ex->rb.n));
    s->ldst_busy = smtlm_vcd_var(d, "ldst_busy", 1);
    for (unsigned k = 0; k < vv->n_sched; k++) {
        snprintf(name, sizeof name, "sched%u", k);
        smtlm_vcd_scope(d, name);
        s->issued[k] = smtlm_vcd_var(d, "issued", 2);
        s->state[k] = smtlm_vcd_var(d, "state", 3);
        smtlm_vcd_upscope(d);
    }
    for (unsigned b = 0; b < vv->n_banks; b++) {
        snprintf(name, sizeof name, "bank%u", b);
        smtlm_vcd_scope(d, name);
        s->rd[b] = smtlm_vcd_var(d, "rd", 8);
        s->wr[b] = smtlm_vcd_var(d, "wr", 8);
        s->queue[b] = smtlm_vcd_var(d, "queue", 9);
        smtlm_vcd_upscope(d);
    }
    smtlm_vcd_scope(d, "fu");
    unsigned count[SMTLM_FU_KINDS][SMTLM_MAX_SPEC_UNITS + 1] = {{0}};
    for (unsigned i = 0; i < vv->n_fu; i++) {
        const smtlm_fu *fu = &v->ex->fu[i];
        const unsigned spec = fu->spec <= SMTLM_MAX_SPEC_UNITS ? fu->spec : 0;
        if (fu->kind == SMTLM_FU_SPEC)
            snprintf(name, sizeof name, "spec%u_%u", spec, count[fu->kind][spec]++);
        else
            snprintf(name, sizeof name, "%s%u", smtlm_view_fu_name(fu->kind), count[fu->kind % SMTLM_FU_KINDS][0]++);
        s->fu[i] = smtlm_vcd_var(d, name, 1);
    }
    smtlm_vcd_upscope(d);
    for (unsigned w = 0; w < vv->n_warps; w++) {
        s->verdict[w] = s->in_flight[w] = -1;
        if (!smtlm_view_shows_warp(&vv->flt, w))
            continue;
        snprintf(name, sizeof name, "warp%u", w);
        smtlm_vcd_scope(d, name);
        s->verdict[w] = smtlm_vcd_var(d, "verdict", 4);
        s->in_flight[w] = smtlm_vcd_var(d, "in_flight", 16);
        smtlm_vcd_upscope(d);
    }
    smtlm_vcd_upscope(d);
}

smtlm_vcd_view *smtlm_vcd_view_new(FILE *f, const smtlm_gpu *gpu, const smtlm_view_filter *flt)
{
    smtlm_vcd_view *vv = calloc(1, sizeof *vv);
    if (!vv)
        return NULL;
    vv->flt = *flt;
    for (unsigned i = 0; i < gpu->n_sm; i++)
        vv->n += (unsigned)smtlm_view_shows_sm(flt, i);
    vv->sm = calloc(vv->n ? vv->n : 1, sizeof *vv->sm);
    vv->vcd = smtlm_vcd_new(f, "smtlm (one time unit = one core cycle)", "1 ns", flt->first, flt->last);
    if (!vv->sm || !vv->vcd) {
        smtlm_vcd_close(vv->vcd, 0);
        free(vv->sm);
        free(vv);
        return NULL;
    }
    const smtlm_sm_cfg *c = &gpu->cfg.sm;
    vv->n_banks = c->rf.n_banks;
    vv->n_sched = c->shape.n_sched;
    vv->n_warps = c->issue.max_warps;
    unsigned k = 0;
    for (unsigned i = 0; i < gpu->n_sm; i++) {
        if (!smtlm_view_shows_sm(flt, i))
            continue;
        smtlm_sm_view v;
        smtlm_gpu_sm_view(gpu, i, &v);
        vv->n_fu = v.ex->n_fu;
        vv->sm[k].id = i;
        declare(vv, &vv->sm[k], &v);
        remember(&vv->sm[k], &v, vv->n_sched, vv->n_banks, vv->n_warps);
        k++;
    }
    smtlm_vcd_end_header(vv->vcd);
    return vv;
}

/* The per-cycle counts drop to 0 (cycles in which no SM ran). */
static void quiet(smtlm_vcd_view *vv)
{
    smtlm_vcd *d = vv->vcd;
    for (unsigned k = 0; k < vv->n; k++) {
        const vv_sm *s = &vv->sm[k];
        smtlm_vcd_set(d, s->result_buses, 0);
        for (unsigned q = 0; q < vv->n_sched; q++) {
            smtlm_vcd_set(d, s->issued[q], 0);
            smtlm_vcd_set(d, s->state[q], ST_OFF);
        }
        for (unsigned b = 0; b < vv->n_banks; b++) {
            smtlm_vcd_set(d, s->rd[b], 0);
            smtlm_vcd_set(d, s->wr[b], 0);
        }
        for (unsigned w = 0; w < vv->n_warps; w++)
            smtlm_vcd_set(d, s->verdict[w], 0);
    }
}

static void sample_sm(smtlm_vcd_view *vv, vv_sm *s, const smtlm_sm_view *v, uint64_t n)
{
    smtlm_vcd *d = vv->vcd;
    const int ran = v->stats.active_cycles != s->active;
    smtlm_vcd_set(d, s->ldst_busy, (uint64_t)smtlm_ldst_busy(v->ldst)); /* memory answers without it */
    if (!ran && s->still)
        return; /* it did not run, nor in the sample before: nothing else changed */
    s->still = !ran;
    smtlm_vcd_set(d, s->cu_busy, v->oc->busy);
    const smtlm_resbus *rb = &v->ex->rb;
    smtlm_vcd_set(d, s->result_buses, ran ? smtlm_popcount32(rb->taken[rb->t & SMTLM_RING_MASK] & rb->all) : 0);
    for (unsigned k = 0; k < vv->n_sched; k++) {
        const uint64_t *di = v->iss->distro[k];
        const uint64_t issued = (smtlm_issue_single(v->iss, k) - s->single[k] + 2 * (v->iss->dual_issue[k] - s->dual[k])) / n;
        unsigned st = ST_OFF;
        if (issued)
            st = ST_ISSUED;
        else if (di[SMTLM_DISTRO_IDLE] != s->distro[k][SMTLM_DISTRO_IDLE])
            st = ST_IDLE;
        else if (di[SMTLM_DISTRO_SCOREBOARD] != s->distro[k][SMTLM_DISTRO_SCOREBOARD])
            st = ST_SCOREBOARD;
        else if (di[SMTLM_DISTRO_STALL] != s->distro[k][SMTLM_DISTRO_STALL])
            st = ST_STALL;
        smtlm_vcd_set(d, s->issued[k], issued);
        smtlm_vcd_set(d, s->state[k], st);
    }
    for (unsigned b = 0; b < vv->n_banks; b++) {
        smtlm_vcd_set(d, s->rd[b], (v->rf->reads[b] - s->reads[b]) / n);
        smtlm_vcd_set(d, s->wr[b], (v->rf->writes[b] - s->writes[b]) / n);
        smtlm_vcd_set(d, s->queue[b], smtlm_rf_queued(v->rf, b));
    }
    for (unsigned i = 0; i < vv->n_fu; i++) {
        const smtlm_fu *fu = &v->ex->fu[i];
        smtlm_vcd_set(d, s->fu[i], fu->active || fu->dispatch != SMTLM_NO_INST);
    }
    for (unsigned w = 0; w < vv->n_warps; w++) {
        if (s->verdict[w] < 0)
            continue;
        unsigned verdict = 0;
        for (unsigned c = SMTLM_WS_COUNT; c-- > 0;)
            if (v->iss->warp_stall[w][c] != s->stall[w][c])
                verdict = c + 1;
        smtlm_vcd_set(d, s->verdict[w], verdict);
        smtlm_vcd_set(d, s->in_flight[w], v->iss->warp[w].in_pipeline);
    }
    remember(s, v, vv->n_sched, vv->n_banks, vv->n_warps);
}

void smtlm_vcd_view_sample(void *view, const smtlm_gpu *gpu, uint64_t first, uint64_t n)
{
    smtlm_vcd_view *vv = view;
    if (first + n <= vv->flt.first) { /* before the window: only the counters the counts start from */
        for (unsigned k = 0; k < vv->n; k++) {
            smtlm_sm_view v;
            smtlm_gpu_sm_view(gpu, vv->sm[k].id, &v);
            if (v.stats.active_cycles != vv->sm[k].active)
                remember(&vv->sm[k], &v, vv->n_sched, vv->n_banks, vv->n_warps);
        }
        return;
    }
    if (vv->has_end && first > vv->end) {
        smtlm_vcd_time(vv->vcd, vv->end);
        quiet(vv);
    }
    smtlm_vcd_time(vv->vcd, first);
    for (unsigned k = 0; k < vv->n; k++) {
        smtlm_sm_view v;
        smtlm_gpu_sm_view(gpu, vv->sm[k].id, &v);
        sample_sm(vv, &vv->sm[k], &v, n);
    }
    vv->end = first + n;
    vv->has_end = 1;
}

int smtlm_vcd_view_close(smtlm_vcd_view *vv, uint64_t end)
{
    if (!vv)
        return 0;
    if (vv->has_end && end >= vv->end) { /* the cycle after the last shows nothing happening */
        smtlm_vcd_time(vv->vcd, vv->end);
        quiet(vv);
    }
    const int rc = smtlm_vcd_close(vv->vcd, end + 1);
    free(vv->sm);
    free(vv);
    return rc;
}
