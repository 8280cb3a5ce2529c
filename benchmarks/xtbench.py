"""romio-xt benchmark library: what every runner in benchmarks/ shares.

Running (a command under hint sets, interleaved, with repetitions):
    clean_env, write_hints, execute, mpicc, run_hinted, parse_results,
    config_order, interleave, run_interleaved, RunError, tail
Cold cache:
    evict (the file's dirty pages written, then POSIX_FADV_DONTNEED; with
    settle, read once through and dropped again: as benchmarks/xt_cold.h),
    page_reporting (this VM's free page reporting, paused on request)
Statistics:
    median, quantile, iqr, spread, rel_spread, geomean, bootstrap_ci,
    summary, group
Output:
    write_csv, read_csv, num, md_table, fmt_range, pyplot, save, bars,
    lines, heatmap

Import it from a runner with
    sys.path.insert(0, <benchmarks/>); import xtbench
Tests: python3 -m unittest discover -s benchmarks -p 'test_*.py'.
"""
import atexit
import csv
import itertools
import math
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

# the environment a run must not inherit: hints and the stats layer come from
# the config alone
SCRUBBED_ENV = ("ROMIO_HINTS", "ROMIO_XT_STATS", "ROMIO_XT_STATS_FILE")


class RunError(Exception):
    """A run failed: non-zero exit, timeout, or no measurement in its output."""


# ---- running ----------------------------------------------------------------

def clean_env(prefix=None, drop=SCRUBBED_ENV, drop_prefixes=(), lib=None, extra=None):
    """os.environ without `drop` (and names starting with `drop_prefixes`);
    LD_LIBRARY_PATH starts with `lib` (default PREFIX/lib when prefix is
    given); `extra` is merged last."""
    env = {k: v for k, v in os.environ.items()
           if k not in drop and not (drop_prefixes and k.startswith(tuple(drop_prefixes)))}
    lib = lib or (os.path.join(prefix, "lib") if prefix else None)
    if lib:
        env["LD_LIBRARY_PATH"] = os.pathsep.join(
            p for p in (lib, env.get("LD_LIBRARY_PATH")) if p)
    env.update(extra or {})
    return env


def write_hints(path, hints, ctx=None):
    """A ROMIO_HINTS file ("key value" lines; values formatted with ctx) for
    a non-empty hint set; None for an empty one (stock ROMIO)."""
    if not hints:
        return None
    with open(path, "w") as f:
        for key, value in hints.items():
            f.write(f"{key} {str(value).format(**ctx) if ctx else value}\n")
    return path


def execute(cmd, env=None, timeout=None, cwd=None):
    """Run cmd in its own process group, killed on timeout:
    (stdout, stderr, problem), problem None or a short reason."""
    proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            out, err = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
        return out, err, f"timed out after {timeout} s"
    return out, err, (f"exit status {proc.returncode}" if proc.returncode else None)


def mpicc(prefix, src, exe, flags=("-O2",), ldflags=(), compiler=None):
    """Build src with PREFIX/bin/mpicc (or `compiler`); exits with its output
    on failure.  Returns exe."""
    os.makedirs(os.path.dirname(os.path.abspath(exe)), exist_ok=True)
    cmd = [compiler or os.path.join(prefix, "bin", "mpicc"), *flags, "-o", exe, src, *ldflags]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"building failed: {' '.join(cmd)}\n{proc.stdout}{proc.stderr}")
    return exe


def run_hinted(cmd, hints=None, env=None, logs=None, tag="run", timeout=None, cwd=None,
               ctx=None):
    """Run cmd with ROMIO_HINTS naming a file of `hints` (none: stock ROMIO),
    in `env` (default clean_env()).  With logs, the hints file and the
    command's output stay there as TAG.hints and TAG.out (without, the hints
    file lives in a temporary directory for the run).
    Returns (stdout, stderr, problem) as execute."""
    env = dict(clean_env() if env is None else env)
    hdir = logs or tempfile.mkdtemp(prefix="xtbench-")
    hfile = write_hints(os.path.join(hdir, tag + ".hints"), hints or {}, ctx)
    if hfile:
        env["ROMIO_HINTS"] = os.path.abspath(hfile)
    else:
        env.pop("ROMIO_HINTS", None)
    try:
        out, err, problem = execute(cmd, env, timeout, cwd)
    finally:
        if not logs:
            shutil.rmtree(hdir, ignore_errors=True)
    if logs:
        with open(os.path.join(logs, tag + ".out"), "w") as f:
            f.write(f"$ {' '.join(map(str, cmd))}\n{out}{err}")
    return out, err, problem


