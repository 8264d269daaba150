#!/usr/bin/env bash
# Times `travelctl import` of a year of 1 Hz driving (2.6 M fixes of real tracks replayed day
# after day, as NMEA) end to end into SQLite, and SQLite's own raw insert rate on the same
# machine in the same run, so the ratio is honest. Usage: scripts/bench-import.sh [FIXES]
set -euo pipefail
cd "$(dirname "$0")/.."
fixes=${1:-2600000}
scratch=${SCRATCH:-.build}
command -v sqlite3 >/dev/null || scripts/setup.sh
[[ -x /usr/bin/time ]] || { apt-get install -y -qq time >/dev/null; }

swift build -c release --scratch-path "$scratch" --product travelctl >/dev/null
swift build -c release --scratch-path "$scratch" --product travel-benchmarks >/dev/null
bin=$(swift build -c release --scratch-path "$scratch" --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$bin/travel-benchmarks" make-drives "$work/year.nmea" --fixes "$fixes"
sync

echo "== travelctl import (decode + filter + trip detection + SQLite, SHA-256 on the other core)"
/usr/bin/time -f "%e %U %S %M" -o "$work/time" "$bin/travelctl" --db "$work/travel.sqlite" import "$work/year.nmea"
read -r wall user sys rss <"$work/time"
points=$(sqlite3 "$work/travel.sqlite" "SELECT count(*) FROM route_points")
echo "wall ${wall} s, CPU ${user} user + ${sys} sys, max RSS ${rss} KiB, ${points} route points stored"
awk -v f="$fixes" -v w="$wall" -v u="$user" -v s="$sys" \
    'BEGIN { printf "import: %.0f fixes/s (wall), %.0f fixes per CPU second\n", f / w, f / (u + s) }'

echo "== sqlite3 raw insert of the same number of rows (one transaction, same page size)"
/usr/bin/time -f "%e" -o "$work/time.raw" sqlite3 "$work/raw.sqlite" >/dev/null <<SQL
PRAGMA page_size = 1024; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
CREATE TABLE p (t_ms INTEGER PRIMARY KEY, trip INTEGER, lat REAL, lon REAL, alt REAL, speed REAL, track REAL, err REAL);
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $fixes)
INSERT INTO p SELECT i * 1000, i / 3000, 52.6 + i * 1e-7, -8.6 + i * 1e-7, 20.0, 8.5, 91.0, NULL FROM n;
COMMIT;
SQL
raw=$(cat "$work/time.raw")
awk -v f="$fixes" -v r="$raw" -v w="$wall" \
    'BEGIN { printf "sqlite3 raw insert: %.0f rows/s; travelctl import runs at %.0f%% of it\n", f / r, 100 * (f / w) / (f / r) }'
