#!/usr/bin/env python3
"""The driver behind load.sh: the daemon tracks a live 10 Hz feed through a real gpsd for
SECONDS while CLIENTS control clients use its socket (half subscribed to events, half asking
Status and ListTrips in a loop), `travelctl export` runs again and again and a POI import of
50 000 points goes through the socket. Under systemd's watchdog protocol (NOTIFY_SOCKET,
WATCHDOG_USEC=2 s): no fix missed, no WATCHDOG=1 late, and memory bounded: the daemon's RSS,
sampled every second, may grow by at most RSS_GROWTH_LIMIT_KIB over the last half of the run
(counted from the end of the POI import if that ends later), whatever the run's length, so a
plateau passes and growth that goes on fails. Prints FIGURE lines and CHECK FAILED lines; exits
1 if a check failed.

`--without PART` leaves one part of the load out (followers, pollers, exports, import) and
`--memory-log FILE` writes every memory sample (VmRSS, RssAnon, RssFile, VmData in KiB), to find
which part memory grows with.
"""
import argparse
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time

from report import failed, figure, finish, milliseconds

parser = argparse.ArgumentParser()
parser.add_argument("--bin", required=True)
parser.add_argument("--dir", required=True)
parser.add_argument("--seconds", type=float, required=True)
parser.add_argument("--clients", type=int, default=100)
parser.add_argument("--without", action="append", default=[], choices=["followers", "pollers", "exports", "import"])
parser.add_argument("--memory-log")
args = parser.parse_args()

WORK = args.dir
TRAVELCTL = os.path.join(args.bin, "travelctl")
SOCKET = os.path.join(WORK, "control")
WATCHDOG_USEC = 2_000_000
# A generous ceiling for a debug build under this load.
RSS_LIMIT_KIB = 128 * 1024
# The most the RSS may grow over the last half of the run: what a plateau varies by (SQLite's
# page caches filling, the allocator's arenas), well under what a leak of a few hundred bytes a
# control call, or of one copy of each fix, adds in five minutes.
RSS_GROWTH_LIMIT_KIB = 2 * 1024
stopping = threading.Event()
counts = {"calls": 0, "events": 0, "client_errors": 0, "exports": 0}
lock = threading.Lock()





def count(name, amount=1):
    with lock:
        counts[name] += amount


# The watchdog's side of sd_notify: a datagram socket, the time of each WATCHDOG=1.
notify_path = os.path.join(WORK, "notify")
notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
notify.bind(notify_path)
notify.settimeout(0.5)
pings = []


def watch_notify():
    while not stopping.is_set():
        try:
            data, _ = notify.recvfrom(4096)
        except socket.timeout:
            continue
        if b"WATCHDOG=1" in data.split(b"\n"):
            pings.append(time.monotonic())


threading.Thread(target=watch_notify, daemon=True).start()
environment = dict(os.environ, NOTIFY_SOCKET=notify_path, WATCHDOG_USEC=str(WATCHDOG_USEC))
database = os.path.join(WORK, "travel.sqlite")
daemon = subprocess.Popen(
    [os.path.join(args.bin, "travel-companiond"), "run", "--config", os.path.join(WORK, "travel-companion.conf"),
     "--db", database],
    stdin=subprocess.DEVNULL,
    stdout=subprocess.DEVNULL,
    stderr=open(os.path.join(WORK, "daemon.log"), "ab"),
    env=environment,
)


class Client:
    def __init__(self):
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.connect(SOCKET)
        self.socket.settimeout(30)
        self.buffer = b""

    def send(self, method, parameters=None, more=False):
        message = {"method": f"org.travelcompanion.control.{method}", "parameters": parameters or {}}
        if more:
            message["more"] = True
        self.socket.sendall(json.dumps(message).encode() + b"\0")

    def reply(self):
        while b"\0" not in self.buffer:
            data = self.socket.recv(65536)
            if not data:
                raise ConnectionError("the daemon closed the connection")
            self.buffer += data
        frame, self.buffer = self.buffer.split(b"\0", 1)
        reply = json.loads(frame)
        if "error" in reply:
            raise ConnectionError(f"error reply {reply['error']}")
        return reply


