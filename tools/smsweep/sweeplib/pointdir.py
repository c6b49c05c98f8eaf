"""One point's directory: what it runs, and the runner that runs it (the same on every back end).

    point.json     name, index, trace, config, swept parameters and smsim's argv
    command.txt    the command line, ready to paste into a shell
    stdout.txt, stderr.txt, stats.json (+ kernels.csv, report.html, events.log when asked for)
    exit_status    smsim's exit status, written last: a point with it has finished
    running.json   while it runs: backend, host, runner and smsim pids, SLURM job
    attempts.log   one line per start and per end, kept across reruns

Every file smsweep writes whole goes to a temporary file beside it that is renamed into place
once complete; an OSError names the file (a write error of an open file carries no name).
"""
import contextlib
import json
import os
import shlex
import signal
import socket
import subprocess
import time

RESULT_FILES = ("stdout.txt", "stderr.txt", "stats.json", "kernels.csv", "report.html", "events.log",
                "exit_status", "running.json")


@contextlib.contextmanager
def naming(path):
    """An OSError inside names `path` when it names no file itself."""
    try:
        yield
    except OSError as e:
        if e.filename is None:
            raise OSError(e.errno, e.strerror or str(e), path) from None
        raise


def write_atomic(path, data):
    """Writes text or bytes to path through a temporary file beside it: path is either its old
    self or complete, and the temporary file never stays. An error names path."""
    tmp = "%s.tmp%d" % (path, os.getpid())
    try:
        with open(tmp, "wb" if isinstance(data, bytes) else "w") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.remove(tmp)
        if isinstance(e, OSError):
            raise OSError(e.errno, e.strerror or str(e), path) from None
        raise


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def read_exit_status(pdir):
    try:
        with open(os.path.join(pdir, "exit_status")) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


def read_stats(pdir):
    """The point's stats.json as (document, None) when it is smsim's statistics of a run that
    completed, else (None, what is wrong with it)."""
    try:
        with open(os.path.join(pdir, "stats.json"), "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        return None, "no stats.json"
    except OSError as e:
        return None, "stats.json cannot be read (%s)" % e.strerror
    try:
        doc = json.loads(raw)
    except ValueError as e:
        return None, "stats.json does not parse (%s)" % e
    if not isinstance(doc, dict):
        return None, "stats.json is not smsim's statistics (not a JSON object)"
    if "complete" not in doc:
        return None, 'stats.json does not say the run completed (no "complete": true)'
    if doc["complete"] is not True:
        error = doc.get("error")
        return None, "stats.json says the run did not complete%s" % (": " + error if error else "")
    for key, kind in (("kernels", list), ("gpu_tot_sim_cycle", int), ("gpu_tot_sim_insn", int)):
        if not isinstance(doc.get(key), kind):
            return None, "stats.json is not smsim's statistics (no %s)" % key
    return doc, None


def describe_exit(rc):
    if rc < 0:
        try:
            name = signal.Signals(-rc).name
        except ValueError:
            name = "signal %d" % -rc
        return "killed by %s" % name
    return "exit status %d" % rc


def clear_results(pdir):
    """Before a point runs again: its last result goes (attempts.log stays)."""
    reclaim(pdir)
    for f in RESULT_FILES:
        _remove(os.path.join(pdir, f))


def prepare(pdir, point, argv):
    """Creates the directory and its description, for a point about to run: any earlier result
    goes, so that until it runs it is pending or missing, never its old self."""
    os.makedirs(pdir, exist_ok=True)
    clear_results(pdir)
    info = {"index": point.index, "name": point.name, "trace": point.trace.name, "trace_path": point.trace.path,
            "config": point.config.name, "config_files": point.config.files, "params": point.params(),
            "argv": argv}
    write_atomic(os.path.join(pdir, "point.json"), json.dumps(info, indent=1) + "\n")
    write_atomic(os.path.join(pdir, "command.txt"), shlex.join(argv) + "\n")


def _log(pdir, text):
    path = os.path.join(pdir, "attempts.log")
    with naming(path), open(path, "a") as f:
        f.write("%s %s\n" % (time.strftime("%Y-%m-%dT%H:%M:%S"), text))


def _remove(path):
    with contextlib.suppress(FileNotFoundError):
        os.remove(path)


def _alive(pid):
    """The process exists and is not a zombie (an orphan nobody reaped yet has ended)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def _cmdline(pid):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return [a.decode(errors="replace") for a in f.read().split(b"\0")[:-1]]
    except OSError:
        return None


def local_run_alive(marker):
    """A local run's marker describes a runner that still works on this host."""
    return (marker.get("host") == socket.gethostname() and _alive(marker.get("runner_pid", -1))
            and _alive(marker.get("pid", -1)))


def reclaim(pdir):
    """Ends an smsim left running on this host by a runner that died (SIGKILL, crash): it would
    write into the files a rerun is about to write. Only a process whose command line is this
    point's own is touched."""
    marker = read_json(os.path.join(pdir, "running.json"))
    info = read_json(os.path.join(pdir, "point.json"))
    if not marker or not info or marker.get("host") != socket.gethostname():
        return
    pid = marker.get("pid")
    if isinstance(pid, int) and _cmdline(pid) == info["argv"]:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def run_point(pdir, backend, job=None, on_start=None, interrupted=None):
    """Runs the point's smsim to its end; returns its exit status (negative: killed by that
    signal), or None when the run was interrupted (then no exit status is written and the
    point counts as missing). An OSError (a full disk) ends smsim and leaves the point without
    an exit status and without running.json: missing."""
    info = read_json(os.path.join(pdir, "point.json"))
    argv = info["argv"]
    clear_results(pdir)
    marker = {"backend": backend, "host": socket.gethostname(), "runner_pid": os.getpid(), "job": job,
              "started": time.time()}
    marker_path = os.path.join(pdir, "running.json")
    start = time.monotonic()
    with open(os.path.join(pdir, "stdout.txt"), "w") as out, open(os.path.join(pdir, "stderr.txt"), "w") as err:
        proc = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL, cwd=pdir)
    try:
        try:
            marker["pid"] = proc.pid
            # logged before the marker: a point marked running has its start in attempts.log
            _log(pdir, "start backend=%s host=%s pid=%d%s" % (backend, marker["host"], proc.pid,
                                                                " job=%s" % job if job else ""))
            write_atomic(marker_path, json.dumps(marker) + "\n")
            if on_start:
                on_start(proc)
            rc = proc.wait()
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        seconds = time.monotonic() - start
        if rc != 0 and interrupted is not None and interrupted():  # a finished run keeps its result
            _log(pdir, "interrupted after %.3f s (%s)" % (seconds, describe_exit(rc)))
            return None
        write_atomic(os.path.join(pdir, "exit_status"), "%d\n" % rc)
        _log(pdir, "end %s after %.3f s" % (describe_exit(rc), seconds))
        return rc
    finally:
        _remove(marker_path)


def seconds_of_last_run(pdir):
    """From attempts.log: the duration of the last finished attempt, or None."""
    try:
        with open(os.path.join(pdir, "attempts.log")) as f:
            ends = [l for l in f if " end " in l]
    except OSError:
        return None
    if not ends:
        return None
    try:
        return float(ends[-1].rsplit(" after ", 1)[1].split()[0])
    except (IndexError, ValueError):
        return None
