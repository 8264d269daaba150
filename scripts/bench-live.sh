#!/usr/bin/env bash
# The daemon live, side by side with gpsd's own logger: a real gpsd reads a pty fed with a real
# bus route at 1 Hz and at 10 Hz (both at once); travel-companiond and gpxlogger both log that
# gpsd's fixes for DURATION seconds. Prints, per rate and process, peak RSS, CPU as a share of
# one core, and bytes written per hour (from /proc/PID/io, over the run after a 30 s warm-up);
# and the time from gpsd delivering the first fix to the daemon having stored it.
# Usage: scripts/bench-live.sh [DURATION_SECONDS]   (default 600; KEEP=1 keeps the logs and files)
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-600}
warmup=30
scratch=${SCRATCH:-.build}
command -v gpsd >/dev/null && command -v gpxlogger >/dev/null && command -v socat >/dev/null || scripts/setup.sh

# As installed: release, the Swift runtime linked in statically.
swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product travel-companiond >/dev/null
bin=$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)
track=Tests/Fixtures/tracks/limerick-bus-304-2019-02-18.gpx
work=$(mktemp -d)
chmod 755 "$work"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    if [[ -n ${KEEP:-} ]]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Counters of a process: "utime+stime ticks, peak RSS KiB, write_bytes, wchar".
sample() {
    local pid=$1
    local ticks rss written wchar
    ticks=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
    rss=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status")
    written=$(awk '/^write_bytes/ { print $2 }' "/proc/$pid/io")
    wchar=$(awk '/^wchar/ { print $2 }' "/proc/$pid/io")
    echo "$ticks $rss $written $wchar"
}

# Waits for the first fix-bearing TPV from gpsd, then for the daemon's first commit of it.
first_fix_latency() {
    python3 - "$1" "$2" <<'PY'
import json, socket, sqlite3, sys, time
port, database = int(sys.argv[1]), sys.argv[2]
gpsd = socket.create_connection(("127.0.0.1", port))
gpsd.sendall(b'?WATCH={"enable":true,"json":true};')
buffer, delivered = b"", None
while delivered is None:
    buffer += gpsd.recv(65536)
    while delivered is None and b"\n" in buffer:
        line, buffer = buffer.split(b"\n", 1)
        try:
            report = json.loads(line)
        except ValueError:
            continue
        if report.get("class") == "TPV" and report.get("mode", 0) >= 2:
            delivered = time.monotonic()
store = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
while store.execute("SELECT count(*) FROM engine_state").fetchone()[0] == 0:
    time.sleep(0.0005)
print(f"{(time.monotonic() - delivered) * 1000:.0f}")
PY
}

declare -A daemon_pid logger_pid gpsd_pid latency_file
for rate in 1 10; do
    dir="$work/$rate"
    mkdir -p "$dir"
    chmod 755 "$dir"
    port=$(free_port)
    socat "pty,raw,echo=0,link=$dir/gps0,perm=0666" "pty,raw,echo=0,link=$dir/feeder" &
    pids+=($!)
    for _ in $(seq 100); do [[ -e $dir/feeder ]] && break; sleep 0.05; done
    gpsd -N -n -b -s 38400 -f 8N1 -S "$port" -F "$dir/gpsd.sock" "$dir/gps0" 2>/dev/null &
    gpsd_pid[$rate]=$!
    pids+=($!)
    for _ in $(seq 100); do python3 -c "import socket; socket.create_connection(('127.0.0.1', $port))" 2>/dev/null && break; sleep 0.05; done
    printf '[Control]\nSocket=%s/control\n' "$dir" >"$dir/travel-companion.conf"
    "$bin/travel-companiond" run --config "$dir/travel-companion.conf" --db "$dir/travel.sqlite" \
        --source "gpsd://127.0.0.1:$port" 2>"$dir/daemon.log" &
    daemon_pid[$rate]=$!
    pids+=($!)
    gpxlogger -e sockets -f "$dir/track.gpx" "127.0.0.1:$port" 2>/dev/null &
    logger_pid[$rate]=$!
    pids+=($!)
    for _ in $(seq 100); do [[ -e $dir/travel.sqlite ]] && break; sleep 0.05; done
    latency_file[$rate]="$dir/latency"
    first_fix_latency "$port" "$dir/travel.sqlite" >"$dir/latency" &
    pids+=($!)
    # The receiver starts talking once everyone listens, a minute before the bus leaves its stop.
    python3 scripts/feed-nmea.py "$dir/feeder" "$track" "$rate" 2 230 &
    pids+=($!)
done

echo "logging a live feed at 1 Hz and 10 Hz for $duration s (+ $warmup s warm-up)..."
sleep "$warmup"
declare -A before
for rate in 1 10; do
    for who in daemon logger gpsd; do
        var="${who}_pid[$rate]"
        before[$who$rate]=$(sample "${!var}")
    done
done
sleep "$duration"
hz=$(getconf CLK_TCK)
printf '\n%-5s %-20s %12s %14s %16s %16s\n' rate process "peak RSS" "CPU (1 core)" "written/hour" "write() bytes/h"
for rate in 1 10; do
    for who in daemon logger gpsd; do
        var="${who}_pid[$rate]"
        read -r t0 _ w0 c0 <<<"${before[$who$rate]}"
        read -r t1 rss w1 c1 <<<"$(sample "${!var}")"
        name=$([[ $who == daemon ]] && echo travel-companiond || ([[ $who == logger ]] && echo gpxlogger || echo "gpsd (shared)"))
        awk -v r="$rate" -v n="$name" -v rss="$rss" -v dt="$((t1 - t0))" -v hz="$hz" -v d="$duration" \
            -v w="$((w1 - w0))" -v c="$((c1 - c0))" \
            'BEGIN { printf "%-5s %-20s %9.1f MiB %13.3f%% %12.0f KiB %12.0f KiB\n", r " Hz", n, rss / 1024, 100 * dt / hz / d, w * 3600 / d / 1024, c * 3600 / d / 1024 }'
    done
done
for rate in 1 10; do
    dir="$work/$rate"
    kill -TERM "${daemon_pid[$rate]}" "${logger_pid[$rate]}" 2>/dev/null || true
done
sleep 1
for rate in 1 10; do
    dir="$work/$rate"
    points=$(sqlite3 "$dir/travel.sqlite" "SELECT count(*) FROM route_points")
    trkpts=$(grep -c "<trkpt" "$dir/track.gpx" || true)
    echo "$rate Hz: first fix stored $(cat "${latency_file[$rate]}" 2>/dev/null || echo '?') ms after gpsd delivered it;" \
        "travel-companiond stored $points route points, gpxlogger $trkpts track points;" \
        "database $(du -k "$dir/travel.sqlite" | cut -f1) KiB, GPX $(du -k "$dir/track.gpx" | cut -f1) KiB"
done
