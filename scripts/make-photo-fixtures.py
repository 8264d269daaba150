#!/usr/bin/env python3
"""Writes the JPEG photos in Tests/Fixtures/photos: 8x8 grey images with EXIF blocks written
byte by byte (no imaging library), in both TIFF byte orders. They are ours (see the README there).

Usage: scripts/make-photo-fixtures.py [OUT_DIR]
"""
import struct
import sys
from pathlib import Path

ASCII, SHORT, LONG = 2, 3, 4


def tiff(order, original, subsec=None, offset=None):
    """A TIFF structure: IFD0 (Orientation, Exif IFD pointer), then the Exif IFD."""
    e = "<" if order == "II" else ">"
    exif_entries = [(0x9003, original)]
    if offset is not None:
        exif_entries.append((0x9011, offset))
    if subsec is not None:
        exif_entries.append((0x9291, subsec))
    ifd0_at = 8
    ifd0_size = 2 + 2 * 12 + 4
    exif_at = ifd0_at + ifd0_size
    exif_size = 2 + len(exif_entries) * 12 + 4
    data_at = exif_at + exif_size

    out = bytearray(order.encode() + struct.pack(e + "HI", 42, ifd0_at))
    out += struct.pack(e + "H", 2)
    out += struct.pack(e + "HHI", 0x0112, SHORT, 1) + struct.pack(e + "HH", 1, 0)
    out += struct.pack(e + "HHII", 0x8769, LONG, 1, exif_at)
    out += struct.pack(e + "I", 0)

    data = bytearray()
    out += struct.pack(e + "H", len(exif_entries))
    for tag, text in exif_entries:
        value = text.encode() + b"\0"
        if len(value) <= 4:
            out += struct.pack(e + "HHI", tag, ASCII, len(value)) + value.ljust(4, b"\0")
        else:
            out += struct.pack(e + "HHII", tag, ASCII, len(value), data_at + len(data))
            data += value
            if len(data) % 2:
                data += b"\0"
    out += struct.pack(e + "I", 0)
    return bytes(out + data)


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


def exif(order, original, subsec=None, offset=None):
    return segment(0xE1, b"Exif\0\0" + tiff(order, original, subsec, offset))


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
    }
    for name, data in photos.items():
        (out / name).write_bytes(data)
        print(f"{out / name}: {len(data)} bytes")


if __name__ == "__main__":
    main()