def parse_value(text):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_results(text, tag="RESULT"):
    """Every line `TAG key=value ...` as a dict, numbers parsed."""
    rows = []
    for line in (text or "").splitlines():
        if line.startswith(tag + " "):
            pairs = (item.split("=", 1) for item in line.split()[1:] if "=" in item)
            rows.append({key: parse_value(value) for key, value in pairs})
    return rows


def tail(text, lines=15):
    return "\n".join(("    " + l) for l in (text or "").strip().splitlines()[-lines:])


def config_order(configs, rep, point=None, how="shuffle"):
    """The configs in the order one rep runs them at one point:
    shuffle  seeded by rep and point, so a rerun repeats it (default);
    rotate   rotated by rep + point (an int, e.g. the cell's index);
    random   a fresh random order;
    fixed    as given.
    A fixed order puts each config after the same neighbour every rep, and
    cold reads depend on what ran before (page cache, read-ahead,
    writeback); shuffled, such an effect shows as spread, not as a bias."""
    configs = list(configs)
    if how == "fixed" or not configs:
        return configs
    if how == "rotate":
        k = (rep + (point or 0)) % len(configs)
        return configs[k:] + configs[:k]
    if how == "random":
        random.shuffle(configs)
        return configs
    if how != "shuffle":
        raise ValueError(f"unknown order {how!r}")
    items = sorted(point.items()) if isinstance(point, dict) else [("", point)] if point else []
    seed = f"{rep}:" + ",".join(f"{k}={v}" for k, v in items)
    random.Random(seed).shuffle(configs)
    return configs


def interleave(configs, reps, points=({},), how="shuffle"):
    """(rep, point, slot, config) for reps 1..reps outermost, then points,
    configs innermost in config_order, so drift hits every config alike."""
    for rep, point in itertools.product(range(1, reps + 1), points):
        for slot, config in enumerate(config_order(configs, rep, point, how)):
            yield rep, point, slot, config


def run_interleaved(configs, reps, run_one, points=({},), how="shuffle", name=None,
                    prog="xtbench"):
    """Call run_one(config, rep, point) for each (rep, point, config) of
    interleave(); it returns a list of row dicts (or None to skip) or raises
    RunError.  Rows get config (name(config), default config["name"] or the
    config itself), rep, the point's keys and slot.  Progress and failures go
    to stderr as "PROG: what: ...".  Returns (rows, failures)."""
    name = name or (lambda c: c["name"] if isinstance(c, dict) else str(c))
    rows, failures = [], []
    for rep, point, slot, config in interleave(configs, reps, points, how):
        what = f"{name(config)} rep {rep}/{reps}" + "".join(f" {k}={v}" for k, v in point.items())
        start = time.time()
        try:
            got = run_one(config, rep, point)
        except RunError as e:
            failures.append(what)
            print(f"{prog}: {what}: FAILED: {e}", file=sys.stderr)
            continue
        if got is None:
            continue
        base = {"config": name(config), "rep": rep, **point}
        rows += [dict(base, **r, slot=slot) for r in got]
        print(f"{prog}: {what}: ok ({time.time() - start:.1f} s)", file=sys.stderr)
    return rows, failures


# ---- cold cache ---------------------------------------------------------------

def settle_default():
    """XT_BENCH_SETTLE=0 turns the read through after the drop off."""
    return os.environ.get("XT_BENCH_SETTLE", "1") != "0"


def evict(path, settle=False):
    """Drop path from the page cache: its dirty pages written (pages dirty or
    under writeback are not dropped), then POSIX_FADV_DONTNEED.  settle=True
    reads it once through and drops it again, as xt_cold_evict() in
    benchmarks/xt_cold.h (settle=None: XT_BENCH_SETTLE, default on).
    Returns False when the file cannot be opened."""
    if settle is None:
        settle = settle_default()
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        os.fdatasync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        if settle:
            off = 0
            while True:
                got = len(os.pread(fd, 16 << 20, off))
                if not got:
                    break
                off += got
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)
    return True


PAGE_REPORTING_KNOB = "/sys/module/page_reporting/parameters/page_reporting_order"
PAGE_REPORTING_PAUSED = "11"    # above MAX_PAGE_ORDER (10): no free block is reported


