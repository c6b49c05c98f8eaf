"""smsweep plot: one metric against one parameter, one line per trace (and per value of any
other parameter that varies among the plotted points), drawn with matplotlib into an SVG or
PNG file (by the output's extension). Text stays text in the SVG, and the file does not depend
on the time it was drawn, so the same results give the same file."""
import difflib
import io
import math

from . import pointdir


class PlotError(Exception):
    pass


def _column(name, cols, what):
    if name in cols:
        return name
    if name.lstrip("-") in cols:  # options may be given with their dash
        return name.lstrip("-")
    near = difflib.get_close_matches(name.lstrip("-"), cols, n=3, cutoff=0.5)
    raise PlotError("no %s column '%s'%s" % (what, name, " (did you mean %s?)" % ", ".join(near) if near else ""))


def _number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def series(cols, rows, metric, x, params, where=(), relative=False):
    """{label: [(x, y)]} of the finished points, sorted by x; and whether x is numeric."""
    metric = _column(metric, cols, "metric")
    x = _column(x, cols, "parameter")
    for w in where:
        if "=" not in w:
            raise PlotError("--where takes column=value, not '%s'" % w)
        k, v = w.split("=", 1)
        k = _column(k, cols, "--where")
        rows = [r for r in rows if str(r.get(k)) == v]
    rows = [r for r in rows if r.get("status") == "done" and r.get(metric) is not None]
    if not rows:
        raise PlotError("no finished point to plot%s" % (" with " + " and ".join(where) if where else ""))
    # a parameter that varies within one trace's points splits its line; a config that only
    # differs between traces (each trace on the GPU it was traced on) just names it
    by_trace = {}
    for r in rows:
        by_trace.setdefault(r["trace"], []).append(r)
    others = [p for p in ["config"] + list(params)
              if p != x and any(len({str(r.get(p)) for r in rs}) > 1 for rs in by_trace.values())]
    name_config = "config" not in others and len({r.get("config") for r in rows}) > 1
    numeric = all(_number(r.get(x)) for r in rows)
    lines = {}
    for r in rows:
        label = r["trace"] + (" (%s)" % r.get("config") if name_config else "") + \
            "".join(", %s=%s" % (o, r.get(o)) for o in others)
        lines.setdefault(label, []).append((r.get(x), r[metric]))
    order = [] if numeric else list(dict.fromkeys(r.get(x) for r in rows))
    for label, pts in lines.items():
        pts.sort(key=(lambda p: p[0]) if numeric else (lambda p: order.index(p[0])))
        if relative:
            base = pts[0][1]
            if not base:
                raise PlotError("--relative: %s is 0 at the first %s of %s" % (metric, x, label))
            pts[:] = [(a, b / base) for a, b in pts]
    return lines, numeric, metric, x


def draw(lines, numeric, metric, x, out_path, title="", relative=False):
    ext = out_path.rsplit(".", 1)[-1].lower()
    if ext not in ("svg", "png"):
        raise PlotError("%s: the chart is written as .svg or .png" % out_path)
    try:
        import matplotlib
    except ImportError:
        import sys
        raise PlotError("plotting needs matplotlib, which %s cannot import (Debian: apt-get install "
                        "python3-matplotlib)" % sys.executable)
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text
    matplotlib.rcParams["svg.hashsalt"] = "smsweep"  # stable ids
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    xs_all = sorted({p[0] for pts in lines.values() for p in pts}) if numeric else \
        list(dict.fromkeys(p[0] for pts in lines.values() for p in pts))
    pos = (lambda v: v) if numeric else (lambda v: xs_all.index(v))
    markers = "osD^vP*X"
    for i, (label, pts) in enumerate(lines.items()):
        ax.plot([pos(a) for a, _ in pts], [b for _, b in pts], marker=markers[i % len(markers)], label=label,
                gid="sweep-line-%d" % i)  # the SVG group of the line, for readers of the file
    if numeric and len(xs_all) >= 3 and all(v > 0 and math.log2(v).is_integer() for v in xs_all):
        ax.set_xscale("log", base=2)  # 8, 16, 32: evenly spaced
    if len(xs_all) <= 16:
        ax.set_xticks([pos(v) for v in xs_all])
        ax.set_xticklabels([str(v) for v in xs_all])
        ax.minorticks_off()
    ax.set_xlabel(x)
    ax.set_ylabel(metric + ("\nrelative to %s = %s" % (x, xs_all[0]) if relative else ""))
    ax.set_title(title or "%s vs %s" % (metric, x))
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format=ext, metadata={"Date": None} if ext == "svg" else {"Software": None}, dpi=120)
    plt.close(fig)
    pointdir.write_atomic(out_path, buf.getvalue())
    return out_path
