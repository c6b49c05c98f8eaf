/* -smtlm_report: the HTML page (see report.h). Charts are inline SVG written here; the page
 * holds no script and fetches nothing. Drawn elements carry a class per chart (ipc-line,
 * hm-cell, stall-bar, distro-bar, occ-line, occ-bar, unit-bar) so a test can count them. */
#include "smtlm/report.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BINS 120
#define W 760.0 /* plot area of every chart */
#define H 200.0
#define LEFT 64.0
#define TOP 12.0

typedef struct bin {
    uint64_t c0, c1;      /* cycles [c0, c1) */
    double ipc;           /* thread instructions per cycle */
    double occ;           /* busy collector units per SM-cycle */
    double wait[SMTLM_MAX_BANKS]; /* wait steps per SM-cycle, per bank */
} bin;

static void text_escaped(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*s, out);
        }
    }
}

/* Bins between consecutive snapshots, merged so that at most MAX_BINS remain. */
static size_t make_bins(const smtlm_report *r, bin **out)
{
    size_t raw = 0;
    for (size_t i = 1; i < r->n; i++)
        raw += r->s[i].cycle > r->s[i - 1].cycle;
    const size_t group = raw > MAX_BINS ? (raw + MAX_BINS - 1) / MAX_BINS : 1;
    bin *b = calloc(raw / group + 2, sizeof *b);
    if (!b)
        return 0;
    size_t n = 0, prev = 0, in_group = 0;
    for (size_t i = 1; i < r->n; i++) {
        if (r->s[i].cycle <= r->s[i - 1].cycle)
            continue;
        if (++in_group < group && i + 1 < r->n)
            continue;
        const smtlm_report_sample *a = &r->s[prev], *z = &r->s[i];
        const double cycles = (double)(z->cycle - a->cycle), sm_cycles = (double)(z->active_cycles - a->active_cycles);
        b[n].c0 = a->cycle;
        b[n].c1 = z->cycle;
        b[n].ipc = (double)(z->thread_insts - a->thread_insts) / cycles;
        b[n].occ = sm_cycles > 0 ? (double)(z->cu_busy - a->cu_busy) / sm_cycles : 0;
        for (unsigned k = 0; k < r->n_banks; k++)
            b[n].wait[k] = sm_cycles > 0 ? (double)(z->bank_wait[k] - a->bank_wait[k]) / sm_cycles : 0;
        n++;
        prev = i;
        in_group = 0;
    }
    *out = b;
    return n;
}

/* A "nice" upper bound for an axis: 1, 2 or 5 times a power of ten. */
static double nice_max(double v)
{
    if (v <= 0)
        return 1;
    const double p = pow(10, floor(log10(v)));
    return v <= p ? p : v <= 2 * p ? 2 * p : v <= 5 * p ? 5 * p : 10 * p;
}

static void svg_open(FILE *out, double height, const char *label)
{
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" role=\"img\" aria-label=\"",
            LEFT + W + 24, height);
    text_escaped(out, label);
    fputs("\">\n", out);
}

static void y_axis(FILE *out, double ymax, const char *title)
{
    for (int t = 0; t <= 4; t++) {
        const double y = TOP + H - H * t / 4.0;
        fprintf(out, "<line class=\"grid\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\"/>", LEFT, LEFT + W, y, y);
        fprintf(out, "<text class=\"tick\" x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", LEFT - 6, y + 4,
                ymax * t / 4.0);
    }
    fprintf(out, "<text class=\"axis-title\" transform=\"translate(14 %.0f) rotate(-90)\" text-anchor=\"middle\">%s</text>\n",
            TOP + H / 2, title);
}

