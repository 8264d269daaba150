#!/usr/bin/env python3
"""Write Tests/Fixtures/geodesic/wgs84-inverse.csv: WGS84 inverse geodesics solved by GeographicLib.

The Swift geodesy in TravelCore is checked row by row against this file. The run is deterministic
(fixed seed), so regenerating with the same GeographicLib gives the same bytes:

    pip install geographiclib
    python3 scripts/make-geodesic-fixture.py

Inputs are rounded to 12 decimal places of a degree (0.1 micrometre) to keep the file small; every
value is then printed with repr(), the shortest text that reads back as the same double, and the
outputs are GeographicLib's answer for exactly those inputs.
"""

import math
import pathlib
import random
import sys

import geographiclib
from geographiclib.geodesic import Geodesic

SEED = 20240518
OUTPUT = pathlib.Path(__file__).resolve().parent.parent / "Tests/Fixtures/geodesic/wgs84-inverse.csv"
WGS84 = Geodesic.WGS84
# Longitude difference beyond which the shortest path between two equatorial points leaves the equator.
EQUATORIAL_CUT = 180 * (1 - WGS84.f)

rng = random.Random(SEED)


def rounded(degrees):
    return round(degrees, 12) + 0.0  # + 0.0 turns -0.0 into 0.0


def log_uniform(low, high):
    return math.exp(rng.uniform(math.log(low), math.log(high)))


def signed(value):
    return value if rng.random() < 0.5 else -value


def random_latitude():
    """Latitude of a point uniform over the sphere's area."""
    return math.degrees(math.asin(rng.uniform(-1, 1)))


def random_longitude():
    return rng.uniform(-180, 180)


def destination(lat, lon, azimuth, distance):
    line = WGS84.Direct(lat, lon, azimuth, distance)
    return line["lat2"], line["lon2"]


def hop(distance_low, distance_high):
    lat1, lon1 = random_latitude(), random_longitude()
    lat2, lon2 = destination(lat1, lon1, rng.uniform(-180, 180), log_uniform(distance_low, distance_high))
    return lat1, lon1, lat2, lon2


def random_pairs(count):
    for _ in range(count):
        yield random_latitude(), random_longitude(), random_latitude(), random_longitude()


def short_hops(count):
    """0.1 m to 10 km, the consecutive-fix regime; every third starts poleward of 80 degrees."""
    for index in range(count):
        lat1 = signed(rng.uniform(80, 90)) if index % 3 == 0 else random_latitude()
        lon1 = random_longitude()
        lat2, lon2 = destination(lat1, lon1, rng.uniform(-180, 180), log_uniform(0.1, 10e3))
        yield lat1, lon1, lat2, lon2


def medium_hops(count):
    for _ in range(count):
        yield hop(10e3, 1000e3)


def long_hops(count):
    for _ in range(count):
        yield hop(1000e3, 20000e3)


def near_antipodal(count):
    """The antipode of a random point, nudged by 1e-9 to 1 degree in latitude and longitude."""
    for _ in range(count):
        lat1, lon1 = random_latitude(), random_longitude()
        yield lat1, lon1, -lat1 + signed(log_uniform(1e-9, 1)), lon1 + 180 + signed(log_uniform(1e-9, 1))


def equatorial_antipodal(count):
    """The hard region of the inverse problem: both points within a degree of the equator, nearly antipodal."""
    for index in range(count):
        lat1 = 0.0 if index % 2 else signed(log_uniform(1e-9, 1))
        lat2 = signed(log_uniform(1e-9, 1)) if index % 3 else -lat1
        lon2 = 180 - log_uniform(1e-9, 2 * (180 - EQUATORIAL_CUT))
        yield lat1, 0.0, lat2, lon2


def polar(count):
    for index in range(count):
        kind = index % 4
        if kind == 0:  # from a pole to anywhere
            yield signed(90.0), random_longitude(), random_latitude(), random_longitude()
        elif kind == 1:  # both near the same pole
            pole = signed(1.0)
            yield (pole * (90 - log_uniform(1e-9, 1)), random_longitude(),
                   pole * (90 - log_uniform(1e-9, 1)), random_longitude())
        elif kind == 2:  # across a pole along one meridian
            pole = signed(1.0)
            lon1 = random_longitude()
            yield pole * (90 - log_uniform(1e-9, 5)), lon1, pole * (90 - log_uniform(1e-9, 5)), lon1 + 180
        else:  # pole to pole and pole to its neighbourhood
            yield signed(90.0), random_longitude(), rng.choice([-90.0, 90.0]), random_longitude()


