#!/usr/bin/env bash
# Decode throughput of our NMEA decoder against gpsd's gpsdecode and pynmea2, on one core each,
# in one run on the same input: the gpsd-nmea corpus without comment lines, repeated to ~100 MB.
#
# Usage: scripts/bench-decode.sh
# Environment: MEGABYTES (input size, default 100), RUNS (in-memory decoder runs, default 11, as
#   single runs on shared virtual cores vary a lot), PYNMEA2_LINES (pynmea2 decodes only this
#   prefix of the input, default 200000), SCRATCH (SwiftPM scratch path, default .build).
# Installs what is missing (gpsd-clients, time, a venv with pynmea2) with apt-get and pip.
set -euo pipefail
shopt -s inherit_errexit

cd "$(dirname "$0")/.."
megabytes=${MEGABYTES:-100}
runs=${RUNS:-11}
pynmea2_lines=${PYNMEA2_LINES:-200000}
scratch=${SCRATCH:-.build}

as_root() {
    if [[ $EUID -eq 0 ]]; then "$@"; else sudo "$@"; fi
}

apt_updated=false
apt_install() {
    if ! $apt_updated; then
        as_root apt-get update -qq
        apt_updated=true
    fi
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# --- Tools ---------------------------------------------------------------------------------------
if ! command -v swift >/dev/null && [[ -x /opt/swift/usr/bin/swift ]]; then
    PATH=/opt/swift/usr/bin:$PATH
fi
command -v swift >/dev/null || { echo "bench-decode: swift is not on PATH" >&2; exit 1; }
command -v gpsdecode >/dev/null || apt_install gpsd-clients
[[ -x /usr/bin/time ]] || apt_install time

# pynmea2 in a venv of Debian's own Python (a fresh Debian 12 has no other; a pyenv build ran
# pynmea2 1.5x slower, which would flatter us).
[[ -x /usr/bin/python3 ]] || apt_install python3
venv=$scratch/bench-venv
if ! "$venv/bin/python" -c 'import pynmea2' 2>/dev/null; then
    /usr/bin/python3 -c 'import ensurepip' 2>/dev/null || apt_install python3-venv
    /usr/bin/python3 -m venv "$venv"
    "$venv/bin/pip" install -q pynmea2
fi

if command -v taskset >/dev/null && taskset -c 0 true 2>/dev/null; then
    pin=(taskset -c 0)
    pinning="pinned to CPU 0 with taskset"
else
    pin=()
    pinning="NOT pinned (taskset unavailable): the OS may move tools between cores"
fi

# --- Build and input -----------------------------------------------------------------------------
echo "== building travel-benchmarks and travelctl (release, scratch path $scratch)"
swift build -c release --scratch-path "$scratch" --product travel-benchmarks
swift build -c release --scratch-path "$scratch" --product travelctl
bin=$(swift build -c release --scratch-path "$scratch" --show-bin-path)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
input=$tmp/input.nmea
"$bin/travel-benchmarks" make-input "$input" --megabytes "$megabytes"
head -n "$pynmea2_lines" "$input" >"$tmp/prefix.nmea"

# Prints the user + system CPU seconds of a command; its output goes to /dev/null.
cpu_seconds() {
    /usr/bin/time -f '%U %S' -o "$tmp/time" "${pin[@]}" "$@" >/dev/null
    awk '{ printf "%.2f", $1 + $2 }' "$tmp/time"
}

# Prints the value of key $2 in the `result: key=value …` line of file $1.
result() {
    sed -n 's/^result: .*\b'"$2"'=\([^ ]*\).*/\1/p' "$1"
}

# --- Runs ----------------------------------------------------------------------------------------
echo "== NMEADecoder in memory, $runs runs ($pinning)"
"${pin[@]}" "$bin/travel-benchmarks" nmea "$input" --runs "$runs" | tee "$tmp/ours"
sentences=$(result "$tmp/ours" units)
ours_best=$(result "$tmp/ours" best_cpu_s)
ours_median=$(result "$tmp/ours" median_cpu_s)

echo "== travelctl decode --from nmea FILE > /dev/null"
travelctl_cpu=$(cpu_seconds "$bin/travelctl" decode --from nmea "$input")

echo "== $(gpsdecode -V 2>&1) < FILE > /dev/null"
gpsdecode_cpu=$(cpu_seconds gpsdecode <"$input")

echo "== pynmea2 on the first $pynmea2_lines lines"
"${pin[@]}" "$venv/bin/python" scripts/pynmea2_decode.py "$tmp/prefix.nmea" | tee "$tmp/pynmea2"
pynmea2_sentences=$(result "$tmp/pynmea2" lines)
pynmea2_cpu=$(result "$tmp/pynmea2" cpu_s)

# --- Table ---------------------------------------------------------------------------------------
echo
echo "== Decode throughput, one core: $(wc -c <"$input") bytes of NMEA, $sentences sentences"
row() {
    awk -v tool="$1" -v n="$2" -v cpu="$3" -v ours="$ours_median" -v ours_n="$sentences" 'BEGIN {
        printf "%-42s %10d %9.3f %13.0f %9.1f\n", tool, n, cpu, n / cpu, (cpu / n) / (ours / ours_n)
    }'
}
printf '%-42s %10s %9s %13s %9s\n' tool sentences "CPU s" sentences/s "x ours"
row "NMEADecoder in memory (median run)" "$sentences" "$ours_median"
row "NMEADecoder in memory (best run)" "$sentences" "$ours_best"
row "travelctl decode > /dev/null (ours, CLI)" "$sentences" "$travelctl_cpu"
row "gpsdecode > /dev/null" "$sentences" "$gpsdecode_cpu"
row "pynmea2 (first $pynmea2_lines lines only)" "$pynmea2_sentences" "$pynmea2_cpu"
cat <<EOF

"x ours": the tool's CPU time per sentence divided by NMEADecoder's median run (so gpsdecode's
figure is how many times faster our decoder is). Sentences: what NMEADecoder framed in the whole
input (statistics.sentences), which travelctl and gpsdecode read too; for pynmea2, the non-empty
lines of its prefix. CPU is user + sys: getrusage in travel-benchmarks, /usr/bin/time for travelctl
and gpsdecode (whole process: read, decode, write JSON; gpsdecode also decodes AIS payloads), and
time.process_time around pynmea2's parse loop (no start-up, no file reading). End to end, travelctl
used $(awk -v a="$travelctl_cpu" -v b="$gpsdecode_cpu" 'BEGIN { printf "%.1f", b / a }')x less CPU than gpsdecode.
Each tool was $pinning.
EOF