static void x_axis_cycles(FILE *out, uint64_t c0, uint64_t c1, const smtlm_report *r)
{
    const double span = (double)(c1 > c0 ? c1 - c0 : 1);
    for (int t = 0; t <= 5; t++) {
        const double x = LEFT + W * t / 5.0;
        fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%.0f</text>", x, TOP + H + 16,
                (double)c0 + span * t / 5.0);
    }
    fprintf(out, "<text class=\"axis-title\" x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">cycle</text>\n", LEFT + W / 2,
            TOP + H + 34);
    /* kernel boundaries */
    for (unsigned k = 0; k + 1 < r->n_kernels && k < SMTLM_REPORT_MAX_KERNELS; k++) {
        const double x = LEFT + W * (double)(r->kernel_end[k] - c0) / span;
        fprintf(out, "<line class=\"kernel-edge\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\"/>\n", x, x, TOP,
                TOP + H);
    }
}

/* One value per bin as a step line (each bin drawn over its cycles). */
static void series_chart(FILE *out, const bin *b, size_t n, const smtlm_report *r, double (*val)(const bin *),
                         const char *cls, const char *title, const char *fmt)
{
    double ymax = 0;
    for (size_t i = 0; i < n; i++)
        ymax = fmax(ymax, val(&b[i]));
    ymax = nice_max(ymax);
    svg_open(out, TOP + H + 44, title);
    y_axis(out, ymax, title);
    const uint64_t c0 = b[0].c0, c1 = b[n - 1].c1;
    const double span = (double)(c1 - c0);
    fprintf(out, "<path class=\"%s\" d=\"", cls);
    for (size_t i = 0; i < n; i++) {
        const double x0 = LEFT + W * (double)(b[i].c0 - c0) / span, x1 = LEFT + W * (double)(b[i].c1 - c0) / span;
        const double y = TOP + H - H * val(&b[i]) / ymax;
        fprintf(out, "%s%.1f %.1fH%.1f", i ? "L" : "M", x0, y, x1);
    }
    fputs("\"/>\n", out);
    for (size_t i = 0; i < n; i++) { /* invisible hover targets with the exact value */
        const double x0 = LEFT + W * (double)(b[i].c0 - c0) / span, x1 = LEFT + W * (double)(b[i].c1 - c0) / span;
        fprintf(out, "<rect class=\"hover\" x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"%.0f\"><title>cycles %" PRIu64
                     "-%" PRIu64 ": ",
                x0, TOP, fmax(x1 - x0, 0.5), H, b[i].c0, b[i].c1);
        fprintf(out, fmt, val(&b[i]));
        fputs("</title></rect>\n", out);
    }
    x_axis_cycles(out, c0, c1, r);
    fputs("</svg>\n", out);
}

static double ipc_of(const bin *b) { return b->ipc; }
static double occ_of(const bin *b) { return b->occ; }

/* White -> orange -> dark brown as v goes 0 -> 1. */
static void heat_color(double v, char *buf, size_t n)
{
    static const double stop[3][3] = {{255, 247, 236}, {253, 141, 60}, {127, 39, 4}};
    v = fmin(fmax(v, 0), 1);
    const int k = v < 0.5 ? 0 : 1;
    const double t = v < 0.5 ? v * 2 : (v - 0.5) * 2;
    snprintf(buf, n, "rgb(%.0f,%.0f,%.0f)", stop[k][0] + (stop[k + 1][0] - stop[k][0]) * t,
             stop[k][1] + (stop[k + 1][1] - stop[k][1]) * t, stop[k][2] + (stop[k + 1][2] - stop[k][2]) * t);
}