def equatorial(count):
    for index in range(count):
        lon1 = random_longitude()
        if index % 4 == 0:  # straddle the longitude difference where the equator stops being shortest
            yield 0.0, lon1, 0.0, lon1 + EQUATORIAL_CUT + signed(log_uniform(1e-9, 0.1))
        else:
            yield 0.0, lon1, 0.0, lon1 + signed(rng.uniform(0, 180))


def meridional(count):
    for index in range(count):
        lon = random_longitude()
        if index % 3 == 0:  # along the meridian and on over the pole
            yield random_latitude(), lon, random_latitude(), lon + 180
        else:
            yield random_latitude(), lon, random_latitude(), lon


def coincident(count):
    special = [(0.0, 0.0), (90.0, 0.0), (-90.0, 123.0), (0.0, 180.0), (0.0, -180.0), (45.0, 180.0)]
    for lat, lon in special:
        yield lat, lon, lat, lon
    for _ in range(count - len(special)):
        lat, lon = random_latitude(), random_longitude()
        yield lat, lon, lat, lon


def antimeridian(count):
    """Pairs on either side of longitude 180, written as +179.x and -179.x."""
    for index in range(count):
        lat1, lon1 = random_latitude(), 180 - log_uniform(1e-9, 0.5)
        if index % 2:  # eastward hops from just west of the antimeridian, most of which cross it
            lat2, lon2 = destination(lat1, lon1, rng.uniform(0, 180), log_uniform(0.1, 100e3))
        else:
            lat2, lon2 = random_latitude(), -180 + log_uniform(1e-9, 0.5)
        yield lat1, lon1, lat2, lon2


# Regression cases from GeographicLib's own test suite (test_geodesic.py), exact inputs.
REGRESSIONS = [
    (40.6, -73.8, 49.01666667, 2.55),
    (36.493349428792, 0, 36.49334942879201, 0.0000008),
    (88.202499451857, 0, -88.202499451857, 179.981022032992859592),
    (89.262080389218, 0, -89.262080389218, 179.992207982775375662),
    (89.333123580033, 0, -89.333123580032997687, 179.99295812360148422),
    (56.320923501171, 0, -56.320923501171, 179.664747671772880215),
    (52.784459512564, 0, -52.784459512563990912, 179.634407464943777557),
    (48.522876735459, 0, -48.52287673545898293, 179.599720456223079643),
    (0, 539, 0, 181),
    (0, 0, 0, 179.5),
    (0, 0, 0.5, 180),
    (5, 0.00000000000001, 10, 180),
    (54.1589, 15.3872, 54.1591, 15.3877),
    (-(41 + 19 / 60.0), 174 + 49 / 60.0, 40 + 58 / 60.0, -(5 + 30 / 60.0)),
    (27.2, 0.0, -27.1, 179.5),
    (0, 0, 1e-6, 1e-6),
    (20.001, 0, 20.001, 0),
    (90, 0, 90, 180),
    (37.757540000000006, -122.47018, 37.75754, -122.470177),
    (45.0, 0.0, -45.0, 179.572719),
]


def main():
    generated = [
        *random_pairs(600),
        *short_hops(700),
        *medium_hops(300),
        *long_hops(300),
        *near_antipodal(250),
        *equatorial_antipodal(150),
        *polar(200),
        *equatorial(120),
        *meridional(120),
        *coincident(40),
        *antimeridian(150),
    ]
    pairs = [tuple(map(float, pair)) for pair in REGRESSIONS]
    for lat1, lon1, lat2, lon2 in generated:
        lon1, lon2 = (math.remainder(lon, 360) if abs(lon) > 180 else lon for lon in (lon1, lon2))
        pairs.append((rounded(lat1), rounded(lon1), rounded(lat2), rounded(lon2)))

    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    with OUTPUT.open("w", newline="\n") as out:
        python = sys.version.split()[0]
        out.write(f"# WGS84 inverse geodesics from GeographicLib {geographiclib.__version__} (Python {python}),"
                  f" written by scripts/make-geodesic-fixture.py with seed {SEED}; degrees and metres, repr() digits\n")
        out.write("lat1,lon1,lat2,lon2,s12,azi1,azi2\n")
        for lat1, lon1, lat2, lon2 in pairs:
            solution = WGS84.Inverse(lat1, lon1, lat2, lon2)
            row = (lat1, lon1, lat2, lon2, solution["s12"], solution["azi1"], solution["azi2"])
            out.write(",".join(repr(value) for value in row) + "\n")
    print(f"wrote {len(pairs)} pairs to {OUTPUT}")


if __name__ == "__main__":
    main()
