#!/usr/bin/env bash
# Source faults, live: travel-companiond reads a serial NMEA receiver (a socat pty) that sends
# garbage bytes mid-feed, duplicated epochs, time stepping back by 30 s and by an hour (and
# staying there), single epochs dated 30 min or 6 h ahead, two-hour gaps mid-trip, and only
# no-fix epochs: COUNT of each (100; 10 with --short). For each fault, the fixes fed are counted
# against what the daemon accepted and rejected (`travelctl status --json`), the steps of GPS
# time it said it followed (its log), and the trips and route points stored (the database).
# gpsd kill/restart and pty replugs are scripts/reliability/reconnect.sh's.
# Usage: scripts/reliability/source-faults.sh [--short] [--release]   (KEEP=1 keeps the files)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
reliability_init "$@"
count=$((SHORT ? 10 : 100))

# The daemon's counters once it has read everything: fixes_read unchanged for 1.5 s.
settled_status() {
    local socket=$1 last=-1 same=0 now
    for _ in $(seq 1 240); do
        now=$("$BIN/travelctl" status --socket "$socket" --json 2>/dev/null \
            | python3 -c 'import json, sys; print(json.load(sys.stdin)["counters"]["fixes_read"])' 2>/dev/null || echo -1)
        if [[ $now -eq $last && $now -ge 0 ]]; then same=$((same + 1)); else same=0; fi
        last=$now
        if [[ $same -ge 3 ]]; then break; fi
        sleep 0.5
    done
    "$BIN/travelctl" status --socket "$socket" --json
}

run_fault() {
    local fault=$1 dir="$WORK/$1"
    mkdir -p "$dir"
    local expected
    expected=$(python3 scripts/reliability/source-faults-feed.py "$fault" "$count" "$dir/feed.nmea")
    printf '[Control]\nSocket=%s/control\n' "$dir" >"$dir/travel-companion.conf"
    start_pty "$dir"
    "$BIN/travel-companiond" run --config "$dir/travel-companion.conf" --db "$dir/travel.sqlite" \
        --source "serial://$dir/gps0?baud=38400" >"$dir/daemon.log" 2>&1 &
    local daemon=$!
    PIDS+=("$daemon")
    for _ in $(seq 1 100); do grep -q "source connected" "$dir/daemon.log" && break; sleep 0.05; done
    local started=$SECONDS
    cat "$dir/feed.nmea" >"$dir/feeder"
    local status
    status=$(settled_status "$dir/control")
    kill -TERM "$daemon"
    wait "$daemon" || true
    kill "$SOCAT_PID" 2>/dev/null || true
    wait "$SOCAT_PID" 2>/dev/null || true
    local steps trips points
    steps=$(grep -c "GPS time stepped back" "$dir/daemon.log" || true)
    trips=$("$BIN/travelctl" --db "$dir/travel.sqlite" trips --json | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')
    points=$(sqlite3 "$dir/travel.sqlite" "SELECT count(*) FROM route_points")
    python3 - "$fault" "$count" "$expected" "$status" "$steps" "$trips" "$points" "$((SECONDS - started))" <<'PY'
import json, sys
fault, count, expected, status = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3]), json.loads(sys.argv[4])
steps, trips, points, seconds = (int(v) for v in sys.argv[5:9])
c = status["counters"]
name = "source_faults." + fault.replace("-", "_")
print(f"FIGURE {name}.faults={count} faults")
print(f"FIGURE {name}.fed={expected['epochs']} epochs")
print(f"FIGURE {name}.read={c['fixes_read']} fixes")
print(f"FIGURE {name}.accepted={c['accepted']} fixes")
print(f"FIGURE {name}.rejected={c['rejected']} fixes")
for reason, n in sorted(c["rejected_by_reason"].items()):
    print(f"FIGURE {name}.rejected.{reason.replace('-', '_')}={n} fixes")
print(f"FIGURE {name}.lost={expected['accepted'] - c['accepted']} fixes")
print(f"FIGURE {name}.time_steps_followed={steps} steps")
print(f"FIGURE {name}.trips={trips} trips")
print(f"FIGURE {name}.route_points_stored={points} points")
print(f"FIGURE {name}.seconds={seconds} s")
problems = []
if c["fixes_read"] != expected["epochs"]:
    problems.append(f"read {c['fixes_read']} fixes of {expected['epochs']} fed")
if c["accepted"] != expected["accepted"]:
    problems.append(f"accepted {c['accepted']}, expected {expected['accepted']}")
if c["rejected_by_reason"] != expected["rejected"]:
    problems.append(f"rejected {c['rejected_by_reason']}, expected {expected['rejected']}")
if steps != expected["steps"]:
    problems.append(f"{steps} steps of GPS time logged, expected {expected['steps']}")
if expected["trips"] is not None and trips != expected["trips"]:
    problems.append(f"{trips} trips stored, expected {expected['trips']}")
print(("ok   " if not problems else "FAIL ") + fault + ": " + ("; ".join(problems) or "as expected"))
sys.exit(1 if problems else 0)
PY
}

for fault in garbage duplicates back-30s back-1h future gap-2h no-fix; do
    if ! run_fault "$fault"; then FAILURES=$((FAILURES + 1)); fi
done
finish
