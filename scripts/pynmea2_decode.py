#!/usr/bin/env python3
"""Decode an NMEA file with pynmea2: the Python peer in scripts/bench-decode.sh.

Usage: pynmea2_decode.py FILE

Reads FILE into memory, then times (CPU, time.process_time) a loop that passes every non-empty
line to pynmea2.parse(line, check=True) and, like our decoder, reads the latitude and longitude of
sentences that carry a position (pynmea2 converts fields only when asked). Parse errors (bad or
missing checksum, unknown or malformed sentences) are counted, not fatal. Interpreter start-up and
file reading are not timed. Prints one line for the script:

    result: lines=N parsed=N errors=N cpu_s=S version=V
"""

import platform
import sys
import time

import pynmea2
from pynmea2.nmea_utils import LatLonFix


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1], "rb") as f:
        raw_lines = f.readlines()

    lines = parsed = errors = 0
    digest = 0.0
    start = time.process_time()
    for raw in raw_lines:
        line = raw.decode("ascii", "replace").strip()
        if not line:
            continue
        lines += 1
        try:
            message = pynmea2.parse(line, check=True)
            if isinstance(message, LatLonFix):
                digest += message.latitude + message.longitude
            parsed += 1
        except (pynmea2.ParseError, ValueError):
            errors += 1
    cpu = time.process_time() - start

    print(f"pynmea2 {pynmea2.__version__} on Python {platform.python_version()}: position digest {digest:.6f}")
    print(f"result: lines={lines} parsed={parsed} errors={errors} cpu_s={cpu:.6f} version={pynmea2.__version__}")


if __name__ == "__main__":
    main()
