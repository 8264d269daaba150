#!/usr/bin/env bash
# SD-card wear: page-level bytes written per hour by travel-companiond and by gpsd's own logger,
# gpxlogger, logging the same real gpsd in the same run, at 1 Hz and at 10 Hz (one gpsd per rate,
# both rates at once). Each gpsd reads a socat pty that scripts/feed-nmea.py fills with a bundled
# bus route (RMC + GGA + GSA epochs dated now).
#
# What is counted: /proc/PID/io write_bytes of each logger over the same window, which is the
# bytes of page-cache pages it dirtied, that is what the kernel's writeback will send to the card
# (a 4 KiB page appended to twice within a writeback pass counts once, as on the card). For the
# daemon this includes its route spool (travel.sqlite-spool, appended at each flush), its WAL
# frames, its wal-index (-shm, a shared mapping) and any automatic checkpoint it ran. A checkpoint is forced (`PRAGMA wal_checkpoint(FULL)`, by a helper whose own
# write_bytes is counted as the daemon's) just before the window, so the WAL holds nothing from
# before it, and just after, so the database pages the window's frames will be copied to are
# counted too: one checkpoint per window, where the daemon alone checkpoints about once an hour,
# so the figure is an upper bound. gpxlogger flushes its GPX file at every fix; the daemon
# flushes every FlushIntervalSec (10 s by default) and commits every CommitIntervalSec (15 min):
# both leave the data to the kernel's writeback.
#
# The state directory must be on a block-backed file system: on tmpfs or overlay write_bytes stays
# 0, so then (as root) the script mounts a 256 MiB ext4 loop device for it.
#
# Window: 1800 s per rate (both rates run at once, two commits in each); WINDOW=SECONDS sets
# another. Goal: at 1 Hz the daemon writes no more than gpxlogger (ratio <= 1.00). Also reported:
# points each logged in the window. --short (CI): a 60 s window, which holds no commit and only a
# couple of writeback passes, too few to compare bytes fairly: it checks that both loggers log
# every fix and prints the figures, and the goal is checked by full runs only.
# UPLINK=1 adds a third 1 Hz run ("1u") whose daemon also sends every point to a local mosquitto
# broker ([MQTT], thinning off: the cursor moves at every flush), and reports its bytes against the
# plain 1 Hz daemon's of the same run (goal: at most 5 % more, issue 17).
# Usage: scripts/reliability/sd-wear.sh [--short] [--release]   (KEEP=1 keeps the files)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
reliability_init "$@"
window=${WINDOW:-$((SHORT ? 60 : 1800))}
command -v gpxlogger >/dev/null || scripts/setup.sh

# Bytes of pages a process dirtied writing 64 KiB into a file in DIR: 0 on tmpfs and overlay.
dirtied_in() {
    python3 - "$1" <<'PY'
import os, sys
path = os.path.join(sys.argv[1], "probe")
with open(path, "wb") as f:
    f.write(b"x" * 65536)
print(next(int(l.split()[1]) for l in open("/proc/self/io") if l.startswith("write_bytes")))
os.remove(path)
PY
}
state=$WORK/state
mkdir -p "$state"
if [[ $(dirtied_in "$state") -eq 0 ]]; then
    if [[ $(id -u) -ne 0 ]]; then
        echo "FAIL: $state is on a file system without write accounting (tmpfs, overlay); run as root for a loop device" >&2
        exit 1
    fi
    truncate -s 256M "$WORK/ext4.img"
    mkfs.ext4 -q "$WORK/ext4.img"
    mount -o loop "$WORK/ext4.img" "$state"
    MOUNTS+=("$state")
fi
chmod 755 "$state"
echo "state on $(df --output=fstype "$state" | tail -1), window $window s per rate"

written() { awk '/^write_bytes/ { print $2 }' "/proc/$1/io"; }
# Checkpoints DB completely; prints the bytes of pages that dirtied and the WAL frames it copied.
checkpoint() {
    python3 - "$1" <<'PY'
import sqlite3, sys
store = sqlite3.connect(sys.argv[1], timeout=30)
busy, frames, copied = store.execute("PRAGMA wal_checkpoint(FULL)").fetchone()
store.close()
if busy:
    sys.exit("the checkpoint could not complete")
print(next(int(l.split()[1]) for l in open("/proc/self/io") if l.startswith("write_bytes")), frames)
PY
}
# Route points flushed: committed, or in the spool (32 bytes a point) waiting for the next commit.
route_points() {
    local committed spooled
    committed=$(sqlite3 "file:$1?mode=ro" "SELECT count(*) FROM route_points" 2>/dev/null || echo 0)
    spooled=$(($(stat -c %s "$1-spool" 2>/dev/null || echo 0) / 32))
    echo $((committed + spooled))
}
trackpoints() { grep -c "<trkpt" "$1" 2>/dev/null || echo 0; }

declare -A daemon_pid logger_pid
rates=(1 10)
if [[ ${UPLINK:-0} == 1 ]]; then
    rates+=(1u)
    broker_port=$(free_port)
    mkdir -p "$WORK/broker"
    printf 'listener %s 127.0.0.1\nallow_anonymous true\n%s\n' "$broker_port" \
        "$([[ $(id -u) -eq 0 ]] && echo 'user root')" >"$WORK/broker/mosquitto.conf"
    mosquitto -c "$WORK/broker/mosquitto.conf" 2>/dev/null &
    PIDS+=($!)
