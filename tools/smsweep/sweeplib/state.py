"""Where each point stands: done, failed, running, pending, interrupted, missing or changed.

Read from the point's files (exit_status is written last, running.json while it runs) and, for
points sent to SLURM, from the queue (squeue; sacct, when the cluster keeps accounting, says
why a task that left the queue without a result ended). Done is exit status 0 with a stats.json
that says the run completed (pointdir.read_stats); anything else that ended is failed."""
import json
import os

from . import pointdir, slurm, spec

# states a rerun runs again
NEEDS_RUN = ("missing", "failed", "interrupted", "changed")


class Sweepdir:
    """The --out directory: points.json lists the sweep's points (name -> directory)."""

    def __init__(self, root):
        self.root = os.path.abspath(root)

    def point_dir(self, name):
        return os.path.join(self.root, "points", name)

    def read_points(self):
        """(points.json's document, None); (None, None) when there is none; (None, what is wrong)
        when it is not smsweep's."""
        path = os.path.join(self.root, "points.json")
        try:
            with open(path, "rb") as f:
                doc = json.loads(f.read())
        except FileNotFoundError:
            return None, None
        except OSError as e:
            return None, e.strerror
        except ValueError as e:
            return None, str(e)
        if not (isinstance(doc, dict) and isinstance(doc.get("points"), list) and
                all(isinstance(p, dict) and isinstance(p.get("name"), str) for p in doc["points"])):
            return None, "not a list of points"
        return doc, None

    def points(self):
        """[(name, info)] in sweep order, from points.json."""
        doc, problem = self.read_points()
        if doc is None:
            raise spec.SweepError("%s: not a sweep directory (%s)" % (
                self.root, "points.json: %s" % problem if problem else "no points.json; smsweep run writes it"))
        return [(p["name"], pointdir.read_json(os.path.join(self.point_dir(p["name"]), "point.json")) or p)
                for p in doc["points"]]

    def write_points(self, sweep, argvs):
        doc = {"sweep": sweep.name, "sweep_file": os.path.abspath(sweep.path),
               "params": [p.lstrip("-") for p in sweep.param_names],
               "points": [{"name": p.name, "index": p.index, "argv": argvs[p.name]} for p in sweep.points]}
        pointdir.write_atomic(os.path.join(self.root, "points.json"), json.dumps(doc, indent=1) + "\n")

    def slurm_dir(self):
        return os.path.join(self.root, "slurm")


def _submitted(sd):
    """name -> (array job id, task id) of the point's latest SLURM submission."""
    out = {}
    for sub in slurm.read_jobs(sd.slurm_dir()):
        for task, name in enumerate(sub["points"]):
            out[name] = (str(sub["job"]), task)
    return out


def states(sd, names, expected_argv=None):
    """[(name, state, detail)] for the named points. expected_argv: name -> argv of the sweep file
    as it is now (a point whose argv differs is 'changed')."""
    submitted = _submitted(sd)
    # SLURM is asked only about points sent to it that have no result yet (so a finished sweep
    # needs no SLURM), and before their files are read: a task that ends in between has its
    # exit status written by then, and is not taken for one that vanished
    waiting = [n for n in names if pointdir.read_exit_status(sd.point_dir(n)) is None and
               (n in submitted or (pointdir.read_json(os.path.join(sd.point_dir(n), "running.json")) or {})
                .get("backend") == "slurm")]
    jobs = sorted({j for j, _ in submitted.values()})
    queue = slurm.queue(jobs) if jobs and waiting else {}
    out = []
    for name in names:
        out.append((name,) + _state(sd.point_dir(name), name, expected_argv, submitted.get(name), queue))
    return out


def _state(pdir, name, expected_argv, submitted, queue):
    info = pointdir.read_json(os.path.join(pdir, "point.json"))
    if info is None:
        return "missing", ""
    rc = pointdir.read_exit_status(pdir)
    marker = pointdir.read_json(os.path.join(pdir, "running.json"))
    slurm_job = marker.get("job", "") if marker and marker.get("backend") == "slurm" else None
    # a point at work stays so, even when the sweep file changed under it: it is not run twice
    if rc is None and slurm_job is not None and queue.get(slurm_job) in slurm.ACTIVE:
        return "running", "job %s on %s" % (slurm_job, marker.get("host"))
    if rc is None and marker and slurm_job is None and pointdir.local_run_alive(marker):
        return "running", "pid %s on %s" % (marker.get("pid"), marker.get("host"))
    if rc is None and not marker and submitted:
        job = "%s_%d" % submitted
        st = queue.get(job)
        if st in slurm.ACTIVE:
            return ("running" if st != "PENDING" else "pending"), "job %s %s" % (job, st.lower())
    if expected_argv is not None and info.get("argv") != expected_argv.get(name):
        return "changed", "the sweep file gives this point another command line"
    if rc is not None:
        return ended(pdir, rc)
    if slurm_job is not None:
        return "failed", "job %s ended without a result (%s)" % (slurm_job, slurm.why_gone(slurm_job))
    if marker:
        return "interrupted", "its runner stopped before smsim finished"
    if submitted:
        job = "%s_%d" % submitted
        return "failed", "job %s left the queue without running (%s)" % (job, slurm.why_gone(job))
    return "missing", ""


def ended(pdir, rc):
    """(state, detail) of a point whose smsim ended with exit status rc."""
    if rc == 0:
        _, problem = pointdir.read_stats(pdir)
        if problem:
            return "failed", "exit status 0 but " + problem
        secs = pointdir.seconds_of_last_run(pdir)
        return "done", "%.2f s" % secs if secs is not None else ""
    return "failed", pointdir.describe_exit(rc) + _first_error(pdir)


def has_result(pdir):
    """The point ended and is done: a rerun would delete a result."""
    rc = pointdir.read_exit_status(pdir)
    return rc is not None and ended(pdir, rc)[0] == "done"


def _first_error(pdir):
    """smsim's first error line: from stderr.txt, else the stats.json's error (a full disk may
    have kept it from stderr.txt)."""
    try:
        with open(os.path.join(pdir, "stderr.txt")) as f:
            for line in f:
                if line.startswith("smsim: ") and "warning" not in line:
                    return ": " + line.strip()[len("smsim: "):][:200]
    except OSError:
        pass
    doc = pointdir.read_json(os.path.join(pdir, "stats.json"))
    error = doc.get("error") if isinstance(doc, dict) else None
    return ": " + error[:200] if isinstance(error, str) and error else ""
