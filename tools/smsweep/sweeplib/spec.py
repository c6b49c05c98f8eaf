"""The sweep file: reading, checking its structure, and expanding it into points.

A point is one smsim run: a trace (kernel list), a config (zero or more config files) and the
option settings of one grid cell or explicit [[points]] entry, on top of the sweep's fixed
[options]. Every value remembers the line of the sweep file it came from, so an error that
smsim reports at a command-line position is shown at the sweep file's line (see check.py)."""
import difflib
import hashlib
import itertools
import os
import re
import tomllib
from dataclasses import dataclass, field

from .tomlines import LineMap

TOP_KEYS = ("name", "traces", "configs", "engine", "outputs", "options", "grid", "points", "local",
            "slurm", "smsim")
LOCAL_KEYS = ("jobs",)
SLURM_KEYS = ("partition", "account", "time", "mem", "cpus_per_task", "max_parallel", "sbatch_args",
              "python", "job_name")
# output name -> (smsim option, file name in the point's directory)
OUTPUTS = {
    "stats_json": (None, "stats.json"),  # always written: collect reads it
    "stats_csv": ("-smtlm_stats_csv", "kernels.csv"),
    "report": ("-smtlm_report", "report.html"),
    "event_log": ("-smtlm_event_log", "events.log"),
}
# options smsweep sets itself, or that would make a run that is not a simulation
RESERVED = {
    "-trace": "name traces in `traces = [...]`",
    "-config": "name config files in `configs = [...]`",
    "-smtlm_stats_json": "smsweep writes every point's stats.json itself",
    "-smtlm_stats_csv": 'ask for it with outputs = ["stats_csv"]',
    "-smtlm_report": 'ask for it with outputs = ["report"]',
    "-smtlm_event_log": 'ask for it with outputs = ["event_log"]',
    "-smtlm_check_options": "smsweep's dry run sets it",
    "-smtlm_list_options": "a point must be a simulation",
    "-smtlm_compare": "a point must be a simulation",
}
GENERIC_STEMS = ("gpgpusim", "trace", "config", "kernelslist")


class SweepError(Exception):
    """A mistake in the sweep file; str() is the whole message with file:line."""


@dataclass
class Trace:
    name: str
    path: str  # absolute; "" = smsim's synthetic workload
    line: int
    configs: list = None  # names of the only configs it runs with (None: every config)


@dataclass
class Config:
    name: str
    files: list  # absolute paths, applied in order; [] = the built-in QV100
    line: int


@dataclass
class Setting:
    option: str  # with its dash
    value: str   # as smsim reads it
    line: int    # of the value
    key_line: int = 0  # of the option's name (0: the value's line)


@dataclass
class Point:
    index: int
    name: str
    trace: Trace
    config: Config
    settings: list  # the swept settings of this point

    def params(self):
        return {s.option: s.value for s in self.settings}


@dataclass
class Sweep:
    path: str
    name: str
    traces: list
    configs: list
    engine: str
    engine_line: int
    outputs: list
    options: list  # Settings applied to every point
    points: list
    param_names: list  # swept options, in order of first appearance
    local: dict = field(default_factory=dict)
    slurm: dict = field(default_factory=dict)
    smsim: str = ""
    lines: LineMap = None

    def where(self, line):
        return "%s:%d" % (self.path, line)