fi
for rate in "${rates[@]}"; do
    dir="$state/$rate"
    mkdir -p "$dir"
    chmod 755 "$dir"
    port=$(free_port)
    start_pty "$dir"
    start_gpsd "$dir" "$port"
    config=()
    if [[ $rate == 1u ]]; then
        printf '[MQTT]\nURL=mqtt://127.0.0.1:%s\nTopic=owntracks/wear/van\nMinIntervalSec=0\nMinDistanceM=0\n' \
            "$broker_port" >"$dir/uplink.conf"
        config=(--config "$dir/uplink.conf")
    fi
    "$BIN/travel-companiond" run "${config[@]}" --socket "$dir/control" --source "gpsd://127.0.0.1:$port" \
        --db "$dir/travel.sqlite" 2> >(cat >"$dir/daemon.log") &
    daemon_pid[$rate]=$!
    PIDS+=($!)
    gpxlogger -e sockets -f "$dir/track.gpx" "127.0.0.1:$port" 2>/dev/null &
    logger_pid[$rate]=$!
    PIDS+=($!)
    # From 240 s into the route, where the bus drives off: a trip starts within seconds.
    python3 scripts/feed-nmea.py "$dir/feeder" "$TRACK" "${rate%u}" 1 240 &
    PIDS+=($!)
done

# Warm-up: both loggers have written points, the daemon's trip is under way (its first points
# are the backlog since the bus drove off, written when the trip is confirmed).
for _ in $(seq 600); do
    ready=1
    for rate in "${rates[@]}"; do
        [[ $(route_points "$state/$rate/travel.sqlite") -gt 0 && $(trackpoints "$state/$rate/track.gpx") -gt 0 ]] || ready=0
    done
    [[ $ready -eq 1 ]] && break
    sleep 0.1
done
sleep 15

declare -A d0 l0 p0 g0 ckpt frames ours theirs points logged
for rate in "${rates[@]}"; do
    checkpoint "$state/$rate/travel.sqlite" >/dev/null
    d0[$rate]=$(written "${daemon_pid[$rate]}")
    l0[$rate]=$(written "${logger_pid[$rate]}")
    p0[$rate]=$(route_points "$state/$rate/travel.sqlite")
    g0[$rate]=$(trackpoints "$state/$rate/track.gpx")
done
# Pages the whole machine wrote back: how busy writeback was. Under heavy writing elsewhere (a
# build) the kernel writes dirty pages back sooner than every 30 s, so each logger dirties a page
# more often and both figures rise; compare runs at a similar machine-wide figure.
machine_written() { awk '/^nr_written / { print $2 }' /proc/vmstat; }
m0=$(machine_written)
sleep "$window"
m1=$(machine_written)
echo "FIGURE sd_wear.machine_written=$(((m1 - m0) * 4096 * 3600 / window / 1000000)) MB/h (all processes, context)"
for rate in "${rates[@]}"; do
    d1=$(written "${daemon_pid[$rate]}")
    l1=$(written "${logger_pid[$rate]}")
    read -r "ckpt[$rate]" "frames[$rate]" <<<"$(checkpoint "$state/$rate/travel.sqlite")"
    ours[$rate]=$(((d1 - d0[$rate] + ckpt[$rate]) * 3600 / window))
    theirs[$rate]=$(((l1 - l0[$rate]) * 3600 / window))
    points[$rate]=$(($(route_points "$state/$rate/travel.sqlite") - p0[$rate]))
    logged[$rate]=$(($(trackpoints "$state/$rate/track.gpx") - g0[$rate]))
done

for rate in "${rates[@]}"; do
    name="sd_wear.${rate}hz"
    echo "FIGURE $name.window=$window s"
    echo "FIGURE $name.daemon_points=${points[$rate]} points"
    echo "FIGURE $name.gpxlogger_points=${logged[$rate]} points"
    echo "FIGURE $name.daemon_wal_frames=$((frames[$rate] * 3600 / window)) frames/h"
    echo "FIGURE $name.daemon_checkpoint=$((ckpt[$rate] * 3600 / window)) bytes/h"
    echo "FIGURE $name.daemon=${ours[$rate]} bytes/h"
    echo "FIGURE $name.gpxlogger=${theirs[$rate]} bytes/h"
    ratio=$(awk -v a="${ours[$rate]}" -v b="${theirs[$rate]}" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
    echo "FIGURE $name.ratio=$ratio daemon/gpxlogger"
    if [[ ${points[$rate]} -le 0 || ${logged[$rate]} -le 0 || ${theirs[$rate]} -le 0 ]]; then
        check_failed "$rate Hz: a logger wrote nothing in the window"
    fi
done
if [[ ${UPLINK:-0} == 1 ]]; then
    ratio=$(awk -v a="${ours[1u]}" -v b="${ours[1]}" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
    echo "FIGURE sd_wear.uplink_ratio=$ratio daemon with the MQTT uplink / without"
fi
if ((SHORT)); then
    echo "the 1 Hz goal is checked by full runs only (a ${window} s window holds no commit)"
elif awk -v a="${ours[1]}" -v b="${theirs[1]}" 'BEGIN { exit !(a <= b) }'; then
    echo "ok   1 Hz: the daemon writes no more than gpxlogger"
else
    check_failed "1 Hz: the daemon writes more than gpxlogger"
fi
finish
