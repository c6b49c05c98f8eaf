"""smsweep collect: one row per point (its parameters and every statistic of its run) in
<out>/results.csv and <out>/results.json.

A row describes the whole run of its point. smsim's per-kernel records are cumulative for every
SM counter (banks, collectors, units, stalls, memory: docs/STATS.md), so the last kernel's record
holds the run's totals; the few per-kernel fields (gpu_sim_cycle, gpu_sim_insn,
gpu_sim_warp_insn, sim_time_us) are summed over the kernels and gpu_ipc is recomputed from the
sums. Columns are named by their JSON path as in smsim's -smtlm_stats_csv
(warp_stall.scoreboard, rf_bank_reads[3]); the per-SM and per-warp lists stay in each point's
stats.json (the `dir` column)."""
import csv
import io
import json
import os
import re

from . import pointdir, state

SUMMED = ("gpu_sim_cycle", "gpu_sim_insn", "gpu_sim_warp_insn", "sim_time_us")
NOT_COLUMNS = ("kernel_name", "kernel_launch_uid", "sms", "warp_stall_per_warp")


def _flatten(v, path, out):
    if isinstance(v, dict):
        for k, x in v.items():
            _flatten(x, "%s.%s" % (path, k) if path else k, out)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            _flatten(x, "%s[%d]" % (path, i), out)
    else:
        out[path] = v


def run_stats(doc):
    """The statistics of one smsim run (its stats JSON) as one flat dict."""
    ks = doc.get("kernels", [])
    cyc, insn = doc.get("gpu_tot_sim_cycle", 0), doc.get("gpu_tot_sim_insn", 0)
    row = {"kernels": len(ks), "gpu_tot_sim_cycle": cyc, "gpu_tot_sim_insn": insn,
           "gpu_tot_ipc": round(insn / cyc, 6) if cyc else 0.0, "wall_seconds": doc.get("wall_seconds")}
    if ks:
        for k, v in ks[-1].items():
            if k not in NOT_COLUMNS:
                _flatten(v, k, row)
        for k in SUMMED:
            total = sum(kk.get(k, 0) for kk in ks)
            row[k] = round(total, 6) if isinstance(total, float) else total
        row["gpu_ipc"] = round(row["gpu_sim_insn"] / row["gpu_sim_cycle"], 6) if row["gpu_sim_cycle"] else 0.0
    return row


def typed(v):
    """A parameter as written on smsim's command line, as a number when it is one."""
    if isinstance(v, str):
        if re.fullmatch(r"[+-]?\d+", v):
            return int(v)
        if re.fullmatch(r"[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?", v):
            return float(v)
    return v


def rows(sd):
    """(columns, rows): one row per point of the sweep, in sweep order."""
    points = sd.points()
    doc = pointdir.read_json(os.path.join(sd.root, "points.json"))
    params = doc.get("params", [])
    stats = state.states(sd, [n for n, _ in points])
    cols = ["point", "trace", "config"] + params + ["status", "detail"]
    seen = set(cols)
    out = []
    for (name, info), (_, st, detail) in zip(points, stats):
        row = {"point": name, "trace": info.get("trace", ""), "config": info.get("config", ""), "status": st,
               "detail": detail}
        for p in params:
            row[p] = typed(info.get("params", {}).get("-" + p))
        if st == "done":
            sj, _ = pointdir.read_stats(sd.point_dir(name))
            if sj is None:  # damaged since its state was read
                row["status"], row["detail"] = state.ended(sd.point_dir(name), 0)
            else:
                for k, v in run_stats(sj).items():
                    key = k if k not in params else "stat:" + k  # an option named like a statistic
                    row[key] = v
                    if key not in seen:
                        seen.add(key)
                        cols.append(key)
        row["dir"] = os.path.join("points", name)
        out.append(row)
    cols.append("dir")
    return cols, out


def write(sd):
    """Writes results.csv and results.json into the sweep directory; returns their paths and the rows."""
    cols, rs = rows(sd)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(cols)
    for r in rs:
        w.writerow(["" if r.get(c) is None else r.get(c) for c in cols])
    csv_path, json_path = os.path.join(sd.root, "results.csv"), os.path.join(sd.root, "results.json")
    pointdir.write_atomic(csv_path, buf.getvalue())
    doc = {"sweep": pointdir.read_json(os.path.join(sd.root, "points.json")).get("sweep"), "columns": cols,
           "rows": [{c: r.get(c) for c in cols} for r in rs]}
    pointdir.write_atomic(json_path, json.dumps(doc, indent=1) + "\n")
    return csv_path, json_path, cols, rs
