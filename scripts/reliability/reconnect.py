#!/usr/bin/env python3
"""The driver behind reconnect.sh. Two faults, each CYCLES times, against a daemon tracking a live
10 Hz feed:
- gpsd killed and restarted (SIGTERM or SIGKILL, down 0.2-3 s): the time from the new gpsd
  accepting connections to the daemon's "source connected" must be at most 2 s;
- the serial device unplugged and replugged (the socat pty removed and made again at the same
  path, gone 0.5-3 s), the daemon reading it directly: every fix fed while the device was
  plugged in is stored.
Prints FIGURE lines and CHECK FAILED lines; exits 1 if a check failed.
"""
import argparse
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time

from report import failed, figure, finish, milliseconds

parser = argparse.ArgumentParser()
parser.add_argument("--bin", required=True)
parser.add_argument("--dir", required=True)
parser.add_argument("--cycles", type=int, required=True)
parser.add_argument("--seed", type=int, default=None)
args = parser.parse_args()
seed = args.seed if args.seed is not None else random.randrange(1 << 30)
random.seed(seed)
print(f"random seed {seed} (--seed {seed} repeats this run)", flush=True)

WORK = args.dir
TRACK = os.path.join(os.getcwd(), "Tests/Fixtures/tracks/limerick-bus-304-2019-02-18.gpx")
LIMIT = 2.0
children = []




def spawn(command, **options):
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, **options)
    children.append(process)
    return process


