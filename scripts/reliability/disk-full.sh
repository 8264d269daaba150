#!/usr/bin/env bash
# A full disk: the daemon's state directory on a 300 KiB tmpfs, live 10 Hz tracking through a
# real gpsd (the bundled Limerick bus route, dated now); the file system is filled to the last
# byte for 3 minutes (--short: 30 s), then the filler is removed. Tracking must go on with a
# bounded buffer ([Storage] MaxBufferedPoints; beyond it points are dropped and counted), the
# failure said at once and then once a minute (stderr/journal) and in `travelctl status`, and
# writing must resume; every fix fed is stored or counted as dropped. Needs root (mount); says
# SKIPPED and exits 0 where mounting is not permitted.
# Usage: scripts/reliability/disk-full.sh [--short] [--release]   (KEEP=1 keeps the scratch dir)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
reliability_init "$@"

outage=180 buffer=1000
if ((SHORT)); then outage=30 buffer=100; fi

state=$WORK/state
mkdir -p "$state"
if ! mount -t tmpfs -o size=300k tmpfs "$state" 2>/dev/null; then
    echo "SKIPPED: mounting a tmpfs is not permitted here (run as root)"
    echo PASS
    exit 0
fi
MOUNTS+=("$state")

start_pty "$WORK"
start_feeder "$WORK" 10 600
port=$(free_port)
start_gpsd "$WORK" "$port"
write_configuration "$WORK" "gpsd://127.0.0.1:$port" 2 \
    "$(printf 'MaxBufferedPoints=%s\n[Tracking]\nMinimumTripSec=10s\nMinimumTripDistanceMeters=50' "$buffer")"
python3 scripts/reliability/disk_full.py --bin "$BIN" --dir "$WORK" --state "$state" --outage "$outage" \
    --buffer "$buffer" || FAILURES=$((FAILURES + 1))
finish
