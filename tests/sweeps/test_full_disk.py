"""A full disk, for real: the sweep directory on a small tmpfs that the test mounts (as root, in a
mount namespace of its own, so that the mount ends with the test process) and fills to the last
page. Whatever smsweep cannot write - its own files (points.json, a point's exit_status,
results.csv, a chart), not smsim's - ends it with one line `smsweep: <path>: <strerror>` and exit
status 2: no traceback, no temporary file left beside the target, the file it would have replaced
intact, and a rerun with free space finishes the sweep."""
import ctypes
import errno
import os
import subprocess
import unittest

from sweeptest import (VECTORADD, HeldPoint, SweepTest, alive, files_under, point_dir, read_json, starts,
                       status_table)

CLONE_NEWNS = 0x00020000
_private = False


def private_mounts(test):
    """Moves this (single-threaded) test process into a mount namespace of its own, once: its
    mounts are seen by its children (smsweep, smsim) and vanish when it ends."""
    global _private
    if _private:
        return
    if os.geteuid() != 0:
        test.fail("the full-disk test mounts a tmpfs and must run as root (as CI does)")
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(CLONE_NEWNS) != 0:
        e = ctypes.get_errno()
        raise OSError(e, "unshare(CLONE_NEWNS): %s" % os.strerror(e))
    subprocess.run(["mount", "--make-rprivate", "/"], check=True)
    _private = True


def fill(disk):
    """Writes a file that takes every free page of the tmpfs; returns its path."""
    path = os.path.join(disk, "filler")
    with open(path, "ab", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 65536)
        except OSError as e:
            if e.errno != errno.ENOSPC:
                raise
    return path


class FullDiskTest(SweepTest):
    def setUp(self):
        super().setUp()
        private_mounts(self)
        self.disk = self.path("disk")
        os.mkdir(self.disk)
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", self.disk], check=True)
        self.addCleanup(subprocess.run, ["umount", self.disk], check=True)
        self.out = os.path.join(self.disk, "out")

    def assert_one_line(self, p, path):
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertEqual(p.stderr, "smsweep: %s: %s\n" % (path, os.strerror(errno.ENOSPC)))
        self.assertNotIn("Traceback", p.stdout)

    def assert_no_temporary_file(self):
        strays = [f for d, _, files in os.walk(self.disk) for f in files if ".tmp" in f]
        self.assertEqual(strays, [])

    def banks_sweep(self, banks):
        self.write("sweep.toml", 'traces = ["%s"]\nengine = "c"\n[grid]\n"-gpgpu_num_reg_banks" = %s\n' % (
            VECTORADD, banks))

    def test_collect_and_plot_on_a_full_disk_keep_the_files_they_would_replace(self):
        self.banks_sweep("[8, 16]")
        self.smsweep("run", "sweep.toml", "--out", self.out, check=0)
        self.smsweep("collect", self.out, check=0)
        chart = os.path.join(self.out, "chart.svg")
        self.smsweep("plot", self.out, "--x", "gpgpu_num_reg_banks", "--out", chart, check=0)
        before = files_under(self.out)
        os.remove(os.path.join(self.out, "results.json"))  # a file that is not there is not created either
        del before["results.json"]
        fill(self.disk)
        self.assert_one_line(self.smsweep("collect", self.out), os.path.join(self.out, "results.csv"))
        self.assert_one_line(self.smsweep("plot", self.out, "--x", "gpgpu_num_reg_banks", "--out", chart), chart)
        self.assert_no_temporary_file()
        self.assertEqual(files_under(self.out), before)

    def test_a_run_on_a_full_disk_stops_at_the_first_file_and_the_next_run_goes_on(self):
        self.banks_sweep("[8, 16]")
        self.smsweep("run", "sweep.toml", "--out", self.out, check=0)
        before = files_under(self.out)
        filler = fill(self.disk)
        self.banks_sweep("[8, 16, 32]")  # one point more: smsweep writes points.json first
        p = self.smsweep("run", "sweep.toml", "--out", self.out)
        self.assert_one_line(p, os.path.join(self.out, "points.json"))
        self.assert_no_temporary_file()
        self.assertEqual(files_under(self.out), before)
        # a new sweep directory on the full disk: the lock file is the first thing written
        p = self.smsweep("run", "sweep.toml", "--out", os.path.join(self.disk, "new"))
        self.assert_one_line(p, os.path.join(self.disk, "new", ".smsweep.lock"))
        self.assert_no_temporary_file()
        os.remove(filler)
        p = self.smsweep("run", "sweep.toml", "--out", self.out, check=0)
        self.assertIn("1 to run (1 missing), 2 done", p.stdout)
        self.smsweep("run", "sweep.toml", "--out", os.path.join(self.disk, "new"), check=0)

    def test_a_disk_that_fills_while_a_point_runs_ends_the_sweep_with_one_line(self):
        name = "synthetic.builtin.smtlm_synth_insts=2000"
        held = HeldPoint(self, name)  # its gate is in the test's directory, not on the disk
        held.hold()
        self.write("sweep.toml", 'traces = [""]\nengine = "c"\nsmsim = "%s"\n[grid]\n"-smtlm_synth_insts" = [2000]\n'
                   % held.smsim)
        run = self.start_smsweep("run", "sweep.toml", "--out", self.out)
        pid = held.wait_held(self.out)
        self.wait_for("its start in attempts.log", lambda: starts(self.out, name) == 1)
        filler = fill(self.disk)  # while the point runs (held): then it goes on to its end
        held.go()
        stdout, stderr = run.communicate(timeout=300)
        # smsim cannot write its statistics (its own failure, exit status 2), then smsweep cannot
        # write the point's exit status
        self.assertEqual(run.returncode, 2, stdout + stderr)
        self.assertEqual(stderr, "smsweep: %s: %s\n" % (os.path.join(point_dir(self.out, name), "exit_status"),
                                                         os.strerror(errno.ENOSPC)))
        self.assertNotIn("Traceback", stdout)
        self.assertFalse(alive(pid))
        self.assert_no_temporary_file()
        self.assertFalse(os.path.exists(os.path.join(point_dir(self.out, name), "running.json")))
        os.remove(filler)
        self.assertEqual(status_table(self.smsweep("status", self.out, check=1).stdout)[name], "missing")
        p = self.smsweep("run", "sweep.toml", "--out", self.out, check=0)
        self.assertIn("1 to run (1 missing), 0 done", p.stdout)
        self.assertEqual(starts(self.out, name), 2)
        self.assertEqual(read_json(os.path.join(point_dir(self.out, name), "stats.json"))["complete"], True)


if __name__ == "__main__":
    unittest.main()
