#!/usr/bin/env python3
"""The driver behind disk-full.sh: the daemon's database on a tiny tmpfs (STATE), live 10 Hz
tracking through a real gpsd; the file system is filled for OUTAGE seconds, then given room
again. Checks: tracking goes on, the failure is said at once and then at most once a minute
(stderr, which systemd puts in the journal) and in `travelctl status`, the buffer stays bounded
(points beyond MaxBufferedPoints dropped and counted: every fix fed is stored or counted), and
writing resumes. Prints FIGURE lines and CHECK FAILED lines; exits 1 if a check failed.
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

from report import failed, figure, finish, milliseconds

parser = argparse.ArgumentParser()
parser.add_argument("--bin", required=True)
parser.add_argument("--dir", required=True)
parser.add_argument("--state", required=True)
parser.add_argument("--outage", type=float, required=True)
parser.add_argument("--buffer", type=int, required=True)
args = parser.parse_args()

WORK, STATE = args.dir, args.state
TRAVELCTL = os.path.join(args.bin, "travelctl")
SOCKET = os.path.join(WORK, "control")





def status():
    result = subprocess.run([TRAVELCTL, "status", "--json", "--socket", SOCKET], capture_output=True, text=True)
    return json.loads(result.stdout) if result.returncode == 0 else None


database = os.path.join(STATE, "travel.sqlite")
lines = []
daemon = subprocess.Popen(
    [os.path.join(args.bin, "travel-companiond"), "run", "--config", os.path.join(WORK, "travel-companion.conf"),
     "--db", database],
    stdin=subprocess.DEVNULL,
    stdout=subprocess.DEVNULL,
    stderr=subprocess.PIPE,
)


def read():
    log = open(os.path.join(WORK, "daemon.log"), "a", buffering=1)
    for raw in daemon.stderr:
        line = raw.decode(errors="replace").rstrip("\n")
        log.write(line + "\n")
        lines.append((time.time(), line))


threading.Thread(target=read, daemon=True).start()


def wait_for(text, timeout):
    deadline = time.time() + timeout
    while time.time() < deadline and daemon.poll() is None:
        for when, line in list(lines):
            if text in line:
                return when, line
        time.sleep(0.05)
    return None


def rss_kib():
    for line in open(f"/proc/{daemon.pid}/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


try:
    if not wait_for("trip started", 120):
        failed("no trip started within 120 s")
        sys.exit(1)
    # The file system filled to the last byte.
    filler = os.path.join(STATE, "filler")
    descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while os.write(descriptor, b"\0" * 4096) > 0:
            pass
    except OSError:
        pass
    os.close(descriptor)
    full_since = time.time()
    first = wait_for("cannot write the database", 60)
    if not first:
        failed("the daemon never said it cannot write the database")
        sys.exit(1)
    print(f"said after {first[0] - full_since:.1f} s: {first[1]}", flush=True)
    shown_failing = False
    largest_pending = 0
    while time.time() < full_since + args.outage:
        now = status()
        if now is None:
            failed("travelctl status did not answer while the disk was full")
        else:
            largest_pending = max(largest_pending, now["pending_writes"])
            if now["database_error"] and "full" in now["database_error"]:
                shown_failing = True
        time.sleep(2)
    human = subprocess.run([TRAVELCTL, "status", "--socket", SOCKET], capture_output=True, text=True).stdout
    if "FAILING" not in human:
        failed(f"travelctl status does not show the failure:\n{human}")
    if not shown_failing:
        failed("status never gave database_error while the disk was full")
    # Room again.
    os.remove(filler)
    emptied = time.time()
    resumed = wait_for("is written again", 60)
    if not resumed:
        failed("writing did not resume within 60 s of room returning")
    else:
        figure("resumed_after_s", f"{resumed[0] - emptied:.1f}", "s")
    after = status()
    time.sleep(3)
    rss = rss_kib()
    daemon.send_signal(signal.SIGTERM)
    daemon.wait(timeout=30)
    if daemon.returncode != 0:
        failed(f"the daemon exited {daemon.returncode}")
finally:
    if daemon.poll() is None:
        daemon.kill()
        daemon.wait()

outage = emptied - full_since
errors = [(when, line) for when, line in lines if "cannot write the database" in line and when <= emptied + 1]
allowed = int(outage // 60) + 1
if not 1 <= len(errors) <= allowed:
    failed(f"{len(errors)} error lines in a {outage:.0f} s outage (expected 1 to {allowed}: one a minute)")
verdict = subprocess.run(["sqlite3", database, "PRAGMA integrity_check"], capture_output=True, text=True).stdout.strip()
if verdict != "ok":
    failed(f"integrity_check: {verdict[:200]}")
gpx = subprocess.run([TRAVELCTL, "--db", database, "export", "--format", "gpx"], capture_output=True, text=True)
stored = {milliseconds(stamp) for stamp in re.findall(r"<trkpt [^>]*>.*?<time>([^<]+)</time>", gpx.stdout)}
# The engine's own count of each trip's points against what is stored plus what was dropped.
listed = subprocess.run([TRAVELCTL, "--db", database, "trips", "--json"], capture_output=True, text=True)
points = sum(trip["points"] for trip in json.loads(listed.stdout))
fed = [int(line) for line in open(os.path.join(WORK, "fed.log")) if line.strip()]
span = [t for t in fed if min(stored) <= t <= max(stored)]
dropped = after["points_dropped"] if after else 0
uncounted = points - len(stored) - dropped
figure("outage_s", f"{outage:.0f}", "s")
figure("fixes_fed_during_trip", len(span))
figure("trip_points", points)
figure("fixes_stored", len(stored))
figure("points_dropped", dropped, f"(MaxBufferedPoints={args.buffer})")
figure("fixes_lost_uncounted", uncounted)
figure("largest_pending_writes", largest_pending)
figure("error_lines", len(errors))
figure("rss_max_kib", rss, "KiB")
if uncounted != 0:
    failed(f"{uncounted} fixes neither stored nor counted as dropped")
if largest_pending > args.buffer * 1.2 + 50:
    failed(f"{largest_pending} writes buffered, beyond the bound of {args.buffer}")
finish()
