"""The sweep file without running anything: its line map, its expansion into points, their names
and command lines, and how collect turns one run's stats JSON into one row."""
import json
import os
import socket
import tempfile
import unittest

from sweeplib import collect, pointdir, spec, state
from sweeplib.tomlines import LineMap

TRICKY = '''# a comment with "quotes" and = signs
name = "banks"   # trailing comment
traces = [
  "a/kernelslist.g",   # 1: a comment with ] and ,
  { name = "b", path = "x#y/kernelslist.g" },
]
configs = [["c/gpgpusim.config", "c/trace.config"], "d.config"]

[options]
"-gpgpu_max_cycle" = 100000
desc.sub = 'single ] quoted'

[grid]
-gpgpu_num_reg_banks = [8,
   16,  # sixteen
   32]
"-smtlm_oc_allocator" = ["fifo", "wavefront"]

[[points]]
"-gpgpu_num_reg_banks" = 64

[[points]]
-gpgpu_num_reg_banks = 4
"-smtlm_fix_subcore_hol" = true
'''


class LineMapTest(unittest.TestCase):
    def test_every_key_and_element_has_its_line(self):
        m = LineMap(TRICKY)
        self.assertEqual(m.line("name"), 2)
        self.assertEqual(m.line("traces"), 3)
        self.assertEqual(m.line("traces", 0), 4)
        self.assertEqual(m.line("traces", 1), 5)
        self.assertEqual(m.line("traces", 1, "path"), 5)
        self.assertEqual(m.line("configs", 1), 7)
        self.assertEqual(m.line("options", "-gpgpu_max_cycle"), 10)
        self.assertEqual(m.line("options", "desc", "sub"), 11)
        self.assertEqual(m.line("grid", "-gpgpu_num_reg_banks"), 14)
        self.assertEqual(m.line("grid", "-gpgpu_num_reg_banks", 1), 15)
        self.assertEqual(m.line("grid", "-gpgpu_num_reg_banks", 2), 16)
        self.assertEqual(m.line("grid", "-smtlm_oc_allocator", 1), 17)
        self.assertEqual(m.line("points", 0, "-gpgpu_num_reg_banks"), 20)
        self.assertEqual(m.line("points", 1, "-gpgpu_num_reg_banks"), 23)
        self.assertEqual(m.line("points", 1, "-smtlm_fix_subcore_hol"), 24)

    def test_unknown_paths_fall_back_to_their_table(self):
        m = LineMap(TRICKY)
        self.assertEqual(m.line("grid", "-nothing"), 13)
        self.assertEqual(m.line("nothing"), 1)

    def test_text_it_cannot_follow_keeps_what_came_before(self):
        m = LineMap('a = 1\nb = [1,\n  2\nc = = 3\n')
        self.assertEqual(m.line("a"), 1)
        self.assertEqual(m.line("b"), 2)


