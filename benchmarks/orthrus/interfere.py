#!/usr/bin/env python3
"""Interference for the Orthrus dynamic run: waits until MARKER exists, then
hogs a resource until it gets SIGTERM (or STOP exists).
usage: interfere.py MODE MARKER [--dir DIR] [--stop STOP]
MODE: tcp  - two processes streaming 1 MiB buffers through a 127.0.0.1 socket
             (MPI's traffic between emulated nodes is TCP under ch3:nemesis;
             core_first's exchange stays inside a node)
      spawn - a shell starting /bin/true in a loop (process creation, like a
             build running next to the job)
      disk - write 1 MiB blocks + fdatasync in a loop (a 256 MiB file in DIR)
      cpu  - one busy-looping process; cpu2: two (one per core here)
      none - nothing (waits for the marker, then idles)
Prints 'interfere: MODE started' / 'stopped' with a count of bytes or loops."""
import argparse
import os
import signal
import socket
import subprocess
import sys
import time

CHUNK = 1 << 20
running = True


def stop(*_):
    global running
    running = False


def should_run(args):
    return running and not (args.stop and os.path.exists(args.stop))


def tcp(args):
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    port = srv.getsockname()[1]
    pid = os.fork()
    if pid == 0:                        # the sink
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        conn, _ = srv.accept()
        while conn.recv(CHUNK):
            pass
        os._exit(0)
    srv.close()
    cli = socket.create_connection(("127.0.0.1", port))
    buf, sent = b"x" * CHUNK, 0
    while should_run(args):
        cli.sendall(buf)
        sent += CHUNK
    cli.close()
    os.waitpid(pid, 0)
    return f"{sent >> 20} MiB sent"


def disk(args):
    path = os.path.join(args.dir, "interfere.dat")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    buf, n = os.urandom(CHUNK), 0
    try:
        while should_run(args):
            os.pwrite(fd, buf, (n % 256) * CHUNK)
            os.fdatasync(fd)
            n += 1
    finally:
        os.close(fd)
        os.unlink(path)
    return f"{n} MiB written"


def cpu(args):
    pid = os.fork() if args.mode == "cpu2" else -1
    if pid == 0:                        # the second spinner stops with its parent
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        while os.getppid() != 1:
            for _ in range(100000):
                pass
        os._exit(0)
    n = 0
    while should_run(args):
        for _ in range(100000):
            n += 1
    if pid > 0:
        os.kill(pid, signal.SIGTERM)
        os.waitpid(pid, 0)
    return f"{n} loops"


def spawn(args):
    sh = subprocess.Popen(["/bin/sh", "-c", "while :; do /bin/true; done"],
                          start_new_session=True)
    while should_run(args):
        time.sleep(0.05)
    os.killpg(sh.pid, signal.SIGKILL)
    sh.wait()
    return "spawned"


def idle(args):
    while should_run(args):
        time.sleep(0.05)
    return "idle"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("mode", choices=["tcp", "disk", "cpu", "cpu2", "spawn", "none"])
    p.add_argument("marker")
    p.add_argument("--dir", default="/tmp")
    p.add_argument("--stop")
    args = p.parse_args()
    signal.signal(signal.SIGTERM, stop)
    while should_run(args) and not os.path.exists(args.marker):
        time.sleep(0.01)
    if not should_run(args):
        return 0
    print(f"interfere: {args.mode} started", flush=True)
    what = {"tcp": tcp, "disk": disk, "cpu": cpu, "cpu2": cpu, "spawn": spawn,
            "none": idle}[args.mode](args)
    print(f"interfere: {args.mode} stopped ({what})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
