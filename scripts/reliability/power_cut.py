#!/usr/bin/env python3
"""The power-cut driver behind power-cut.sh: the daemon tracks a live 10 Hz feed through a real
gpsd and is SIGKILLed at random moments, CYCLES times; torn copies of its database are taken
while it writes; then, optionally, the power-cut window of a real file system on a block device
(ext4 on a loop device: what reached the "card" at random instants, kernel writeback included).
Prints FIGURE lines and CHECK FAILED lines; exits 1 if a check failed.
"""
import argparse
import json
import os
import random
import re
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import time

from report import failed, figure, finish, milliseconds

parser = argparse.ArgumentParser()
parser.add_argument("--bin", required=True)
parser.add_argument("--dir", required=True)
parser.add_argument("--cycles", type=int, required=True)
parser.add_argument("--flush", type=float, required=True)
parser.add_argument("--sd-seconds", type=float, default=0)
parser.add_argument("--sd-cuts", type=int, default=0)
parser.add_argument("--seed", type=int, default=None)
args = parser.parse_args()

seed = args.seed if args.seed is not None else random.randrange(1 << 30)
random.seed(seed)
print(f"random seed {seed} (--seed {seed} repeats this run)", flush=True)

WORK = args.dir
CONFIG = os.path.join(WORK, "travel-companion.conf")
DAEMON = os.path.join(args.bin, "travel-companiond")
TRAVELCTL = os.path.join(args.bin, "travelctl")
daemons = []




def start_daemon(database, log):
    process = subprocess.Popen(
        [DAEMON, "run", "--config", CONFIG, "--db", database],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=open(log, "ab"),
    )
    daemons.append(process)
    return process


def kill(process):
    if process.poll() is None:
        process.send_signal(signal.SIGCONT)
        process.kill()
    process.wait()


def integrity(path):
    """`PRAGMA integrity_check` by the sqlite3 shell: 'ok' or what it found."""
    result = subprocess.run(["sqlite3", path, "PRAGMA integrity_check"], capture_output=True, text=True)
    return (result.stdout + result.stderr).strip()


def trips(path):
    """`travelctl --db PATH trips --json`, or None when it fails."""
    result = subprocess.run(
        [TRAVELCTL, "--db", path, "trips", "--json", "--since", "2000-01-01"], capture_output=True, text=True
    )
    if result.returncode != 0:
        print(f"travelctl trips failed: {result.stderr.strip()}", flush=True)
        return None
    return json.loads(result.stdout)



def last_point(trip):
    """The time (ms) of a trip's newest stored point: its end, or for the trip in progress (no end
    yet) its start plus its duration, which runs to its latest stored point."""
    if trip["end"]:
        return milliseconds(trip["end"])
    return milliseconds(trip["start"]) + round(trip["duration_s"] * 1000)


def spooled_newest(database):
    """The time (ms) of the newest route point in DATABASE-spool that a restart replays (records of
    32 bytes ending in an FNV-1a checksum, see docs/schema.md; reading stops at a torn one), or 0."""
    try:
        data = open(database + "-spool", "rb").read()
    except FileNotFoundError:
        return 0
    newest = 0
    for offset in range(0, len(data) - 31, 32):
        record = data[offset : offset + 32]
        checksum = 2166136261
        for byte in record[:28]:
            checksum = ((checksum ^ byte) * 16777619) & 0xFFFFFFFF
        if checksum != struct.unpack_from("<I", record, 28)[0] or not record[0] & 0x40:
            break
        if record[0] & 0x80:
            continue  # an uplink's cursor, not a point
        newest = max(newest, int.from_bytes(record[2:8], "little", signed=True))
    return newest


def newest_recoverable(database, found):
    """The newest fix a restart holds: the newest stored point of FOUND (DATABASE's trips) or of
    the spool it replays."""
    return max(max(last_point(t) for t in found), spooled_newest(database))


def copy_files(database, destination, suffixes):
    """Copies DATABASE and its companions into DESTINATION (file by file, as cp would)."""
    shutil.rmtree(destination, ignore_errors=True)
    os.makedirs(destination)
    target = os.path.join(destination, "travel.sqlite")
    for suffix in suffixes:
        if os.path.exists(database + suffix):
            shutil.copyfile(database + suffix, target + suffix)
    return target


