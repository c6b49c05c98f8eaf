/* A retired instruction as a Kanata record: its stages from the event cycles, its stalls, its
 * operands' reads and the texts shown with them. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pipeline_log_internal.h"
#include "smtlm/view_names.h"

unsigned pl_distinct_sources(const smtlm_inst *in)
{
    unsigned m = 0;
    for (unsigned op = 0; op < in->n_src && op < SMTLM_MAX_SRC; op++) {
        unsigned dup = 0;
        for (unsigned q = 0; q < op; q++)
            dup |= in->src[q] == in->src[op];
        if (!dup)
            m |= 1u << op;
    }
    return m;
}

/* Appends to a text buffer (truncating at its end). */
typedef struct text {
    char *s;
    size_t n, len;
} text;

static void add(text *t, const char *fmt, ...)
{
    if (t->len + 1 >= t->n)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(t->s + t->len, t->n - t->len, fmt, ap);
    va_end(ap);
    if (w > 0)
        t->len = t->len + (size_t)w < t->n ? t->len + (size_t)w : t->n - 1;
}

#define LLU(x) ((unsigned long long)(x))

/* The event cycles, each at least the one before (an event never reached takes the one
 * before: only a malformed record could have one). */
static void event_cycles(const smtlm_inst *in, uint64_t e[SMTLM_EV_COUNT])
{
    for (unsigned k = 0; k < SMTLM_EV_COUNT; k++) {
        e[k] = in->ev[k];
        if (k && (e[k] == UINT64_MAX || e[k] < e[k - 1]))
            e[k] = e[k - 1];
    }
}

