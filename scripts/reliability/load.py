#!/usr/bin/env python3
"""The driver behind load.sh: the daemon tracks a live 10 Hz feed through a real gpsd for
SECONDS while CLIENTS control clients use its socket (half subscribed to events, half asking
Status and ListTrips in a loop), `travelctl export` runs again and again and a POI import of
50 000 points goes through the socket. Under systemd's watchdog protocol (NOTIFY_SOCKET,
WATCHDOG_USEC=2 s): no fix missed, RSS bounded, no WATCHDOG=1 late. Prints FIGURE lines and
CHECK FAILED lines; exits 1 if a check failed.
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
args = parser.parse_args()

WORK = args.dir
TRAVELCTL = os.path.join(args.bin, "travelctl")
SOCKET = os.path.join(WORK, "control")
WATCHDOG_USEC = 2_000_000
# A generous ceiling for a debug build under this load; the figure itself is what to watch.
RSS_LIMIT_KIB = 128 * 1024
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


rss = []


def sample_rss():
    while not stopping.is_set() and daemon.poll() is None:
        try:
            for line in open(f"/proc/{daemon.pid}/status"):
                if line.startswith("VmRSS:"):
                    rss.append(int(line.split()[1]))
        except OSError:
            pass
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
    threads = [threading.Thread(target=sample_rss, daemon=True), threading.Thread(target=exporter, daemon=True)]
    threads += [threading.Thread(target=subscriber, daemon=True) for _ in range(args.clients // 2)]
    threads += [threading.Thread(target=querier, daemon=True) for _ in range(args.clients - args.clients // 2)]
    for thread in threads:
        thread.start()
    # A POI import through the socket a little into the run.
    time.sleep(min(10, args.seconds / 4))
    pois = os.path.join(WORK, "pois.csv")
    with open(pois, "w") as file:
        file.write("name,lat,lon,category\n")
        for number in range(50_000):
            file.write(f"Load POI {number},{52.5 + random.random() * 0.3:.5f},{-8.8 + random.random() * 0.4:.5f},test\n")
    imported = subprocess.run([TRAVELCTL, "poi", "import", "--socket", SOCKET, pois], capture_output=True, text=True)
    if imported.returncode != 0:
        failed(f"the POI import failed: {imported.stderr.strip()}")
    print(f"POI import: {imported.stdout.strip()}", flush=True)
    time.sleep(max(0, started + args.seconds - time.time()))
    ended = time.time()
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
figure("rss_max_kib", max(rss) if rss else 0, "KiB")
figure("rss_first_kib", rss[0] if rss else 0, "KiB")
figure("watchdog_pings", len(pings))
for share in (25, 50, 75):
    figure(f"rss_at_{share}_percent_kib", rss[len(rss) * share // 100] if rss else 0, "KiB")
figure("rss_last_kib", rss[-1] if rss else 0, "KiB")
figure("watchdog_max_gap_s", f"{max(gaps):.2f}" if gaps else "n/a", f"s (WATCHDOG_USEC {WATCHDOG_USEC / 1e6:g} s)")
if missed:
    failed(f"{missed} fixes fed under load were not stored")
if counts["client_errors"]:
    failed(f"{counts['client_errors']} client errors")
if rss and max(rss) > RSS_LIMIT_KIB:
    failed(f"RSS reached {max(rss)} KiB, beyond {RSS_LIMIT_KIB} KiB")
if not gaps or max(gaps) > WATCHDOG_USEC / 1e6:
    failed("a WATCHDOG=1 came later than WATCHDOG_USEC (systemd would have killed the daemon)")
if len(expected) < (ended - started - 5) * 9:
    failed(f"only {len(expected)} fixes fed in {ended - started:.0f} s: the feed stalled")
finish()
