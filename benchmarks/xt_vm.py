"""romio-xt benchmarks: this VM's free page reporting, paused on request.

A VM with a virtio-balloon that reports free pages (Linux's
page_reporting) hands the guest's freed memory back to its host.  The next
time the guest's page cache takes such pages (a file written, or read cold
after POSIX_FADV_DONTNEED) the host has to fault them in again: 2 MiB
writes ran at 0.85-1.1 GB/s (their slow calls at ~400 MB/s) instead of
~6.5 GB/s here, cold reads at 0.7-1.4 instead of
~3.5 GB/s, and which pages a run gets changes from run to run (session 14,
docs/results/orthrus-s14.md).  Bare-metal HPC nodes have no such cost.

XT_BENCH_PAGE_REPORTING=off pauses the reporting for the run (root: the
module's page_reporting_order is set above the largest page order, so no
free block is reported) and restores it at the end; =keep (the default)
leaves it and prints one note when it is active.
"""
import atexit
import os
import sys

KNOB = "/sys/module/page_reporting/parameters/page_reporting_order"
PAUSED = "11"   # above MAX_PAGE_ORDER (10): no free block is reported


def _read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def _write(path, value):
    try:
        with open(path, "w") as f:
            f.write(value)
        return True
    except OSError:
        return False


def page_reporting(prog, knob=KNOB):
    """Applies XT_BENCH_PAGE_REPORTING; returns the state for the report:
    'none' (no such VM), 'on', or 'paused'."""
    mode = os.environ.get("XT_BENCH_PAGE_REPORTING", "keep")
    old = _read(knob)
    if old is None:
        return "none"
    if mode not in ("keep", "off"):
        print(f"{prog}: XT_BENCH_PAGE_REPORTING={mode!r} is not keep or off; using keep",
              file=sys.stderr)
        mode = "keep"
    if old == PAUSED:
        return "paused"
    if mode == "off":
        if _write(knob, PAUSED):
            atexit.register(_write, knob, old)
            return "paused"
        print(f"{prog}: XT_BENCH_PAGE_REPORTING=off: cannot write {knob} (not root?); "
              "free page reporting stays on", file=sys.stderr)
    print(f"{prog}: note: this VM reports free pages to its host (page_reporting_order="
          f"{old}); page-cache writes and cold reads may then run bimodal. "
          "XT_BENCH_PAGE_REPORTING=off pauses it for the run (benchmarks/README.md)",
          file=sys.stderr)
    return "on"
