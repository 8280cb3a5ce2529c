"""Compares romio-xt-phases' diagnosis with Drishti's on the Darshan logs that
ship with PyDarshan.

  python3 drishti_check.py TOOL OUTDIR

For every .darshan file in PyDarshan's package: the tool runs without a
traceback (a log without reads or writes gives one error naming it), every
finding it flags carries hints or says why no hint helps, and its ROMIO_HINTS
file holds comments and per-file lines `PATTERN KEY VALUE` whose patterns
match the log's files.  Then Drishti (drishti-io, `--csv`) runs on the same
log, and the codes each flags (of those the tool judges) must be the same
except for the differences listed in DIFFERENT, which docs/phases.md
explains.  Prints one line per log; exits 1 on the first mismatch.
"""
import csv
import fnmatch
import glob
import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys

import darshan

TOOL, OUT = sys.argv[1], sys.argv[2]
HERE = os.path.dirname(darshan.__file__)
# the codes the tool judges (docs/phases.md); M08/M09 need the node count
JUDGED = {"P05", "P06", "P07", "P08", "P11", "P12", "P13", "P14", "P15", "P16", "P18", "P19",
          "P21", "P22", "M02", "M03", "M08", "M09"}
# log -> (codes only the tool flags, codes only Drishti flags), or why Drishti gives none
DIFFERENT = {
    "examples/example_logs/shane_macsio_id29959_5-22-32552-7035573431850780836_1590156158"
    ".darshan": (set(), {"P12"}),
    "examples/example_logs/dxt.darshan": "Drishti fails (IndexError: the log names no executable)",
}
DRISHTI = ("import sys; from drishti.reporter import main; main()")


def logs():
    return sorted(os.path.relpath(p, HERE)
                  for p in glob.glob(os.path.join(HERE, "**", "*.darshan"), recursive=True))


def check_hints(path, rows, names):
    """comments, and per-file lines whose pattern matches a file of the log"""
    with open(path) as f:
        lines = [ln.split() for ln in f if ln.strip() and not ln.startswith("#")]
    for w in lines:
        assert len(w) == 3, (path, w)
        assert any(fnmatch.fnmatchcase(n, w[0]) for n in names), (path, w[0])
    hinted = {k for r in rows for f in r["findings"] for k, _ in f["hints"]}
    assert {w[1] for w in lines} == hinted, (path, lines, hinted)
    return len(lines)


def ours(rel, k):
    """the codes the tool flags over all phases; None for a log without I/O"""
    hints = os.path.join(OUT, f"{k}.hints")
    p = subprocess.run([TOOL, "--json", "--png", "", "--hints-out", hints,
                        os.path.join(HERE, rel)], capture_output=True, text=True)
    assert "Traceback" not in p.stderr, (rel, p.stderr)
    if p.returncode == 2:
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("romio-xt-phases: error: "), lines
        return None, 0
    assert p.returncode == 0, (rel, p.stderr)
    rows = [json.loads(line) for line in p.stdout.splitlines()]
    for f in (f for r in rows for f in r["findings"] if f["level"] != "ok"):
        assert f["facts"] and f["files"] and (f["hints"] or f["why"].startswith(
            "no hint helps: ")), (rel, f)
    names = {n for r in rows for n in r["file_names"]}
    return {f["code"] for r in rows for f in r["findings"]}, check_hints(hints, rows, names)


def drishti(rel, k):
    """the codes Drishti flags, or its error"""
    out = os.path.join(OUT, f"drishti-{k}")
    p = subprocess.run([sys.executable, "-c", DRISHTI, "--csv", "--export_dir", out,
                        os.path.join(HERE, rel)], capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        return p.stderr.strip().splitlines()[-1]
    with open(os.path.join(out, os.path.basename(rel)[:-len(".darshan")] + ".csv")) as f:
        head, vals = list(csv.reader(f))
    return {c for c, v in zip(head, vals) if v == "True"}


def check_advice():
    """the hint each kind of phase gets (advice() of the tool)"""
    loader = importlib.machinery.SourceFileLoader("phases", TOOL)
    tool = importlib.util.module_from_spec(importlib.util.spec_from_loader("phases", loader))
    loader.exec_module(tool)
    base = {"op": "write", "mpiio": True, "e10": "/tmp", "coll": False, "noncontig": False,
            "idle_after": 0.0, "gaps": 0.0}
    cases = [("P06", {"coll": True}, {"romio_orthrus"}),
             ("P05", {"op": "read", "noncontig": True}, {"romio_ds_read"}),
             ("P05", {"op": "read", "gaps": 2.0}, {"romio_prefetch"}),
             ("P05", {"op": "read", "noncontig": True, "gaps": 2.0},
              {"romio_ds_read", "romio_prefetch"}),
             ("P06", {}, {"e10_cache", "e10_cache_path"}),
             ("P13", {"noncontig": True, "idle_after": 5.0},
              {"romio_ds_write", "e10_cache", "e10_cache_path"}),
             ("P06", {"mpiio": False}, set()), ("P07", {"coll": True}, set()),
             ("P18", {}, set()), ("P08", {}, set())]
    for code, ctx, keys in cases:
        hints, why = tool.advice(code, dict(base, **ctx))
        assert {k for k, _ in hints} == keys, (code, ctx, hints)
        assert hints or why.startswith("no hint helps: "), (code, why)
    print(f"advice: {len(cases)} kinds of findings get their hints")


def main():
    check_advice()
    for k, rel in enumerate(logs()):
        mine, nlines = ours(rel, k)
        theirs = drishti(rel, k)
        name = os.path.basename(rel)[:40]
        if isinstance(theirs, str):
            assert rel in DIFFERENT and isinstance(DIFFERENT[rel], str), (rel, theirs)
            print(f"{name:<40} Drishti: {theirs}; romio-xt-phases: {sorted(mine or ())}")
            continue
        theirs &= JUDGED
        mine = set() if mine is None else mine
        diff = (mine - theirs, theirs - mine)
        assert diff == DIFFERENT.get(rel, (set(), set())), (rel, sorted(mine), sorted(theirs))
        words = [" ".join(sorted(x)) or "-" for x in (mine & theirs, *diff)]
        print(f"{name:<40} both: {words[0]}; only romio-xt-phases: {words[1]}; "
              f"only Drishti: {words[2]}; {nlines} hint lines")


main()