def subscriber():
    try:
        client = Client()
        client.send("Subscribe", more=True)
        client.socket.settimeout(1)
        while not stopping.is_set():
            try:
                client.reply()
                count("events")
            except socket.timeout:
                continue
    except (OSError, ConnectionError, ValueError) as error:
        if not stopping.is_set():
            count("client_errors")
            print(f"subscriber: {error}", flush=True)


def querier():
    try:
        client = Client()
        while not stopping.is_set():
            client.send("Status")
            client.reply()
            client.send("ListTrips", {"since": None, "until": None})
            client.reply()
            count("calls", 2)
            time.sleep(random.uniform(0.05, 0.5))
    except (OSError, ConnectionError, ValueError) as error:
        if not stopping.is_set():
            count("client_errors")
            print(f"querier: {error}", flush=True)


def exporter():
    while not stopping.is_set():
        result = subprocess.run(
            [TRAVELCTL, "export", "--format", "gpx", "--socket", SOCKET, "--output", os.path.join(WORK, "export.gpx")],
            capture_output=True,
            text=True,
        )
        if result.returncode != 0 and not stopping.is_set():
            count("client_errors")
            print(f"export: {result.stderr.strip()}", flush=True)
        else:
            count("exports")
        time.sleep(1)


# (monotonic time, VmRSS KiB), one a second.
rss = []
memory_log = open(args.memory_log, "w", buffering=1) if args.memory_log else None


def memory():
    """The daemon's memory now (KiB by /proc/PID/status name), or None once it is gone."""
    try:
        fields = {}
        for line in open(f"/proc/{daemon.pid}/status"):
            name, _, value = line.partition(":")
            if name in ("VmRSS", "RssAnon", "RssFile", "VmData"):
                fields[name] = int(value.split()[0])
        return fields if "VmRSS" in fields else None
    except OSError:
        return None


def sample_rss():
    while not stopping.is_set() and daemon.poll() is None:
        fields = memory()
        if fields:
            rss.append((time.monotonic(), fields["VmRSS"]))
            if memory_log:
                memory_log.write(f"{time.time():.0f} " + " ".join(f"{k}={v}" for k, v in fields.items()) + "\n")
        time.sleep(1)


