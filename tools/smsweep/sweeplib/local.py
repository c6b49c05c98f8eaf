"""The local back end: the points on this machine, N smsim processes at a time.

SIGINT/SIGTERM stop the sweep: the running smsim processes are ended and their points left
without an exit status, so the next `smsweep run` runs them again. So does a file smsweep cannot
write (a full disk), whose OSError is raised once the running points have ended."""
import os
import signal
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed

from . import pointdir, state


def default_jobs():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def run(sd, names, jobs, out=sys.stdout):
    """Runs the named points; returns {name: exit status or None (interrupted)}."""
    stop = threading.Event()
    lock = threading.Lock()
    procs = set()

    def started(p):
        with lock:
            procs.add(p)
            if stop.is_set():
                p.terminate()

    def work(name):
        if stop.is_set():
            return None, 0.0
        t0 = time.monotonic()
        rc = pointdir.run_point(sd.point_dir(name), "local", on_start=started, interrupted=stop.is_set)
        return rc, time.monotonic() - t0

    def stop_all(*_):
        stop.set()
        with lock:
            for p in procs:
                if p.poll() is None:
                    p.send_signal(signal.SIGTERM)

    old = {s: signal.signal(s, stop_all) for s in (signal.SIGINT, signal.SIGTERM)}
    results, done, error = {}, 0, None
    try:
        with ThreadPoolExecutor(max(1, jobs)) as ex:
            futures = {ex.submit(work, n): n for n in names}
            for f in as_completed(futures):
                name = futures[f]
                try:
                    rc, secs = f.result()
                except OSError as e:  # the first one ends the sweep; the others follow from it
                    error = error or e
                    stop_all()
                    rc = None
                results[name] = rc
                done += 1
                if rc is None:
                    continue
                st, detail = state.ended(sd.point_dir(name), rc)
                what = "done" if st == "done" else "failed (%s)" % (pointdir.describe_exit(rc) if rc else detail)
                print("smsweep: [%d/%d] %s: %s in %.2f s" % (done, len(names), name, what, secs), file=out,
                      flush=True)
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    if error:
        raise error
    if stop.is_set():
        print("smsweep: interrupted: %d point(s) left to run" % sum(1 for v in results.values() if v is None),
              file=out, flush=True)
    return results
