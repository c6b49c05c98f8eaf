#!/usr/bin/env python3
"""The -smtlm_report page rendered by headless Chromium: it loads with no console message,
and the drawn elements match the run's data (heat-map cells = banks x time bins, one bar per
stall category and per scheduler-cycle category, one occupancy bar per collector count).
The checker first proves on a page with a console.error that it would notice one.

usage: report_in_chromium.py <smsim> <scratch dir>"""
import json
import os
import re
import subprocess
import sys


def chromium(args, page):
    cmd = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--enable-logging=stderr", "--v=0"] + args + ["file://" + os.path.abspath(page)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def console_messages(stderr):
    return [l for l in stderr.splitlines() if ":CONSOLE" in l or "Uncaught" in l]


def count(dom, cls):
    return len(re.findall(r'<[a-z]+ class="%s"' % re.escape(cls), dom))


def main():
    smsim, scratch = sys.argv[1], sys.argv[2]
    os.makedirs(scratch, exist_ok=True)
    failures = []

    # the checker notices a console message
    bad = os.path.join(scratch, "console_error.html")
    with open(bad, "w") as f:
        f.write('<html><body><script>console.error("report check")</script></body></html>')
    _, _, err = chromium(["--dump-dom"], bad)
    if not any("report check" in m for m in console_messages(err)):
        failures.append("the checker did not see a console.error")

    page, stats = os.path.join(scratch, "report.html"), os.path.join(scratch, "stats.json")
    subprocess.run([smsim, "-smtlm_report", page, "-smtlm_stats_json", stats, "-smtlm_quiet", "1"],
                   check=True, stdout=subprocess.DEVNULL)
    k = json.load(open(stats))["kernels"][0]
    banks, cus = len(k["rf_bank_reads"]), len(k["cu_occupancy_hist"])

    rc, dom, err = chromium(["--dump-dom"], page)
    if rc != 0:
        failures.append("chromium exited with %d" % rc)
    msgs = console_messages(err)
    if msgs:
        failures.append("console messages: %s" % msgs[:3])
    bins = count(dom, "hover") // 2  # each time bin has a hover target in the IPC and occupancy charts
    if bins < 20:  # 29,631 cycles in bins of 1,024 after the launch
        failures.append("only %d time bins" % bins)
    want = {"hm-cell": banks * bins, "stall-bar": 8, "distro-bar": 4, "occ-bar": cus,
            "ipc-line": 1, "occ-line": 1}
    for cls, n in want.items():
        got = count(dom, cls)
        if got != n:
            failures.append("%s: %d drawn, %d expected" % (cls, got, n))
    if "<script" in open(page).read():
        failures.append("the page holds a script")
    rc, _, _ = chromium(["--window-size=960,2400", "--screenshot=" + os.path.join(scratch, "report.png")], page)
    if rc != 0 or not os.path.getsize(os.path.join(scratch, "report.png")):
        failures.append("no screenshot")

    for f in failures:
        print("FAIL:", f)
    print("report checks: %d failed (%d bins, %d banks, %d collector counts)" % (len(failures), bins, banks, cus))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
