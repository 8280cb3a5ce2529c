#!/usr/bin/env python3
"""Regenerate (or with --check, compare) the generated sections of the docs.

usage: update_readme.py [--check] SRCDIR HINTDOC_PROGRAM

Sections lie between <!-- NAME:begin --> and <!-- NAME:end --> in README.md
or in docs/*.md (each section in exactly one file):
  hints       the hint reference (docs/hints.md), printed by HINTDOC_PROGRAM
              from the hint table
  patchcount  the number of lines our patch series changes in upstream files
"""
import glob
import os
import subprocess
import sys


def patch_count(srcdir):
    n = 0
    for p in sorted(glob.glob(os.path.join(srcdir, "adio", "*.patch")) +
                    glob.glob(os.path.join(srcdir, "mpi-io", "*.patch"))):
        for line in open(p, encoding="utf-8"):
            if line[:1] in "+-" and not line.startswith(("+++", "---")):
                n += 1
    return f"{n}"


def markers(name):
    return f"<!-- {name}:begin -->", f"<!-- {name}:end -->"


def replace(text, path, name, body, inline):
    begin, end = markers(name)
    try:
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
    except ValueError:
        sys.exit(f"{path}: marker {begin} without {end}")
    sep = "" if inline else "\n"
    return f"{head}{begin}{sep}{body}{end}{tail}"


def main(argv):
    check = "--check" in argv
    args = [a for a in argv[1:] if a != "--check"]
    if len(args) != 2:
        sys.exit(__doc__)
    srcdir, tool = args
    if os.path.isfile(srcdir):          # the README's path, as before
        srcdir = os.path.dirname(os.path.abspath(srcdir))
    hints = subprocess.run([tool], check=True, capture_output=True, text=True).stdout
    # name -> (body, inline)
    sections = {"hints": (hints, False), "patchcount": (patch_count(srcdir), True)}
    files = [os.path.join(srcdir, "README.md")] + \
        sorted(glob.glob(os.path.join(srcdir, "docs", "*.md")))
    found = {name: [] for name in sections}
    stale = []
    for path in files:
        text = open(path, encoding="utf-8").read()
        new = text
        for name, (body, inline) in sections.items():
            if markers(name)[0] in new:
                found[name].append(os.path.relpath(path, srcdir))
                new = replace(new, path, name, body, inline)
        if new == text:
            continue
        if check:
            stale.append(os.path.relpath(path, srcdir))
        else:
            open(path, "w", encoding="utf-8").write(new)
            print(f"updated {path}")
    for name, where in found.items():
        if len(where) != 1:
            sys.exit(f"section <!-- {name} --> must be in exactly one of README.md, "
                     f"docs/*.md; found in {len(where)}: {' '.join(where)}")
    if stale:
        sys.exit(f"{', '.join(stale)}: generated sections are stale; run 'make readme-hints'")
    if check:
        print(f"generated sections current: hint reference ({found['hints'][0]}), "
              f"patch count ({found['patchcount'][0]})")


if __name__ == "__main__":
    main(sys.argv)