class SpecTest(unittest.TestCase):
    def load(self, text):
        d = tempfile.mkdtemp(prefix="smsweep-spec-")
        self.addCleanup(lambda: __import__("shutil").rmtree(d, True))
        p = os.path.join(d, "s.toml")
        with open(p, "w") as f:
            f.write(text)
        return spec.load(p), d

    def test_grid_cells_and_explicit_points_times_traces_and_configs(self):
        sw, d = self.load(TRICKY.replace("desc.sub = 'single ] quoted'", "# desc"))
        self.assertEqual(sw.name, "banks")
        self.assertEqual([t.name for t in sw.traces], ["a", "b"])
        self.assertEqual(sw.traces[1].path, os.path.join(d, "x#y", "kernelslist.g"))
        self.assertEqual([c.name for c in sw.configs], ["c", "d"])
        self.assertEqual(sw.configs[0].files, [os.path.join(d, "c", "gpgpusim.config"),
                                               os.path.join(d, "c", "trace.config")])
        # (3 banks x 2 allocators + 2 explicit) settings x 2 traces x 2 configs
        self.assertEqual(len(sw.points), 8 * 2 * 2)
        self.assertEqual(sw.param_names, ["-gpgpu_num_reg_banks", "-smtlm_oc_allocator", "-smtlm_fix_subcore_hol"])
        names = [p.name for p in sw.points]
        self.assertEqual(len(set(names)), len(names))
        self.assertEqual(names[0], "a.c.gpgpu_num_reg_banks=8.smtlm_oc_allocator=fifo")
        self.assertEqual(names[7], "a.c.gpgpu_num_reg_banks=4.smtlm_fix_subcore_hol=1")  # true -> 1
        self.assertEqual(sw.points[7].params(), {"-gpgpu_num_reg_banks": "4", "-smtlm_fix_subcore_hol": "1"})

    def test_the_command_line_and_the_line_of_each_argument(self):
        sw, d = self.load(TRICKY.replace("desc.sub = 'single ] quoted'", "# desc"))
        p = sw.points[1]  # a, c, 8 banks, wavefront
        argv, lines = spec.command(sw, p, "/bin/smsim", outdir="/o/p")
        self.assertEqual(argv, ["/bin/smsim", "-trace", os.path.join(d, "a", "kernelslist.g"),
                                "-config", os.path.join(d, "c", "gpgpusim.config"),
                                "-config", os.path.join(d, "c", "trace.config"),
                                "-gpgpu_max_cycle", "100000", "-gpgpu_num_reg_banks", "8",
                                "-smtlm_oc_allocator", "wavefront", "-smtlm_stats_json", "/o/p/stats.json"])
        # the option's name: its key's line; its value: the value's line
        self.assertEqual(lines, [None, 4, 4, 7, 7, 7, 7, 10, 10, 14, 14, 17, 17, None, None])
        p16 = next(q for q in sw.points if q.params() == {"-gpgpu_num_reg_banks": "16", "-smtlm_oc_allocator": "fifo"})
        self.assertEqual(spec.command(sw, p16, "s")[1][9:11], [14, 15])  # -gpgpu_num_reg_banks 16

    def test_a_repeated_cell_is_one_point_and_labels_stay_unique(self):
        sw, _ = self.load('traces = ["", "x/kernelslist.g", "y/x/kernelslist.g"]\n'
                          'configs = ["q/a.config", "r/a.config"]\n'
                          '[grid]\n"-gpgpu_num_reg_banks" = [8]\n'
                          '[[points]]\n"-gpgpu_num_reg_banks" = 8\n')
        self.assertEqual([t.name for t in sw.traces], ["synthetic", "x", "x-2"])
        self.assertEqual(sw.traces[0].path, "")
        self.assertEqual([c.name for c in sw.configs], ["a", "a-2"])
        self.assertEqual(len(sw.points), 3 * 2)
        self.assertEqual(spec.command(sw, sw.points[0], "s")[0], ["s", "-config", sw.configs[0].files[0],
                                                                  "-gpgpu_num_reg_banks", "8"])

    def test_a_trace_may_name_the_only_configs_it_runs_with(self):
        sw, _ = self.load('traces = [{ path = "v/kernelslist.g", configs = ["titanx"] }, "l/kernelslist.g"]\n'
                          'configs = [{ name = "qv100", files = ["q.config"] }, "p/titanx.config"]\n'
                          '[grid]\n"-gpgpu_num_reg_banks" = [8, 16]\n')
        self.assertEqual([p.name for p in sw.points],
                         ["v.titanx.gpgpu_num_reg_banks=8", "v.titanx.gpgpu_num_reg_banks=16",
                          "l.qv100.gpgpu_num_reg_banks=8", "l.qv100.gpgpu_num_reg_banks=16",
                          "l.titanx.gpgpu_num_reg_banks=8", "l.titanx.gpgpu_num_reg_banks=16"])
        with self.assertRaises(spec.SweepError) as cm:
            self.load('configs = ["a/titanx.config"]\ntraces = [\n  { path = "", configs = ["titanX"] },\n]\n')
        self.assertIn(":3: trace 'synthetic' names config 'titanX', which the sweep does not have (did you mean "
                      "'titanx'?) (configs: titanx)", str(cm.exception))

    def test_a_long_name_is_cut_and_stays_unique(self):
        opts = "".join('"-smtlm_synth_option_number_%d" = [1, 2]\n' % i for i in range(8))
        sw, _ = self.load('traces = [""]\n[grid]\n' + opts)
        names = [p.name for p in sw.points]
        self.assertEqual(len(names), 2 ** 8)
        self.assertEqual(len(set(names)), len(names))
        self.assertTrue(all(len(n) <= 173 for n in names))
        self.assertTrue(names[0].startswith("synthetic.builtin.smtlm_synth_option_number_0=1."))

    def test_no_grid_is_one_point_per_trace_and_config(self):
        sw, _ = self.load('traces = ["t/kernelslist.g"]\n')
        self.assertEqual([p.name for p in sw.points], ["t.builtin"])

    def test_mistakes_in_the_file_name_their_line(self):
        cases = [
            ('traces = [""]\ntrcaes = 1\n', ":2: unknown key 'trcaes' (did you mean 'traces'?)"),
            ('traces = [""]\n[grid]\n"-trace" = ["x"]\n', ":3: -trace cannot be set in a sweep"),
            ('traces = [""]\n[options]\n"-smtlm_stats_json" = "x"\n', ":3: -smtlm_stats_json cannot be set"),
            ('traces = [""]\n[grid]\n"-x" = []\n', ":3: -x has no values"),
            ('traces = [""]\n[grid]\n"-x" = [[1]]\n', ":3: a value of -x must be a number, a string or a boolean"),
            ('traces = [""]\n[slurm]\npartion = "a"\n', ":3: unknown key 'partion' (did you mean 'partition'?)"),
            ('traces = [""]\noutputs = ["report", "stat_csv"]\n', ":2: unknown output 'stat_csv' (did you mean 'stats_csv'?)"),
            ('traces = [""]\n\nconfigs = "a.config\n', ":3: not valid TOML"),
            ('configs = ["a.config"]\n', ":1: no traces"),
            ('traces = [""]\n[slurm]\nmax_parallel = "4"\n', ":3: max_parallel must be a positive integer"),
            ('traces = [""]\n[local]\njobs = 0\n', ":3: jobs must be a positive integer"),
            ('traces = [""]\n[slurm]\nsbatch_args = ["--qos=a",\n  3]\n', ":4: an sbatch argument must be a string"),
        ]
        for text, want in cases:
            with self.assertRaises(spec.SweepError, msg=text) as cm:
                self.load(text)
            self.assertIn(want, str(cm.exception))
            self.assertTrue(str(cm.exception).startswith(os.path.join(tempfile.gettempdir(), "smsweep-spec-")))


