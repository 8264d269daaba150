#!/usr/bin/env bash
# Power cuts: the daemon tracks a live 10 Hz feed (the bundled Limerick bus route, dated now)
# through a real gpsd on a socat pty and is SIGKILLed at random moments, 200 times (--short: 15).
# After each kill, on what a restart would find (the database and its WAL): PRAGMA
# integrity_check is ok, no fix older than the flush interval was lost, no trip lost or
# duplicated, and the trip in progress goes on after the restart. In each run a torn copy of
# database + WAL + SHM is taken at a random instant (copied while the daemon writes, or with it
# frozen by SIGSTOP) and checked too. Last, the power-cut window of a real file system: ext4 on
# a loop device, the image copied at random instants (what a power cut leaves on the card,
# kernel writeback included), with the fsync calls counted by strace.
# Usage: scripts/reliability/power-cut.sh [--short] [--release]   (KEEP=1 keeps the scratch dir)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
reliability_init "$@"

cycles=200 flush=5 sd_seconds=120 sd_cuts=20
if ((SHORT)); then cycles=15 flush=1 sd_seconds=10 sd_cuts=2; fi

start_pty "$WORK"
start_feeder "$WORK" 10 600
port=$(free_port)
start_gpsd "$WORK" "$port"
# Trips announced after 10 s and 50 m (not 60 s and 300 m), so the cycles start sooner.
write_configuration "$WORK" "gpsd://127.0.0.1:$port" "$flush" \
    "$(printf '[Tracking]\nMinimumTripSec=10s\nMinimumTripDistanceMeters=50')"
sd=()
if [[ $(id -u) == 0 ]]; then
    sd=(--sd-seconds "$sd_seconds" --sd-cuts "$sd_cuts")
else
    echo "SKIPPED: the SD-card window needs root (a loop device and mount)"
fi
python3 scripts/reliability/power_cut.py --bin "$BIN" --dir "$WORK" --cycles "$cycles" --flush "$flush" \
    "${sd[@]}" ${SEED:+--seed "$SEED"} || FAILURES=$((FAILURES + 1))
finish
