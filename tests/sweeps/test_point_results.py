"""A point is done only when smsim ended with exit status 0 and its stats.json parses and says
"complete": true. A result damaged after the run (deleted, cut, marked incomplete, not smsim's)
makes its point failed: `status` says why, `collect` writes it as a failed row without
statistics, and `run` runs it again. smsim stopped by a signal (exit status 130 / 143) is a
failed point with smsim's own line (from its stderr, else from the stats.json's "error")."""
import csv
import json
import os
import re
import signal
import unittest

from sweeptest import VECTORADD, HeldPoint, SweepTest, point_dir, read_json, starts

POINT = "vectoradd-100-32-trace.builtin.gpgpu_num_reg_banks=%d"
BANKS = (8, 16, 32, 64)


def status_lines(stdout):
    """smsweep status's lines as {point: (state, detail)}."""
    out = {}
    for line in stdout.splitlines():
        f = line.split(None, 2)
        if len(f) >= 2 and not line.startswith("smsweep:"):
            out[f[0]] = (f[1], f[2] if len(f) > 2 else "")
    return out


class PointResultTest(SweepTest):
    def test_a_done_point_whose_statistics_are_missing_cut_or_incomplete_is_failed(self):
        self.write("sweep.toml", 'traces = ["%s"]\nengine = "c"\n[grid]\n"-gpgpu_num_reg_banks" = [%s]\n' % (
            VECTORADD, ", ".join(str(b) for b in BANKS)))
        self.smsweep("run", "sweep.toml", "--out", "out", check=0)
        out = self.path("out")
        stats = [os.path.join(point_dir(out, POINT % b), "stats.json") for b in BANKS]
        os.remove(stats[0])
        with open(stats[1], "r+") as f:  # cut in the middle, as a full disk used to leave it
            f.truncate(len(f.read()) // 2)
        doc = read_json(stats[2])
        doc.update(complete=False, exit_status=1, error="watchdog: no progress for 100000 cycles")
        with open(stats[2], "w") as f:
            json.dump(doc, f)
        with open(stats[3], "w") as f:  # another tool's JSON, without smsim's end
            json.dump({"kernels": doc["kernels"]}, f)

        st = self.smsweep("status", "out", check=1)
        table = status_lines(st.stdout)
        self.assertEqual({n: s for n, (s, _) in table.items()}, {POINT % b: "failed" for b in BANKS})
        details = [table[POINT % b][1] for b in BANKS]
        self.assertEqual(details[0], "exit status 0 but no stats.json")
        self.assertRegex(details[1], r"^exit status 0 but stats.json does not parse \(.*line \d+ column \d+.*\)$")
        self.assertEqual(details[2], "exit status 0 but stats.json says the run did not complete: watchdog: no "
                                     "progress for 100000 cycles")
        self.assertEqual(details[3], 'exit status 0 but stats.json does not say the run completed (no "complete": '
                                     'true)')
        self.assertIn("smsweep: 4 points: 4 failed", st.stdout)

        c = self.smsweep("collect", "out", check=1)
        self.assertIn("4 rows (0 done)", c.stdout)
        for b, detail in zip(BANKS, details):
            self.assertIn("smsweep: %s: failed: %s\n" % (POINT % b, detail), c.stdout)
        # failed rows, and no statistic: not even a column of them
        doc = read_json(os.path.join(out, "results.json"))
        columns = ["point", "trace", "config", "gpgpu_num_reg_banks", "status", "detail", "dir"]
        self.assertEqual(doc["columns"], columns)
        self.assertEqual([(r["status"], r["detail"]) for r in doc["rows"]], [("failed", d) for d in details])
        with open(os.path.join(out, "results.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(list(rows[0]), columns)
        self.assertEqual([r["status"] for r in rows], ["failed"] * 4)

        again = self.smsweep("run", "sweep.toml", "--out", "out", check=0)
        self.assertIn("4 to run (4 failed), 0 done", again.stdout)
        self.assertEqual([starts(out, POINT % b) for b in BANKS], [2] * 4)
        self.assertIn("4 rows (4 done)", self.smsweep("collect", "out", check=0).stdout)

    def test_smsim_stopped_by_a_signal_is_a_failed_point_with_its_line(self):
        name = "synthetic.builtin.smtlm_synth_insts=2000"
        held = HeldPoint(self, name)
        self.write("sweep.toml", 'traces = [""]\nengine = "c"\nsmsim = "%s"\n[grid]\n"-smtlm_synth_insts" = [2000]\n'
                   % held.smsim)
        out = self.path("out")
        for sig, status in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
            held.hold(endless=True)  # a workload that outlasts the test: it is running when signalled
            run = self.start_smsweep("run", "sweep.toml", "--out", "out")
            pid = held.wait_held(out)
            held.go()
            self.wait_for("smsim to simulate", lambda: held.simulating(pid, sig))
            os.kill(pid, sig)  # smsim itself, not smsweep
            stdout, stderr = run.communicate(timeout=120)
            self.assertEqual(run.returncode, 1, stdout + stderr)
            line = r"exit status %d: %s: stopped at cycle \d+ of kernel 1 \(smtlm_synthetic\)" % (status, sig.name)
            self.assertRegex(stdout, r"%s: failed: %s" % (re.escape(name), line))
            st = status_lines(self.smsweep("status", "out", check=1).stdout)[name]
            self.assertEqual(st[0], "failed")
            self.assertRegex(st[1], "^" + line)
            self.assertIs(read_json(os.path.join(point_dir(out, name), "stats.json"))["complete"], False)
        # without smsim's stderr (a full disk keeps it from there), its line comes from the stats.json
        open(os.path.join(point_dir(out, name), "stderr.txt"), "w").close()
        st = status_lines(self.smsweep("status", "out", check=1).stdout)[name]
        self.assertRegex(st[1], "^" + line)
        self.smsweep("run", "sweep.toml", "--out", "out", check=0)
        self.assertEqual(starts(out, name), 3)


if __name__ == "__main__":
    unittest.main()
