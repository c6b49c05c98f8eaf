"""The SLURM back end on a real cluster: a one-node SLURM (munged, slurmctld, slurmd) started on
localhost for this test in a temporary directory, and stopped after it. A small sweep goes
through sbatch as one throttled job array; an array task cancelled mid-run (scancel) is the only
point the next `smsweep run` submits again."""
import os
import re
import signal
import subprocess
import unittest

from slurm_cluster import LocalCluster
from sweeptest import LUD, VECTORADD, HeldPoint, SweepTest, point_dir, read_json, starts, status_table
from test_local import VICTIM, kill_sweep


class SlurmTest(SweepTest):
    cluster = None

    @classmethod
    def setUpClass(cls):
        cls.cluster = LocalCluster().start()

    @classmethod
    def tearDownClass(cls):
        if cls.cluster:
            cls.cluster.stop()

    def submission(self, out, seq):
        sdir = os.path.join(out, "slurm")
        with open(os.path.join(sdir, "array-%03d.sh" % seq)) as f:
            script = f.read()
        with open(os.path.join(sdir, "array-%03d.list" % seq)) as f:
            names = f.read().split()
        return script, names

    def test_a_small_sweep_runs_as_one_job_array(self):
        self.write("sweep.toml", 'traces = ["%s", "%s"]\nengine = "c"\n[grid]\n"-gpgpu_num_reg_banks" = [8, 16]\n'
                                 '[slurm]\npartition = "debug"\ntime = "00:05:00"\nmax_parallel = 2\n' % (LUD, VECTORADD))
        p = self.smsweep("run", "sweep.toml", "--out", "out", "--backend", "slurm", "--wait", "--poll", "0.5",
                         "--mem", "500M", check=0)
        job = re.search(r"submitted job (\d+): 4 array tasks, at most 2 at once", p.stdout).group(1)
        self.assertIn("smsweep: 4 points: 4 done", p.stdout)
        out = self.path("out")
        script, names = self.submission(out, 1)
        for line in ("#SBATCH --array=0-3%2", "#SBATCH --partition=debug", "#SBATCH --time=00:05:00",
                     "#SBATCH --mem=500M", "#SBATCH --cpus-per-task=1"):
            self.assertIn(line + "\n", script)
        self.assertEqual(len(names), 4)
        for task, name in enumerate(names):  # each array task ran its own point, under SLURM
            with open(os.path.join(point_dir(out, name), "attempts.log")) as f:
                log = f.read()
            self.assertIn("backend=slurm", log)
            self.assertIn("job=%s_%d" % (job, task), log)
            with open(os.path.join(point_dir(out, name), "exit_status")) as f:
                self.assertEqual(f.read(), "0\n")
        # the same statistics as smsim run here by hand
        argv = read_json(os.path.join(point_dir(out, names[0]), "point.json"))["argv"]
        here = self.path("here.json")
        subprocess.run(argv[:argv.index("-smtlm_stats_json")] + ["-smtlm_stats_json", here], check=True,
                       capture_output=True)
        a, b = read_json(os.path.join(point_dir(out, names[0]), "stats.json")), read_json(here)
        a.pop("wall_seconds"), b.pop("wall_seconds")
        self.assertEqual(a, b)
        self.assertEqual(set(status_table(self.smsweep("status", "out", check=0).stdout).values()), {"done"})
        again = self.smsweep("run", "sweep.toml", "--out", "out", "--backend", "slurm", check=0)
        self.assertIn("0 to run (none), 4 done", again.stdout)
        self.assertEqual(len(read_json(os.path.join(out, "slurm", "jobs.json"))["submissions"]), 1)

    def test_a_task_cancelled_mid_run_is_the_only_point_submitted_again(self):
        # the victim's task is held before its smsim starts, then let go on a workload that
        # outlasts the test, so that it is running when looked at and when cancelled
        held = HeldPoint(self, VICTIM)
        held.hold(endless=True)
        self.write("sweep.toml", kill_sweep(held.smsim, '[slurm]\npartition = "debug"\n'))
        out = self.path("out")
        p = self.smsweep("run", "sweep.toml", "--out", "out", "--backend", "slurm", check=0)
        job = re.search(r"submitted job (\d+): 8 array tasks", p.stdout).group(1)
        _, names = self.submission(out, 1)
        task = names.index(VICTIM)
        pid = held.wait_held(out)
        st = self.smsweep("status", "out", check=1)
        self.assertEqual(status_table(st.stdout)[VICTIM], "running")
        self.assertRegex(st.stdout, r"%s +running +job %s_%d on " % (re.escape(VICTIM), job, task))
        held.go()
        self.wait_for("smsim to simulate", lambda: held.simulating(pid, signal.SIGTERM), timeout=240)
        subprocess.run(["scancel", "%s_%d" % (job, task)], check=True)
        self.wait_for("the array to finish", lambda: not subprocess.run(
            ["squeue", "-h", "-j", job], capture_output=True, text=True).stdout.strip(), timeout=240, step=0.5)
        st = self.smsweep("status", "out", check=1)
        table = status_table(st.stdout)
        self.assertEqual(table.pop(VICTIM), "failed")
        self.assertEqual(set(table.values()), {"done"})
        # scancel's signal, which SLURM sends to every process of the task, smsim too: smsim stops and says so
        self.assertRegex(st.stdout, r"exit status 143: SIGTERM: stopped at cycle \d+ of kernel 1")

        again = self.smsweep("run", "sweep.toml", "--out", "out", "--backend", "slurm", "--wait", "--poll", "0.5",
                             check=0)
        self.assertIn("1 to run (1 failed), 7 done", again.stdout)
        self.assertRegex(again.stdout, r"submitted job \d+: 1 array task ")
        script, resubmitted = self.submission(out, 2)
        self.assertEqual(resubmitted, [VICTIM])
        self.assertIn("#SBATCH --array=0-0\n", script)
        self.assertEqual({n: starts(out, n) for n in names}, {n: 2 if n == VICTIM else 1 for n in names})
        self.assertEqual(set(status_table(self.smsweep("status", "out", check=0).stdout).values()), {"done"})


if __name__ == "__main__":
    unittest.main()
