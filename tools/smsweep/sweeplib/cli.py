"""smsweep's command line: run, status, collect, plot (and _task, an array task on SLURM)."""
import argparse
import collections
import fcntl
import os
import re
import shutil
import sys
import time

from . import check, collect, local, outdir, plot, pointdir, slurm, spec, state

USAGE = """smsweep: design-space sweeps of smsim, on this machine or on a SLURM cluster.

  smsweep run SWEEP.toml --out DIR [--backend local|slurm] [-j N] [--dry-run] [--wait] [--force]
  smsweep status DIR
  smsweep collect DIR                      -> DIR/results.csv, DIR/results.json
  smsweep plot DIR --metric M --x PARAM [--out FILE.svg|.png] [--where COL=VALUE] [--relative]

Every point is checked by smsim before anything runs; `run` again runs only the points that are
missing or failed. `run` refuses an --out directory that holds another sweep, or points with a
result that now have another command line; --force deletes them. Exit status: 0 all done, 1 some
point failed or is not done, 2 bad input or a file smsweep cannot write (a full disk),
130 interrupted. Reference: docs/SWEEPS.md."""


def _say(msg, err=False):
    print("smsweep: " + msg, file=sys.stderr if err else sys.stdout, flush=True)


def find_smsim(flag, sweep_smsim):
    """--smsim, then the sweep file's `smsim`, $SMSIM, smsim next to this launcher (the build tree's
    platform/ directory, or an install's bin/), then PATH."""
    for what, cand in (("--smsim", flag), ("the sweep file's smsim", sweep_smsim), ("$SMSIM", os.environ.get("SMSIM"))):
        if cand:
            path = os.path.abspath(cand)
            if not (os.path.isfile(path) and os.access(path, os.X_OK)):
                raise spec.SweepError("%s: %s is not an executable smsim" % (cand, what))
            return path
    for d in (os.path.dirname(os.path.abspath(sys.argv[0])), os.path.dirname(os.path.realpath(sys.argv[0]))):
        path = os.path.join(d, "smsim")
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    found = shutil.which("smsim")
    if found:
        return os.path.abspath(found)
    raise spec.SweepError("smsim not found: pass --smsim PATH, set smsim = \"...\" in the sweep file, or set $SMSIM")


class _Lock:
    """One `smsweep run` at a time per sweep directory."""

    def __init__(self, root):
        path = os.path.join(root, ".smsweep.lock")
        self.fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(self.fd, 100, 0).decode(errors="replace").strip()
            os.close(self.fd)
            raise spec.SweepError("%s is in use by another smsweep run (%s)" % (root, holder or "?"))
        try:
            with pointdir.naming(path):
                os.ftruncate(self.fd, 0)
                os.pwrite(self.fd, b"pid %d\n" % os.getpid(), 0)
        except OSError:
            self.release()
            raise

    def release(self):
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)


def _summary(sts):
    c = collections.Counter(st for _, st, _ in sts)
    order = ("done", "running", "pending", "failed", "interrupted", "missing", "changed")
    return "%d points: %s" % (len(sts), ", ".join("%d %s" % (c[k], k) for k in order if c[k]))


def _wait(sd, names, poll):
    last = None
    while True:
        sts = state.states(sd, names)
        text = _summary(sts)
        if text != last:
            _say(text)
            last = text
        if not any(st in ("running", "pending") for _, st, _ in sts):
            return sts
        time.sleep(poll)


