"""The local back end for real: smsim processes on this machine, each point in its own
directory; a point killed mid-run is run again by the next `smsweep run` and nothing else is;
a killed or stopped runner leaves its points to the next run; a changed sweep file runs only
the points it changed (with --force, as they had results)."""
import os
import re
import signal
import subprocess
import unittest

from sweeptest import (DATA, LUD, SMSIM, VECTORADD, HeldPoint, SweepTest, alive, point_dir, read_json,
                       starts, status_table)

VICTIM_INSTS = 2000
VICTIM = "synthetic.builtin.gpgpu_num_reg_banks=8.smtlm_synth_insts=%d" % VICTIM_INSTS
ONE_POINT = "synthetic.builtin.smtlm_synth_insts=%d" % VICTIM_INSTS


def kill_sweep(smsim, extra=""):
    # 2 traces x 2 x 2 = 8 points, all short (vectoradd ignores -smtlm_synth_insts); the test
    # holds VICTIM (HeldPoint) to act on it while it runs
    return ('traces = ["", "%s"]\nengine = "c"\nsmsim = "%s"\n%s\n[grid]\n"-gpgpu_num_reg_banks" = [8, 16]\n'
            '"-smtlm_synth_insts" = [100, %d]\n' % (VECTORADD, smsim, extra, VICTIM_INSTS))


def one_point_sweep(smsim):
    return 'traces = [""]\nengine = "c"\nsmsim = "%s"\n[grid]\n"-smtlm_synth_insts" = [%d]\n' % (smsim, VICTIM_INSTS)


