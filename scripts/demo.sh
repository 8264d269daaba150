#!/usr/bin/env bash
# The main job on an embedded default: travel-companiond replays a bundled real drive (a
# 75-minute Limerick bus ride, recorded once a second) through its live pipeline, 1500 times
# faster than it was driven, into a temporary state directory, printing the events as they
# happen; then travelctl lists the trips and journeys stored in that database and writes the
# HTML report of the drive (travelctl report), printing its path.
#   scripts/demo.sh [LOG]        LOG: an NMEA, gpsd JSON or GPX log (default: the bus ride)
#   DEMO_SPEED=0                 replay as fast as possible; 1 is real time
#   TRAVEL_BIN=DIR               use the binaries in DIR instead of the release build
#   DEMO_REPORT=FILE             where the HTML report of the drive goes (default .build/demo-report.html)
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(realpath "${1:-Tests/Fixtures/tracks/limerick-bus-304-2019-02-18.gpx}")
speed=${DEMO_SPEED:-1500}
bin=${TRAVEL_BIN:-$(swift build -c release --show-bin-path)}
state=$(mktemp -d)
trap 'rm -rf "$state"' EXIT

# An empty configuration: the defaults, whatever /etc/travel-companion holds on this machine.
: >"$state/travel-companion.conf"
# The log's path as a file:// URL: escape what a URL reserves.
url="file://$(printf '%s' "$log" | sed 's/%/%25/g; s/ /%20/g; s/?/%3F/g; s/#/%23/g')?speed=$speed"

echo "== travel-companiond --db $state/travel.sqlite --source $url"
# Its control socket in the state directory too: an installed service keeps the standard one.
"$bin/travel-companiond" run --config "$state/travel-companion.conf" --db "$state/travel.sqlite" \
    --socket "$state/control" --source "$url" 2>&1
echo
echo "== travelctl --db $state/travel.sqlite trips"
"$bin/travelctl" --db "$state/travel.sqlite" trips
echo
echo "== travelctl --db $state/travel.sqlite journeys"
"$bin/travelctl" --db "$state/travel.sqlite" journeys --config "$state/travel-companion.conf"
echo
# The report outlives the temporary state directory: .build/ by default (DEMO_REPORT=FILE elsewhere).
report=${DEMO_REPORT:-$PWD/.build/demo-report.html}
mkdir -p "$(dirname "$report")"
echo "== travelctl --db $state/travel.sqlite report --output $report"
"$bin/travelctl" --db "$state/travel.sqlite" report --config "$state/travel-companion.conf" --output "$report"
echo "The report of the demo drive, a single HTML file that works offline: $report"
