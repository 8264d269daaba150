#!/usr/bin/env python3
"""The driver behind export-memory.sh: one long trip, exported again and again through the
daemon's socket, and the daemon's memory (VmRSS, VmHWM) after each export."""
import argparse
import datetime
import math
import os
import subprocess
import time

from report import failed, figure, finish

parser = argparse.ArgumentParser()
parser.add_argument("--bin", required=True)
parser.add_argument("--dir", required=True)
parser.add_argument("--points", type=int, required=True)
parser.add_argument("--rounds", type=int, required=True)
parser.add_argument("--replay", required=True)
args = parser.parse_args()

TRAVELCTL = os.path.join(args.bin, "travelctl")
SOCKET = os.path.join(args.dir, "control")
DATABASE = os.path.join(args.dir, "travel.sqlite")
PEAK_GROWTH_LIMIT_KIB = 16 * 1024
RSS_GROWTH_LIMIT_KIB = 2 * 1024

# A steady drive east at 10 m/s, a fix a second, dated before the replayed car drive: one trip.
drive = os.path.join(args.dir, "drive.gpx")
start = datetime.datetime(2020, 6, 1, 6)
with open(drive, "w") as file:
    file.write('<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="export-memory" '
               'xmlns="http://www.topografix.com/GPX/1/1">\n<trk><trkseg>\n')
    for second in range(args.points):
        time_text = (start + datetime.timedelta(seconds=second)).isoformat()
        file.write(f'<trkpt lat="{45.2 + 0.01 * math.sin(second / 600):.7f}" lon="{13 + second * 0.000127:.7f}">'
                   f'<ele>{100 + second % 500 / 10}</ele><time>{time_text}Z</time></trkpt>\n')
    file.write("</trkseg></trk></gpx>\n")
subprocess.run([TRAVELCTL, "--db", DATABASE, "import", drive], check=True, capture_output=True)
configuration = os.path.join(args.dir, "travel-companion.conf")
open(configuration, "w").close()
# The car drive replayed so slowly that the daemon records next to nothing while it exports.
daemon = subprocess.Popen(
    [os.path.join(args.bin, "travel-companiond"), "run", "--config", configuration, "--db", DATABASE,
     "--socket", SOCKET, "--source", f"file://{args.replay}?speed=0.001"],
    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=open(os.path.join(args.dir, "daemon.log"), "ab"),
)


def memory():
    fields = {}
    for line in open(f"/proc/{daemon.pid}/status"):
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0])
    return fields


try:
    for _ in range(200):
        if os.path.exists(SOCKET):
            break
        time.sleep(0.05)
    time.sleep(1)
    before = memory()
    after_rounds = []
    sizes = {}
    for _ in range(args.rounds):
        for format in ("gpx", "geojson", "kml"):
            result = subprocess.run([TRAVELCTL, "export", "--format", format, "--trip", "1", "--socket", SOCKET],
                                    capture_output=True)
            if result.returncode != 0:
                failed(f"export --format {format}: {result.stderr.decode().strip()}")
            sizes[format] = len(result.stdout)
        after_rounds.append(memory())
finally:
    daemon.terminate()
    daemon.wait(timeout=30)

figure("route_points", args.points)
for format, size in sizes.items():
    figure(f"export_{format}_bytes", size)
figure("rss_before_kib", before["VmRSS"], "KiB")
figure("rss_after_first_round_kib", after_rounds[0]["VmRSS"], "KiB")
figure("rss_after_last_round_kib", after_rounds[-1]["VmRSS"], "KiB")
peak_growth = after_rounds[-1]["VmHWM"] - before["VmHWM"]
rss_growth = max(m["VmRSS"] for m in after_rounds) - after_rounds[0]["VmRSS"]
figure("peak_rss_growth_kib", peak_growth, f"KiB (limit {PEAK_GROWTH_LIMIT_KIB})")
figure("rss_growth_after_first_round_kib", rss_growth, f"KiB over {args.rounds - 1} rounds (limit {RSS_GROWTH_LIMIT_KIB})")
if peak_growth > PEAK_GROWTH_LIMIT_KIB:
    failed(f"the daemon's peak RSS grew {peak_growth} KiB while exporting")
if rss_growth > RSS_GROWTH_LIMIT_KIB:
    failed(f"the daemon's RSS grew {rss_growth} KiB after the first round: not bounded")
finish()
