"""Unit tests of the benchmark library (xtbench.py) and of the harness on it.

    python3 -m unittest discover -s benchmarks -p 'test_*.py'

No MPI needed: the harness test runs a Python stand-in for mpiexec.
Plot tests are skipped without matplotlib (/usr/bin/python3 has it)."""
import json
import os
import random
import stat
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import xtbench  # noqa: E402
import harness  # noqa: E402

try:
    import matplotlib  # noqa: F401
    HAVE_MPL = True
except ImportError:
    HAVE_MPL = False


class Statistics(unittest.TestCase):
    def test_median_quantile_iqr_spread(self):
        v = [5, 1, 4, 2, 3]
        self.assertEqual(xtbench.median(v), 3)
        self.assertEqual(xtbench.quantile(v, 0), 1)
        self.assertEqual(xtbench.quantile(v, 1), 5)
        self.assertEqual(xtbench.quantile([1, 2, 3, 4], 0.5), 2.5)
        self.assertEqual(xtbench.iqr(v), (2, 4))
        self.assertEqual(xtbench.spread(v), (1, 5))
        self.assertAlmostEqual(xtbench.rel_spread(v), 4 / 3)
        self.assertTrue(xtbench.median([]) != xtbench.median([]))     # NaN
        self.assertAlmostEqual(xtbench.geomean([1, 4]), 2)

    def test_bootstrap_is_seeded_and_brackets(self):
        rnd = random.Random(7)
        v = [rnd.gauss(10, 1) for _ in range(40)]
        a = xtbench.bootstrap_ci(v)
        self.assertEqual(a, xtbench.bootstrap_ci(v))
        self.assertLessEqual(a[0], xtbench.median(v))
        self.assertGreaterEqual(a[1], xtbench.median(v))
        self.assertLess(a[1] - a[0], 2)
        self.assertEqual(xtbench.bootstrap_ci([3, 3, 3]), (3, 3))
        lo, hi = xtbench.bootstrap_ci(v, stat=xtbench.geomean, n=500, level=0.9, seed=2)
        self.assertLess(lo, hi)

    def test_bootstrap_matches_the_percentile_definition(self):
        v = [0.9, 1.0, 1.1, 0.95, 1.2]
        rnd = random.Random(1)
        boot = sorted(xtbench.geomean(rnd.choices(v, k=len(v))) for _ in range(2000))
        self.assertEqual(xtbench.bootstrap_ci(v, stat=xtbench.geomean), (boot[50], boot[1950]))

    def test_summary_and_group(self):
        s = xtbench.summary([1, 2, 3, 4], ci=True)
        self.assertEqual((s["n"], s["median"], s["min"], s["max"]), (4, 2.5, 1, 4))
        self.assertIn("ci_lo", s)
        rows = [{"c": "a", "v": "1"}, {"c": "b", "v": "2"}, {"c": "a", "v": "3"},
                {"c": "a", "v": ""}]
        self.assertEqual(xtbench.group(rows, ["c"], "v"), {("a",): [1.0, 3.0], ("b",): [2.0]})
        self.assertEqual(list(xtbench.group(rows, ["c"], "v", where=lambda r: r["c"] == "b")),
                         [("b",)])


