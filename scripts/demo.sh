#!/usr/bin/env bash
# The main job on an embedded default: decode a bundled real receiver log with the release
# build of travelctl, show the first and last epochs and the decoder's counters.
set -euo pipefail
cd "$(dirname "$0")/.."
log=${1:-Tests/Fixtures/gpsd-nmea/bu353s4.log}
bin=$(swift build -c release --show-bin-path)/travelctl
out=$(mktemp)
trap 'rm -f "$out"' EXIT

echo "== travelctl decode $log"
"$bin" decode --stats "$log" >"$out"
echo "-- first epochs:"
head -3 "$out"
echo "-- last epoch:"
tail -1 "$out"
echo "-- $(wc -l <"$out") epochs, $(grep -c '"mode":[23]' "$out") with a 2D/3D fix"
