#!/usr/bin/env python3
"""A live NMEA receiver for benchmarks: writes RMC + GGA + GSA epochs of a real GPX track into a
device (a socat pty) at RATE Hz, each dated now, positions interpolated along the track, until
killed. The feed starts after DELAY seconds, so readers can connect before the first fix, at
START seconds into the track.

Usage: feed-nmea.py DEVICE TRACK.gpx RATE [DELAY [START]]
"""
import datetime
import math
import re
import sys
import time


def points(path):
    text = open(path, encoding="utf-8").read()
    pattern = r'<trkpt lat="([-0-9.]+)" lon="([-0-9.]+)".*?<time>([^<]+)</time>'
    found = []
    for lat, lon, stamp in re.findall(pattern, text, re.S):
        when = datetime.datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
        found.append((when, float(lat), float(lon)))
    return found


def sentence(body):
    checksum = 0
    for byte in body.encode():
        checksum ^= byte
    return f"${body}*{checksum:02X}\r\n"


def angle(value, width, positive, negative, decimals=4):
    degrees = int(abs(value))
    minutes = (abs(value) - degrees) * 60
    return f"{degrees:0{width}d}{minutes:0{decimals + 3}.{decimals}f},{positive if value >= 0 else negative}"


def there_and_back(route):
    """The route and then back again, so a feed along it never ends and never jumps."""
    return route + [(route[-1][0] + (route[-1][0] - t), la, lo) for t, la, lo in reversed(route)]


def along(route, offset, index):
    """Where the route is `offset` seconds into it, searching on from point `index`:
    (index, lat, lon, speed in knots, track in degrees), interpolated between two points."""
    if index + 1 >= len(route) or route[index][0] > offset:
        index = 0
    while index + 1 < len(route) and route[index + 1][0] <= offset:
        index += 1
    t0, la0, lo0 = route[index]
    t1, la1, lo1 = route[min(index + 1, len(route) - 1)]
    f = 0 if t1 == t0 else (offset - t0) / (t1 - t0)
    dy = (la1 - la0) * 111_320
    dx = (lo1 - lo0) * 111_320 * math.cos(math.radians(la0))
    metres_per_second = math.hypot(dx, dy) / max(t1 - t0, 1e-9)
    track = math.degrees(math.atan2(dx, dy)) % 360
    return index, la0 + f * (la1 - la0), lo0 + f * (lo1 - lo0), metres_per_second * 1.943844, track


def epoch(now, lat, lon, speed_knots, track):
    stamp = datetime.datetime.fromtimestamp(now, datetime.timezone.utc)
    hms = stamp.strftime("%H%M%S") + f".{stamp.microsecond // 10000:02d}"
    date = stamp.strftime("%d%m%y")
    position = f"{angle(lat, 2, 'N', 'S')},{angle(lon, 3, 'E', 'W')}"
    return (
        sentence(f"GPRMC,{hms},A,{position},{speed_knots:.1f},{track:.1f},{date},,,A")
        + sentence(f"GPGGA,{hms},{position},1,09,0.9,21.0,M,55.0,M,,")
        + sentence("GPGSA,A,3,02,05,07,09,13,16,20,27,30,,,,1.6,0.9,1.3")
    )


def main():
    device, track, rate = sys.argv[1], sys.argv[2], float(sys.argv[3])
    delay = float(sys.argv[4]) if len(sys.argv) > 4 else 0
    skip = float(sys.argv[5]) if len(sys.argv) > 5 else 0
    route = there_and_back(points(track))
    duration = route[-1][0] - route[0][0]
    out = open(device, "wb", buffering=0)
    time.sleep(delay)
    period = 1 / rate
    start = math.ceil(time.time() / period) * period
    index = 0
    step = 0
    while True:
        now = start + step * period
        pause = now - time.time()
        if pause > 0:
            time.sleep(pause)
        offset = (now - start + skip) % duration + route[0][0]
        index, lat, lon, knots, track_degrees = along(route, offset, index)
        out.write(epoch(now, lat, lon, knots, track_degrees).encode())
        step += 1


if __name__ == "__main__":
    main()