class Order(unittest.TestCase):
    CONFIGS = ["a", "b", "c", "d"]

    def test_fixed_and_rotate(self):
        self.assertEqual(xtbench.config_order(self.CONFIGS, 3, how="fixed"), self.CONFIGS)
        self.assertEqual(xtbench.config_order(self.CONFIGS, 1, 2, "rotate"), ["d", "a", "b", "c"])
        self.assertEqual(xtbench.config_order(["x", "y"], 1, 0, "rotate"), ["y", "x"])

    def test_shuffle_is_a_seeded_permutation(self):
        a = xtbench.config_order(self.CONFIGS, 2, {"block": 4096})
        self.assertEqual(sorted(a), self.CONFIGS)
        self.assertEqual(a, xtbench.config_order(self.CONFIGS, 2, {"block": 4096}))
        # the random seed is "REP:k=v,...", so reruns of older CSVs keep their order
        want = list(self.CONFIGS)
        random.Random("2:block=4096").shuffle(want)
        self.assertEqual(a, want)
        orders = {tuple(xtbench.config_order(self.CONFIGS, r, {})) for r in range(1, 20)}
        self.assertGreater(len(orders), 3)
        self.assertEqual(sorted(xtbench.config_order(self.CONFIGS, 1, how="random")),
                         self.CONFIGS)
        with self.assertRaises(ValueError):
            xtbench.config_order(self.CONFIGS, 1, how="sideways")

    def test_interleave_reps_outermost(self):
        got = list(xtbench.interleave(["a", "b"], 2, [{"x": 1}, {"x": 2}], "fixed"))
        self.assertEqual([(r, p["x"], s, c) for r, p, s, c in got],
                         [(1, 1, 0, "a"), (1, 1, 1, "b"), (1, 2, 0, "a"), (1, 2, 1, "b"),
                          (2, 1, 0, "a"), (2, 1, 1, "b"), (2, 2, 0, "a"), (2, 2, 1, "b")])

    def test_run_interleaved_collects_rows_and_failures(self):
        def one(config, rep, point):
            if config["name"] == "bad" and rep == 2:
                raise xtbench.RunError("boom")
            if config["name"] == "skip":
                return None
            return [{"v": rep * 10}]
        configs = [{"name": "ok"}, {"name": "bad"}, {"name": "skip"}]
        with open(os.devnull, "w") as null:
            old, sys.stderr = sys.stderr, null
            try:
                rows, failures = xtbench.run_interleaved(configs, 2, one, [{"p": 1}], "fixed")
            finally:
                sys.stderr = old
        self.assertEqual(failures, ["bad rep 2/2 p=1"])
        self.assertEqual(rows, [{"config": "ok", "rep": 1, "p": 1, "v": 10, "slot": 0},
                                {"config": "bad", "rep": 1, "p": 1, "v": 10, "slot": 1},
                                {"config": "ok", "rep": 2, "p": 1, "v": 20, "slot": 0}])


