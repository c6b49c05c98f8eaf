"""What smsweep's tests share: the programs under test (from the environment ctest sets), a
scratch directory per test, and readers of a sweep directory."""
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

SMSWEEP = os.environ.get("SMSWEEP", "")          # the build tree's launcher, next to smsim
SMSIM = os.environ.get("SMTLM_SMSIM", "")        # the smsim it finds there
DATA = os.environ.get("SMTLM_TEST_DATA", "")     # tests/data
TRACES = os.path.join(DATA, "traces")
LUD = os.path.join(TRACES, "lud", "kernelslist.g")
VECTORADD = os.path.join(TRACES, "vectoradd-100-32-trace", "kernelslist.g")
MATRIXMUL = os.path.join(TRACES, "matrixmul-32-32-trace", "kernelslist.g")


def _long_insts(seconds=1.5):
    """Instructions per warp of a synthetic point that runs about `seconds` with this smsim
    (a release build does some 45000 per second, a sanitizer build far fewer): long enough to be
    stopped while it runs, short enough to be run again within the test's time."""
    if not SMSIM:
        return 60000
    n = 5000
    t0 = time.monotonic()
    subprocess.run([SMSIM, "-smtlm_engine", "c", "-smtlm_synth_insts", str(n)], capture_output=True, check=True)
    rate = n / max(time.monotonic() - t0, 1e-3)
    return max(5000, int(rate * seconds) // 1000 * 1000)


# A synthetic point of 32 warps x LONG_INSTS instructions: see _long_insts.
LONG_INSTS = _long_insts()


class SweepTest(unittest.TestCase):
    def setUp(self):
        for what, v in (("SMSWEEP", SMSWEEP), ("SMTLM_SMSIM", SMSIM), ("SMTLM_TEST_DATA", DATA)):
            if not v:
                self.fail("$%s is not set: run this test through ctest" % what)
        self.dir = tempfile.mkdtemp(prefix="smsweep-test-")
        os.chmod(self.dir, 0o755)  # SLURM jobs read it too
        self.addCleanup(shutil.rmtree, self.dir, True)

    def path(self, *rel):
        return os.path.join(self.dir, *rel)

    def write(self, rel, text):
        with open(self.path(rel), "w") as f:
            f.write(text)
        return self.path(rel)

    def smsweep(self, *args, check=None):
        p = subprocess.run([SMSWEEP] + list(args), capture_output=True, text=True, cwd=self.dir, timeout=600)
        if check is not None:
            self.assertEqual(p.returncode, check, "smsweep %s\nstdout:\n%s\nstderr:\n%s" % (
                " ".join(args), p.stdout, p.stderr))
        return p

    def start_smsweep(self, *args):
        return subprocess.Popen([SMSWEEP] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                cwd=self.dir)

    def wait_for(self, what, cond, timeout=120, step=0.02):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            v = cond()
            if v:
                return v
            time.sleep(step)
        self.fail("timed out after %d s waiting for %s" % (timeout, what))


def read_json(path):
    with open(path) as f:
        return json.load(f)


def point_dir(out, name):
    return os.path.join(out, "points", name)


def starts(out, name):
    """How many times the point was started (attempts.log)."""
    try:
        with open(os.path.join(point_dir(out, name), "attempts.log")) as f:
            return sum(1 for line in f if " start " in line)
    except FileNotFoundError:
        return 0


def running_pid(out, name):
    """smsim's pid while the point runs, else None."""
    try:
        return read_json(os.path.join(point_dir(out, name), "running.json"))["pid"]
    except (OSError, ValueError, KeyError):
        return None


def alive(pid):
    """Exists and is not a zombie (a killed orphan may wait a while for its reaper)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def status_table(stdout):
    """smsweep status's lines as {point: state}."""
    out = {}
    for line in stdout.splitlines():
        f = line.split()
        if len(f) >= 2 and not line.startswith("smsweep:"):
            out[f[0]] = f[1]
    return out


def kill(pid, sig=signal.SIGKILL):
    os.kill(pid, sig)


def files_under(top):
    """Every file under top but smsweep's lock, relative path -> bytes."""
    out = {}
    for d, _, files in os.walk(top):
        for f in files:
            if f != ".smsweep.lock":
                with open(os.path.join(d, f), "rb") as fh:
                    out[os.path.relpath(os.path.join(d, f), top)] = fh.read()
    return out