def wait_for_trip(database, deadline, process):
    while time.time() < deadline and process.poll() is None:
        if os.path.exists(database):
            found = trips(database)
            if found:
                return found
        time.sleep(0.5)
    return None


# MARK: - SIGKILL cycles

database = os.path.join(WORK, "travel.sqlite")
daemon = start_daemon(database, os.path.join(WORK, "daemon.log"))
if not wait_for_trip(database, time.time() + 120, daemon):
    log = open(os.path.join(WORK, "daemon.log"), errors="replace").read()[-2000:]
    failed(f"no trip started within 120 s of live tracking; the daemon said:\n{log}")
    kill(daemon)
    sys.exit(1)
first_kill = time.time()
kill(daemon)

check = copy_files(database, os.path.join(WORK, "check"), ["", "-wal", "-spool"])
previous = trips(check)
newest_end = newest_recoverable(check, previous)
losses, kills, corrupt, duplicated, lost, split, unstored = [], [first_kill], 0, 0, 0, 0, 0
torn = {"live": [0, 0], "frozen": [0, 0]}
# (from, to, what) of each copy, to tell what a hole in the route coincides with.
moments = []
fed_log = os.path.join(WORK, "fed.log")
for cycle in range(args.cycles):
    # The harness itself: the device is there and the receiver writes into it.
    if not os.path.exists(os.path.join(WORK, "gps0")) or time.time() - os.path.getmtime(fed_log) > 2:
        failed(f"cycle {cycle}: the test feed (socat pty or feeder) died; the run is void")
        sys.exit(1)
    daemon = start_daemon(database, os.path.join(WORK, "daemon.log"))
    started = time.time()
    uptime = random.uniform(0.2, 2 * args.flush + 0.5)
    # A torn copy at a random instant of the run: the files copied one after the other while the
    # daemon writes ("live"), or with the daemon frozen by SIGSTOP ("frozen").
    copy_at = random.uniform(0.1, uptime)
    time.sleep(max(0, started + copy_at - time.time()))
    kind = "frozen" if cycle % 2 else "live"
    if kind == "frozen":
        daemon.send_signal(signal.SIGSTOP)
    copied = time.time()
    copy = copy_files(database, os.path.join(WORK, "torn"), ["", "-wal", "-shm"])
    if kind == "frozen":
        daemon.send_signal(signal.SIGCONT)
    moments.append((copied, time.time(), f"cycle {cycle}: {kind} copy"))
    torn[kind][0] += 1
    verdict = integrity(copy)
    if verdict != "ok" or trips(copy) is None:
        torn[kind][1] += 1
        failed(f"cycle {cycle}: a {kind} torn copy is not sound: {verdict[:200]}")
    time.sleep(max(0, started + uptime - time.time()))
    killed = time.time()
    kill(daemon)
    kills.append(killed)

    # What a restart after this power cut finds: the database file, its WAL and the spool.
    check = copy_files(database, os.path.join(WORK, "check"), ["", "-wal", "-spool"])
    verdict = integrity(check)
    if verdict != "ok":
        corrupt += 1
        failed(f"cycle {cycle}: integrity_check after SIGKILL: {verdict[:200]}")
        continue
    now = trips(check)
    if now is None:
        corrupt += 1
        failed(f"cycle {cycle}: travelctl cannot read the database after SIGKILL")
        continue
    before = {t["id"]: t["start"] for t in previous}
    after = {t["id"]: t["start"] for t in now}
    for trip_id, start in before.items():
        if after.get(trip_id) != start:
            lost += 1
            failed(f"cycle {cycle}: trip {trip_id} starting {start} is gone")
    ordered = sorted(now, key=lambda t: t["start"])
    for earlier, later in zip(ordered, ordered[1:]):
        if milliseconds(later["start"]) < last_point(earlier):
            duplicated += 1
            failed(f"cycle {cycle}: trips {earlier['id']} and {later['id']} overlap")
    if max(after) != max(before):
        split += 1
        failed(f"cycle {cycle}: the trip in progress ({max(before)}) did not continue: now {max(after)}")
    end = newest_recoverable(check, now)
    if end > newest_end:
        loss = killed - end / 1000
        losses.append(loss)
        if loss > args.flush + 0.5:
            failed(f"cycle {cycle}: {loss:.2f} s of fixes lost, more than the {args.flush:g} s flush interval")
    else:
        unstored += 1
    newest_end = max(newest_end, end)
    previous = now

