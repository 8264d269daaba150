#!/usr/bin/env bash
# Load: the daemon tracks a live 10 Hz feed through a real gpsd (the bundled Limerick bus route,
# dated now) for 10 minutes (--short: 40 s) while 100 control clients use its socket (50
# subscribed to events, 50 asking Status and ListTrips in a loop), `travelctl export` runs again
# and again and 50 000 POIs are imported through the socket; the daemon runs under systemd's
# watchdog protocol (NOTIFY_SOCKET, WATCHDOG_USEC=2 s). No fix may be missed, no WATCHDOG=1 comes
# late and memory stays bounded: the RSS grows by at most 2 MiB over the last half of the run.
# Usage: scripts/reliability/load.sh [--short] [--release]   (LOAD_SECONDS=N for another length;
# LOAD_OPTIONS='--without exports --memory-log FILE' leaves a part of the load out and logs memory)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
reliability_init "$@"

seconds=${LOAD_SECONDS:-600}
if ((SHORT)); then seconds=40; fi
start_pty "$WORK"
start_feeder "$WORK" 10 600
port=$(free_port)
start_gpsd "$WORK" "$port"
write_configuration "$WORK" "gpsd://127.0.0.1:$port" 10 \
    "$(printf '[Tracking]\nMinimumTripSec=10s\nMinimumTripDistanceMeters=50\n[Control]\nMaxConnections=128')"
python3 scripts/reliability/load.py --bin "$BIN" --dir "$WORK" --seconds "$seconds" ${LOAD_OPTIONS:-} || FAILURES=$((FAILURES + 1))
finish
