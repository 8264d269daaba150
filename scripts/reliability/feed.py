#!/usr/bin/env python3
"""A live 10 Hz NMEA receiver for the reliability scripts: RMC + GGA + GSA epochs of the bundled
bus route, each dated now (so timestamps always advance), positions interpolated along the track
(there and back, so it never ends), written into DEVICE (a socat pty's feeder end). A device that
goes away (socat killed: the receiver unplugged) is reopened as soon as it is back; every epoch
written is logged to LOG as `unix-time-ms` per line, so a script can count what was fed.

Usage: feed.py DEVICE TRACK.gpx RATE SKIP_SECONDS LOG
"""
import importlib.util
import math
import os
import sys
import time

spec = importlib.util.spec_from_file_location(
    "feed_nmea", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "feed-nmea.py")
)
feed_nmea = importlib.util.module_from_spec(spec)
spec.loader.exec_module(feed_nmea)


def main():
    device, track, rate, skip, log_path = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
    route = feed_nmea.there_and_back(feed_nmea.points(track))
    duration = route[-1][0] - route[0][0]
    log = open(log_path, "a", buffering=1)
    out = None
    # The link (inode, change time) of a device that failed: a pty whose socat is gone may still
    # open and swallow writes, so only a link made again is opened again.
    failed_link = None
    period = 1 / rate
    start = math.ceil(time.time() / period) * period
    step, index = 0, 0
    while True:
        now = start + step * period
        step += 1
        pause = now - time.time()
        if pause > 0:
            time.sleep(pause)
        offset = (now - start + skip) % duration + route[0][0]
        index, lat, lon, knots, track_degrees = feed_nmea.along(route, offset, index)
        data = feed_nmea.epoch(now, lat, lon, knots, track_degrees).encode()
        try:
            if out is None:
                link = os.lstat(device)
                if (link.st_ino, link.st_ctime_ns) == failed_link:
                    continue
                # Never created: a vanished device must not become a regular file.
                out = open(os.open(device, os.O_WRONLY | os.O_NOCTTY), "wb", buffering=0)
                opened_link = (link.st_ino, link.st_ctime_ns)
            out.write(data)
            log.write(f"{round(now * 1000)}\n")
        except OSError:
            # Unplugged: this epoch is not fed; try a new device at the next one.
            if out is not None:
                failed_link = opened_link
                try:
                    out.close()
                except OSError:
                    pass
            out = None


if __name__ == "__main__":
    main()
