#!/usr/bin/env python3
"""Whole smsim runs on the speed work's reference inputs, measured as users see them: wall time
(median of R runs), user and system time, minor page faults and peak RSS of the whole process,
warp instructions per second, per input and setting; with --against OLD, each case also runs
with an older smsim in turn (new, old, new, old, ...) and the median of the pairs' wall-time
ratios is printed beside it.

Inputs (written by smtlm_refgen into a temporary directory; on the built-in QV100 configuration):
  imix, dep        1 SM busy, 16 warps x 20,000 instructions (320,016 warp instructions)
  imix-10x         the same with 10x the instructions per warp (RSS must not grow with it:
                   its thread block is streamed)
  default          smsim's built-in default (the synthetic workload)
  manycta          80 SMs, 160 thread blocks of 8 warps x 1,000 instructions
  manycta-640      80 SMs, 640 thread blocks of 8 warps x 1,000 instructions
The first rows are smsim's defaults (no engine, thread or reader option: what a user runs). The
two manycta inputs also run with the SMs stepped every cycle (-smtlm_sm_windows 0) and in
windows on 1 and 2 threads (-smtlm_threads), and on the SystemC engine with and without windows.
Settings: the C engine with the reader thread off and on, and the SystemC engine.

Usage: tests/bench/whole_runs.py [--build DIR] [--reps R] [--against OLD_SMSIM] [--quick]
Timing is reported, never asserted: machines differ.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time


def run_once(cmd):
    """One whole run: (wall s, user s, sys s, minor faults, peak RSS MiB, stdout)."""
    out = tempfile.TemporaryFile()
    err = tempfile.TemporaryFile()
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
        try:
            os.execvp(cmd[0], cmd)
        finally:
            os._exit(127)
    _, status, ru = os.wait4(pid, 0)
    wall = time.monotonic() - t0
    out.seek(0)
    err.seek(0)
    if status != 0:
        return None, err.read().decode(errors="replace")[:300]
    return (wall, ru.ru_utime, ru.ru_stime, ru.ru_minflt, ru.ru_maxrss / 1024.0), out.read().decode()


def rss_mib(cmd):
    """Peak RSS of one run."""
    m, err = run_once(cmd)
    if m is None:
        sys.exit(f"whole_runs.py: {' '.join(cmd)} failed: {err}")
    return m[4]


def field(out, name):
    m = re.search(r"^" + re.escape(name) + r" = (\d+)", out, re.M)
    return int(m.group(1)) if m else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="short inputs, one repetition (a smoke run)")
    ap.add_argument("--against", help="an older smsim to run each case with in turn (median of pair ratios)")
    a = ap.parse_args()
    smsim = os.path.join(a.build, "platform", "smsim")
    refgen = os.path.join(a.build, "tests", "bench", "smtlm_refgen")
    n = 500 if a.quick else 20000
    reps = 1 if a.quick else a.reps
    tmp = tempfile.mkdtemp(prefix="smtlm-bench-")
    gen = {"imix": ["imix", str(n)], "dep": ["dep", str(n)], "imix-10x": ["imix", str(10 * n)],
           "manycta": ["manycta", str(max(n // 20, 50))], "manycta-640": ["manycta", str(max(n // 20, 50)), "640"]}
    for name, args in gen.items():
        subprocess.run([refgen, args[0], os.path.join(tmp, name)] + args[1:], check=True)
    one_sm = ["-gpgpu_n_clusters", "1"]
    cases = []
    for name in ["imix", "dep", "manycta"]:
        cases.append((name, "smsim's defaults", ["-trace", os.path.join(tmp, name, "kernelslist.g")]))
    cases.append(("default", "smsim's defaults", []))
    for name in ["imix", "dep"]:
        for engine, reader in [("c", "0"), ("c", "1"), ("systemc", "1")]:
            cases.append((name, f"{engine}, reader {reader}",
                          ["-trace", os.path.join(tmp, name, "kernelslist.g")] + one_sm +
                          ["-smtlm_engine", engine, "-smtlm_reader_thread", reader]))
    cases.append(("default", "c", ["-smtlm_engine", "c"]))
    cases.append(("default", "systemc", ["-smtlm_engine", "systemc"]))
    for reader in ["0", "1"]:
        cases.append(("manycta", f"c, reader {reader}", ["-trace", os.path.join(tmp, "manycta", "kernelslist.g"),
                                                         "-smtlm_engine", "c", "-smtlm_reader_thread", reader]))
    # the SMs every cycle (-smtlm_sm_windows 0) against windows on 1 and 2 threads (and 2 on one core)
    for name in ["manycta", "manycta-640"]:
        for setting, pre, threads, windows in [("c, no windows", [], "1", "0"), ("c, threads 1", [], "1", "1"),
                                               ("c, threads 2", [], "2", "1"),
                                               ("c, threads 2, 1 core", ["taskset", "-c", "0"], "2", "1")]:
            cases.append((name, setting, ["-trace", os.path.join(tmp, name, "kernelslist.g"), "-smtlm_engine", "c",
                                          "-smtlm_reader_thread", "0", "-smtlm_threads", threads,
                                          "-smtlm_sm_windows", windows], pre))
        for setting, windows in [("systemc, no windows", "0"), ("systemc, windows", "1")]:
            cases.append((name, setting, ["-trace", os.path.join(tmp, name, "kernelslist.g"), "-smtlm_engine",
                                          "systemc", "-smtlm_reader_thread", "0", "-smtlm_sm_windows", windows]))
    print(f"{'input':<11} {'setting':<20} {'cycles':>7} {'warp insts':>10} {'wall s':>7} {'user s':>7} "
          f"{'sys s':>6} {'sys %':>5} {'faults':>7} {'RSS MiB':>7} {'M wi/s':>7}" + ("  new/old wall" if a.against else ""))
    for case in cases:
        name, setting, args = case[:3]
        pre = case[3] if len(case) > 3 else []
        runs, old, out = [], [], ""
        for _ in range(reps):
            m, out = run_once(pre + [smsim] + args)
            if m is None:
                sys.exit(f"whole_runs.py: {name} {setting} failed: {out}")
            runs.append(m)
            if a.against:
                o, _ = run_once(pre + [a.against] + args)
                old.append(o)
        med = [statistics.median(r[k] for r in runs) for k in range(5)]
        cycles, wi = field(out, "gpu_tot_sim_cycle"), field(out, "gpgpu_n_tot_w_icount")
        share = 100 * med[2] / (med[1] + med[2]) if med[1] + med[2] > 0 else 0
        line = (f"{name:<11} {setting:<20} {cycles:>7} {wi:>10} {med[0]:>7.3f} {med[1]:>7.3f} {med[2]:>6.3f} "
                f"{share:>5.0f} {med[3]:>7.0f} {med[4]:>7.1f} {wi / med[0] / 1e6:>7.2f}")
        if a.against:
            pairs = [n[0] / o[0] for n, o in zip(runs, old) if o is not None]
            line += f"  {statistics.median(pairs):.3f}" if pairs else "  (old refused it)"
        print(line)
    print("\npeak RSS of the C engine (reader thread off) for 1x and 10x the instructions per warp,"
          " thread blocks streamed as the automatic limit says, and all streamed")
    for name in ["imix", "imix-10x"]:
        for stream in ["-1", "0"]:
            mib = rss_mib([smsim, "-trace", os.path.join(tmp, name, "kernelslist.g")] + one_sm +
                          ["-smtlm_engine", "c", "-smtlm_reader_thread", "0", "-smtlm_trace_stream_mib", stream])
            print(f"{name:<9} {os.path.getsize(os.path.join(tmp, name, 'kernel-1.traceg')) / 2**20:>8.1f} MiB of trace  "
                  f"-smtlm_trace_stream_mib {stream:>2}  {mib:>8.1f} MiB RSS")
    subprocess.run(["rm", "-rf", tmp], check=False)


if __name__ == "__main__":
    main()
