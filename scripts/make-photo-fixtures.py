#!/usr/bin/env python3
"""Writes the JPEG photos in Tests/Fixtures/photos: 8x8 grey images with EXIF blocks written
byte by byte (no imaging library), in both TIFF byte orders. They are ours (see the README there).

Usage: scripts/make-photo-fixtures.py [OUT_DIR]
"""
import struct
import sys
from pathlib import Path

ASCII, SHORT, LONG, RATIONAL = 2, 3, 4, 5


def ifd(e, entries, at, data_at):
    """One IFD at offset `at` whose values that do not fit in 4 bytes go from `data_at` on.
    entries: (tag, type, value): ASCII text, a LONG, or a list of (numerator, denominator)."""
    out = bytearray(struct.pack(e + "H", len(entries)))
    data = bytearray()
    for tag, kind, value in entries:
        if kind == ASCII:
            raw, count = value.encode() + b"\0", len(value) + 1
        elif kind == LONG:
            raw, count = struct.pack(e + "I", value), 1
        else:
            raw, count = b"".join(struct.pack(e + "II", n, d) for n, d in value), len(value)
        if len(raw) <= 4:
            out += struct.pack(e + "HHI", tag, kind, count) + raw.ljust(4, b"\0")
        else:
            out += struct.pack(e + "HHII", tag, kind, count, data_at + len(data))
            data += raw
            if len(data) % 2:
                data += b"\0"
    out += struct.pack(e + "I", 0)
    return bytes(out), bytes(data)


def ifd_size(entries):
    return 2 + len(entries) * 12 + 4


def tiff(order, original, subsec=None, offset=None, gps=None):
    """A TIFF structure: IFD0 (Orientation, Exif IFD pointer, GPS IFD pointer), the Exif IFD,
    the GPS IFD, then the values too long for their entries."""
    e = "<" if order == "II" else ">"
    exif_entries = [(0x9003, ASCII, original)]
    if offset is not None:
        exif_entries.append((0x9011, ASCII, offset))
    if subsec is not None:
        exif_entries.append((0x9291, ASCII, subsec))
    gps_entries = gps or []
    ifd0_at = 8
    ifd0_count = 3 if gps else 2
    exif_at = ifd0_at + 2 + ifd0_count * 12 + 4
    gps_at = exif_at + ifd_size(exif_entries)
    data_at = gps_at + (ifd_size(gps_entries) if gps else 0)

    out = bytearray(order.encode() + struct.pack(e + "HI", 42, ifd0_at))
    out += struct.pack(e + "H", ifd0_count)
    out += struct.pack(e + "HHI", 0x0112, SHORT, 1) + struct.pack(e + "HH", 1, 0)
    out += struct.pack(e + "HHII", 0x8769, LONG, 1, exif_at)
    if gps:
        out += struct.pack(e + "HHII", 0x8825, LONG, 1, gps_at)
    out += struct.pack(e + "I", 0)
    exif_ifd, exif_data = ifd(e, exif_entries, exif_at, data_at)
    out += exif_ifd
    data = bytearray(exif_data)
    if gps:
        gps_ifd, gps_data = ifd(e, gps_entries, gps_at, data_at + len(data))
        out += gps_ifd
        data += gps_data
    return bytes(out + data)


def gps(latitude, longitude, date, time):
    """A GPS IFD's entries: degrees, minutes and hundredths of seconds; time as h, m, s."""
    def dms(value):
        value = abs(value)
        degrees = int(value)
        minutes = int((value - degrees) * 60)
        centiseconds = round(((value - degrees) * 60 - minutes) * 60 * 100)
        return [(degrees, 1), (minutes, 1), (centiseconds, 100)]
    return [
        (0x0001, ASCII, "N" if latitude >= 0 else "S"),
        (0x0002, RATIONAL, dms(latitude)),
        (0x0003, ASCII, "E" if longitude >= 0 else "W"),
        (0x0004, RATIONAL, dms(longitude)),
        (0x0007, RATIONAL, [(t, 1) for t in time]),
        (0x001D, ASCII, date),
    ]


def segment(marker, body):
    return bytes([0xFF, marker]) + struct.pack(">H", len(body) + 2) + body


def jpeg(app_segments):
    """A baseline 8x8 greyscale JPEG of uniform mid grey: every DC difference and AC run is zero,
    so one-symbol Huffman tables and a single scan byte encode it."""
    dqt = segment(0xDB, b"\x00" + bytes([1] * 64))
    sof = segment(0xC0, b"\x08\x00\x08\x00\x08\x01\x01\x11\x00")
    counts = bytes([1] + [0] * 15)
    dht_dc = segment(0xC4, b"\x00" + counts + b"\x00")
    dht_ac = segment(0xC4, b"\x10" + counts + b"\x00")
    sos = segment(0xDA, b"\x01\x01\x00\x00\x3f\x00")
    scan = b"\x3f"  # DC category 0 ("0"), end of block ("0"), padded with ones
    return b"\xff\xd8" + b"".join(app_segments) + dqt + sof + dht_dc + dht_ac + sos + scan + b"\xff\xd9"


def exif(order, original, subsec=None, offset=None, gps=None):
    return segment(0xE1, b"Exif\0\0" + tiff(order, original, subsec, offset, gps))


JFIF = segment(0xE0, b"JFIF\0\x01\x01\x00\x00\x01\x00\x01\x00\x00")


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent.parent / "Tests/Fixtures/photos")
    out.mkdir(parents=True, exist_ok=True)
    photos = {
        # Little-endian (most phones), with the camera's offset: 09:15:30.25 at +01:00 is 08:15:30.25 UTC.
        "exif-intel-offset.jpg": jpeg([exif("II", "2019:02:20 09:15:30", "25", "+01:00")]),
        # Big-endian (many cameras), after a JFIF segment, no offset: read in the configured one.
        "exif-motorola-local.jpg": jpeg([JFIF, exif("MM", "2019:02:18 08:10:00")]),
        # No EXIF at all: the time comes from --at or the clock.
        "no-exif.jpg": jpeg([JFIF]),
        # A phone's photo with its own GPS (big-endian): 08:10:00 local without an offset, and the
        # GPS's 08:10:02 UTC, 52.6601 N 8.6302 W (52 39' 36.36", 8 37' 48.72"): during the bus ride.
        "exif-gps.jpg": jpeg(
            [exif("MM", "2019:02:18 08:10:00", gps=gps(52.6601, -8.6302, "2019:02:18", (8, 10, 2)))]
        ),
    }
    for name, data in photos.items():
        (out / name).write_bytes(data)
        print(f"{out / name}: {len(data)} bytes")


if __name__ == "__main__":
    main()
