#!/usr/bin/env python3
"""Regenerate (or with --check, compare) README's generated sections.

usage: update_readme.py [--check] README.md HINTDOC_PROGRAM

Sections lie between <!-- NAME:begin --> and <!-- NAME:end -->:
  hints       the hint reference, printed by HINTDOC_PROGRAM from the hint table
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


def replace(text, name, body, inline):
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    try:
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
    except ValueError:
        sys.exit(f"README: markers {begin} / {end} not found")
    sep = "" if inline else "\n"
    return f"{head}{begin}{sep}{body}{end}{tail}"


def main(argv):
    check = "--check" in argv
    readme, tool = [a for a in argv[1:] if a != "--check"]
    srcdir = os.path.dirname(os.path.abspath(readme))
    text = open(readme, encoding="utf-8").read()
    hints = subprocess.run([tool], check=True, capture_output=True, text=True).stdout
    new = replace(text, "hints", hints, inline=False)
    new = replace(new, "patchcount", patch_count(srcdir), inline=True)
    if check:
        if new != text:
            sys.exit(f"{readme}: generated sections are stale; run 'make readme-hints'")
        print("README's hint reference and patch count are current")
    elif new != text:
        open(readme, "w", encoding="utf-8").write(new)
        print(f"updated {readme}")


if __name__ == "__main__":
    main(sys.argv)