class _Reader:
    def __init__(self, path, text):
        self.path = path
        self.base = os.path.dirname(os.path.abspath(path))
        self.lines = LineMap(text)

    def fail(self, keypath, msg):
        raise SweepError("%s:%d: %s" % (self.path, self.lines.line(*keypath), msg))

    def unknown_keys(self, table, allowed, keypath):
        for k in table:
            if k not in allowed:
                near = difflib.get_close_matches(k, allowed, n=1, cutoff=0.6)
                hint = " (did you mean '%s'?)" % near[0] if near else " (known: %s)" % ", ".join(allowed)
                self.fail(keypath + (k,), "unknown key '%s'%s" % (k, hint))

    def abspath(self, p):
        return os.path.normpath(os.path.join(self.base, os.path.expanduser(p)))

    def string(self, v, keypath, what):
        if not isinstance(v, str):
            self.fail(keypath, "%s must be a string, not %s" % (what, _toml_type(v)))
        return v

    def list_of(self, v, keypath, what):
        if isinstance(v, (str, dict)):
            return [v]
        if not isinstance(v, list):
            self.fail(keypath, "%s must be a list, not %s" % (what, _toml_type(v)))
        if not v:
            self.fail(keypath, "%s is empty" % what)
        return v

    # -- traces and configs ------------------------------------------------------
    def traces(self, doc):
        if "traces" not in doc:
            raise SweepError('%s:1: no traces: add traces = ["path/to/kernelslist.g", ...] ("" = the '
                             'synthetic workload)' % self.path)
        out = []
        for i, t in enumerate(self.list_of(doc["traces"], ("traces",), "traces")):
            kp = ("traces", i)
            only = None
            if isinstance(t, dict):
                self.unknown_keys(t, ("name", "path", "configs"), kp)
                path = self.string(t.get("path", ""), kp + ("path",), "a trace's path")
                name = self.string(t["name"], kp + ("name",), "a trace's name") if "name" in t else ""
                if "configs" in t:
                    only = [self.string(c, kp + ("configs", j), "a config's name")
                            for j, c in enumerate(self.list_of(t["configs"], kp + ("configs",), "configs"))]
            else:
                path, name = self.string(t, kp, "a trace"), ""
            out.append(Trace(name or trace_label(path), self.abspath(path) if path else "", self.lines.line(*kp), only))
        return _unique_names(out)

    def pairing(self, traces, configs, doc):
        """A trace's `configs = [names]` must name configs of the sweep."""
        names = [c.name for c in configs]
        for i, t in enumerate(traces):
            for j, c in enumerate(t.configs or []):
                if c not in names:
                    near = difflib.get_close_matches(c, names, n=1, cutoff=0.5)
                    self.fail(("traces", i, "configs", j), "trace '%s' names config '%s', which the sweep does not "
                              "have%s (configs: %s)" % (t.name, c, " (did you mean '%s'?)" % near[0] if near else "",
                                                        ", ".join(names)))

    def configs(self, doc):
        if "configs" not in doc:
            return [Config("builtin", [], 1)]
        out = []
        for i, c in enumerate(self.list_of(doc["configs"], ("configs",), "configs")):
            kp = ("configs", i)
            name = ""
            if isinstance(c, dict):
                self.unknown_keys(c, ("name", "files"), kp)
                name = self.string(c["name"], kp + ("name",), "a config's name") if "name" in c else ""
                files = c.get("files", [])
                files = [files] if isinstance(files, str) else files
            else:
                files = [c] if isinstance(c, str) else c
            if not isinstance(files, list):
                self.fail(kp, "a config is a file, a list of files or {name = ..., files = [...]}")
            files = [self.string(f, kp, "a config file") for f in files]
            out.append(Config(name or config_label(files), [self.abspath(f) for f in files], self.lines.line(*kp)))
        return _unique_names(out)

    # -- option settings ---------------------------------------------------------
    def option(self, key, keypath):
        opt = key if key.startswith("-") else "-" + key
        if not re.fullmatch(r"-[A-Za-z0-9_:.]+", opt):
            self.fail(keypath, "'%s' is not an smsim option name" % key)
        if opt in RESERVED:
            self.fail(keypath, "%s cannot be set in a sweep: %s" % (opt, RESERVED[opt]))
        return opt

    def value(self, v, keypath, opt):
        if isinstance(v, bool):
            return "1" if v else "0"
        if isinstance(v, (int, float, str)):
            return str(v)
        self.fail(keypath, "a value of %s must be a number, a string or a boolean, not %s" % (opt, _toml_type(v)))

    def settings_table(self, table, keypath, what):
        if not isinstance(table, dict):
            self.fail(keypath, "%s must be a table of \"-option\" = value" % what)
        out = []
        for k, v in table.items():
            opt = self.option(k, keypath + (k,))
            line = self.lines.line(*keypath, k)
            out.append(Setting(opt, self.value(v, keypath + (k,), opt), line, line))
        return out

    def grid(self, doc):
        table = doc.get("grid", {})
        if not isinstance(table, dict):
            self.fail(("grid",), 'grid must be a table: [grid] then "-option" = [values]')
        axes = []
        for k, vs in table.items():
            kp = ("grid", k)
            opt = self.option(k, kp)
            vs = vs if isinstance(vs, list) else [vs]
            if not vs:
                self.fail(kp, "%s has no values" % opt)
            axes.append([Setting(opt, self.value(v, kp + (j,), opt), self.lines.line(*kp, j), self.lines.line(*kp))
                         for j, v in enumerate(vs)])
        return [list(cell) for cell in itertools.product(*axes)] if axes else []

    def explicit(self, doc):
        pts = doc.get("points", [])
        if isinstance(pts, dict) or not isinstance(pts, list):
            self.fail(("points",), "points must be [[points]] tables (or a list of inline tables)")
        return [self.settings_table(p, ("points", i), "a [[points]] entry") for i, p in enumerate(pts)]


