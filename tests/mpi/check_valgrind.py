#!/usr/bin/env python3
"""Fail when a valgrind log has an error or leak record involving romio-xt code.

usage: check_valgrind.py LOG...
MPICH itself reports some noise under valgrind; only records with a frame in
our modules (xt_*, xts_*, nvc_*, ADIOI_Xt_*, ADIOI_XTS_*, ADIOI_NVC_*, or a path
under src/core, src/stats, src/nvm_cache) count.
"""
import re
import sys

OURS = re.compile(r"\b(xt_\w+|xts_\w+|nvc_\w+|ADIOI_Xt_\w+|ADIOI_XTS_\w+|ADIOI_NVC_\w+)\b"
                  r"|/xt/(core|stats|nvm_cache)/")


def records(text):
    rec = []
    for line in text.splitlines():
        body = re.sub(r"^==\d+== ?", "", line)
        if not body.strip():
            if rec:
                yield rec
            rec = []
        else:
            rec.append(body)
    if rec:
        yield rec


def main(paths):
    bad = []
    for p in paths:
        for rec in records(open(p, errors="replace").read()):
            if any(OURS.search(l) for l in rec):
                bad.append("\n".join(rec))
    if bad:
        sys.exit("valgrind reports involving romio-xt:\n\n" + "\n\n".join(bad))
    print(f"no valgrind errors or leaks in romio-xt code ({len(paths)} log(s))")


if __name__ == "__main__":
    main(sys.argv[1:])