try:
    for _ in range(200):
        if os.path.exists(SOCKET):
            break
        time.sleep(0.05)
    # Tracking first, so the load meets a trip in progress.
    deadline = time.time() + 120
    while time.time() < deadline:
        listed = subprocess.run([TRAVELCTL, "trips", "--json", "--socket", SOCKET], capture_output=True, text=True)
        if listed.returncode == 0 and json.loads(listed.stdout):
            break
        time.sleep(1)
    else:
        failed("no trip started within 120 s")
        sys.exit(1)
    started = time.time()
    idle = memory()
    threads = [threading.Thread(target=sample_rss, daemon=True)]
    if "exports" not in args.without:
        threads.append(threading.Thread(target=exporter, daemon=True))
    if "followers" not in args.without:
        threads += [threading.Thread(target=subscriber, daemon=True) for _ in range(args.clients // 2)]
    if "pollers" not in args.without:
        threads += [threading.Thread(target=querier, daemon=True) for _ in range(args.clients - args.clients // 2)]
    for thread in threads:
        thread.start()
    # A POI import through the socket a little into the run.
    time.sleep(min(10, args.seconds / 4))
    imported_at = None
    after_import = None
    if "import" not in args.without:
        pois = os.path.join(WORK, "pois.csv")
        with open(pois, "w") as file:
            file.write("name,lat,lon,category\n")
            for number in range(50_000):
                file.write(f"Load POI {number},{52.5 + random.random() * 0.3:.5f},{-8.8 + random.random() * 0.4:.5f},test\n")
        imported = subprocess.run([TRAVELCTL, "poi", "import", "--socket", SOCKET, pois], capture_output=True, text=True)
        if imported.returncode != 0:
            failed(f"the POI import failed: {imported.stderr.strip()}")
        print(f"POI import: {imported.stdout.strip()}", flush=True)
        # The daemon indexes the new POIs just after the reply.
        time.sleep(2)
        imported_at, after_import = time.monotonic(), memory()
    time.sleep(max(0, started + args.seconds - time.time()))
    ended = time.time()
    halfway = time.monotonic() - (ended - started) / 2
    stopping.set()
    daemon.send_signal(signal.SIGTERM)
    daemon.wait(timeout=60)
    if daemon.returncode != 0:
        failed(f"the daemon exited {daemon.returncode}")
finally:
    stopping.set()
    if daemon.poll() is None:
        daemon.kill()
        daemon.wait()

gpx = subprocess.run([TRAVELCTL, "--db", database, "export", "--format", "gpx"], capture_output=True, text=True)
stored = sorted(milliseconds(s) for s in re.findall(r"<trkpt [^>]*>.*?<time>([^<]+)</time>", gpx.stdout))
window = [t for t in stored if started * 1000 <= t <= ended * 1000 - 500]
fed = [int(line) for line in open(os.path.join(WORK, "fed.log")) if line.strip()]
expected = [t for t in fed if window and window[0] <= t <= window[-1]]
missed = len(set(expected) - set(window))
gaps = [later - earlier for earlier, later in zip(pings, pings[1:])]
figure("load_seconds", f"{ended - started:.0f}", "s")
figure("clients", args.clients)
figure("control_calls", counts["calls"])
figure("events_received", counts["events"])
figure("exports", counts["exports"])
figure("client_errors", counts["client_errors"])
figure("fixes_fed_under_load", len(expected))
figure("fixes_missed", missed)
figure("watchdog_pings", len(pings))
# The last half, from the first sample at or after the half-way point and the import's end.
late = [kib for at, kib in rss if at >= max(halfway, imported_at or 0)]
growth = max(late) - late[0] if len(late) >= 2 else None
figure("rss_idle_kib", idle["VmRSS"] if idle else "n/a", "KiB (trip in progress, no clients)")
figure("rss_after_import_kib", after_import["VmRSS"] if after_import else "n/a", "KiB")
for share in (25, 50, 75):
    figure(f"rss_at_{share}_percent_kib", rss[len(rss) * share // 100][1] if rss else "n/a", "KiB")
figure("rss_end_kib", rss[-1][1] if rss else "n/a", "KiB")
figure("rss_max_kib", max(kib for _, kib in rss) if rss else "n/a", "KiB")
figure("rss_last_half_growth_kib", growth if growth is not None else "n/a", f"KiB (limit {RSS_GROWTH_LIMIT_KIB})")
figure("watchdog_max_gap_s", f"{max(gaps):.2f}" if gaps else "n/a", f"s (WATCHDOG_USEC {WATCHDOG_USEC / 1e6:g} s)")
if missed:
    failed(f"{missed} fixes fed under load were not stored")
if counts["client_errors"]:
    failed(f"{counts['client_errors']} client errors")
if growth is None:
    failed("too few memory samples in the last half of the run")
elif growth > RSS_GROWTH_LIMIT_KIB:
    failed(f"RSS grew {growth} KiB over the last half of the run, beyond {RSS_GROWTH_LIMIT_KIB} KiB: not bounded")
if rss and max(kib for _, kib in rss) > RSS_LIMIT_KIB:
    failed(f"RSS reached {max(kib for _, kib in rss)} KiB, beyond {RSS_LIMIT_KIB} KiB")
if not gaps or max(gaps) > WATCHDOG_USEC / 1e6:
    failed("a WATCHDOG=1 came later than WATCHDOG_USEC (systemd would have killed the daemon)")
if len(expected) < (ended - started - 5) * 9:
    failed(f"only {len(expected)} fixes fed in {ended - started:.0f} s: the feed stalled")
finish()
