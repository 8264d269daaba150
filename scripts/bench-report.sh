#!/usr/bin/env bash
# `travelctl report` on a generated year (700 trips, ≈ 1 M route points on winding roads):
# in-process document and page times, the page's size, travelctl end to end, and Chromium
# opening the page (headless, no network). Goals (issue 16): ≤ 2 s to generate, ≤ 5 MB of
# HTML, open in Chromium in ≤ 3 s.
#
# Usage: scripts/bench-report.sh
# Environment: REPORT_DB (the generated database, made once and kept; default
#   /var/tmp/travelcompanion-report-year.sqlite), RUNS (default 5), SCRATCH (SwiftPM scratch path).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null && [[ -x /opt/swift/usr/bin/swift ]]; then PATH=/opt/swift/usr/bin:$PATH; fi
db=${REPORT_DB:-/var/tmp/travelcompanion-report-year.sqlite}
runs=${RUNS:-5}
scratch=${SCRATCH:-.build}

swift build -c release --scratch-path "$scratch" --product travelctl >/dev/null
swift build -c release --scratch-path "$scratch" --product report-benchmarks >/dev/null
bin=$(swift build -c release --scratch-path "$scratch" --show-bin-path)

if [[ ! -s $db ]]; then
    echo "== generating a year of history into $db (once; delete it to make it again)"
    rm -f "$db" "$db-wal" "$db-shm"
    "$bin/report-benchmarks" make "$db"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '[Journeys]\nHome=45.28310, 13.72120\n' >"$work/travel-companion.conf"
echo "== database: $(sqlite3 "$db" 'SELECT count(*) FROM trips') trips, \
$(sqlite3 "$db" 'SELECT count(*) FROM route_points') route points, \
$(sqlite3 "$db" 'SELECT count(*) FROM journeys') journeys"

echo "== in-process, best and median of $runs"
"$bin/report-benchmarks" run "$db" --runs "$runs" --output "$work/inprocess.html"

echo "== travelctl --db report --output (process end to end), best of $runs (goal <= 2000 ms)"
best=
for _ in $(seq "$runs"); do
    start=$(date +%s%N)
    "$bin/travelctl" report --db "$db" --config "$work/travel-companion.conf" --output "$work/report.html"
    elapsed=$((($(date +%s%N) - start) / 1000000))
    [[ -z $best || $elapsed -lt $best ]] && best=$elapsed
done
size=$(stat -c %s "$work/report.html")
echo "   ${best} ms; page $size bytes ($((size / 1000)) kB; goal <= 5000 kB)"

echo "== Chromium opening the page, headless, no network, best of $runs (goal <= 3000 ms)"
# Wall time of a whole headless run (start, parse, scripts, load event, DOM dump, exit), and the
# page's own performance.now() when its script has drawn everything.
unshare_net=()
unshare -n true 2>/dev/null && unshare_net=(unshare -n)
best=
drawn=
for _ in $(seq "$runs"); do
    start=$(date +%s%N)
    "${unshare_net[@]}" chromium --headless --no-sandbox --disable-gpu --no-first-run \
        --user-data-dir="$work/profile" --proxy-server=127.0.0.1:9 --host-resolver-rules='MAP * ~NOTFOUND' \
        --window-size=1280,1000 --dump-dom "file://$work/report.html" 2>/dev/null >"$work/dom.html"
    elapsed=$((($(date +%s%N) - start) / 1000000))
    ms=$(grep -o '"drawn_after_ms":[0-9]*' "$work/dom.html" | cut -d: -f2)
    [[ -n $ms ]] || { echo "FAIL: the page's scripts did not finish"; exit 1; }
    [[ -z $best || $elapsed -lt $best ]] && best=$elapsed
    [[ -z $drawn || $ms -lt $drawn ]] && drawn=$ms
done
echo "   whole run ${best} ms; page drawn ${drawn} ms after navigation start"
grep -o '"resources":\[[^]]*\]' "$work/dom.html"
