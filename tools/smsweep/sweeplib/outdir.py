"""Whose results an --out directory holds, and what `smsweep run` may do with them.

A sweep directory holds the sweep its points.json names. `smsweep run S --out DIR` takes DIR as
S's own when DIR holds none of smsweep's files, or holds the same sweep: its points.json was
written from S's file (the same path, or DIR/sweep.toml itself), or names a sweep of S's name
(`name`, by default the file name without .toml) with at least one point of the same name as a
point of S. Anything else - another sweep, smsweep's files without a points.json, a points.json
that is not smsweep's - is refused, and nothing in DIR changes; --force deletes smsweep's files
there first (points.json, sweep.toml, results.csv, results.json, points/, slurm/), never while a
point of it still runs.

The same sweep, its file edited: new points run; points it no longer has keep their directories
(and their results, found again if the file names them again); a point whose command line changed
runs again when it has no result, and when it has one (it is done) the run is refused, naming it,
until --force deletes its results."""
import difflib
import os
import shlex
import shutil

from . import pointdir, slurm, spec, state

FILES = ("points.json", "sweep.toml", "results.csv", "results.json")
DIRS = ("points", "slurm")


class Other:
    """What DIR holds instead of this sweep: `name` as --force deletes it, `what` as a refusal
    says it."""

    def __init__(self, name, what):
        self.name = name
        self.what = what


def _plural(n, one, many):
    return "%d %s" % (n, one if n == 1 else many)


def _point_dirs(root):
    path = os.path.join(root, "points")
    return sorted(e for e in os.listdir(path) if os.path.isdir(os.path.join(path, e))) if os.path.isdir(path) else []


def _contents(root):
    """smsweep's files in root, as they are named when deleted."""
    out = [f for f in FILES if os.path.isfile(os.path.join(root, f))]
    for d in DIRS:
        path = os.path.join(root, d)
        if os.path.isdir(path) and os.listdir(path):
            if d == "points":
                out.append("points/ (%s)" % _plural(len(_point_dirs(root)), "point directory", "point directories"))
            else:
                out.append("slurm/ (%s)" % _plural(len(slurm.read_jobs(path)), "submission", "submissions"))
    return out


def _same_file(a, b):
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def other(sd, sweep):
    """None when DIR is this sweep's to work in, else what it holds (Other)."""
    doc, problem = sd.read_points()
    if doc is None:
        if problem:
            return Other("files of a sweep", "a points.json that is not smsweep's (%s)" % problem)
        found = _contents(sd.root)
        if not found:
            return None
        return Other("files of a sweep", "files of a sweep but no points.json (%s)" % ", ".join(found))
    names = [p["name"] for p in doc["points"]]
    recorded = doc.get("sweep_file")
    if (isinstance(recorded, str) and _same_file(recorded, sweep.path)) or \
            _same_file(sweep.path, os.path.join(sd.root, "sweep.toml")):
        return None
    if doc.get("sweep") == sweep.name and set(names) & {p.name for p in sweep.points}:
        return None
    finished = sum(1 for n in names if pointdir.read_exit_status(sd.point_dir(n)) is not None)
    return Other("sweep '%s'" % doc.get("sweep"), "another sweep, '%s' from %s (%s, %d finished)" % (
        doc.get("sweep"), recorded, _plural(len(names), "point", "points"), finished))


def refusal(sd, held):
    return "%s holds %s: give another --out, or add --force to delete it" % (sd.root, held.what)


def delete(sd, held, say):
    """--force: deletes smsweep's files in DIR, saying which; refuses while a point of it runs."""
    dirs = _point_dirs(sd.root)
    busy = [n for n, st, _ in state.states(sd, dirs) if st in ("running", "pending")]
    if busy:
        one = len(busy) == 1
        raise spec.SweepError("%s: --force: %s of %s %s still running or pending (%s): wait for %s to end or stop "
                              "%s, then run again" % (sd.root, _plural(len(busy), "point", "points"), held.name,
                                                      "is" if one else "are", ", ".join(busy), "it" if one else "them",
                                                      "it" if one else "them"))
    for n in dirs:  # an smsim that a killed runner left behind would write on
        pointdir.reclaim(sd.point_dir(n))
    say("--force: deleting %s in %s: %s" % (held.name, sd.root, ", ".join(_contents(sd.root))))
    for f in FILES:
        if os.path.isfile(os.path.join(sd.root, f)):
            os.remove(os.path.join(sd.root, f))
    for d in DIRS:
        if os.path.isdir(os.path.join(sd.root, d)):
            shutil.rmtree(os.path.join(sd.root, d))


def changed_results(sd, sts):
    """The points whose command line changed and that have a result a rerun would delete."""
    return [n for n, st, _ in sts if st == "changed" and state.has_result(sd.point_dir(n))]


def _change(old, new):
    """The first difference between two command lines, in words."""
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "insert":
            return "%s added" % shlex.join(new[j1:j2])
        if tag == "delete":
            return "%s removed" % shlex.join(old[i1:i2])
        if tag == "replace":
            return "%s now %s" % (shlex.join(old[i1:i2]), shlex.join(new[j1:j2]))
    return "the same"


def refuse_changed(sd, names, argvs):
    first = names[0]
    old = (pointdir.read_json(os.path.join(sd.point_dir(first), "point.json")) or {}).get("argv") or []
    return ("%s: the sweep file gives %s with a result another command line (%s; %s: %s): give another --out, or "
            "add --force to delete their results and run them again" % (
                sd.root, _plural(len(names), "point", "points"), ", ".join(names), first, _change(old, argvs[first])))


def say_changed(sd, names, say):
    files = [f for f in pointdir.RESULT_FILES if any(os.path.exists(os.path.join(sd.point_dir(n), f)) for n in names)]
    say("--force: deleting the results of %s whose command line changed (%s): %s" % (
        _plural(len(names), "point", "points"), ", ".join(files), ", ".join(names)))


def say_dropped(sd, sweep, say):
    """Points of the last run that the sweep file no longer has: their directories stay."""
    doc, _ = sd.read_points()
    now = {p.name for p in sweep.points}
    gone = [p["name"] for p in (doc or {}).get("points", [])
            if p["name"] not in now and os.path.isdir(sd.point_dir(p["name"]))]
    if gone:
        say("%s of %s %s no longer in the sweep file; %s: %s" % (
            _plural(len(gone), "point", "points"), sd.root, "is" if len(gone) == 1 else "are",
            "its directory stays" if len(gone) == 1 else "their directories stay", ", ".join(gone)))
