#!/usr/bin/env bash
# The control socket (issue 7): Status round trip (goal ≤ 200 µs median) and 100 subscribers
# receiving every event at 10 Hz, with the daemon's CPU and RSS. The daemon (release build)
# replays a generated NMEA log whose epochs alternate fix / no fix at 10 epochs a second, so it
# logs — and streams — an event (fix acquired, fix lost) for every epoch.
#
# Usage: scripts/bench-control.sh
# Environment: CONFIGURATION (release, or debug for a quick look; default release), CALLS (Status calls, default 5000), SUBSCRIBERS (default 100), WINDOW (each
#   measuring window, default 20), SCRATCH (SwiftPM scratch path, default .build).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null && [[ -x /opt/swift/usr/bin/swift ]]; then PATH=/opt/swift/usr/bin:$PATH; fi
scratch=${SCRATCH:-.build}
configuration=${CONFIGURATION:-release}
seconds=${WINDOW:-20}

swift build -c "$configuration" --scratch-path "$scratch" --product travel-companiond >/dev/null
swift build -c "$configuration" --scratch-path "$scratch" --product control-benchmarks >/dev/null
bin=$(swift build -c "$configuration" --scratch-path "$scratch" --show-bin-path)

work=$(mktemp -d)
daemon=
cleanup() {
    [[ -n $daemon ]] && kill "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

# One hour of 1 s epochs, alternating a 3D fix and no fix, replayed 10 times faster than recorded.
scripts/make-parked-nmea.py "$work/alternating.nmea" --alternate
# Room for the subscribers and the Status client (the default MaxConnections is 64).
printf "[Control]\nMaxConnections=1000\n" >"$work/travel-companion.conf"
"$bin/travel-companiond" run --config "$work/travel-companion.conf" --db "$work/travel.sqlite" \
    --socket "$work/control" --source "file://$work/alternating.nmea?speed=10" 2>"$work/daemon.log" &
daemon=$!
for _ in $(seq 100); do [[ -S $work/control ]] && break; sleep 0.1; done
echo "== $configuration build, $(nproc) cores; daemon pid $daemon replaying 10 epochs/s, one event each"
"$bin/control-benchmarks" "$work/control" "$daemon" "${CALLS:-5000}" "${SUBSCRIBERS:-100}" "$seconds" || { tail -5 "$work/daemon.log"; exit 1; }