static void heat_map(FILE *out, const bin *b, size_t n, const smtlm_report *r)
{
    const unsigned nb = r->n_banks;
    double vmax = 0;
    for (size_t i = 0; i < n; i++)
        for (unsigned k = 0; k < nb; k++)
            vmax = fmax(vmax, b[i].wait[k]);
    const double row = fmin(22, fmax(6, 320.0 / nb)), hh = row * nb;
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" role=\"img\" "
                 "aria-label=\"bank conflicts over time\">\n", LEFT + W + 24, TOP + hh + 78);
    const uint64_t c0 = b[0].c0, c1 = b[n - 1].c1;
    const double span = (double)(c1 - c0);
    for (unsigned k = 0; k < nb; k++) {
        fprintf(out, "<text class=\"tick\" x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">bank %u</text>\n", LEFT - 6,
                TOP + row * k + row / 2 + 4, k);
        for (size_t i = 0; i < n; i++) {
            char col[32];
            heat_color(vmax > 0 ? b[i].wait[k] / vmax : 0, col, sizeof col);
            const double x0 = LEFT + W * (double)(b[i].c0 - c0) / span, x1 = LEFT + W * (double)(b[i].c1 - c0) / span;
            fprintf(out, "<rect class=\"hm-cell\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
                         "<title>bank %u, cycles %" PRIu64 "-%" PRIu64 ": %.4f waiting reads per SM-cycle</title></rect>\n",
                    x0, TOP + row * k, fmax(x1 - x0, 0.5), row - 1, col, k, b[i].c0, b[i].c1, b[i].wait[k]);
        }
    }
    for (int t = 0; t <= 5; t++)
        fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%.0f</text>", LEFT + W * t / 5.0,
                TOP + hh + 16, (double)c0 + span * t / 5.0);
    fprintf(out, "<text class=\"axis-title\" x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">cycle</text>\n", LEFT + W / 2,
            TOP + hh + 34);
    /* legend: the colour scale */
    const double ly = TOP + hh + 48;
    for (int t = 0; t < 40; t++) {
        char col[32];
        heat_color(t / 39.0, col, sizeof col);
        fprintf(out, "<rect class=\"legend\" x=\"%.0f\" y=\"%.0f\" width=\"6\" height=\"10\" fill=\"%s\"/>", LEFT + 6.0 * t,
                ly, col);
    }
    fprintf(out, "\n<text class=\"tick\" x=\"%.0f\" y=\"%.0f\">0</text><text class=\"tick\" x=\"%.0f\" y=\"%.0f\">"
                 "%.3f reads left waiting per SM-cycle</text>\n</svg>\n",
            LEFT - 10, ly + 9, LEFT + 246, ly + 9, vmax);
}

/* Horizontal bars: label, value, and the value's text; `share` scales to the total. */
static void bar_chart(FILE *out, const char *cls, const char *const *label, const double *v, unsigned n, int share,
                      const char *unit)
{
    double total = 0, vmax = 0;
    for (unsigned i = 0; i < n; i++)
        total += v[i], vmax = fmax(vmax, v[i]);
    const double row = 22, bw = W - 140;
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" role=\"img\">\n",
            LEFT + W + 24, TOP + row * n + 8);
    for (unsigned i = 0; i < n; i++) {
        const double frac = share ? (total > 0 ? v[i] / total : 0) : v[i];
        const double len = vmax > 0 ? bw * (share ? v[i] / vmax : v[i] / fmax(vmax, 1.0)) : 0;
        const double y = TOP + row * i;
        fprintf(out, "<text class=\"tick\" x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">", LEFT + 44, y + 15);
        text_escaped(out, label[i]);
        fprintf(out, "</text><rect class=\"%s\" x=\"%.0f\" y=\"%.1f\" width=\"%.1f\" height=\"%.0f\"><title>", cls,
                LEFT + 52, y + 3, fmax(len, 0.5), row - 6);
        text_escaped(out, label[i]);
        if (share)
            fprintf(out, ": %.0f %s (%.1f %%)</title></rect>", v[i], unit, 100 * frac);
        else
            fprintf(out, ": %.1f %%</title></rect>", 100 * frac);
        fprintf(out, "<text class=\"value\" x=\"%.1f\" y=\"%.1f\">", LEFT + 58 + len, y + 15);
        if (share)
            fprintf(out, "%.1f %%", 100 * frac);
        else
            fprintf(out, "%.1f %%", 100 * frac);
        fputs("</text>\n", out);
    }
    fputs("</svg>\n", out);
}