class StateTest(unittest.TestCase):
    """A point's state from its files alone (no SLURM submission)."""

    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="smsweep-state-")
        self.addCleanup(lambda: __import__("shutil").rmtree(self.root, True))
        self.sd = state.Sweepdir(self.root)
        self.pdir = self.sd.point_dir("p")
        os.makedirs(self.pdir)
        pointdir.write_atomic(os.path.join(self.pdir, "point.json"), json.dumps({"argv": ["smsim", "-a", "1"]}))

    def state(self, argv=("smsim", "-a", "1")):
        return state.states(self.sd, ["p"], expected_argv={"p": list(argv)})[0][1]

    def put(self, name, text):
        pointdir.write_atomic(os.path.join(self.pdir, name), text)

    def test_states(self):
        self.assertEqual(self.state(), "missing")
        self.assertEqual(self.state(["smsim", "-a", "2"]), "changed")
        me = {"backend": "local", "host": socket.gethostname(), "runner_pid": os.getpid(), "pid": os.getpid()}
        self.put("running.json", json.dumps(me))
        self.assertEqual(self.state(), "running")
        self.assertEqual(self.state(["smsim", "-a", "2"]), "running")  # not run twice when the file changes
        self.put("running.json", json.dumps(dict(me, runner_pid=99999999)))  # above any pid_max: gone
        self.assertEqual(self.state(), "interrupted")
        os.remove(os.path.join(self.pdir, "running.json"))
        self.put("exit_status", "0\n")
        self.assertEqual(self.state(), "failed")  # no stats.json
        self.put("stats.json", "{}")
        self.assertEqual(self.state(), "failed")  # not the statistics of a run that completed
        self.put("stats.json", json.dumps({"kernels": [], "gpu_tot_sim_cycle": 0, "gpu_tot_sim_insn": 0,
                                           "complete": True}))
        self.assertEqual(self.state(), "done")
        self.assertEqual(self.state(["smsim", "-a", "2"]), "changed")
        self.put("exit_status", "-9\n")
        self.assertEqual(state.states(self.sd, ["p"])[0][1:], ("failed", "killed by SIGKILL"))


class RunStatsTest(unittest.TestCase):
    def test_a_row_describes_the_whole_run(self):
        # two kernels: SM counters are cumulative in smsim's records, gpu_sim_* per kernel
        k1 = {"kernel_name": "a", "kernel_launch_uid": 1, "gpu_sim_cycle": 100, "gpu_sim_insn": 300,
              "gpu_ipc": 3.0, "gpu_sim_warp_insn": 10, "sim_time_us": 0.5, "stall": 7,
              "warp_stall": {"scoreboard": 4}, "rf_bank_reads": [1, 2], "sms": [{"sm": 0}],
              "warp_stall_per_warp": [{"sm": 0}]}
        k2 = dict(k1, kernel_launch_uid=2, gpu_sim_cycle=50, gpu_sim_insn=50, gpu_ipc=1.0, gpu_sim_warp_insn=5,
                  sim_time_us=0.25, stall=9, warp_stall={"scoreboard": 6}, rf_bank_reads=[3, 5])
        row = collect.run_stats({"kernels": [k1, k2], "gpu_tot_sim_cycle": 150, "gpu_tot_sim_insn": 350,
                                 "wall_seconds": 0.1})
        self.assertEqual(row["kernels"], 2)
        self.assertEqual(row["gpu_sim_cycle"], 150)
        self.assertEqual(row["gpu_sim_insn"], 350)
        self.assertEqual(row["gpu_sim_warp_insn"], 15)
        self.assertEqual(row["sim_time_us"], 0.75)
        self.assertEqual(row["gpu_ipc"], round(350 / 150, 6))
        self.assertEqual(row["gpu_tot_ipc"], round(350 / 150, 6))
        self.assertEqual(row["stall"], 9)  # cumulative: the last record is the run's
        self.assertEqual(row["warp_stall.scoreboard"], 6)
        self.assertEqual(row["rf_bank_reads[1]"], 5)
        for k in ("kernel_name", "kernel_launch_uid", "sms[0].sm", "warp_stall_per_warp[0].sm"):
            self.assertNotIn(k, row)

    def test_parameters_become_numbers_when_they_are(self):
        self.assertEqual([collect.typed(v) for v in ("8", "-3", "0.5", "1e3", "fifo", "8:32", None)],
                         [8, -3, 0.5, 1000.0, "fifo", "8:32", None])


if __name__ == "__main__":
    unittest.main()