class LocalRunTest(SweepTest):
    def test_every_point_has_its_command_output_stats_and_exit_status(self):
        self.write("sweep.toml", 'traces = ["%s", "%s"]\noutputs = ["stats_csv"]\n[grid]\n'
                                 '"-gpgpu_num_reg_banks" = [8, 16]\n' % (LUD, VECTORADD))
        p = self.smsweep("run", "sweep.toml", "--out", "out", "-j", "2", check=0)
        self.assertIn("4 to run (4 missing), 0 done", p.stdout)
        self.assertIn("smsweep: 4 points: 4 done", p.stdout)
        out = self.path("out")
        names = [q["name"] for q in read_json(os.path.join(out, "points.json"))["points"]]
        self.assertEqual(names, ["lud.builtin.gpgpu_num_reg_banks=8", "lud.builtin.gpgpu_num_reg_banks=16",
                                 "vectoradd-100-32-trace.builtin.gpgpu_num_reg_banks=8",
                                 "vectoradd-100-32-trace.builtin.gpgpu_num_reg_banks=16"])
        for n in names:
            d = point_dir(out, n)
            for f in ("command.txt", "point.json", "stdout.txt", "stderr.txt", "stats.json", "kernels.csv",
                      "exit_status", "attempts.log"):
                self.assertTrue(os.path.exists(os.path.join(d, f)), "%s/%s" % (n, f))
            with open(os.path.join(d, "exit_status")) as f:
                self.assertEqual(f.read(), "0\n")
            with open(os.path.join(d, "stdout.txt")) as f:
                self.assertTrue(f.read().endswith("GPGPU-Sim: *** exit detected ***\n"))
            self.assertFalse(os.path.exists(os.path.join(d, "running.json")))
        # the command line reproduces the point: run it again by hand, same statistics
        lud8 = point_dir(out, names[0])
        argv = read_json(os.path.join(lud8, "point.json"))["argv"]
        with open(os.path.join(lud8, "command.txt")) as f:
            self.assertEqual(f.read().split(), argv)
        self.assertEqual(argv[0], SMSIM)  # found next to smsweep
        self.assertEqual(argv[argv.index("-gpgpu_num_reg_banks") + 1], "8")
        again = self.path("again.json")
        subprocess.run(argv[:argv.index("-smtlm_stats_json")] + ["-smtlm_stats_json", again], check=True,
                       capture_output=True)
        a, b = read_json(os.path.join(lud8, "stats.json")), read_json(again)
        a.pop("wall_seconds"), b.pop("wall_seconds")
        self.assertEqual(a, b)
        self.assertEqual(a["gpu_tot_sim_insn"], 16080)  # lud's instruction count (Accel-Sim's too)
        # everything done: a second run runs nothing
        p = self.smsweep("run", "sweep.toml", "--out", "out", check=0)
        self.assertIn("0 to run (none), 4 done", p.stdout)
        self.assertEqual([starts(out, n) for n in names], [1, 1, 1, 1])

    def test_a_point_that_fails_is_reported_with_smsims_message_and_run_again(self):
        # lud (traced on a Volta) needs a specialized unit the stock TITAN X config does not
        # enable: smsim accepts the options but refuses the trace's instruction at run time
        titanx = os.path.join(DATA, "configs", "SM6_TITANX")
        self.write("sweep.toml", 'traces = ["%s", "%s"]\nconfigs = [["%s", "%s"]]\nengine = "c"\n' % (
            LUD, VECTORADD, os.path.join(titanx, "gpgpusim.config"), os.path.join(titanx, "trace.config")))
        lud, vec = "lud.SM6_TITANX", "vectoradd-100-32-trace.SM6_TITANX"
        p = self.smsweep("run", "sweep.toml", "--out", "out", check=1)
        self.assertIn("%s: failed (exit status 2)" % lud, p.stdout)
        self.assertIn("smsweep: 2 points: 1 done, 1 failed", p.stdout)
        self.assertRegex(p.stdout, r"%s: failed: exit status 2: .*kernel-8.traceg:\d+: the instruction needs "
                                   r"specialized unit 1" % re.escape(lud))
        st = self.smsweep("status", "out", check=1)
        self.assertEqual(status_table(st.stdout), {lud: "failed", vec: "done"})
        again = self.smsweep("run", "sweep.toml", "--out", "out", check=1)
        self.assertIn("1 to run (1 failed), 1 done", again.stdout)
        out = self.path("out")
        self.assertEqual((starts(out, lud), starts(out, vec)), (2, 1))

    def test_a_point_killed_mid_run_is_the_only_one_run_again(self):
        held = HeldPoint(self, VICTIM)
        held.hold()
        self.write("sweep.toml", kill_sweep(held.smsim))
        out = self.path("out")
        run = self.start_smsweep("run", "sweep.toml", "--out", "out", "-j", "2")
        pid = held.wait_held(out)
        os.kill(pid, signal.SIGKILL)
        stdout, stderr = run.communicate(timeout=300)
        self.assertEqual(run.returncode, 1, stdout + stderr)
        self.assertIn("%s: failed (killed by SIGKILL)" % VICTIM, stdout)
        self.assertIn("8 points: 7 done, 1 failed", stdout)
        st = self.smsweep("status", "out", check=1)
        table = status_table(st.stdout)
        self.assertEqual(len(table), 8)
        self.assertEqual(table.pop(VICTIM), "failed")
        self.assertEqual(set(table.values()), {"done"})
        self.assertIn("killed by SIGKILL", st.stdout)
        with open(os.path.join(point_dir(out, VICTIM), "exit_status")) as f:
            self.assertEqual(f.read(), "-9\n")

        again = self.smsweep("run", "sweep.toml", "--out", "out", "-j", "2", check=0)
        self.assertIn("1 to run (1 failed), 7 done", again.stdout)
        self.assertIn("[1/1] %s: done" % VICTIM, again.stdout)
        names = [q["name"] for q in read_json(os.path.join(out, "points.json"))["points"]]
        self.assertEqual({n: starts(out, n) for n in names}, {n: 2 if n == VICTIM else 1 for n in names})
        self.assertEqual(set(status_table(self.smsweep("status", "out", check=0).stdout).values()), {"done"})
        # the rerun ran the whole workload: 32 warps of VICTIM_INSTS instructions and an EXIT, 32 lanes
        stats = read_json(os.path.join(point_dir(out, VICTIM), "stats.json"))
        self.assertEqual(stats["gpu_tot_sim_insn"], 32 * (VICTIM_INSTS + 1) * 32)

    def test_a_killed_runner_leaves_its_points_to_the_next_run(self):
        name = ONE_POINT
        held = HeldPoint(self, name)
        held.hold()
        self.write("sweep.toml", one_point_sweep(held.smsim))
        out = self.path("out")
        run = self.start_smsweep("run", "sweep.toml", "--out", "out")
        pid = held.wait_held(out)
        run.kill()  # SIGKILL: no chance to clean up; its smsim lives on
        run.communicate()
        self.assertEqual(status_table(self.smsweep("status", "out", check=1).stdout)[name], "interrupted")
        self.assertTrue(alive(pid))  # still there (held): the rerun has to end it before it starts over
        again = self.smsweep("run", "sweep.toml", "--out", "out", check=0)
        self.assertIn("1 to run (1 interrupted), 0 done", again.stdout)
        self.assertFalse(alive(pid), "the orphaned smsim of the killed runner still runs")
        self.assertEqual(starts(out, name), 2)
        self.assertEqual(status_table(self.smsweep("status", "out", check=0).stdout)[name], "done")

    def test_a_stopped_runner_ends_its_smsim_and_one_run_at_a_time(self):
        name = ONE_POINT
        held = HeldPoint(self, name)
        held.hold()
        self.write("sweep.toml", one_point_sweep(held.smsim))
        out = self.path("out")
        run = self.start_smsweep("run", "sweep.toml", "--out", "out")
        pid = held.wait_held(out)
        busy = self.smsweep("run", "sweep.toml", "--out", "out", check=2)
        self.assertIn("is in use by another smsweep run (pid %d)" % run.pid, busy.stderr)
        run.send_signal(signal.SIGTERM)
        stdout, _ = run.communicate(timeout=60)
        self.assertEqual(run.returncode, 130)
        self.assertIn("interrupted: 1 point(s) left to run", stdout)
        self.assertFalse(alive(pid))
        self.assertEqual(status_table(self.smsweep("status", "out", check=1).stdout)[name], "missing")
        self.smsweep("run", "sweep.toml", "--out", "out", check=0)
        self.assertEqual(starts(out, name), 2)

    def test_a_changed_sweep_file_runs_only_what_it_changed(self):
        self.write("sweep.toml", 'traces = ["%s"]\n[grid]\n"-gpgpu_num_reg_banks" = [8, 16]\n' % VECTORADD)
        self.smsweep("run", "sweep.toml", "--out", "out", check=0)
        self.write("sweep.toml", 'traces = ["%s"]\n[grid]\n"-gpgpu_num_reg_banks" = [8, 16, 32]\n' % VECTORADD)
        p = self.smsweep("run", "sweep.toml", "--out", "out", check=0)
        self.assertIn("1 to run (1 missing), 2 done", p.stdout)
        self.write("sweep.toml", 'traces = ["%s"]\n[options]\n"-smtlm_mem_latency" = 300\n[grid]\n'
                                 '"-gpgpu_num_reg_banks" = [8, 16, 32]\n' % VECTORADD)
        self.smsweep("run", "sweep.toml", "--out", "out", check=2)  # refused: their results would go
        p = self.smsweep("run", "sweep.toml", "--out", "out", "--force", check=0)
        self.assertIn("3 to run (3 changed), 0 done", p.stdout)
        out = self.path("out")
        self.assertEqual([starts(out, "vectoradd-100-32-trace.builtin.gpgpu_num_reg_banks=%d" % b) for b in (8, 16, 32)],
                         [2, 2, 2])
        with open(os.path.join(point_dir(out, "vectoradd-100-32-trace.builtin.gpgpu_num_reg_banks=8"),
                               "command.txt")) as f:
            self.assertIn("-smtlm_mem_latency 300", f.read())


if __name__ == "__main__":
    unittest.main()