def stop(process, signal_number=signal.SIGKILL):
    if process.poll() is None:
        process.send_signal(signal_number)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class Daemon:
    """travel-companiond with its log lines timestamped (monotonic) as they arrive."""

    def __init__(self, directory, source, database):
        config = os.path.join(directory, "travel-companion.conf")
        with open(config, "w") as file:
            file.write(
                f"[Source]\nURL={source}\n[Storage]\nFlushIntervalSec=2\n"
                f"[Tracking]\nMinimumTripSec=10s\nMinimumTripDistanceMeters=50\n[Control]\nSocket={directory}/control\n"
            )
        self.lines = []
        self.database = database
        self.changed = threading.Condition()
        self.process = spawn(
            [os.path.join(args.bin, "travel-companiond"), "run", "--config", config, "--db", database],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        log = open(os.path.join(os.path.dirname(self.database), "daemon.log"), "a", buffering=1)
        for raw in self.process.stderr:
            log.write(raw.decode(errors="replace"))
            with self.changed:
                self.lines.append((time.monotonic(), raw.decode(errors="replace").rstrip("\n")))
                self.changed.notify_all()

    def wait_for(self, text, after_index, timeout):
        """The (time, index) of the first line from after_index on containing text, or None."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                for index in range(after_index, len(self.lines)):
                    if text in self.lines[index][1]:
                        return self.lines[index][0], index
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self.process.poll() is not None:
                    return None
                self.changed.wait(remaining)

    def count(self, text):
        with self.changed:
            return sum(text in line for _, line in self.lines)


def pty(directory):
    process = spawn(
        ["socat", f"pty,raw,echo=0,link={directory}/gps0,perm=0666", f"pty,raw,echo=0,link={directory}/feeder"],
        stderr=subprocess.DEVNULL,
    )
    for _ in range(500):
        if os.path.exists(f"{directory}/gps0") and os.path.exists(f"{directory}/feeder"):
            return process
        time.sleep(0.005)
    raise SystemExit("socat made no pty")


def feeder(directory):
    return spawn(
        ["python3", "scripts/reliability/feed.py", f"{directory}/feeder", TRACK, "10", "600", f"{directory}/fed.log"]
    )


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def gpsd(directory, port):
    """A gpsd on port reading directory/gps0, and the monotonic time it first accepted a connection."""
    process = spawn(
        ["gpsd", "-N", "-n", "-b", "-s", "38400", "-f", "8N1", "-S", str(port), "-F", f"{directory}/gpsd.sock",
         f"{directory}/gps0"],
        stderr=subprocess.DEVNULL,
    )
    while process.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process, time.monotonic()
        except OSError:
            time.sleep(0.002)
    raise SystemExit(f"gpsd exited {process.returncode}")



def stored_times(database):
    gpx = subprocess.run(
        [os.path.join(args.bin, "travelctl"), "--db", database, "export", "--format", "gpx"],
        capture_output=True,
        text=True,
    )
    return {milliseconds(stamp) for stamp in re.findall(r"<trkpt [^>]*>.*?<time>([^<]+)</time>", gpx.stdout)}


def gpsd_restarts():
    directory = os.path.join(WORK, "gpsd")
    os.makedirs(directory)
    pty(directory)
    feeder(directory)
    port = free_port()
    server, _ = gpsd(directory, port)
    daemon = Daemon(directory, f"gpsd://127.0.0.1:{port}", os.path.join(directory, "travel.sqlite"))
    found = daemon.wait_for("source connected", 0, 30)
    if not found:
        failed("the daemon never connected to gpsd")
        return
    index = found[1]
    times = []
    for cycle in range(args.cycles):
        time.sleep(random.uniform(0.3, 1.5))
        stop(server, signal.SIGKILL if cycle % 2 else signal.SIGTERM)
        gone = daemon.wait_for("source disconnected", index + 1, 10)
        if not gone:
            failed(f"gpsd cycle {cycle}: the daemon did not notice gpsd going")
            return
        index = gone[1]
        time.sleep(random.uniform(0.2, 3))
        server, ready = gpsd(directory, port)
        back = daemon.wait_for("source connected", index + 1, 60)
        if not back:
            failed(f"gpsd cycle {cycle}: the daemon did not reconnect within 60 s")
            return
        index = back[1]
        times.append(back[0] - ready)
        if times[-1] > LIMIT:
            failed(f"gpsd cycle {cycle}: reconnected {times[-1]:.2f} s after gpsd returned (limit {LIMIT:g} s)")
    stop(daemon.process, signal.SIGTERM)
    figure("gpsd_restarts", len(times))
    figure("reconnect_max_s", f"{max(times):.2f}", "s")
    figure("reconnect_median_s", f"{statistics.median(times):.2f}", "s")


def pty_replugs():
    directory = os.path.join(WORK, "serial")
    os.makedirs(directory)
    device = pty(directory)
    feed = feeder(directory)
    database = os.path.join(directory, "travel.sqlite")
    daemon = Daemon(directory, f"serial://{directory}/gps0?baud=38400", database)
    found = daemon.wait_for("trip started", 0, 90)
    if not found:
        failed("no trip started on the serial device within 90 s")
        return
    index = daemon.wait_for("source connected", 0, 1)[1]
    plugged, reopen = [], []
    plugged_since = time.time()
    for cycle in range(args.cycles):
        time.sleep(random.uniform(1, 3))
        # Unplugged: the pty and its path vanish (socat does not always remove its links itself).
        stop(device, signal.SIGTERM)
        for end in ("gps0", "feeder"):
            if os.path.lexists(os.path.join(directory, end)):
                os.remove(os.path.join(directory, end))
        plugged.append((plugged_since, time.time()))
        gone = daemon.wait_for("source disconnected", index + 1, 10)
        if not gone:
            failed(f"pty cycle {cycle}: the daemon did not notice the device going")
            return
        index = gone[1]
        time.sleep(random.uniform(0.5, 3))
        replugged = time.monotonic()
        device = pty(directory)
        plugged_since = time.time()
        back = daemon.wait_for("source connected", index + 1, 60)
        if not back:
            failed(f"pty cycle {cycle}: the daemon did not reopen the device within 60 s")
            return
        index = back[1]
        reopen.append(back[0] - replugged)
    time.sleep(2)
    plugged.append((plugged_since, time.time() - 0.5))
    stop(daemon.process, signal.SIGTERM)
    stop(feed)
    stored = stored_times(database)
    first = min(stored)
    fed = [int(line) for line in open(os.path.join(directory, "fed.log")) if line.strip()]
    # Fixes written while the device was there, from the trip's first stored point on, up to a
    # moment before each unplug (what was in flight inside socat when it was killed is gone
    # with the device).
    expected = [t for t in fed if t >= first and any(a <= t / 1000 <= b - 0.2 for a, b in plugged)]
    missing = [t for t in expected if t not in stored]
    figure("pty_replugs", len(reopen))
    figure("pty_reopen_max_s", f"{max(reopen):.2f}", "s")
    figure("pty_fixes_fed_while_plugged", len(expected))
    figure("pty_fixes_lost", len(missing))
    figure("pty_false_clock_steps", daemon.count("clock stepped"))
    if missing:
        failed(f"{len(missing)} fixes fed while the device was plugged in were not stored, e.g. {missing[:5]}")


try:
    gpsd_restarts()
    pty_replugs()
finally:
    for child in children:
        stop(child)
finish()
