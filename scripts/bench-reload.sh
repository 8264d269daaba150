#!/usr/bin/env bash
# SIGHUP with a million POIs: how long the tracking pipeline stops answering while the daemon
# reads its configuration, zones and POIs again. The daemon (release build) replays 10 fixes a
# second over a database of 1 M POIs; a raw Varlink client calls Status (which waits on the
# pipeline actor) every 10 ms for 25 s and sends SIGHUP after 5 s; the worst round trip from the
# SIGHUP on is how long fixes, flushes and the watchdog's pings would have waited.
#
# Usage: scripts/bench-reload.sh
# Environment: POI_DB (the database of 1 M POIs, made once and kept; default
#   /var/tmp/travelcompanion-pois-1m.sqlite), SCRATCH (SwiftPM scratch path, default .build).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null && [[ -x /opt/swift/usr/bin/swift ]]; then PATH=/opt/swift/usr/bin:$PATH; fi
scratch=${SCRATCH:-.build}
db=${POI_DB:-/var/tmp/travelcompanion-pois-1m.sqlite}

swift build -c release --scratch-path "$scratch" --product travel-companiond >/dev/null
swift build -c release --scratch-path "$scratch" --product travelctl >/dev/null
bin=$(swift build -c release --scratch-path "$scratch" --show-bin-path)

work=$(mktemp -d)
daemon=
cleanup() {
    [[ -n $daemon ]] && kill "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

if [[ ! -s $db ]]; then
    echo "== importing 1 000 000 POIs into $db (once; delete it to make it again)"
    /usr/bin/python3 - "$work/pois.csv" <<'PY'
import random, sys
random.seed(1)
with open(sys.argv[1], "w") as f:
    f.write("name,lat,lon,category\n")
    for i in range(1_000_000):
        f.write(f"POI {i},{random.uniform(35, 60):.6f},{random.uniform(-10, 30):.6f},test\n")
PY
    "$bin/travelctl" --db "$db" poi import "$work/pois.csv"
fi
cp "$db" "$work/travel.sqlite"

# One hour of 1 s fixes at one place, replayed 10 times faster than recorded.
scripts/make-parked-nmea.py "$work/fixes.nmea"
"$bin/travel-companiond" run --db "$work/travel.sqlite" --socket "$work/control" \
    --source "file://$work/fixes.nmea?speed=10" 2>"$work/daemon.log" &
daemon=$!
for _ in $(seq 600); do [[ -S $work/control ]] && grep -q "POIs" "$work/daemon.log" && break; sleep 0.1; done
sleep 1
echo "== release build, $(nproc) cores; daemon pid $daemon replaying 10 fixes/s over 1 M POIs"
/usr/bin/python3 - "$work/control" "$daemon" <<'PY'
import json, os, signal, socket, sys, time
path, pid = sys.argv[1], int(sys.argv[2])
client = socket.socket(socket.AF_UNIX)
client.connect(path)
call = json.dumps({"method": "org.travelcompanion.control.Status"}).encode() + b"\0"
pending, samples, start, hangup = b"", [], time.monotonic(), None
while time.monotonic() - start < 25:
    if hangup is None and time.monotonic() - start > 5:
        os.kill(pid, signal.SIGHUP)
        hangup = time.monotonic()
    sent = time.monotonic()
    client.sendall(call)
    while b"\0" not in pending:
        pending += client.recv(65536)
    _, pending = pending.split(b"\0", 1)
    samples.append((sent, time.monotonic() - sent))
    time.sleep(0.01)
before = [s for t, s in samples if t < hangup]
after = sorted(s for t, s in samples if t >= hangup)
print(f"Status round trips: {len(samples)}; before SIGHUP worst {max(before) * 1000:.1f} ms; "
      f"from SIGHUP on worst {after[-1] * 1000:.1f} ms, median {after[len(after) // 2] * 1000:.2f} ms")
PY
grep -E "configuration reloaded" "$work/daemon.log" >/dev/null || { echo "the daemon did not reload" >&2; exit 1; }