class Running(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def test_write_hints(self):
        self.assertIsNone(xtbench.write_hints(os.path.join(self.dir, "h"), {}))
        p = xtbench.write_hints(os.path.join(self.dir, "h"),
                                {"cb_nodes": 2, "romio_xt_trace_dir": "{work}/t"}, {"work": "/w"})
        with open(p) as f:
            self.assertEqual(f.read(), "cb_nodes 2\nromio_xt_trace_dir /w/t\n")

    def test_clean_env(self):
        os.environ["ROMIO_HINTS"] = "/nowhere"
        os.environ["ROMIO_XT_TEST_X"] = "1"
        try:
            env = xtbench.clean_env("/p", drop_prefixes=("ROMIO_XT_TEST",), extra={"A": "b"})
        finally:
            del os.environ["ROMIO_HINTS"], os.environ["ROMIO_XT_TEST_X"]
        self.assertNotIn("ROMIO_HINTS", env)
        self.assertNotIn("ROMIO_XT_TEST_X", env)
        self.assertTrue(env["LD_LIBRARY_PATH"].startswith("/p/lib"))
        self.assertEqual(env["A"], "b")

    def test_execute(self):
        out, err, problem = xtbench.execute([sys.executable, "-c", "print('hi')"])
        self.assertEqual((out, problem), ("hi\n", None))
        _, _, problem = xtbench.execute([sys.executable, "-c", "import sys; sys.exit(3)"])
        self.assertEqual(problem, "exit status 3")
        t0 = time.time()
        _, _, problem = xtbench.execute(["sleep", "30"], timeout=0.5)
        self.assertIn("timed out", problem)
        self.assertLess(time.time() - t0, 10)

    def test_run_hinted(self):
        show = [sys.executable, "-c",
                "import os; p = os.environ.get('ROMIO_HINTS'); "
                "print(open(p).read() if p else 'stock', end='')"]
        out, _, problem = xtbench.run_hinted(show, {"romio_orthrus": "enable"}, logs=self.dir,
                                             tag="t1")
        self.assertEqual((out, problem), ("romio_orthrus enable\n", None))
        self.assertTrue(os.path.exists(os.path.join(self.dir, "t1.out")))
        os.environ["ROMIO_HINTS"] = "/nowhere"
        try:
            out, _, _ = xtbench.run_hinted(show, {}, logs=self.dir, tag="t2")
        finally:
            del os.environ["ROMIO_HINTS"]
        self.assertEqual(out, "stock")

    def test_parse_results(self):
        text = "noise\nRESULT phase=write bytes=10 seconds=0.5 file=/x\nCALL call=3 seconds=1e-3\n"
        self.assertEqual(xtbench.parse_results(text),
                         [{"phase": "write", "bytes": 10, "seconds": 0.5, "file": "/x"}])
        self.assertEqual(xtbench.parse_results(text, "CALL"), [{"call": 3, "seconds": 0.001}])

    def test_evict(self):
        path = os.path.join(self.dir, "f")
        with open(path, "wb") as f:
            f.write(os.urandom(1 << 20))
        self.assertTrue(xtbench.evict(path))
        self.assertTrue(xtbench.evict(path, settle=True))
        os.environ["XT_BENCH_SETTLE"] = "0"
        try:
            self.assertFalse(xtbench.settle_default())
            self.assertTrue(xtbench.evict(path, settle=None))
        finally:
            del os.environ["XT_BENCH_SETTLE"]
        self.assertFalse(xtbench.evict(os.path.join(self.dir, "missing")))

    def test_page_reporting(self):
        knob = os.path.join(self.dir, "order")
        self.assertEqual(xtbench.page_reporting("t", knob), "none")
        with open(knob, "w") as f:
            f.write("9\n")
        with open(os.devnull, "w") as null:
            old, sys.stderr = sys.stderr, null
            try:
                self.assertEqual(xtbench.page_reporting("t", knob), "on")
                os.environ["XT_BENCH_PAGE_REPORTING"] = "off"
                self.assertEqual(xtbench.page_reporting("t", knob), "paused")
            finally:
                sys.stderr = old
                os.environ.pop("XT_BENCH_PAGE_REPORTING", None)
        with open(knob) as f:
            self.assertEqual(f.read(), xtbench.PAGE_REPORTING_PAUSED)


class Output(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def test_csv_round_trip_and_append(self):
        p = os.path.join(self.dir, "x.csv")
        xtbench.write_csv([{"a": 1, "b": 2}, {"a": 3, "c": 4}], p)
        self.assertEqual(xtbench.read_csv(p), [{"a": "1", "b": "2", "c": ""},
                                               {"a": "3", "b": "", "c": "4"}])
        xtbench.write_csv([{"a": 5}], p, ["a", "b", "c"], append=True)
        self.assertEqual(len(xtbench.read_csv(p)), 3)
        with open(p) as f:
            self.assertEqual(f.read().count("a,b,c"), 1)

    def test_md_table_and_formatting(self):
        self.assertEqual(xtbench.md_table(["x", "y"], [[1, "a"]], "lr"),
                         "| x | y |\n|---|---:|\n| 1 | a |\n")
        self.assertEqual(xtbench.fmt_range([1, 2, 9]), "2.0 [1.0-9.0]")
        self.assertEqual(xtbench.fmt_range([]), "-")
        self.assertEqual(xtbench.num("2.5"), 2.5)
        self.assertIsNone(xtbench.num(""))
        self.assertEqual(xtbench.num(None, 0.0), 0.0)

    @unittest.skipUnless(HAVE_MPL, "matplotlib missing")
    def test_plots(self):
        plt = xtbench.pyplot("test")
        fig, axes = plt.subplots(1, 3)
        xtbench.bars(axes[0], ["g1", "g2"], {"a": [[1, 2, 3], None], "b": [[2], [4, 5]]}, "y")
        xtbench.lines(axes[1], [1, 2], {"a": [[1, 2], [3, 4]], "b": [None, [1]]}, "y",
                      {"a": {"ls": "--"}})
        xtbench.heatmap(axes[2], [[1.0, float("nan")], [0.5, 2.0]], ["x1", "x2"], ["y1", "y2"],
                        bold=lambda v: v < 1)
        p = os.path.join(self.dir, "p.png")
        xtbench.save(fig, p)
        with open(p, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")


FAKE_MPIEXEC = """#!/bin/sh
# mpiexec stand-in: drops "-n N" and runs the rest once
while [ $# -gt 0 ]; do
    case $1 in -n) shift 2 ;; *) break ;; esac
done
exec "$@"
"""
FAKE_WORKLOAD = """import os, sys
hints = os.environ.get("ROMIO_HINTS")
text = open(hints).read() if hints else ""
speed = 200 if "fast" in text else 100
path = os.path.join(sys.argv[1], "f")
open(path, "w").close()
if os.environ.get("ROMIO_XT_STATS_FILE") and "romio_xt_stats" in text:
    with open(os.environ["ROMIO_XT_STATS_FILE"], "a") as f:
        f.write('{"file": "%s", "bytes_written": 7, "ops": {"x": {"calls": 1}}}\\n' % path)
print("RESULT phase=write MBps=%d block=%s file=%s" % (speed * int(sys.argv[2]), sys.argv[2], path))
"""


class Harness(unittest.TestCase):
    def test_harness_end_to_end(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "pfx", "bin"))
            mpiexec = os.path.join(d, "pfx", "bin", "mpiexec")
            with open(mpiexec, "w") as f:
                f.write(FAKE_MPIEXEC)
            os.chmod(mpiexec, stat.S_IRWXU)
            wl = os.path.join(d, "wl.py")
            with open(wl, "w") as f:
                f.write(FAKE_WORKLOAD)
            cfg = {"name": "t", "workload": {"command": f"{sys.executable}"},
                   "args": [wl, "{workdir}", "{block}"], "reps": 2,
                   "configs": [{"name": "stock", "hints": {}},
                               {"name": "fast", "hints": {"romio_xt_stats": "enable",
                                                          "fast": "1"}}],
                   "sweep": {"block": [1, 2]}, "stats_fields": ["bytes_written"]}
            with open(os.path.join(d, "t.json"), "w") as f:
                json.dump(cfg, f)
            out = os.path.join(d, "out")
            with open(os.devnull, "w") as null:
                old = sys.stdout, sys.stderr
                sys.stdout = sys.stderr = null
                try:
                    rc = harness.main(["--config", os.path.join(d, "t.json"), "--prefix",
                                       os.path.join(d, "pfx"), "--out", out])
                finally:
                    sys.stdout, sys.stderr = old
            self.assertEqual(rc, 0)
            rows = xtbench.read_csv(os.path.join(out, "t.csv"))
            self.assertEqual(len(rows), 8)
            self.assertEqual({r["stats.bytes_written"] for r in rows if r["config"] == "fast"},
                             {"7"})
            with open(os.path.join(out, "t.md")) as f:
                md = f.read()
            self.assertIn("| write | 2 | 200.0 | 400.0 | 2.000 |", md)


def load_module(rel, name):
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, rel))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class Reports(unittest.TestCase):
    """The runners' summaries on small synthetic CSVs."""

    def quiet(self, fn, *args):
        with open(os.devnull, "w") as null:
            old = sys.stdout, sys.stderr
            sys.stdout = sys.stderr = null
            try:
                return fn(*args)
            finally:
                sys.stdout, sys.stderr = old

    def noharm_report(self, d, speeds):
        """noharm's report over 3 reps of one cell, a config per (name, seconds);
        (exit status, noharm.md, the rows, the CSV's path)"""
        nh = load_module("noharm/run.py", "noharm_run")
        rows = [dict(wl="contig", ranks=1, nodes=1, op="write", cond="cold", config=c,
                     rep=r, seconds=s * (1 + r / 100), ok=True, rc=0, digest="x")
                for r in range(3) for c, s in speeds]
        p = os.path.join(d, "noharm.csv")
        xtbench.write_csv(rows, p)
        rc = self.quiet(nh.report, p, d)
        with open(os.path.join(d, "noharm.md")) as f:
            return rc, f.read(), rows, p

    def test_noharm_report(self):
        nh = load_module("noharm/run.py", "noharm_run")
        with tempfile.TemporaryDirectory() as d:
            rc, md, rows, p = self.noharm_report(d, (("stock", 1.0), ("prefetch", 2.0),
                                                     ("stock_again", 1.0)))
            self.assertEqual(rc, 0)
            self.assertIn("| prefetch | 0.50 | contig 1r/1n write cold | 1 of 1 | 1 | 0.50 |", md)
            summary = xtbench.read_csv(os.path.join(d, "noharm-summary.csv"))
            self.assertEqual(len(summary), 3)
            rows[0]["rc"] = 1
            xtbench.write_csv(rows, p)
            self.assertEqual(self.quiet(nh.report, p, d), 1)

    def test_noharm_auto_section(self):
        """auto against stock and the fastest single extension, with the
        A/A comparison beside it"""
        with tempfile.TemporaryDirectory() as d:
            rc, md, _, _ = self.noharm_report(d, (("stock", 1.0), ("prefetch", 0.5),
                                                  ("orthrus", 1.0), ("auto", 1.0),
                                                  ("stock_again", 1.0)))
            self.assertEqual(rc, 0)
            self.assertIn("1 cells below 0.9, worst 0.50.", md)
            self.assertIn("| contig 1r/1n write cold | 1.00 | prefetch | 0.50 |", md)
            self.assertIn("against the fastest single extension geometric mean 0.50", md)

    def test_workflows_auto_text(self):
        sys.path.insert(0, os.path.join(HERE, "apps"))
        wf = load_module("testbed/workflows.py", "workflows_mod")
        by = {c: [{"rep": r, "value": v * (1 + r / 100)} for r in (1, 2, 3)]
              for c, v in (("stock", 100.0), ("e10_cache", 300.0), ("prefetch", 110.0),
                           ("auto", 150.0))}
        text = wf.auto_text({("cp", "write_MBps"): by})
        self.assertIn("| cp | write_MBps | 1.50 [1.50-1.50] | 3.00 [3.00-3.00] | "
                      "0.50 [0.50-0.50] |", text)
        self.assertEqual(wf.auto_text({("cp", "write_MBps"): {"stock": by["stock"]}}), "")

    def test_orthrus_targets(self):
        orth = load_module("orthrus/report.py", "orthrus_report")
        speed = {"stock": 100, "two_phase": 100, "core_first": 150, "disk_first": 50,
                 "enable": 145, "enable_table": 150}
        rows = [{"config": c, "rep": r, "block": b, "phase": op + w, "MBps": v * (1 + r / 50),
                 "stats.features.orthrus.runs.two_phase": 1,
                 "stats.features.orthrus.runs.core_first": 50,
                 "stats.features.orthrus.runs.disk_first": 1}
                for r in (1, 2, 3) for b in (4096, 65536) for op in ("write", "read")
                for w in ("", "_steady") for c, v in speed.items()]
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "o.csv")
            xtbench.write_csv(rows, p)
            text = orth.targets(*orth.load_sweep(p))
        self.assertIn("| write | 4096 | 0.97 | core_first | 1.45 | 1/50/1 | 1.50 |", text)
        self.assertIn("met in 4 of 4 cells", text)


if __name__ == "__main__":
    unittest.main()
