"""smsweep's dry run: before anything runs, smsim checks every point's options
(-smtlm_check_options), and a mistake fails the whole sweep with the sweep file's line and
smsim's own words (nearest option name included); no directory is created, nothing runs."""
import os
import unittest

from sweeptest import LUD, VECTORADD, SweepTest


class DryRunTest(SweepTest):
    def run_bad(self, text):
        sweep = self.write("sweep.toml", text)
        p = self.smsweep("run", "sweep.toml", "--out", "out", check=2)
        self.assertFalse(os.path.exists(self.path("out")), "the dry run created the sweep directory")
        self.assertIn("nothing was run: the dry run found", p.stderr)
        return sweep, p.stderr

    def test_a_typo_in_a_grid_option_names_its_line_and_the_nearest_option(self):
        sweep, err = self.run_bad('traces = ["%s", "%s"]\nengine = "c"\n\n[grid]\n'
                                  '-gpgpu_num_reg_bank = [8, 16]\n' % (LUD, VECTORADD))
        self.assertIn("smsweep: %s:5: unknown option -gpgpu_num_reg_bank (did you mean -gpgpu_num_reg_banks?) "
                      "[all 4 points]\n" % "sweep.toml", err)

    def test_a_typo_in_the_fixed_options_too(self):
        _, err = self.run_bad('traces = ["%s"]\n[options]\n"-gpgpu_max_cycel" = 1000\n' % VECTORADD)
        self.assertIn("sweep.toml:3: unknown option -gpgpu_max_cycel (did you mean -gpgpu_max_cycle?) "
                      "[point vectoradd-100-32-trace.builtin]", err)

    def test_a_bad_value_names_the_line_of_that_value(self):
        # 12 banks cannot be split over the QV100's 4 sub-cores: only smsim knows, and only the
        # points with 12 fail
        _, err = self.run_bad('traces = ["%s"]\n[grid]\n"-gpgpu_num_reg_banks" = [\n  8,\n  10,\n'
                              '  16,\n]\n"-smtlm_fix_subcore_hol" = [0, 1]\n' % VECTORADD)
        self.assertIn("sweep.toml:5: -gpgpu_num_reg_banks: 10 register banks cannot be split over 4 schedulers "
                      "(sub-core model) [2 of 6 points: vectoradd-100-32-trace.builtin.gpgpu_num_reg_banks=10."
                      "smtlm_fix_subcore_hol=0, vectoradd-100-32-trace.builtin.gpgpu_num_reg_banks=10."
                      "smtlm_fix_subcore_hol=1]", err)

    def test_a_typo_in_a_config_file_names_the_file_line_and_the_sweep_line(self):
        cfg = self.write("typo.config", "-gpgpu_num_reg_banks 8\n-gpgpu_num_reg_bnks 8\n")
        _, err = self.run_bad('traces = ["%s"]\nconfigs = [\n  "typo.config",\n]\n' % VECTORADD)
        self.assertIn("smsweep: %s:2: unknown option -gpgpu_num_reg_bnks (did you mean -gpgpu_num_reg_banks?) "
                      "(config 'typo' at sweep.toml:3)" % cfg, err)

    def test_a_missing_trace_names_the_sweep_line(self):
        _, err = self.run_bad('traces = [\n  "%s",\n  "no-such/kernelslist.g",\n]\n' % VECTORADD)
        self.assertIn("%s: cannot open: No such file or directory (trace 'no-such' at sweep.toml:3) "
                      "[point no-such.builtin]" % self.path("no-such", "kernelslist.g"), err)

    def test_a_mistake_in_the_sweep_file_itself(self):
        sweep = self.write("sweep.toml", 'traces = ["%s"]\n[grid]\n"-trace" = ["a"]\n' % VECTORADD)
        p = self.smsweep("run", "sweep.toml", "--out", "out", check=2)
        self.assertEqual(p.stderr, "smsweep: sweep.toml:3: -trace cannot be set in a sweep: name traces in "
                                   "`traces = [...]`\n")
        self.assertTrue(os.path.exists(sweep))
        self.assertFalse(os.path.exists(self.path("out")))

    def test_a_valid_sweep_lists_its_points_and_runs_nothing(self):
        self.write("sweep.toml", 'traces = ["%s", ""]\n[grid]\n"-gpgpu_num_reg_banks" = [8, 16]\n' % LUD)
        p = self.smsweep("run", "sweep.toml", "--out", "out", "--dry-run", check=0)
        self.assertEqual([l.strip() for l in p.stdout.splitlines() if l.startswith("  ")],
                         ["lud.builtin.gpgpu_num_reg_banks=8", "lud.builtin.gpgpu_num_reg_banks=16",
                          "synthetic.builtin.gpgpu_num_reg_banks=8", "synthetic.builtin.gpgpu_num_reg_banks=16"])
        self.assertIn("smsweep: dry run: smsim accepts every point", p.stdout)
        self.assertFalse(os.path.exists(self.path("out")))


if __name__ == "__main__":
    unittest.main()