def _read_knob(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def _write_knob(path, value):
    try:
        with open(path, "w") as f:
            f.write(value)
        return True
    except OSError:
        return False


def page_reporting(prog, knob=PAGE_REPORTING_KNOB):
    """Apply XT_BENCH_PAGE_REPORTING to this VM's free page reporting and
    return its state for the report: 'none' (no such VM), 'on' or 'paused'.

    A VM whose virtio-balloon reports free pages hands the guest's freed
    memory back to its host; the next page-cache write or cold read that
    takes such pages waits for the host to fault them in (2 MiB writes at
    0.85-1.1 GB/s instead of ~6.5 GB/s, cold reads at 0.7-1.4 instead of
    ~3.5 GB/s here), and which pages a run gets changes from run to run.
    Bare-metal nodes have no such cost.  =off pauses it for the run (root;
    the order is set above the largest page order) and restores it at exit;
    =keep (the default) leaves it and prints one note when it is active."""
    mode = os.environ.get("XT_BENCH_PAGE_REPORTING", "keep")
    old = _read_knob(knob)
    if old is None:
        return "none"
    if mode not in ("keep", "off"):
        print(f"{prog}: XT_BENCH_PAGE_REPORTING={mode!r} is not keep or off; using keep",
              file=sys.stderr)
        mode = "keep"
    if old == PAGE_REPORTING_PAUSED:
        return "paused"
    if mode == "off":
        if _write_knob(knob, PAGE_REPORTING_PAUSED):
            atexit.register(_write_knob, knob, old)
            return "paused"
        print(f"{prog}: XT_BENCH_PAGE_REPORTING=off: cannot write {knob} (not root?); "
              "free page reporting stays on", file=sys.stderr)
    print(f"{prog}: note: this VM reports free pages to its host (page_reporting_order="
          f"{old}); page-cache writes and cold reads may then run bimodal. "
          "XT_BENCH_PAGE_REPORTING=off pauses it for the run (benchmarks/README.md)",
          file=sys.stderr)
    return "on"


# ---- statistics ---------------------------------------------------------------

def median(vals):
    vals = list(vals)
    return statistics.median(vals) if vals else float("nan")


def quantile(vals, q):
    """q-quantile by linear interpolation between the sorted values."""
    v = sorted(vals)
    if not v:
        return float("nan")
    pos = q * (len(v) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


def iqr(vals):
    """(first quartile, third quartile)"""
    vals = list(vals)
    return quantile(vals, 0.25), quantile(vals, 0.75)


def spread(vals):
    """(min, max)"""
    vals = list(vals)
    return (min(vals), max(vals)) if vals else (float("nan"), float("nan"))


def rel_spread(vals):
    """(max - min) / median"""
    vals = list(vals)
    lo, hi = spread(vals)
    return (hi - lo) / median(vals)


def geomean(vals):
    return statistics.geometric_mean(list(vals))


def bootstrap_ci(vals, stat=median, n=2000, level=0.95, seed=1):
    """Percentile bootstrap interval (lo, hi) of stat over vals: n resamples
    with replacement, seeded, so a rerun gives the same interval."""
    vals = list(vals)
    if not vals:
        return float("nan"), float("nan")
    rnd = random.Random(seed)
    boot = sorted(stat(rnd.choices(vals, k=len(vals))) for _ in range(n))
    return boot[int((1 - level) / 2 * n)], boot[min(n - 1, int((1 + level) / 2 * n))]


def summary(vals, ci=False):
    """n, median, min, max, q1, q3 (and ci_lo, ci_hi of the median with ci)."""
    vals = list(vals)
    out = {"n": len(vals), "median": median(vals)}
    out["min"], out["max"] = spread(vals)
    out["q1"], out["q3"] = iqr(vals)
    if ci:
        out["ci_lo"], out["ci_hi"] = bootstrap_ci(vals)
    return out


def group(rows, keys, value, convert=float, where=None):
    """{tuple of rows' keys: [convert(row[value])]}, groups in order of
    appearance; rows without value (or failing `where`) are skipped."""
    out = {}
    for r in rows:
        if where and not where(r):
            continue
        v = r.get(value)
        if v is None or v == "":
            continue
        out.setdefault(tuple(r.get(k, "") for k in keys), []).append(convert(v))
    return out


# ---- output -------------------------------------------------------------------

def write_csv(rows, path, columns=None, append=False):
    """Rows (dicts) to CSV; columns default to every key in order of first
    appearance.  append=True adds to an existing file (header only if new)."""
    if columns is None:
        columns = []
        for row in rows:
            columns += [key for key in row if key not in columns]
    new = not (append and os.path.exists(path))
    with open(path, "a" if append else "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
        if new:
            w.writeheader()
        w.writerows(rows)


def read_csv(*paths):
    rows = []
    for p in paths:
        with open(p, newline="") as f:
            rows += list(csv.DictReader(f))
    return rows


def num(v, default=None):
    try:
        return float(v)
    except (TypeError, ValueError):
        return default


def md_table(header, rows, align=None):
    """A markdown table; cells are str()-ed; align: one of l/r/c per column."""
    sep = {"l": "---", "r": "---:", "c": ":---:"}
    lines = ["| " + " | ".join(map(str, header)) + " |",
             "|" + "|".join(sep[a] for a in (align or "l" * len(header))) + "|"]
    lines += ["| " + " | ".join(map(str, r)) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def fmt_range(vals, fmt="{:.1f}"):
    """'median [min-max]'"""
    vals = list(vals)
    if not vals:
        return "-"
    lo, hi = spread(vals)
    return f"{fmt.format(median(vals))} [{fmt.format(lo)}-{fmt.format(hi)}]"


def pyplot(prog="xtbench"):
    """matplotlib.pyplot on the Agg backend, or None (and a warning) without
    matplotlib (Debian's python3-matplotlib: /usr/bin/python3)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"{prog}: warning: matplotlib missing, no plot", file=sys.stderr)
        return None
    return plt


def save(fig, path, dpi=110, tight=False):
    fig.savefig(path, dpi=dpi, **({"bbox_inches": "tight"} if tight else {}))
    import matplotlib.pyplot as plt
    plt.close(fig)


def _errs(samples):
    med = [median(v) if v else 0 for v in samples]
    lo = [m - min(v) if v else 0 for m, v in zip(med, samples)]
    hi = [max(v) - m if v else 0 for m, v in zip(med, samples)]
    return med, [lo, hi]


def bars(ax, labels, series, ylabel=None, errors=True, colors=None):
    """Grouped bars: series = {name: [samples of group 0, of group 1, ...]}
    (a list of values or None per group); bar = median, error bar = min-max."""
    names = list(series)
    width = 0.8 / max(1, len(names))
    for i, name in enumerate(names):
        shift = (i - (len(names) - 1) / 2) * width
        present = [(x, list(v)) for x, v in enumerate(series[name]) if v]
        if not present:
            continue
        med, err = _errs([v for _, v in present])
        ax.bar([x + shift for x, _ in present], med, width, yerr=err if errors else None,
               capsize=3, label=name, color=(colors or {}).get(name))
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels)
    if ylabel:
        ax.set_ylabel(ylabel)
    ax.grid(axis="y", alpha=0.3)


def lines(ax, xs, series, ylabel=None, styles=None):
    """One line per series: median with min-max error bars at each x;
    series = {name: [samples at xs[0], ...]} (None: no point);
    styles = {name: matplotlib keyword arguments}."""
    for name, samples in series.items():
        pts = [(x, list(v)) for x, v in zip(xs, samples) if v]
        if not pts:
            continue
        med, err = _errs([v for _, v in pts])
        ax.errorbar([x for x, _ in pts], med, yerr=err, capsize=3, marker="o", ms=4,
                    label=name, **(styles or {}).get(name, {}))
    if ylabel:
        ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)


def heatmap(ax, grid, xlabels, ylabels, fmt="{:.2f}", fontsize=7, bold=None, **imshow):
    """grid[row][col] as an image with each value written in its cell (NaN
    cells left empty); bold(v) -> True sets that value in bold."""
    im = ax.imshow(grid, aspect="auto", **imshow)
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            if v == v:
                ax.text(j, i, fmt.format(v), ha="center", va="center", fontsize=fontsize,
                        fontweight="bold" if bold and bold(v) else "normal")
    ax.set_xticks(range(len(xlabels)))
    ax.set_xticklabels(xlabels)
    ax.set_yticks(range(len(ylabels)))
    ax.set_yticklabels(ylabels)
    return im