# The last run ends cleanly; its route must have no hole but where the daemon was down.
daemon = start_daemon(database, os.path.join(WORK, "daemon.log"))
time.sleep(3)
daemon.send_signal(signal.SIGTERM)
try:
    daemon.wait(timeout=30)
except subprocess.TimeoutExpired:
    failed("the daemon did not stop within 30 s of SIGTERM")
kill(daemon)
if daemon.returncode not in (0, -9):
    failed(f"the last run exited {daemon.returncode}")
verdict = integrity(database)
if verdict != "ok":
    failed(f"integrity_check at the end: {verdict[:200]}")
gpx = subprocess.run([TRAVELCTL, "--db", database, "export", "--format", "gpx"], capture_output=True, text=True)
times = [milliseconds(stamp) for stamp in re.findall(r"<trkpt [^>]*>.*?<time>([^<]+)</time>", gpx.stdout)]
missed = 0
for earlier, later in zip(times, times[1:]):
    if later - earlier > 250 and not any(earlier / 1000 <= k <= later / 1000 for k in kills):
        missed += round((later - earlier) / 100) - 1
        during = [what for start, end, what in moments if earlier / 1000 - 1 <= end and start <= later / 1000 + 1]
        print(f"a hole of {(later - earlier) / 1000:.1f} s while the daemon ran, after {earlier}: {during}", flush=True)
if missed:
    failed(f"{missed} fixes missing while the daemon ran (not across a kill)")

figure("cycles", args.cycles)
figure("flush_interval_s", f"{args.flush:g}", "s")
figure("corrupt", corrupt)
figure("max_loss_s", f"{max(losses):.2f}" if losses else "n/a", "s")
figure("median_loss_s", f"{statistics.median(losses):.2f}" if losses else "n/a", "s")
figure("killed_before_first_commit", unstored)
figure("trips_lost", lost)
figure("trips_duplicated", duplicated)
figure("trips_not_continued", split)
figure("route_points_stored", len(times))
figure("fixes_missed_while_running", missed)
figure("torn_copies", torn["live"][0] + torn["frozen"][0])
figure("torn_corrupt", torn["live"][1] + torn["frozen"][1])
figure("torn_copies_frozen", torn["frozen"][0])


# MARK: - The power-cut window of a block device