def _toml_type(v):
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list",
            dict: "a table"}.get(type(v), type(v).__name__)


def _stem(path):
    base = os.path.basename(path.rstrip("/"))
    for ext in (".xz", ".traceg", ".g", ".config", ".cfg"):
        if base.endswith(ext):
            base = base[:-len(ext)]
    return base


def trace_label(path):
    """lud/kernelslist.g -> lud; a/kernel-1.traceg -> kernel-1; "" -> synthetic."""
    if not path:
        return "synthetic"
    stem = _stem(path)
    if stem in GENERIC_STEMS:
        stem = os.path.basename(os.path.dirname(os.path.abspath(path))) or stem
    return stem


def config_label(files):
    """configs/qv100.config -> qv100; SM7_QV100/gpgpusim.config (+ trace.config) -> SM7_QV100."""
    if not files:
        return "builtin"
    stem = _stem(files[0])
    if stem in GENERIC_STEMS:
        stem = os.path.basename(os.path.dirname(os.path.abspath(files[0]))) or stem
    return stem


def _unique_names(items):
    seen = {}
    for i, it in enumerate(items):
        it.name = safe_name(it.name)
        if it.name in seen:
            n = 2
            while "%s-%d" % (it.name, n) in seen:
                n += 1
            it.name = "%s-%d" % (it.name, n)
        seen[it.name] = i
    return items


def safe_name(s):
    return re.sub(r"[^A-Za-z0-9_.=+-]", "_", s) or "_"


def point_name(trace, config, settings):
    parts = [trace.name, config.name] + ["%s=%s" % (s.option.lstrip("-"), s.value) for s in settings]
    name = safe_name(".".join(parts))
    if len(name) > 180:  # file names end at 255 bytes: keep the start and make the rest unique
        name = name[:160] + "~" + hashlib.sha1(name.encode()).hexdigest()[:12]
    return name


