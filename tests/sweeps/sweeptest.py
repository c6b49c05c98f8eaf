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
HELD_SMSIM = os.environ.get("SMTLM_HELD_SMSIM", "")  # held_smsim.c: that smsim, with one point held
DATA = os.environ.get("SMTLM_TEST_DATA", "")     # tests/data
TRACES = os.path.join(DATA, "traces")
LUD = os.path.join(TRACES, "lud", "kernelslist.g")
VECTORADD = os.path.join(TRACES, "vectoradd-100-32-trace", "kernelslist.g")
MATRIXMUL = os.path.join(TRACES, "matrixmul-32-32-trace", "kernelslist.g")


class SweepTest(unittest.TestCase):
    def setUp(self):
        for what, v in (("SMSWEEP", SMSWEEP), ("SMTLM_SMSIM", SMSIM), ("SMTLM_HELD_SMSIM", HELD_SMSIM),
                        ("SMTLM_TEST_DATA", DATA)):
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


class HeldPoint:
    """One point of a sweep held still while the test looks at it, however busy the machine: the
    sweep runs smsim through held_smsim (tests/sweeps/held_smsim.c), which holds the point's next
    run before smsim starts, under the pid smsweep records for it, until go(); every other run
    is the real smsim at once. A test waits for the state it needs, never for time to pass."""

    def __init__(self, test, name):
        self.test, self.name = test, name
        self.gate = test.path("gate")
        os.mkdir(self.gate)
        self.smsim = os.path.join(self.gate, "smsim")  # the sweep's smsim (`smsim = ...`)
        os.symlink(HELD_SMSIM, self.smsim)
        with open(os.path.join(self.gate, "match"), "w") as f:
            f.write("/points/%s/" % name)  # in its outputs' paths, and no other point's

    def hold(self, endless=False):
        """Holds the point's next run. endless: once let go, that run simulates a workload far
        longer than any test waits (32 warps of 10^8 instructions: minutes on any machine) and
        writes a pipeline log of one warp, whose first 64 KiB reach its file (out_file.c's
        buffer) only once the kernel runs: see simulating()."""
        for f in os.listdir(self.gate):
            if f in ("held", "go") or f.startswith("run.log"):
                os.remove(os.path.join(self.gate, f))
        added = ["-smtlm_synth_insts", "100000000", "-smtlm_pipeline_log", os.path.join(self.gate, "run.log"),
                 "-smtlm_log_sms", "0", "-smtlm_log_warps", "0"] if endless else []
        with open(os.path.join(self.gate, "hold"), "w") as f:
            f.write("".join(a + "\n" for a in added))

    def wait_held(self, out, timeout=240):
        """The held run's pid, once it is held and smsweep has recorded it as the point's smsim."""
        def held():
            try:
                with open(os.path.join(self.gate, "held")) as f:
                    return int(f.read())
            except (OSError, ValueError):
                return None
        pid = self.test.wait_for("%s to be held" % self.name, held, timeout=timeout)
        self.test.wait_for("smsweep to record %s's pid" % self.name, lambda: running_pid(out, self.name) == pid,
                           timeout=timeout)
        return pid

    def go(self):
        open(os.path.join(self.gate, "go"), "w").close()

    def simulating(self, pid, sig):
        """An endless held run, let go, is in its kernel and stops at sig with the statistics so
        far: it handles sig, and its pipeline log has written to its temporary file."""
        def log_written():
            for f in os.listdir(self.gate):
                try:
                    if f.startswith("run.log.tmp") and os.path.getsize(os.path.join(self.gate, f)) > 0:
                        return True
                except OSError:  # renamed or removed meanwhile
                    pass
            return False
        return catches(pid, sig) and log_written()


def catches(pid, sig):
    """The process handles sig (smsim installs its handlers once its outputs are open and stops
    with the statistics so far from then on)."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("SigCgt:"):
                    return bool(int(line.split()[1], 16) >> (sig - 1) & 1)
    except OSError:
        pass
    return False


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
