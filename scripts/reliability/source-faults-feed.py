#!/usr/bin/env python3
"""The NMEA a faulty receiver sends, for scripts/reliability/source-faults.sh: a drive east at
15 m/s, one RMC + GGA epoch a second, with COUNT faults of one kind. Writes the bytes to OUT and
prints what a correct tracker must make of them as JSON (epochs, accepted, rejections, steps,
trips).

Usage: source-faults-feed.py FAULT COUNT OUT
FAULT: garbage | duplicates | back-30s | back-1h | future | gap-2h | no-fix
"""
import datetime
import importlib.util
import json
import math
import os
import random
import sys

spec = importlib.util.spec_from_file_location(
    "feed_nmea", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "feed-nmea.py")
)
feed_nmea = importlib.util.module_from_spec(spec)
spec.loader.exec_module(feed_nmea)
sentence = feed_nmea.sentence

fault, count, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rng = random.Random(14)
t = 1_750_000_000.0  # 2025-06-15, after [Tracking] EarliestFixDate
east = 0.0
speed = 15.0
chunks = []
expected = {"epochs": 0, "accepted": 0, "rejected": {}, "steps": 0, "trips": None}


def angle(value, width, positive, negative):
    return feed_nmea.angle(value, width, positive, negative, decimals=6)


def epoch(when, fix=True):
    stamp = datetime.datetime.fromtimestamp(when, datetime.timezone.utc)
    hms, date = stamp.strftime("%H%M%S.00"), stamp.strftime("%d%m%y")
    if not fix:
        return sentence(f"GPRMC,{hms},V,,,,,,,{date},,,N") + sentence(f"GPGGA,{hms},,,,,0,00,99.9,,M,,M,,")
    lat = 45.0
    lon = 13.7 + east / (111_320 * math.cos(math.radians(lat)))
    position = f"{angle(lat, 2, 'N', 'S')},{angle(lon, 3, 'E', 'W')}"
    return sentence(f"GPRMC,{hms},A,{position},{speed / 0.514444:.1f},90.0,{date},,,A") + sentence(
        f"GPGGA,{hms},{position},1,08,1.0,20.0,M,50.0,M,,"
    )


def drive(epochs, accepted=True):
    """`epochs` seconds of driving, each epoch expected accepted."""
    global t, east
    for _ in range(epochs):
        chunks.append(epoch(t))
        expected["epochs"] += 1
        expected["accepted"] += 1 if accepted else 0
        t += 1
        east += speed


def reject(reason, n=1):
    expected["rejected"][reason] = expected["rejected"].get(reason, 0) + n


drive(30)
if fault == "garbage":
    for _ in range(count):
        chunks.append(bytes(rng.randrange(256) for _ in range(200)).decode("latin-1"))
        drive(20)
elif fault == "duplicates":
    for _ in range(count):
        chunks.append(epoch(t - 1))  # the epoch just sent, again
        drive(20)
elif fault in ("back-30s", "back-1h"):
    step = 30 if fault == "back-30s" else 3600
    for _ in range(count):
        t -= step
        drive(100)
    expected["steps"] = count
    # The first 30 s are too short to be a trip; each step ends one.
    expected["trips"] = count
elif fault == "future":
    for index in range(count):
        ahead = 6 * 3600 if index % 2 == 0 else 1800
        chunks.append(epoch(t + ahead))
        expected["epochs"] += 1
        reject("time-jump")
        t += 1
        east += speed
        drive(20)
elif fault == "gap-2h":
    for _ in range(count):
        drive(100)
        t += 7200
    # Each gap ends a trip; the last 30 s are too short to be one.
    expected["trips"] = count
elif fault == "no-fix":
    expected["accepted"] = 0
    expected["epochs"] = 0
    chunks.clear()
    for _ in range(count * 20):
        chunks.append(epoch(t, fix=False))
        expected["epochs"] += 1
        t += 1
    reject("no-position", expected["epochs"])
    expected["trips"] = 0
else:
    sys.exit(f"source-faults-feed.py: unknown fault {fault}")
if fault != "no-fix":
    drive(30)
with open(out, "w", encoding="latin-1", newline="") as f:
    f.write("".join(chunks))
print(json.dumps(expected))
