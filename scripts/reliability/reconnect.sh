#!/usr/bin/env bash
# Source faults, each 100 times (--short: 5), against a daemon tracking a live 10 Hz feed (the
# bundled Limerick bus route, dated now): gpsd killed (SIGTERM or SIGKILL) and restarted on the
# same port — the daemon must be connected again within 2 s of gpsd accepting connections; and
# the serial device unplugged and replugged (the socat pty removed and made again at the same
# path), read directly by the daemon — no fix fed while the device was there may be lost.
# Usage: scripts/reliability/reconnect.sh [--short] [--release]   (KEEP=1 keeps the scratch dir)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
reliability_init "$@"

cycles=100
if ((SHORT)); then cycles=5; fi
python3 scripts/reliability/reconnect.py --bin "$BIN" --dir "$WORK" --cycles "$cycles" ${SEED:+--seed "$SEED"} ||
    FAILURES=$((FAILURES + 1))
finish