int pl_add_record(smtlm_kanata *k, const smtlm_inst *in, const pl_side *s, const smtlm_sm_view *v, unsigned sm,
                  unsigned kernel, unsigned thread, int keep)
{
    uint64_t e[SMTLM_EV_COUNT];
    event_cycles(in, e);
    const uint64_t issue = e[SMTLM_EV_ISSUE], cu = e[SMTLM_EV_CU_ALLOC], ops = e[SMTLM_EV_OPERANDS];
    const uint64_t ocex = e[SMTLM_EV_OC_EX], fu = e[SMTLM_EV_FU_ISSUE], wb = e[SMTLM_EV_WRITEBACK];
    char nbuf[160], dbuf[1024], ibuf[256], obuf[320], xbuf[96], op[16], r[16];
    text name = {nbuf, sizeof nbuf, 0}, detail = {dbuf, sizeof dbuf, 0};
    text ib = {ibuf, sizeof ibuf, 0}, opnd = {obuf, sizeof obuf, 0}, ex = {xbuf, sizeof xbuf, 0};

    /* left pane: where and what */
    smtlm_view_op_name(in->op, in->spec, op, sizeof op);
    add(&name, "sm%u w%u 0x%04x %s", sm, (unsigned)in->warp, (unsigned)in->pc, op);
    for (unsigned i = 0; i < in->n_dst && i < SMTLM_MAX_DST; i++)
        add(&name, "%s%s", i ? ", " : " ", smtlm_view_reg_name(in->dst[i], r, sizeof r));
    if (in->n_src)
        add(&name, " <-");
    for (unsigned i = 0; i < in->n_src && i < SMTLM_MAX_SRC; i++)
        add(&name, "%s%s", i ? ", " : " ", smtlm_view_reg_name(in->src[i], r, sizeof r));

    /* operands: bank and the cycle each was read */
    const unsigned distinct = pl_distinct_sources(in);
    for (unsigned i = 0; i < in->n_src && i < SMTLM_MAX_SRC; i++) {
        add(&opnd, "%s%s ", i ? "; " : "", smtlm_view_reg_name(in->src[i], r, sizeof r));
        if (!(distinct >> i & 1)) {
            for (unsigned q = 0; q < i; q++)
                if (in->src[q] == in->src[i]) {
                    add(&opnd, "read once, as operand %u", q + 1);
                    break;
                }
            continue;
        }
        const uint64_t at = s->known >> i & 1 ? s->opnd[i] : ops;
        add(&opnd, "bank %u read at %llu", smtlm_rf_bank(v->rf, (unsigned)in->src[i], in->warp, in->sched), LLU(at));
    }
    if (!in->n_src)
        add(&opnd, "no register operand");

    /* the unit */
    add(&ex, "unit %s", smtlm_view_unit_name(in->unit));
    if (in->mem_space != SMTLM_MEM_NONE) {
        static const char *space[SMTLM_MEM_COUNT] = {"", "shared", "global", "local", "const", "tex"};
        add(&ex, ", %s memory, %u B/lane", in->mem_space < SMTLM_MEM_COUNT ? space[in->mem_space] : "?",
            (unsigned)in->mem_width);
    } else {
        add(&ex, ", latency %u, interval %u", (unsigned)in->latency, (unsigned)in->ii);
    }

    /* detail (mouse-over) */
    add(&detail, "kernel %u, sm %u, warp %u, uid %llu, scheduler %u, trace line %u\n", kernel, sm, (unsigned)in->warp,
        LLU(in->uid), (unsigned)in->sched, (unsigned)in->line);
    add(&detail, "mask 0x%08x (%u lanes)\n", (unsigned)in->mask, smtlm_popcount32(in->mask));
    add(&detail, "issue %llu, cu_alloc %llu, operands %llu, oc_ex %llu, fu_issue %llu, writeback %llu", LLU(issue),
        LLU(cu), LLU(ops), LLU(ocex), LLU(fu), LLU(wb));

    smtlm_kanata_stage st[16 + PL_RUNS];
    unsigned n = 0;
    const int has_ib = s->seen < issue;
    if (has_ib) {
        add(&ib, s->clipped ? "decoded at or before cycle %llu (the log's first sampled cycle)"
                            : "decoded at cycle %llu", LLU(s->seen));
    }
    /* the cycles it waited at the head of the buffer, per reason */
    int any = 0;
    for (unsigned w = 0; has_ib && w <= SMTLM_VIEW_OTHER; w++)
        if (s->waited[w]) {
            add(&ib, "%s%s %u", any ? ", " : "; waited at the head: ", smtlm_view_stall_short(w), (unsigned)s->waited[w]);
            any = 1;
        }

    if (has_ib)
        st[n++] = (smtlm_kanata_stage){s->seen, issue, 0, "IB", ibuf};
    st[n++] = (smtlm_kanata_stage){issue, cu, 0, "IS", NULL};
    st[n++] = (smtlm_kanata_stage){cu, ocex, 0, "OC", obuf};
    st[n++] = (smtlm_kanata_stage){ocex, fu, 0, "DI", NULL};
    st[n++] = (smtlm_kanata_stage){fu, wb, 0, "EX", xbuf};
    st[n++] = (smtlm_kanata_stage){wb, wb + 1, 0, "WB", NULL};
    for (unsigned i = 0; has_ib && i < s->n_runs; i++) {
        const uint64_t end = i + 1 < s->n_runs ? s->run[i + 1].from : issue;
        if (end > s->run[i].from && end <= issue)
            st[n++] = (smtlm_kanata_stage){s->run[i].from, end, 1, smtlm_view_stall_short(s->run[i].why),
                                           smtlm_view_stall_text(s->run[i].why)};
    }
    if (cu > issue + 1)
        st[n++] = (smtlm_kanata_stage){issue + 1, cu, 1, "cu", "no free collector unit"};
    if (ops > cu + 1)
        st[n++] = (smtlm_kanata_stage){cu + 1, ops, 1, "bank", "reads queued at their banks"};
    if (ocex > ops + 1)
        st[n++] = (smtlm_kanata_stage){ops + 1, ocex, 1, "ocex", "collected, OC_EX slot busy"};
    if (fu > ocex + 1)
        st[n++] = (smtlm_kanata_stage){ocex + 1, fu, 1, "unit", "unit or result bus busy"};

    int deps[SMTLM_MAX_SRC];
    memcpy(deps, s->dep, sizeof deps);
    const smtlm_kanata_inst ki = {in->uid, thread, st[0].start, wb + 1, nbuf, dbuf, n, st, SMTLM_MAX_SRC, deps, issue};
    return smtlm_kanata_add(k, &ki, keep);
}
