#!/usr/bin/env python3
"""tools/muon-compare on lud (QV100) and small synthetic workloads: one table row per workload and
design with the run's own figures, the gpgpusim rows equal to a plain smsim run, a Muon row with
the duplicated collector free of conflicts, and an SVG with one bar per workload, design and chart.
Usage: muon_compare_check.py SMSIM REPO"""
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

smsim, repo = sys.argv[1], sys.argv[2]
data = os.path.join(repo, "tests", "data")
cfg = ["--config", os.path.join(data, "configs/SM7_QV100/gpgpusim.config"),
       "--config", os.path.join(data, "configs/SM7_QV100/trace.config")]
failed = 0


def check(ok, what):
    global failed
    if not ok:
        failed += 1
        print("FAIL:", what)


with tempfile.TemporaryDirectory() as tmp:
    svg = os.path.join(tmp, "c.svg")
    out = subprocess.run([sys.executable, os.path.join(repo, "tools", "muon-compare"), "--smsim", smsim, "--trace",
                          "lud=" + os.path.join(data, "traces/lud/kernelslist.g"), "--synth-insts", "60", "--svg", svg]
                         + cfg, capture_output=True, text=True, check=True).stdout
    rows = [r.split("|")[1:-1] for r in out.splitlines()[2:]]
    rows = {(r[0].strip(), r[1].strip()): [c.strip() for c in r[2:]] for r in rows}
    workloads = ["lud", "synthetic ALU", "synthetic chains"]
    designs = ["gpgpusim"] + ["muon " + s for s in ("duplicated", "src_banked", "inst_banked", "min_banked", "caching")]
    check(sorted(rows) == sorted((w, d) for w in workloads for d in designs), "one row per workload and design")
    plain = subprocess.run([smsim, "-smtlm_quiet", "1", "-trace", os.path.join(data, "traces/lud/kernelslist.g")]
                           + ["-config", cfg[1], "-config", cfg[3]], capture_output=True, text=True).stdout
    cycles = re.search(r"gpu_tot_sim_cycle = (\d+)", plain).group(1)
    stalls = re.search(r"gpu_reg_bank_conflict_stalls = (\d+)", plain).group(1)
    check(rows[("lud", "gpgpusim")][0] == cycles, "lud gpgpusim cycles %s (smsim says %s)" % (rows[("lud", "gpgpusim")][0], cycles))
    check(rows[("lud", "gpgpusim")][2] == stalls, "lud gpgpusim conflict cycles = gpu_reg_bank_conflict_stalls")
    for w in workloads:
        check(rows[(w, "muon duplicated")][2] == "0", w + ": the duplicated collector never conflicts")
        check(float(rows[(w, "muon min_banked")][3]) <= 1.0, w + ": min_banked holds at most one entry")
    bars = [e for e in ET.parse(svg).getroot().iter("{http://www.w3.org/2000/svg}rect") if e.find("{http://www.w3.org/2000/svg}title") is not None]
    check(len(bars) == 2 * len(workloads) * len(designs), "%d bars drawn" % len(bars))
print("muon-compare checks: %d failed" % failed)
sys.exit(1 if failed else 0)