static const char *const page_css =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#222;max-width:900px;margin:24px auto;"
    "padding:0 16px}\n"
    "h1{font-size:22px;margin:0 0 4px}h2{font-size:16px;margin:28px 0 2px}p.note{color:#666;margin:0 0 8px;"
    "font-size:13px}\n"
    "table{border-collapse:collapse;font-variant-numeric:tabular-nums}td,th{padding:3px 10px;border-bottom:1px solid "
    "#e4e4e4;text-align:right}th:first-child,td:first-child{text-align:left}\n"
    "svg{display:block}.grid{stroke:#eee}.tick{font-size:11px;fill:#555}.axis-title{font-size:12px;fill:#333}"
    ".value{font-size:11px;fill:#333}\n"
    ".ipc-line{fill:none;stroke:#1f77b4;stroke-width:1.6}.occ-line{fill:none;stroke:#2ca02c;stroke-width:1.6}"
    ".hover{fill:transparent}.kernel-edge{stroke:#999;stroke-dasharray:3 3}\n"
    ".stall-bar{fill:#d62728}.distro-bar{fill:#9467bd}.occ-bar{fill:#2ca02c}.unit-bar{fill:#1f77b4}\n";

static const char *const ws_label[SMTLM_WS_COUNT] = {"issued", "ibuffer empty", "barrier", "membar",
                                                     "atomic", "draining", "scoreboard", "unit busy"};

static void units_chart(FILE *out, const smtlm_stats *st)
{
    /* busy cycles per unit (same unit order on every SM) over the SMs' active cycles */
    double busy[SMTLM_MAX_FUS + 1] = {0};
    char names[SMTLM_MAX_FUS + 1][24];
    const char *label[SMTLM_MAX_FUS + 1];
    unsigned n = 0;
    double active = 0;
    for (unsigned i = 0; st->gpu && i < st->gpu->n_sm; i++) {
        smtlm_sm_view v;
        smtlm_gpu_sm_view(st->gpu, i, &v);
        if (!v.stats.active_cycles)
            continue;
        active += (double)v.stats.active_cycles;
        unsigned idx[SMTLM_FU_KINDS] = {0};
        n = v.ex->n_fu;
        for (unsigned f = 0; f < v.ex->n_fu; f++) {
            busy[f] += (double)smtlm_exec_unit_busy_cycles(v.ex, f);
            snprintf(names[f], sizeof names[f], "%s%u", smtlm_stats_fu_kind_name(v.ex->fu[f].kind),
                     idx[v.ex->fu[f].kind]++);
        }
        busy[n] += (double)v.ldst->busy_cycles;
    }
    snprintf(names[n], sizeof names[n], "ldst");
    /* units never busy are named in one line instead of drawn as empty bars */
    unsigned shown = 0;
    double util[SMTLM_MAX_FUS + 1];
    char idle[512] = "";
    size_t used = 0;
    for (unsigned f = 0; f <= n; f++) {
        if (busy[f] > 0) {
            label[shown] = names[f];
            util[shown++] = active > 0 ? busy[f] / active : 0;
        } else if (used + strlen(names[f]) + 3 < sizeof idle) {
            used += (size_t)snprintf(idle + used, sizeof idle - used, "%s%s", used ? ", " : "", names[f]);
        }
    }
    bar_chart(out, "unit-bar", label, util, shown, 0, "");
    if (*idle)
        fprintf(out, "<p class=\"note\">never busy: %s</p>\n", idle);
}

