"""The SLURM back end: one `sbatch --array` per `smsweep run`, one array task per point.

Each submission writes, under <out>/slurm/:
    array-NNN.sh     the batch script (#SBATCH lines: array range and %K throttle, partition,
                     account, time, memory, CPUs, log files)
    array-NNN.list   the point of each array task, one per line (task i runs line i)
    logs/<job>_<task>.log   the task's own output (smsim's goes to the point's directory)
    jobs.json        every submission: job id, script, points
A task runs `smsweep _task <out> <list>`, which runs its point with the same runner as the
local back end (pointdir.run_point)."""
import getpass
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import time

from . import pointdir

ACTIVE = ("PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "SUSPENDED", "REQUEUED", "RESIZING",
          "STAGE_OUT", "SIGNALING", "REQUEUE_HOLD", "REQUEUE_FED", "RESV_DEL_HOLD")


class SlurmError(Exception):
    pass


def _need(tool):
    path = shutil.which(tool)
    if not path:
        raise SlurmError("%s not found: the slurm back end needs SLURM's client commands on this machine "
                         "(Debian: slurm-client) and a cluster they reach" % tool)
    return path


def read_jobs(sdir):
    doc = pointdir.read_json(os.path.join(sdir, "jobs.json"))
    return doc["submissions"] if doc else []


def settings(sweep_slurm, flags):
    """The [slurm] table of the sweep file with command-line flags on top."""
    s = dict(sweep_slurm)
    for key in ("partition", "account", "time", "mem", "cpus_per_task", "max_parallel", "python", "job_name"):
        v = getattr(flags, key, None)
        if v is not None:
            s[key] = v
    s["sbatch_args"] = list(s.get("sbatch_args", [])) + list(getattr(flags, "sbatch_arg", None) or [])
    return s


def max_array_size():
    """The cluster's MaxArraySize (array indices must stay below it), or None if unknown."""
    try:
        out = subprocess.run(["scontrol", "show", "config"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r"^MaxArraySize\s*=\s*(\d+)", out, re.M)
    return int(m.group(1)) if m else None


def script_text(outdir, listfile, n, s, python, launcher, sweep_name):
    sdir = os.path.join(outdir, "slurm")
    array = "0-%d" % (n - 1)
    if s.get("max_parallel"):
        array += "%%%d" % int(s["max_parallel"])
    lines = ["#!/bin/bash",
             "#SBATCH --job-name=%s" % (s.get("job_name") or "smsweep-" + sweep_name),
             "#SBATCH --array=%s" % array,
             "#SBATCH --output=%s" % os.path.join(sdir, "logs", "%A_%a.log"),
             "#SBATCH --cpus-per-task=%d" % int(s.get("cpus_per_task", 1))]
    for key, opt in (("partition", "--partition"), ("account", "--account"), ("time", "--time"), ("mem", "--mem")):
        if s.get(key):
            lines.append("#SBATCH %s=%s" % (opt, s[key]))
    for a in s.get("sbatch_args", []):
        lines.append("#SBATCH %s" % a)
    lines.append("# one point per array task: line $SLURM_ARRAY_TASK_ID of %s" % os.path.basename(listfile))
    lines.append("exec %s" % shlex.join([python, launcher, "_task", outdir, listfile]))
    return "\n".join(lines) + "\n"


def submit(outdir, names, s, python, launcher, sweep_name):
    """Submits one array for the named points; returns the job id."""
    sbatch = _need("sbatch")
    limit = max_array_size()
    if limit is not None and len(names) > limit:
        raise SlurmError("%d points to run but the cluster's MaxArraySize is %d: raise it in slurm.conf, or run "
                         "the sweep in parts" % (len(names), limit))
    sdir = os.path.join(outdir, "slurm")
    os.makedirs(os.path.join(sdir, "logs"), exist_ok=True)
    subs = read_jobs(sdir)
    seq = len(subs) + 1
    listfile = os.path.join(sdir, "array-%03d.list" % seq)
    script = os.path.join(sdir, "array-%03d.sh" % seq)
    pointdir.write_atomic(listfile, "".join(n + "\n" for n in names))
    pointdir.write_atomic(script, script_text(outdir, listfile, len(names), s, python, launcher, sweep_name))
    os.chmod(script, 0o755)
    p = subprocess.run([sbatch, "--parsable", script], capture_output=True, text=True, cwd=outdir)
    if p.returncode != 0:
        raise SlurmError("sbatch refused %s: %s" % (script, (p.stderr or p.stdout).strip()))
    job = p.stdout.strip().split(";")[0]
    if not job.isdigit():
        raise SlurmError("sbatch answered '%s', not a job id" % p.stdout.strip())
    subs.append({"job": job, "script": script, "list": listfile, "points": list(names), "submitted": time.time()})
    pointdir.write_atomic(os.path.join(sdir, "jobs.json"), json.dumps({"submissions": subs}, indent=1) + "\n")
    return job


def queue(jobs):
    """'<array job>_<task>' -> SLURM state, for the array tasks of these jobs still in the queue."""
    squeue = shutil.which("squeue")
    if not squeue:
        raise SlurmError("squeue not found: points were sent to SLURM and have no result yet; their state "
                         "needs SLURM's client commands (run this where sbatch ran)")
    try:
        p = subprocess.run([squeue, "-h", "-r", "-u", getpass.getuser(), "-o", "%F %K %T"], capture_output=True,
                           text=True, timeout=60)
    except subprocess.TimeoutExpired:
        raise SlurmError("squeue did not answer within 60 s")
    if p.returncode != 0:
        raise SlurmError("squeue failed: %s" % p.stderr.strip())
    wanted, out = set(jobs), {}
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) == 3 and f[0] in wanted:
            out["%s_%s" % (f[0], f[1])] = f[2]
    return out


