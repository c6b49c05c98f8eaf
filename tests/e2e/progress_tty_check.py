#!/usr/bin/env python3
"""smsim's progress line on a terminal (a pseudo-terminal here): shown once a run has lasted a
second however short its kernels are (a list of thousands of short kernels), without a word
about a trace in a synthetic run, and ended before the one line a signal's stop prints.

usage: progress_tty_check.py SMSIM TRACE_DIR WORK_DIR"""
import os
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import time

failed = 0


def check(ok, what):
    global failed
    if not ok:
        failed += 1
        print("FAILED: " + what)


def run_until_line(argv, shown=rb"\rsmsim: kernel [^\r]*ETA \d", seconds=240):
    """Runs argv with stderr on a pseudo-terminal until a progress line with an estimate shows
    (until a kernel has done some of its work the line says "ETA --", and on a busy host that can
    take over a second); then SIGINT. Returns (the text the terminal got, exit status)."""
    master, slave = pty.openpty()
    p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    text, sent, end = b"", False, time.time() + seconds
    while True:
        r, _, _ = select.select([master], [], [], 0.1)
        if r:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the child closed the terminal
                chunk = b""
            if not chunk:
                break
            text += chunk
        if not sent and re.search(shown, text):
            p.send_signal(signal.SIGINT)
            sent = True
        if time.time() > end and not sent:
            p.kill()
            break
    os.close(master)
    return text.decode(errors="replace"), p.wait()


def main():
    smsim, trace_dir, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    shutil.copy(os.path.join(trace_dir, "kernel-1.traceg"), work)
    with open(os.path.join(work, "kernelslist.g"), "w") as f:
        f.write("kernel-1.traceg\n" * 20000)  # far more than a second of kernels of ~6,000 cycles each

    text, status = run_until_line([smsim, "-smtlm_engine", "c", "-trace", os.path.join(work, "kernelslist.g")])
    lines = re.findall(r"\rsmsim: kernel [^\r]*", text)
    check(lines, "a run of short kernels shows a progress line: %r" % text[-300:])
    check(all(re.match(r"\rsmsim: kernel \d+/20000  cycle \d+  \d+ warp inst  [0-9.]+ M warp inst/s  trace \d+% read  "
                       r"ETA (--|[0-9:]+)\x1b\[K$", l) for l in lines), "the trace run's line: %r" % lines[-1:])
    check(lines and re.search(r"ETA [0-9:]+\x1b\[K$", lines[-1]), "the trace run has an estimate: %r" % lines[-1:])
    check(status == 130, "stopped by SIGINT: exit status %d" % status)
    check(re.search(r"\r\x1b\[Ksmsim: SIGINT: stopped (at cycle \d+ of kernel \d+ \(\S+\)|before kernel \d+); the "
                    r"statistics so far are marked incomplete\r?\n$", text) is not None,
          "the line is ended before the stop's message: %r" % text[-200:])

    text, status = run_until_line([smsim, "-smtlm_engine", "c", "-smtlm_synth_insts", "2000000"])
    lines = re.findall(r"\rsmsim: kernel [^\r]*", text)
    check(lines, "a synthetic run shows a progress line: %r" % text[-300:])
    check(lines and all("trace" not in l for l in lines), "no trace in a synthetic run: %r" % lines[-1:])
    check(lines and all(re.search(r"ETA \d+:\d\d", l) for l in lines), "a synthetic run has an estimate: %r" % lines[-1:])
    check(status == 130, "stopped by SIGINT: exit status %d" % status)
    print("progress checks: %d failed" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
