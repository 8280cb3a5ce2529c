#!/usr/bin/env python3
"""Fail when a valgrind log has an error or leak record involving romio-xt code.

usage: check_valgrind.py LOG...
MPICH itself reports some noise under valgrind; only records with a frame in
our modules (xt_*, xts_*, ads_*, pf_*, nvc_*, orth_* and their ADIOI_ plug-ins, or a
path under src/core, src/stats, src/ds_adaptive, src/prefetch, src/nvm_cache,
src/orthrus) count.
"""
import re
import sys

OURS = re.compile(r"\b(xt_\w+|xts_\w+|ads_\w+|pf_\w+|nvc_\w+|orth_\w+|ADIOI_Xt_\w+|ADIOI_XTS_\w+|ADIOI_ADS_\w+|ADIOI_PF_\w+|ADIOI_NVC_\w+|ADIOI_ORTH_\w+)\b"
                  r"|/xt/(core|stats|ds_adaptive|prefetch|nvm_cache|orthrus)/")


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


# uninitialised bytes that lie in a stack frame of MPICH's own (e.g. the ch3
# packet header MPIDI_CH3_EagerNoncontigSend sends whole, padding and all,
# when a call of ours sends a noncontiguous type): MPICH's, whoever called it
MPICH_FRAME = re.compile(r"is on thread \d+'s stack|created by (\S+)")


def mpich_stack_bytes(rec):
    creators = [m.group(1) for l in rec for m in [MPICH_FRAME.search(l)] if m and m.group(1)]
    return bool(creators) and not any(OURS.search(c) for c in creators)


# helgrind's note of where a lock held in a report was made: not an error of
# its own (romio-xt's lock around ROMIO's calls is held across MPI calls, in
# which the MPI's own threads race)
LOCK_NOTE = re.compile(r"^\s*Lock at 0x[0-9a-fA-F]+ was first observed")


def main(paths):
    bad = []
    for p in paths:
        for rec in records(open(p, errors="replace").read()):
            if LOCK_NOTE.match(rec[0]):
                continue
            if any(OURS.search(l) for l in rec) and not mpich_stack_bytes(rec):
                bad.append("\n".join(rec))
    if bad:
        sys.exit("valgrind reports involving romio-xt:\n\n" + "\n\n".join(bad))
    print(f"no valgrind errors or leaks in romio-xt code ({len(paths)} log(s))")


if __name__ == "__main__":
    main(sys.argv[1:])
