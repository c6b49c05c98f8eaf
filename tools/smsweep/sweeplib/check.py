"""The dry run: every point's command line checked by smsim's own option registry
(`-smtlm_check_options 1`: options, config files, the engine's configuration and the trace list,
nothing simulated) before anything runs. smsim names a command-line mistake by its argv
position (`<command line>:7: ...`); that position is mapped back to the sweep file's line."""
import os
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor

from . import spec

_CMDLINE = re.compile(r"^<command line>:(\d+): (.*)$", re.S)


def _explain(sweep, point, lines, proc):
    """One message for a point whose check failed."""
    err = [l for l in proc.stderr.splitlines() if l.strip()]
    said = next((l for l in err if l.startswith("smsim: ")), err[-1] if err else "")
    msg = said[len("smsim: "):] if said.startswith("smsim: ") else said
    if not msg:
        return "%s: smsim's check of point %s ended with status %d and no message" % (
            sweep.path, point.name, proc.returncode)
    if "-smtlm_check_options" in msg:
        return "%s: this smsim cannot check options without running (-smtlm_check_options): %s" % (
            sweep.path, msg)
    def line_of(pos, name_error):
        # smsim names an option's position for a bad value too: that is the value's line
        if not name_error and pos + 1 < len(lines) and lines[pos + 1] is not None:
            pos += 1
        return lines[pos] if pos < len(lines) and lines[pos] is not None else 1

    m = _CMDLINE.match(msg)
    if m:
        line = line_of(int(m.group(1)), m.group(2).startswith("unknown option"))
        return "%s:%d: %s" % (sweep.path, line, m.group(2))
    if "<command line>:" in msg:  # e.g. a config file that cannot be opened, named where it was given
        return re.sub(r"<command line>:(\d+)", lambda m: "%s:%d" % (sweep.path, line_of(int(m.group(1)), True)), msg)
    for f in point.config.files:
        if msg.startswith(f + ":") or msg.startswith(f + " "):
            return "%s (config '%s' at %s:%d)" % (msg, point.config.name, sweep.path, point.config.line)
    if point.trace.path:
        tdir = os.path.dirname(point.trace.path)
        if msg.startswith(point.trace.path) or msg.startswith(tdir + "/"):
            return "%s (trace '%s' at %s:%d)" % (msg, point.trace.name, sweep.path, point.trace.line)
    return "%s: point %s: %s" % (sweep.path, point.name, msg)


def dry_run(sweep, smsim, jobs):
    """Checks every point; returns the distinct error messages (each with the points it
    concerns), in point order. Empty = every point would start."""

    def check(point):
        argv, lines = spec.command(sweep, point, smsim)
        proc = subprocess.run(argv + ["-smtlm_check_options", "1"], capture_output=True, text=True,
                              stdin=subprocess.DEVNULL)
        return point, lines, proc

    with ThreadPoolExecutor(max(1, jobs)) as ex:
        results = list(ex.map(check, sweep.points))
    errors = {}
    for point, lines, proc in results:
        if proc.returncode == 0 and not proc.stdout and not proc.stderr:
            continue
        errors.setdefault(_explain(sweep, point, lines, proc), []).append(point.name)
    out = []
    for msg, names in errors.items():
        if len(names) == 1:
            which = "point " + names[0]
        elif len(names) == len(sweep.points):
            which = "all %d points" % len(names)
        else:
            which = "%d of %d points: %s%s" % (len(names), len(sweep.points), ", ".join(names[:2]),
                                               ", ..." if len(names) > 2 else "")
        out.append("%s [%s]" % (msg, which))
    return out
