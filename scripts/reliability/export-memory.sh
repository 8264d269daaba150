#!/usr/bin/env bash
# Export memory: the daemon holds one trip of 100 000 route points (EXPORT_POINTS=N for another
# length, imported from a generated GPX drive) and `travelctl export` asks it for that trip again
# and again through the socket, in GPX, GeoJSON and KML (EXPORT_ROUNDS=N rounds, default 10).
# Prints the daemon's RSS before, its peak (VmHWM) growth, and its RSS growth from the end of the
# first round to the end of the last; fails when the peak grows by more than 16 MiB (a document
# held whole is 3-10 MB of text and 4 MB of points) or the RSS keeps growing by more than 2 MiB.
# Usage: scripts/reliability/export-memory.sh [--release]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
reliability_init "$@"

python3 scripts/reliability/export_memory.py --bin "$BIN" --dir "$WORK" --points "${EXPORT_POINTS:-100000}" \
    --rounds "${EXPORT_ROUNDS:-10}" --replay "$PWD/Tests/Fixtures/tracks/visnjan-car-2020-12-18.gpx" ||
    FAILURES=$((FAILURES + 1))
finish