_sacct = {}  # array job id -> {"<job>_<task>": "STATE, exit code N"} (one sacct call per array job)


def why_gone(job):
    """Why an array task ('<job>_<task>') left the queue, from sacct when the cluster keeps
    accounting."""
    array = job.split("_")[0]
    if array not in _sacct:
        _sacct[array] = {}
        sacct = shutil.which("sacct")
        if sacct:
            try:
                p = subprocess.run([sacct, "-n", "-P", "-X", "-j", array, "-o", "JobID,State,ExitCode"],
                                   capture_output=True, text=True, timeout=30)
                for line in p.stdout.splitlines() if p.returncode == 0 else []:
                    f = line.split("|")
                    if len(f) == 3:
                        _sacct[array][f[0]] = "sacct: %s, exit code %s" % (f[1], f[2])
            except (subprocess.TimeoutExpired, OSError):
                pass
    return _sacct[array].get(job, "no longer in the queue")


def task_main(outdir, listfile):
    """An array task: runs line $SLURM_ARRAY_TASK_ID of the list. Its exit status is smsim's
    (128 + signal when smsim was killed), so SLURM's accounting shows failed points."""
    try:
        task = int(os.environ["SLURM_ARRAY_TASK_ID"])
        with open(listfile) as f:
            name = f.read().splitlines()[task]
    except (KeyError, ValueError):
        raise SlurmError("_task runs as a SLURM array task ($SLURM_ARRAY_TASK_ID is not set)")
    except (OSError, IndexError) as e:
        raise SlurmError("%s: no point for array task %s (%s)" % (listfile, os.environ["SLURM_ARRAY_TASK_ID"], e))
    if not os.path.exists(os.path.join(outdir, "points", name, "point.json")):
        raise SlurmError("%s: point %s has no point.json (was the sweep directory removed?)" % (outdir, name))
    job = "%s_%d" % (os.environ.get("SLURM_ARRAY_JOB_ID", "?"), task)
    # scancel and the time limit signal every process of the task, smsim too, which stops with the
    # statistics so far; passing the signal on would be smsim's second, which ends it at once.
    # The task itself stays to record how smsim ended.
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: None)
    rc = pointdir.run_point(os.path.join(outdir, "points", name), "slurm", job=job)
    return rc if rc >= 0 else 128 - rc