def sd_window():
    """ext4 on a loop device: the daemon writes its database and spool there, and at
    random instants the image file is copied: exactly what had reached the device, kernel
    writeback included, as a power cut would leave it. Each copy is mounted (journal replayed)
    and checked; the window is the time from the newest fix on the device to the cut."""
    image = os.path.join(WORK, "sd.img")
    mount = os.path.join(WORK, "sd")
    os.makedirs(mount, exist_ok=True)
    subprocess.run(["truncate", "-s", "64M", image], check=True)
    subprocess.run(["mkfs.ext4", "-q", "-F", image], check=True)
    attached = subprocess.run(["losetup", "-f", "--show", image], capture_output=True, text=True)
    if attached.returncode != 0 or subprocess.run(["mount", attached.stdout.strip(), mount]).returncode != 0:
        print(f"SKIPPED: the power-cut window needs loop devices and mount (root): {attached.stderr.strip()}")
        return
    device = attached.stdout.strip()
    windows, committed_lag, broken = [], [], 0
    strace = None
    try:
        sd_database = os.path.join(mount, "travel.sqlite")
        shutil.copyfile(database, sd_database)
        # The starting state is on the device; what follows is the daemon's writing.
        os.sync()
        daemon = start_daemon(sd_database, os.path.join(WORK, "daemon-sd.log"))
        if shutil.which("strace"):
            strace_log = os.path.join(WORK, "strace.txt")
            strace = subprocess.Popen(
                ["strace", "-f", "-c", "-e", "trace=fsync,fdatasync,msync,sync_file_range", "-o", strace_log, "-p",
                 str(daemon.pid)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        started = time.time()
        cuts = sorted(random.uniform(5, args.sd_seconds) for _ in range(args.sd_cuts))
        for number, cut in enumerate(cuts):
            time.sleep(max(0, started + cut - time.time()))
            cut_time = time.time()
            snapshot = os.path.join(WORK, "cut.img")
            shutil.copyfile(image, snapshot)
            flushed = copy_files(sd_database, os.path.join(WORK, "live"), ["", "-wal", "-spool"])
            live = trips(flushed)
            if live:
                committed_lag.append(cut_time - newest_recoverable(flushed, live) / 1000)
            cut_mount = os.path.join(WORK, "cut")
            os.makedirs(cut_mount, exist_ok=True)
            cut_device = subprocess.run(["losetup", "-f", "--show", snapshot], capture_output=True, text=True).stdout
            cut_device = cut_device.strip()
            try:
                if subprocess.run(["mount", cut_device, cut_mount]).returncode != 0:
                    broken += 1
                    failed(f"cut {number}: the file system does not mount")
                    continue
                recovered = copy_files(
                    os.path.join(cut_mount, "travel.sqlite"), os.path.join(WORK, "cutdb"), ["", "-wal", "-spool"]
                )
                subprocess.run(["umount", cut_mount])
                verdict = integrity(recovered)
                found = trips(recovered) if verdict == "ok" else None
                if found is None:
                    broken += 1
                    failed(f"cut {number}: the database on the device is not sound: {verdict[:200]}")
                    continue
                windows.append(cut_time - newest_recoverable(recovered, found) / 1000)
                print(f"cut {number} at {cut:.1f} s: newest fix on the device {windows[-1]:.1f} s old", flush=True)
            finally:
                subprocess.run(["losetup", "-d", cut_device])
                os.remove(snapshot)
        elapsed = time.time() - started
        if strace is not None:
            strace.send_signal(signal.SIGINT)
            strace.wait(timeout=10)
            counts = {}
            for line in open(strace_log):
                fields = line.split()
                if len(fields) >= 5 and fields[-1] in ("fsync", "fdatasync", "msync", "sync_file_range"):
                    counts[fields[-1]] = int(fields[3])
            syncs = sum(counts.values())
            figure("sd_syncs_per_hour", round(syncs * 3600 / elapsed), f"({counts or 'none'} in {elapsed:.0f} s)")
        kill(daemon)
    finally:
        if strace is not None and strace.poll() is None:
            strace.kill()
        subprocess.run(["umount", mount])
        subprocess.run(["losetup", "-d", device])
    expire = int(open("/proc/sys/vm/dirty_expire_centisecs").read()) / 100
    writeback = int(open("/proc/sys/vm/dirty_writeback_centisecs").read()) / 100
    figure("sd_cuts", len(windows) + broken)
    figure("sd_corrupt", broken)
    figure("sd_window_max_s", f"{max(windows):.1f}" if windows else "n/a", "s")
    figure("sd_window_median_s", f"{statistics.median(windows):.1f}" if windows else "n/a", "s")
    figure("sd_committed_lag_max_s", f"{max(committed_lag):.1f}" if committed_lag else "n/a", "s")
    # ext4 commits its journal every 5 s by default: an appended WAL page's new size waits for it.
    journal = 5
    bound = args.flush + expire + writeback + journal
    figure(
        "sd_window_bound_s",
        f"{bound:g}",
        f"(FlushIntervalSec {args.flush:g} + vm.dirty_expire {expire:g} + vm.dirty_writeback {writeback:g}"
        f" + ext4 commit {journal:g})",
    )
    if windows and max(windows) > bound + 1:
        failed(f"a power cut lost {max(windows):.1f} s of fixes, beyond the stated bound of {bound:g} s")


if args.sd_cuts:
    sd_window()
for process in daemons:
    kill(process)
finish()
