#!/usr/bin/env python3
"""Whole smsim runs on the speed work's reference inputs: wall time (median of R runs), warp
instructions per second, simulated SM-cycles per second and peak RSS, per input and setting.

Inputs (written by smtlm_refgen into a temporary directory):
  imix, dep        1 SM, 16 warps x 20,000 instructions (320,016 warp instructions)
  imix-10x         the same with 10x the instructions per warp (RSS must not grow with it:
                   its thread block is streamed)
  default          smsim's built-in default (the synthetic workload)
  manycta          80 SMs, 160 thread blocks of 8 warps x 1,000 instructions
  manycta-640      80 SMs, 640 thread blocks of 8 warps x 1,000 instructions
The two manycta inputs also run with the SMs stepped every cycle (-smtlm_sm_windows 0) and in
windows on 1 and 2 threads (-smtlm_threads), and on the SystemC engine with and without windows.
Settings: the C engine with the reader thread off and on, and the SystemC engine.

Usage: tests/bench/whole_runs.py [--build DIR] [--reps R] [--quick]
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
    """(seconds, stdout) of one run."""
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    seconds = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit(f"whole_runs.py: {' '.join(cmd)} failed ({p.returncode}): {p.stderr.decode()[:500]}")
    return seconds, p.stdout.decode()


def rss_mib(cmd):
    """Peak RSS of one run, read from the kernel's accounting of the child."""
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        os.execv(cmd[0], cmd)
    _, status, usage = os.wait4(pid, 0)
    if status != 0:
        sys.exit(f"whole_runs.py: {' '.join(cmd)} failed")
    return usage.ru_maxrss / 1024.0


def field(out, name):
    m = re.search(r"^" + re.escape(name) + r" = (\d+)", out, re.M)
    return int(m.group(1)) if m else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="short inputs, one repetition (a smoke run)")
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
    print(f"{'input':<9} {'setting':<20} {'cycles':>9} {'warp insts':>11} {'median s':>9} "
          f"{'M warp-insts/s':>15} {'M SM-cycles/s':>14}")
    for case in cases:
        name, setting, args = case[:3]
        pre = case[3] if len(case) > 3 else []
        times, out = [], ""
        for _ in range(reps):
            s, out = run_once(pre + [smsim] + args)
            times.append(s)
        med = statistics.median(times)
        cycles, wi = field(out, "gpu_tot_sim_cycle"), field(out, "gpgpu_n_tot_w_icount")
        sms = 80 if name in ("manycta", "manycta-640", "default") else 1
        print(f"{name:<9} {setting:<20} {cycles:>9} {wi:>11} {med:>9.3f} {wi / med / 1e6:>15.3f} "
              f"{cycles * sms / med / 1e6:>14.3f}")
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
