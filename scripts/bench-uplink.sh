#!/usr/bin/env bash
# The uplink (issue 17): how fast a backlog drains to a local mosquitto, the bytes each point costs
# on the wire, and the RSS the MQTT uplink adds; beside it, in the same run, mosquitto's own
# client (mosquitto_pub -l, QoS 1) publishing the very same payloads, for an honest ratio.
#
# The backlog: the bundled bus ride imported ten times, a day apart (ten days offline, 21 440
# points). A daemon with [MQTT] (thinning off, so every point is a message) and no fixes to read
# (a gpsd port nobody listens on) sends it; the drain's time is from the daemon's start until
# `travelctl status` reports no backlog.
#
# Usage: scripts/bench-uplink.sh
# Environment: CONFIGURATION (release, or debug for a quick look; default release), DAYS (copies
#   of the ride, default 10), INFLIGHT (the window, default 20), SCRATCH (SwiftPM scratch path).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null && [[ -x /opt/swift/usr/bin/swift ]]; then PATH=/opt/swift/usr/bin:$PATH; fi
scratch=${SCRATCH:-.build}
configuration=${CONFIGURATION:-release}
days=${DAYS:-10}
inflight=${INFLIGHT:-20}

swift build -c "$configuration" --scratch-path "$scratch" --product travel-companiond >/dev/null
swift build -c "$configuration" --scratch-path "$scratch" --product travelctl >/dev/null
bin=$(swift build -c "$configuration" --scratch-path "$scratch" --show-bin-path)

work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; done
    rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
rss_kib() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; }
now() { date +%s.%N; }

ride=Tests/Fixtures/tracks/limerick-bus-304-2019-02-18.gpx
for day in $(seq 1 "$days"); do
    sed "s/2019-02-18T/2019-03-$(printf %02d "$day")T/g" "$ride" >"$work/ride-$day.gpx"
done
"$bin/travelctl" --db "$work/travel.sqlite" import "$work"/ride-*.gpx >/dev/null
points=$(sqlite3 "$work/travel.sqlite" "SELECT count(*) FROM route_points")

broker=$(free_port)
printf 'listener %s 127.0.0.1\nallow_anonymous true\nmax_queued_messages 0\n%s\n' "$broker" \
    "$([[ $(id -u) -eq 0 ]] && echo 'user root')" >"$work/mosquitto.conf"
mosquitto -c "$work/mosquitto.conf" 2>/dev/null &
pids+=($!)
sleep 0.5
mosquitto_sub -h 127.0.0.1 -p "$broker" -q 1 -t 'owntracks/#' -v >"$work/received" &
pids+=($!)
sleep 0.3

control=$work/control
printf '[Control]\nSocket=%s\n[MQTT]\nURL=mqtt://127.0.0.1:%s\nTopic=owntracks/bench/van\nMinIntervalSec=0\nMinDistanceM=0\nInFlight=%s\n' \
    "$control" "$broker" "$inflight" >"$work/uplink.conf"
printf '[Control]\nSocket=%s\n' "$control" >"$work/plain.conf"
idle="gpsd://127.0.0.1:$(free_port)"

# The daemon without an uplink on the same database, for the RSS it has anyway.
cp "$work/travel.sqlite" "$work/plain.sqlite"
"$bin/travel-companiond" run --config "$work/plain.conf" --db "$work/plain.sqlite" --source "$idle" 2>/dev/null &
plain=$!
until "$bin/travelctl" status --socket "$control" >/dev/null 2>&1; do sleep 0.05; done
sleep 2
plain_rss=$(rss_kib "$plain")
kill "$plain"
wait "$plain" 2>/dev/null || true

start=$(now)
"$bin/travel-companiond" run --config "$work/uplink.conf" --db "$work/travel.sqlite" --source "$idle" 2>"$work/daemon.log" &
daemon=$!
pids+=($daemon)
# Watched at the subscriber, not through status, whose every call commits first.
expected=$((points + $(sqlite3 "$work/travel.sqlite" "SELECT count(*) FROM trips WHERE end_reason IS NOT NULL")))
until (($(wc -l <"$work/received") >= expected)); do sleep 0.01; done
drained=$(now)
"$bin/travelctl" status --socket "$control" | grep Uplink
sleep 2
uplink_rss=$(rss_kib "$daemon")
received=$(wc -l <"$work/received")

# The peer: mosquitto_pub sending the same payloads, one per line, QoS 1, on the same broker.
cut -d' ' -f2- "$work/received" >"$work/payloads"
peer_start=$(now)
mosquitto_pub -h 127.0.0.1 -p "$broker" -q 1 -t owntracks/bench/peer -l <"$work/payloads"
peer_end=$(now)

# Bytes on the wire per message, MQTT 3.1.1: PUBLISH fixed header (2–3 bytes), topic length (2),
# topic, packet id (2), payload; PUBACK 4. TCP/IP headers aside.
bytes=$(awk '{ topic = length($1); payload = length($0) - topic - 1; body = 2 + topic + 2 + payload;
    total += body + (body < 128 ? 2 : 3) + 4 } END { printf "%.0f", total / NR }' "$work/received")
awk -v n="$received" -v a="$start" -v b="$drained" -v c="$peer_start" -v d="$peer_end" -v p="$points" \
    -v r0="$plain_rss" -v r1="$uplink_rss" -v w="$bytes" -v i="$inflight" 'BEGIN {
    printf "FIGURE uplink.backlog=%d route points (%d messages received)\n", p, n
    printf "FIGURE uplink.drain=%.0f messages/s (window %d, from the daemon'"'"'s start)\n", n / (b - a), i
    printf "FIGURE uplink.peer_mosquitto_pub=%.0f messages/s\n", n / (d - c)
    printf "FIGURE uplink.ratio=%.2f daemon/mosquitto_pub\n", (n / (b - a)) / (n / (d - c))
    printf "FIGURE uplink.bytes_per_point=%d bytes on the wire (PUBLISH and PUBACK)\n", w
    printf "FIGURE uplink.rss=%d kB with the uplink, %d kB without (+%d kB)\n", r1, r0, r1 - r0
}'