int smtlm_report_write_html(const smtlm_report *r, const smtlm_stats *st, FILE *out)
{
    bin *b = NULL;
    const size_t n = make_bins(r, &b);
    fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                 "<meta name=\"viewport\" content=\"width=device-width\">\n<title>smsim report</title>\n<style>\n%s"
                 "</style></head>\n<body>\n<h1>smsim report</h1>\n",
            page_css);
    const double ipc = st->tot_cycle ? (double)st->tot_insn / (double)st->tot_cycle : 0;
    fprintf(out, "<p class=\"note\">%u kernel%s, %" PRIu64 " cycles, %" PRIu64 " warp instructions, IPC %.2f "
                 "(thread instructions per cycle)%s</p>\n",
            r->n_kernels, r->n_kernels == 1 ? "" : "s", st->tot_cycle, st->tot_warp_insn, ipc,
            r->failed ? "; out of memory while sampling: the time series are incomplete" : "");
    fputs("<table><tr><th>kernel</th><th>last cycle</th></tr>\n", out);
    for (unsigned k = 0; k < r->n_kernels && k < SMTLM_REPORT_MAX_KERNELS; k++) {
        fputs("<tr><td>", out);
        text_escaped(out, r->kernel_name[k]);
        fprintf(out, "</td><td>%" PRIu64 "</td></tr>\n", r->kernel_end[k]);
    }
    fputs("</table>\n", out);
    if (n) {
        fprintf(out, "<h2>IPC over time</h2><p class=\"note\">thread instructions per cycle in bins of about %" PRIu64
                     " cycles; dashed lines separate kernels</p>\n",
                (b[n - 1].c1 - b[0].c0) / n);
        series_chart(out, b, n, r, ipc_of, "ipc-line", "IPC", "%.2f");
        fputs("<h2>Register-bank conflicts</h2><p class=\"note\">reads a bank left waiting per SM-cycle (arbitration "
              "steps with a read still queued or blocked by a write), bank by bank over time</p>\n",
              out);
        heat_map(out, b, n, r);
    }
    fputs("<h2>Why warps did not issue</h2><p class=\"note\">warp-cycles by the first reason a scheduler could not "
          "issue from the warp (issued included)</p>\n",
          out);
    double ws[SMTLM_WS_COUNT];
    for (unsigned i = 0; i < SMTLM_WS_COUNT; i++)
        ws[i] = (double)st->warp_stall[i];
    bar_chart(out, "stall-bar", ws_label, ws, SMTLM_WS_COUNT, 1, "warp-cycles");
    fputs("<h2>Scheduler cycles</h2><p class=\"note\">GPGPU-Sim's shader_cycle_distro summed over schedulers</p>\n", out);
    static const char *const distro_label[4] = {"issued", "Stall", "W0_Idle", "W0_Scoreboard"};
    double d[4] = {0, (double)st->distro[SMTLM_DISTRO_STALL], (double)st->distro[SMTLM_DISTRO_IDLE],
                   (double)st->distro[SMTLM_DISTRO_SCOREBOARD]};
    for (unsigned k = 1; k <= SMTLM_WARP_SIZE; k++)
        d[0] += (double)st->distro[SMTLM_DISTRO_W0 + k];
    bar_chart(out, "distro-bar", distro_label, d, 4, 1, "scheduler-cycles");
    fputs("<h2>Collector occupancy</h2><p class=\"note\">busy collector units per SM-cycle over time, then the share of "
          "SM-cycles with each count</p>\n",
          out);
    if (n)
        series_chart(out, b, n, r, occ_of, "occ-line", "busy collector units", "%.2f");
    char occ_names[SMTLM_MAX_CUS + 1][8];
    const char *occ_label[SMTLM_MAX_CUS + 1];
    double occ[SMTLM_MAX_CUS + 1];
    for (unsigned c = 0; c <= st->n_cus; c++) {
        snprintf(occ_names[c], sizeof occ_names[c], "%u busy", c);
        occ_label[c] = occ_names[c];
        occ[c] = (double)st->cu_hist[c];
    }
    bar_chart(out, "occ-bar", occ_label, occ, st->n_cus + 1, 1, "SM-cycles");
    fputs("<h2>Unit utilisation</h2><p class=\"note\">cycles with the unit's dispatch register or a pipeline stage "
          "occupied, over the SMs' active cycles (units summed over SMs)</p>\n",
          out);
    units_chart(out, st);
    fputs("</body></html>\n", out);
    free(b);
    return ferror(out) ? -1 : 0;
}
