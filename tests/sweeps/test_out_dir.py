"""Whose results an --out directory holds. `smsweep run` refuses a directory that holds another
sweep (another name with none of its points, or files of smsweep without a points.json) and
changes nothing there; --force deletes it and says exactly what it deletes. The same sweep file,
edited: new points run, points no longer in it keep their directories, and a finished point whose
command line changed is refused by name until --force deletes its results."""
import os
import signal
import socket
import subprocess
import unittest

from sweeptest import VECTORADD, SweepTest, files_under, point_dir, read_json, starts

POINT = "vectoradd-100-32-trace.builtin.gpgpu_num_reg_banks=%d"


def banks_sweep(banks, extra=""):
    return 'traces = ["%s"]\nengine = "c"\n%s[grid]\n"-gpgpu_num_reg_banks" = [%s]\n' % (
        VECTORADD, extra, ", ".join(str(b) for b in banks))


class OutDirTest(SweepTest):
    def refused(self, sweep, out, message):
        before = files_under(out)
        p = self.smsweep("run", sweep, "--out", out, check=2)
        self.assertEqual(p.stderr, "smsweep: %s\n" % message)
        self.assertEqual(files_under(out), before)

    def test_another_sweeps_directory_is_refused_and_force_deletes_it(self):
        a = self.write("a.toml", banks_sweep([8, 16]))
        b = self.write("b.toml", banks_sweep([32]))
        out = self.path("out")
        self.smsweep("run", "a.toml", "--out", "out", check=0)
        self.smsweep("collect", "out", check=0)
        self.refused("b.toml", out, "%s holds another sweep, 'a' from %s (2 points, 2 finished): give another --out, "
                                    "or add --force to delete it" % (out, a))
        p = self.smsweep("run", "b.toml", "--out", "out", "--force", check=0)
        self.assertIn("smsweep: --force: deleting sweep 'a' in %s: points.json, sweep.toml, results.csv, "
                      "results.json, points/ (2 point directories)\n" % out, p.stdout)
        self.assertEqual(sorted(os.listdir(os.path.join(out, "points"))), [POINT % 32])
        doc = read_json(os.path.join(out, "points.json"))
        self.assertEqual((doc["sweep"], doc["sweep_file"]), ("b", b))
        self.assertFalse(os.path.exists(os.path.join(out, "results.csv")))
        with open(os.path.join(out, "sweep.toml")) as f:
            self.assertEqual(f.read(), banks_sweep([32]))

    def test_a_sweep_file_of_the_same_name_with_none_of_its_points_is_another_sweep(self):
        for d in ("x", "y"):
            os.mkdir(self.path(d))
        x = self.write("x/sweep.toml", banks_sweep([8, 16]))
        self.write("y/sweep.toml", banks_sweep([32, 64]))
        out = self.path("out")
        self.smsweep("run", "x/sweep.toml", "--out", "out", check=0)
        self.refused("y/sweep.toml", out, "%s holds another sweep, 'sweep' from %s (2 points, 2 finished): give "
                                          "another --out, or add --force to delete it" % (out, x))
        # sweep files of smsweep without their points.json are no sweep to add to either
        os.remove(os.path.join(out, "points.json"))
        self.refused("y/sweep.toml", out, "%s holds files of a sweep but no points.json (sweep.toml, points/ (2 point "
                                          "directories)): give another --out, or add --force to delete it" % out)
        p = self.smsweep("run", "y/sweep.toml", "--out", "out", "--force", check=0)
        self.assertIn("smsweep: --force: deleting files of a sweep in %s: sweep.toml, points/ (2 point directories)\n"
                      % out, p.stdout)
        self.assertEqual(sorted(os.listdir(os.path.join(out, "points"))), [POINT % 32, POINT % 64])

    def test_the_same_sweep_file_edited_keeps_what_it_no_longer_names_and_refuses_to_lose_results(self):
        self.write("sweep.toml", banks_sweep([8, 16]))
        out = self.path("out")
        self.smsweep("run", "sweep.toml", "--out", "out", check=0)
        # again, unchanged: nothing to run (as always)
        self.assertIn("0 to run (none), 2 done", self.smsweep("run", "sweep.toml", "--out", "out", check=0).stdout)
        # 8 banks dropped, 32 added: 32 runs, 8 keeps its directory and its result
        self.write("sweep.toml", banks_sweep([16, 32]))
        p = self.smsweep("run", "sweep.toml", "--out", "out", check=0)
        self.assertIn("smsweep: 1 point of %s is no longer in the sweep file; its directory stays: %s\n" % (
            out, POINT % 8), p.stdout)
        self.assertIn("1 to run (1 missing), 1 done", p.stdout)
        self.assertTrue(os.path.exists(os.path.join(point_dir(out, POINT % 8), "stats.json")))
        self.assertEqual([q["name"] for q in read_json(os.path.join(out, "points.json"))["points"]],
                         [POINT % 16, POINT % 32])
        # a fixed option added: both points would run with another command line
        self.write("sweep.toml", banks_sweep([16, 32], '[options]\n"-smtlm_mem_latency" = 300\n'))
        self.refused("sweep.toml", out, "%s: the sweep file gives 2 points with a result another command line (%s, %s;"
                                        " %s: -smtlm_mem_latency 300 added): give another --out, or add --force to "
                                        "delete their results and run them again" % (out, POINT % 16, POINT % 32,
                                                                                     POINT % 16))
        p = self.smsweep("run", "sweep.toml", "--out", "out", "--force", check=0)
        self.assertIn("smsweep: --force: deleting the results of 2 points whose command line changed (stdout.txt, "
                      "stderr.txt, stats.json, exit_status): %s, %s\n" % (POINT % 16, POINT % 32), p.stdout)
        self.assertIn("2 to run (2 changed), 0 done", p.stdout)
        self.assertEqual([starts(out, POINT % b) for b in (8, 16, 32)], [1, 2, 2])
        # a changed point without a result has nothing to lose: only the other one is named
        self.write("sweep.toml", banks_sweep([16, 32], '[options]\n"-smtlm_mem_latency" = 400\n'))
        os.remove(os.path.join(point_dir(out, POINT % 32), "exit_status"))
        p = self.smsweep("run", "sweep.toml", "--out", "out", check=2)
        self.assertIn("gives 1 point with a result another command line (%s; " % (POINT % 16), p.stderr)

    def test_force_does_not_delete_a_point_that_still_runs(self):
        self.write("a.toml", banks_sweep([8, 16]))
        self.write("b.toml", banks_sweep([32]))
        out = self.path("out")
        self.smsweep("run", "a.toml", "--out", "out", check=0)
        # a point of the old sweep at work (as an array task on a node would be): a runner and its smsim alive
        busy = subprocess.Popen(["sleep", "infinity"])  # until the cleanup ends it
        self.addCleanup(busy.wait)
        self.addCleanup(busy.send_signal, signal.SIGKILL)
        pdir = point_dir(out, POINT % 8)
        os.remove(os.path.join(pdir, "exit_status"))
        with open(os.path.join(pdir, "running.json"), "w") as f:
            f.write('{"backend": "local", "host": "%s", "runner_pid": %d, "pid": %d}\n' % (
                socket.gethostname(), os.getpid(), busy.pid))
        before = files_under(out)
        p = self.smsweep("run", "b.toml", "--out", "out", "--force", check=2)
        self.assertEqual(p.stderr, "smsweep: %s: --force: 1 point of sweep 'a' is still running or pending (%s): "
                                   "wait for it to end or stop it, then run again\n" % (out, POINT % 8))
        self.assertEqual(files_under(out), before)


if __name__ == "__main__":
    unittest.main()