def load(path):
    """Reads and checks a sweep file; raises SweepError."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise SweepError("%s: cannot read: %s" % (path, e.strerror))
    text = raw.decode("utf-8", errors="replace")
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(e))
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(e))
        raise SweepError("%s:%s: not valid TOML: %s" % (path, m.group(1) if m else "1", msg))
    r = _Reader(path, text)
    r.unknown_keys(doc, TOP_KEYS, ())
    traces, configs = r.traces(doc), r.configs(doc)
    r.pairing(traces, configs, doc)
    engine = r.string(doc.get("engine", ""), ("engine",), "engine")
    outputs = [r.string(o, ("outputs", i), "an output") for i, o in
               enumerate(r.list_of(doc.get("outputs", ["stats_json"]), ("outputs",), "outputs"))]
    for i, o in enumerate(outputs):
        if o not in OUTPUTS:
            near = difflib.get_close_matches(o, OUTPUTS, n=1, cutoff=0.6)
            r.fail(("outputs", i), "unknown output '%s'%s (known: %s)" % (
                o, " (did you mean '%s'?)" % near[0] if near else "", ", ".join(OUTPUTS)))
    options = r.settings_table(doc.get("options", {}), ("options",), "options")
    cells = r.grid(doc) + r.explicit(doc)
    if not cells:
        cells = [[]]
    local = doc.get("local", {})
    slurm = doc.get("slurm", {})
    for key, table, allowed in (("local", local, LOCAL_KEYS), ("slurm", slurm, SLURM_KEYS)):
        if not isinstance(table, dict):
            r.fail((key,), "%s must be a table: [%s]" % (key, key))
        r.unknown_keys(table, allowed, (key,))
    for key, table, k in (("local", local, "jobs"), ("slurm", slurm, "cpus_per_task"), ("slurm", slurm, "max_parallel")):
        if k in table and (not isinstance(table[k], int) or isinstance(table[k], bool) or table[k] < 1):
            r.fail((key, k), "%s must be a positive integer" % k)
    for k in ("partition", "account", "time", "mem", "python", "job_name"):
        if k in slurm:
            r.string(slurm[k], ("slurm", k), k)
    if "sbatch_args" in slurm:
        slurm["sbatch_args"] = [r.string(a, ("slurm", "sbatch_args", i), "an sbatch argument")
                                for i, a in enumerate(r.list_of(slurm["sbatch_args"], ("slurm", "sbatch_args"),
                                                                "sbatch_args"))]
    smsim = r.string(doc.get("smsim", ""), ("smsim",), "smsim")
    param_names = []
    for cell in cells:
        for s in cell:
            if s.option not in param_names:
                param_names.append(s.option)
    points, names = [], set()
    for t in traces:
        for c in configs:
            if t.configs is not None and c.name not in t.configs:
                continue
            for cell in cells:
                name = point_name(t, c, cell)
                if name in names:  # the same settings twice (a [[points]] entry repeating a grid cell)
                    continue
                names.add(name)
                points.append(Point(len(points), name, t, c, cell))
    name = doc.get("name", re.sub(r"\.toml$", "", os.path.basename(path)))
    return Sweep(path=path, name=safe_name(r.string(name, ("name",), "name")), traces=traces, configs=configs,
                 engine=engine, engine_line=r.lines.line("engine"), outputs=outputs, options=options,
                 points=points, param_names=param_names, local=local, slurm=slurm,
                 smsim=r.abspath(smsim) if smsim else "", lines=r.lines)


def command(sweep, point, smsim, outdir=None):
    """smsim's argv for a point, and for each argv position the sweep-file line it comes from
    (None for smsweep's own additions; an option's name has the line of its key, its value the
    line of the value). With outdir: the outputs go there."""
    argv, lines = [smsim], [None]

    def add(args, line, key_line=None):
        argv.extend(args)
        lines.extend([key_line or line] + [line] * (len(args) - 1))

    if point.trace.path:
        add(["-trace", point.trace.path], point.trace.line)
    for f in point.config.files:
        add(["-config", f], point.config.line)
    if sweep.engine:
        add(["-smtlm_engine", sweep.engine], sweep.engine_line)
    for s in sweep.options + point.settings:
        add([s.option, s.value], s.line, s.key_line)
    if outdir is not None:
        for o in ["stats_json"] + [o for o in sweep.outputs if o != "stats_json"]:
            opt, fname = OUTPUTS[o]
            add([opt or "-smtlm_stats_json", os.path.join(outdir, fname)], None)
    return argv, lines
