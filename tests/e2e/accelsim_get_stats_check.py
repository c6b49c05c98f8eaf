#!/usr/bin/env python3
"""Applies Accel-Sim's own stat extraction to a real smsim run and checks every value.

What Accel-Sim's util/job_launching/get_stats.py does with a simulator's stdout:
  1. it trusts the output only if, scanning lines from the end, one matches
     SIM_EXIT_STRING with re.match (otherwise "does not contain a terminating string");
  2. for each regex of stats/example_stats.yml (collect_aggregate, collect_abs,
     collect_rates) it scans lines from the end and takes group(1) of the first re.search hit.
The patterns below are those of Accel-Sim (dev branch) for the statistics smtlm models; the
ones for caches, DRAM and occupancy are left out because smtlm has no such counters.
usage: accelsim_get_stats_check.py <smsim> <kernelslist.g> <config>...
"""
import json
import os
import re
import subprocess
import sys
import tempfile

SIM_EXIT_STRING = r"GPGPU-Sim: \*\*\* exit detected \*\*\*"
MAX_BREAK_TOKEN = r"GPGPU-Sim: \*\* break due to reaching the maximum cycles \(or instructions\) \*\*"
STATS = {
    # collect_aggregate
    "gpu_tot_sim_insn": r"gpu_tot_sim_insn\s*=\s*(.*)",
    "gpgpu_simulation_time": r"gpgpu_simulation_time\s*=.*\(([0-9]+) sec\).*",
    "gpu_tot_sim_cycle": r"gpu_tot_sim_cycle\s*=\s*(.*)",
    "gpgpu_n_tot_w_icount": r"gpgpu_n_tot_w_icount\s*=\s*(.*)",
    # collect_abs
    "gpu_ipc": r"gpu_ipc\s*=\s*(.*)",
    # collect_rates
    "gpgpu_simulation_rate": r"gpgpu_simulation_rate\s+=\s+(.*)\s+\(inst\/sec\)",
    "gpu_tot_ipc": r"gpu_tot_ipc\s*=\s*(.*)",
    # per-kernel scripts (get_stats.py -k) and the usual extra yml entries
    "kernel_launch_uid": r"kernel_launch_uid\s*=\s*(.*)",
    "gpgpu_n_shmem_bkconflict": r"gpgpu_n_shmem_bkconflict\s*=\s*(.*)",
    "gpu_sim_cycle": r"gpu_sim_cycle\s*=\s*(.*)",
    "gpu_sim_insn": r"gpu_sim_insn\s*=\s*(.*)",
}


def extract(lines):
    found = {}
    for line in reversed(lines):
        for name, pat in STATS.items():
            if name not in found:
                m = re.compile(pat).search(line.rstrip())
                if m:
                    found[name] = m.group(1).strip()
    return found


def terminated(lines):
    return any(re.match(SIM_EXIT_STRING, l) for l in reversed(lines[-10000:]))


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    smsim, trace, configs = sys.argv[1], sys.argv[2], sys.argv[3:]
    args = [smsim, "-trace", trace]
    for c in configs:
        args += ["-config", c]
    with tempfile.TemporaryDirectory() as tmp:
        jpath = os.path.join(tmp, "stats.json")
        run = subprocess.run(args + ["-smtlm_stats_json", jpath], capture_output=True, text=True, timeout=300)
        if run.returncode != 0:
            fail("smsim exited %d: %s" % (run.returncode, run.stderr))
        with open(jpath) as f:
            js = json.load(f)
        lines = run.stdout.splitlines()
        if not terminated(lines):
            fail("no terminating string: get_stats.py would skip this output")
        got = extract(lines)
        missing = [n for n in STATS if n not in got]
        if missing:
            fail("get_stats.py finds no value for " + ", ".join(missing))
        k = js["kernels"][-1]
        secs = int(got["gpgpu_simulation_time"])
        want = {
            "gpu_tot_sim_insn": str(js["gpu_tot_sim_insn"]),
            "gpu_tot_sim_cycle": str(js["gpu_tot_sim_cycle"]),
            "gpgpu_n_tot_w_icount": str(k["gpgpu_n_tot_w_icount"]),
            "gpu_ipc": "%.4f" % (k["gpu_sim_insn"] / k["gpu_sim_cycle"]),
            "gpu_tot_ipc": "%.4f" % (js["gpu_tot_sim_insn"] / js["gpu_tot_sim_cycle"]),
            "gpgpu_simulation_rate": str(js["gpu_tot_sim_insn"] // secs),
            "kernel_launch_uid": str(len(js["kernels"])),
            "gpgpu_n_shmem_bkconflict": str(k["shmem_bank_conflicts"]),
            "gpu_sim_cycle": str(k["gpu_sim_cycle"]),
            "gpu_sim_insn": str(k["gpu_sim_insn"]),
        }
        for name, value in want.items():
            if got[name] != value:
                fail("%s: get_stats.py reads '%s', the run's value is '%s'" % (name, got[name], value))
        if secs < 1:
            fail("gpgpu_simulation_time below 1 s (Accel-Sim prints at least 1)")
        # a limit run must carry Accel-Sim's break line, word for word
        run = subprocess.run(args + ["-gpgpu_max_cycle", "100"], capture_output=True, text=True, timeout=300)
        if run.returncode != 0 or not any(re.match(MAX_BREAK_TOKEN, l) for l in run.stdout.splitlines()):
            fail("a -gpgpu_max_cycle run lacks the break line get_stats.py matches")
        if not terminated(run.stdout.splitlines()):
            fail("a -gpgpu_max_cycle run lacks the terminating string")
        print("get_stats.py reads: " + ", ".join("%s=%s" % (n, got[n]) for n in STATS))
        print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
