"""smsweep collect and plot on a real sweep (the three real traces x 8, 16, 32 register banks):
one CSV and one JSON row per point with its parameters and the statistics of its stats.json,
and a chart whose lines are those rows (read back from the SVG's coordinates)."""
import csv
import os
import re
import unittest

from sweeptest import DATA, LUD, MATRIXMUL, VECTORADD, SweepTest, point_dir, read_json

TRACES = ("lud", "vectoradd-100-32-trace", "matrixmul-32-32-trace")


def svg_line(svg, i):
    """The vertices of line i of a chart smsweep drew (its path in group sweep-line-<i>)."""
    m = re.search(r'<g id="sweep-line-%d">\s*<path d="([^"]*)"' % i, svg)
    return [(float(x), float(y)) for x, y in re.findall(r"([-\d.]+) ([-\d.]+)", m.group(1))] if m else None


class CollectPlotTest(SweepTest):
    @classmethod
    def setUpClass(cls):
        cls.sweep_text = ('traces = ["%s", "%s", "%s"]\nengine = "c"\n[grid]\n"-gpgpu_num_reg_banks" = [8, 16, 32]\n'
                          % (LUD, VECTORADD, MATRIXMUL))

    def setUp(self):
        super().setUp()
        self.write("sweep.toml", self.sweep_text)
        self.smsweep("run", "sweep.toml", "--out", "out", "-j", "2", check=0)
        self.out = self.path("out")

    def test_one_row_per_point_with_its_parameters_and_statistics(self):
        p = self.smsweep("collect", "out", check=0)
        self.assertIn("9 rows (9 done)", p.stdout)
        with open(os.path.join(self.out, "results.csv")) as f:
            rows = list(csv.DictReader(f))
        doc = read_json(os.path.join(self.out, "results.json"))
        self.assertEqual(len(rows), 9)
        self.assertEqual(len(doc["rows"]), 9)
        with open(os.path.join(self.out, "results.csv")) as f:
            header = f.readline().strip().split(",")
        self.assertEqual(header[:6], ["point", "trace", "config", "gpgpu_num_reg_banks", "status", "detail"])
        self.assertEqual(header, doc["columns"])
        for r, j in zip(rows, doc["rows"]):
            self.assertEqual(r["status"], "done")
            self.assertIn(r["trace"], TRACES)
            self.assertEqual(int(r["gpgpu_num_reg_banks"]), j["gpgpu_num_reg_banks"])  # a number in the JSON
            stats = read_json(os.path.join(point_dir(self.out, r["point"]), "stats.json"))
            k = stats["kernels"][-1]
            self.assertEqual(int(r["gpu_tot_sim_cycle"]), stats["gpu_tot_sim_cycle"])
            self.assertEqual(j["gpu_tot_sim_cycle"], stats["gpu_tot_sim_cycle"])
            self.assertEqual(int(r["gpu_sim_cycle"]), k["gpu_sim_cycle"])  # one kernel in each of these traces
            self.assertEqual(int(r["warp_stall.scoreboard"]), k["warp_stall"]["scoreboard"])
            banks = j["gpgpu_num_reg_banks"]
            self.assertEqual([j["rf_bank_reads[%d]" % b] for b in range(banks)], k["rf_bank_reads"])
            self.assertEqual(j.get("rf_bank_reads[%d]" % banks), None)  # a column of the 16- and 32-bank rows only
            self.assertEqual(sum(k["rf_bank_reads"]), sum(j["rf_bank_reads[%d]" % b] for b in range(banks)))
            if r["trace"] == "lud":
                self.assertEqual(j["gpu_tot_sim_insn"], 16080)

    def test_the_chart_draws_the_rows(self):
        p = self.smsweep("plot", "out", "--x=-gpgpu_num_reg_banks", "--metric", "gpu_tot_sim_cycle", check=0)
        self.assertIn("3 lines", p.stdout)
        svg_path = os.path.join(self.out, "gpu_tot_sim_cycle-vs-gpgpu_num_reg_banks.svg")
        with open(svg_path) as f:
            svg = f.read()
        for t in TRACES:
            self.assertIn(">%s</text>" % t, svg)  # the legend: one line per trace
        for tick in ("8", "16", "32"):
            self.assertIn(">%s</text>" % tick, svg)
        self.smsweep("collect", "out", check=0)
        doc = read_json(os.path.join(self.out, "results.json"))
        cycles = {(r["trace"], r["gpgpu_num_reg_banks"]): r["gpu_tot_sim_cycle"] for r in doc["rows"]}
        lines = [svg_line(svg, i) for i in range(3)]
        self.assertIsNone(svg_line(svg, 3))
        # y on the page is one affine function of the cycles for every vertex of every line
        # (fitted on two vertices of different value), x one of log2(banks): 8, 16, 32 evenly spaced
        pts = [(cycles[(t, b)], y, b, x) for t, line in zip(TRACES, lines) for b, (x, y) in zip((8, 16, 32), line)]
        (v0, y0, _, _), (v1, y1, _, _) = pts[0], next(q for q in pts if q[0] != pts[0][0])
        slope = (y1 - y0) / (v1 - v0)
        self.assertLess(slope, 0)  # more cycles, higher on the page
        for v, y, b, x in pts:
            self.assertAlmostEqual(y, y0 + slope * (v - v0), delta=0.05)
        xs = {b: x for _, _, b, x in pts}
        self.assertAlmostEqual(xs[16] - xs[8], xs[32] - xs[16], delta=0.05)
        self.assertGreater(xs[16], xs[8])
        # the same chart as PNG, and one metric relative to its first value
        png = self.path("cycles.png")
        self.smsweep("plot", "out", "--x", "gpgpu_num_reg_banks", "--out", png, "--relative", check=0)
        with open(png, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        # the same results draw the same file
        with open(svg_path) as f:
            first = f.read()
        self.smsweep("plot", "out", "--x", "gpgpu_num_reg_banks", check=0)
        with open(svg_path) as f:
            self.assertEqual(f.read(), first)

    def test_a_metric_that_is_not_a_column_names_the_nearest(self):
        p = self.smsweep("plot", "out", "--x", "gpgpu_num_reg_banks", "--metric", "gpu_tot_sim_cycles", check=2)
        self.assertIn("no metric column 'gpu_tot_sim_cycles' (did you mean gpu_tot_sim_cycle", p.stderr)
        p = self.smsweep("plot", "out", "--x", "banks", check=2)
        self.assertIn("no parameter column 'banks'", p.stderr)
        p = self.smsweep("plot", "out", "--x", "gpgpu_num_reg_banks", "--where", "trace=lud", "--out",
                         self.path("c.txt"), check=2)
        self.assertIn("c.txt: the chart is written as .svg or .png", p.stderr)


def example_table_row(r):
    """A row of docs/SWEEPS.md's worked-example table, from a row of results.json."""
    waits = sum(v for k, v in r.items() if k.startswith("rf_bank_wait_steps[") and v is not None)
    return "| %s | %s | %d | %d | %d | %d | %.3f | %d | %d | %.3f |" % (
        r["trace"], r["config"], r["gpgpu_num_reg_banks"], r["gpu_tot_sim_cycle"], r["sm_active_cycles"],
        r["gpu_tot_sim_insn"], r["gpu_tot_ipc"], r["gpu_reg_bank_conflict_stalls"], waits, r["cu_occupancy_mean"])


class WorkedExampleTest(SweepTest):
    def test_the_documented_table_is_what_the_example_sweep_measures(self):
        root = os.path.dirname(os.path.dirname(os.path.abspath(DATA)))
        self.smsweep("run", os.path.join(root, "examples", "sweeps", "banks.toml"), "--out", "banks-out", check=0)
        self.smsweep("collect", "banks-out", check=0)
        rows = read_json(self.path("banks-out", "results.json"))["rows"]
        with open(os.path.join(root, "docs", "SWEEPS.md")) as f:
            documented = [l.rstrip("\n") for l in f if re.match(r"\| (lud|vectoradd|matrixmul)", l)]
        self.assertEqual(documented, [example_table_row(r) for r in rows])
        # docs/sweeps-banks.svg draws these rows: each trace's cycles relative to 8 banks
        with open(os.path.join(root, "docs", "sweeps-banks.svg")) as f:
            svg = f.read()
        rel = {}
        for r in rows:
            rel.setdefault(r["trace"], []).append(r["gpu_tot_sim_cycle"])
        pts = []
        for i, trace in enumerate(TRACES):
            self.assertIn(">%s (%s)</text>" % (trace, "QV100" if trace == "lud" else "TITANX"), svg)
            line = svg_line(svg, i)
            self.assertEqual(len(line), 3)
            pts += [(c / rel[trace][0], y) for c, (_, y) in zip(rel[trace], line)]
        (v0, y0), (v1, y1) = pts[0], next(q for q in pts if abs(q[0] - pts[0][0]) > 1e-3)
        for v, y in pts:
            self.assertAlmostEqual(y, y0 + (y1 - y0) / (v1 - v0) * (v - v0), delta=0.05)


if __name__ == "__main__":
    unittest.main()