def cmd_run(a):
    sweep = spec.load(a.sweep)
    smsim = find_smsim(a.smsim, sweep.smsim)
    jobs = a.jobs or int(sweep.local.get("jobs", 0)) or local.default_jobs()
    pairs = len({(p.trace.name, p.config.name) for p in sweep.points})
    _say("%s: %d points (%d trace and config pairs x %d settings), smsim %s" % (
        sweep.path, len(sweep.points), pairs, len(sweep.points) // max(1, pairs), smsim))
    errors = check.dry_run(sweep, smsim, jobs)
    if errors:
        for e in errors:
            _say(e, err=True)
        _say("nothing was run: the dry run found %d problem%s" % (len(errors), "" if len(errors) == 1 else "s"),
             err=True)
        return 2
    if a.dry_run:
        for p in sweep.points:
            print("  " + p.name)
        _say("dry run: smsim accepts every point")
        return 0
    sd = state.Sweepdir(a.out)
    argvs = {p.name: spec.command(sweep, p, smsim, outdir=sd.point_dir(p.name))[0] for p in sweep.points}
    held = outdir.other(sd, sweep)
    if held and not a.force:  # before anything is written there
        raise spec.SweepError(outdir.refusal(sd, held))
    os.makedirs(sd.root, exist_ok=True)
    lock = _Lock(sd.root)
    try:
        held = outdir.other(sd, sweep)  # again: now no other run changes it
        if held and not a.force:
            raise spec.SweepError(outdir.refusal(sd, held))
        if held:
            outdir.delete(sd, held, _say)
        sts = state.states(sd, [p.name for p in sweep.points], expected_argv=argvs)
        changed = outdir.changed_results(sd, sts)
        if changed and not a.force:
            raise spec.SweepError(outdir.refuse_changed(sd, changed, argvs))
        if changed:
            outdir.say_changed(sd, changed, _say)
        outdir.say_dropped(sd, sweep, _say)
        todo = [n for n, st, _ in sts if st in state.NEEDS_RUN]
        # points.json first: from here on the directory is this sweep's, whatever stops the run
        sd.write_points(sweep, argvs)
        copy = os.path.join(sd.root, "sweep.toml")
        if not (os.path.exists(copy) and os.path.samefile(sweep.path, copy)):
            with open(sweep.path, "rb") as f:
                pointdir.write_atomic(copy, f.read())
        os.makedirs(os.path.join(sd.root, "points"), exist_ok=True)
        for p in sweep.points:
            if p.name in todo:
                pointdir.prepare(sd.point_dir(p.name), p, argvs[p.name])
        c = collections.Counter(st for _, st, _ in sts)
        _say("%s: %d to run (%s), %d done, %d running or pending" % (
            sd.root, len(todo), ", ".join("%d %s" % (c[k], k) for k in state.NEEDS_RUN if c[k]) or "none",
            c["done"], c["running"] + c["pending"]))
        if not todo and not (a.backend == "slurm" and a.wait):
            return 0 if c["done"] == len(sts) else 1
        if a.backend == "local":
            results = local.run(sd, todo, jobs)
            if any(v is None for v in results.values()):
                return 130
        elif todo:
            s = slurm.settings(sweep.slurm, a)
            python = s.get("python") or sys.executable
            job = slurm.submit(sd.root, todo, s, python, os.path.abspath(sys.argv[0]), sweep.name)
            _say("submitted job %s: %d array task%s%s (%s)" % (
                job, len(todo), "" if len(todo) == 1 else "s",
                ", at most %s at once" % s["max_parallel"] if s.get("max_parallel") else "",
                os.path.join(sd.slurm_dir(), "array-%03d.sh" % len(slurm.read_jobs(sd.slurm_dir())))))
            if not a.wait:
                _say("smsweep status %s shows where they are" % sd.root)
                return 0
    finally:
        lock.release()
    if a.backend == "slurm":
        final = _wait(sd, [p.name for p in sweep.points], a.poll)  # says the summary as it changes
    else:
        final = state.states(sd, [p.name for p in sweep.points])
        _say(_summary(final))
    for n, st, detail in final:
        if st != "done":
            _say("%s: %s%s" % (n, st, ": " + detail if detail else ""))
    return 0 if all(st == "done" for _, st, _ in final) else 1


def cmd_status(a):
    sd = state.Sweepdir(a.dir)
    sts = state.states(sd, [n for n, _ in sd.points()])
    w = max(len(n) for n, _, _ in sts) if sts else 0
    for n, st, detail in sts:
        print("%-*s  %-11s %s" % (w, n, st, detail))
    _say(_summary(sts))
    return 0 if all(st == "done" for _, st, _ in sts) else 1


def cmd_collect(a):
    sd = state.Sweepdir(a.dir)
    csv_path, json_path, cols, rows = collect.write(sd)
    done = sum(1 for r in rows if r["status"] == "done")
    for r in rows:
        if r["status"] != "done":
            _say("%s: %s%s" % (r["point"], r["status"], ": " + r["detail"] if r["detail"] else ""))
    _say("%s, %s: %d rows (%d done), %d columns" % (csv_path, json_path, len(rows), done, len(cols)))
    return 0 if done == len(rows) else 1


def cmd_plot(a):
    sd = state.Sweepdir(a.dir)
    cols, rows = collect.rows(sd)
    params = pointdir.read_json(os.path.join(sd.root, "points.json")).get("params", [])
    lines, numeric, metric, x = plot.series(cols, rows, a.metric, a.x, params, a.where or (), a.relative)
    out = a.out or os.path.join(sd.root, re.sub(r"[^A-Za-z0-9_.=-]", "_", "%s-vs-%s.svg" % (metric, x)))
    plot.draw(lines, numeric, metric, x, out, a.title or "", a.relative)
    _say("%s: %s against %s, %d line%s" % (out, metric, x, len(lines), "" if len(lines) == 1 else "s"))
    return 0


def parser():
    p = argparse.ArgumentParser(prog="smsweep", description=USAGE, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", metavar="{run,status,collect,plot}")
    r = sub.add_parser("run", help="check every point, then run the missing and failed ones")
    r.add_argument("sweep", help="the sweep file (TOML)")
    r.add_argument("--out", required=True, help="the sweep directory: one directory per point under DIR/points")
    r.add_argument("--backend", choices=("local", "slurm"), default="local")
    r.add_argument("-j", "--jobs", type=int, help="local: smsim processes at once (default: the core count); "
                   "also the dry run's")
    r.add_argument("--smsim", help="the smsim to run (default: next to smsweep, then $SMSIM, then PATH)")
    r.add_argument("--dry-run", action="store_true", help="check every point and list them; run nothing")
    r.add_argument("--force", action="store_true", help="--out holds another sweep: delete it; or points with a "
                   "result now have another command line: delete their results (says what it deletes)")
    g = r.add_argument_group("slurm (override the sweep file's [slurm] table)")
    g.add_argument("--partition")
    g.add_argument("--account")
    g.add_argument("--time", help="per array task, as sbatch --time")
    g.add_argument("--mem", help="per array task, as sbatch --mem")
    g.add_argument("--cpus-per-task", dest="cpus_per_task", type=int)
    g.add_argument("--max-parallel", dest="max_parallel", type=int, help="array tasks at once (sbatch --array=...%%K)")
    g.add_argument("--job-name", dest="job_name")
    g.add_argument("--python", help="the Python 3 that runs smsweep's task on the compute nodes")
    g.add_argument("--sbatch-arg", action="append", metavar="ARG", help="one more sbatch option (repeatable)")
    g.add_argument("--wait", action="store_true", help="wait until every submitted point has finished")
    g.add_argument("--poll", type=float, default=5.0, help="seconds between queue checks with --wait (default 5)")
    s = sub.add_parser("status", help="done / running / pending / failed per point")
    s.add_argument("dir")
    c = sub.add_parser("collect", help="DIR/results.csv and DIR/results.json: a row per point")
    c.add_argument("dir")
    pl = sub.add_parser("plot", help="a metric against a parameter, one line per trace")
    pl.add_argument("dir")
    pl.add_argument("--metric", default="gpu_tot_sim_cycle", help="a column of results.csv (default gpu_tot_sim_cycle)")
    pl.add_argument("--x", required=True, help="the parameter on the x axis (an option, with or without its dash)")
    pl.add_argument("--out", help="FILE.svg or FILE.png (default DIR/<metric>-vs-<x>.svg)")
    pl.add_argument("--where", action="append", metavar="COL=VALUE", help="only points with this value (repeatable)")
    pl.add_argument("--relative", action="store_true", help="each line divided by its value at the first x")
    pl.add_argument("--title")
    t = sub.add_parser("_task")  # a SLURM array task (internal)
    t.add_argument("dir")
    t.add_argument("list")
    return p


def main(argv=None):
    a = parser().parse_args(argv)
    if not a.cmd:
        print(USAGE)
        return 2
    try:
        if a.cmd == "_task":
            return slurm.task_main(os.path.abspath(a.dir), a.list)
        return {"run": cmd_run, "status": cmd_status, "collect": cmd_collect, "plot": cmd_plot}[a.cmd](a)
    except (spec.SweepError, slurm.SlurmError, plot.PlotError) as e:
        _say(str(e), err=True)
        return 2
    except OSError as e:  # a file smsweep cannot read or write: a full disk, a permission
        _say("%s: %s" % (e.filename, e.strerror) if e.filename and e.strerror else str(e), err=True)
        return 2
