#!/usr/bin/env bash
# Fuzzing with libFuzzer + AddressSanitizer, then mutated files through the real binaries.
#
#   scripts/reliability/fuzz.sh [--short] [--seconds N] [--mutations N] [--debug] [TARGET…]
#
# 1. Builds Fuzz/FuzzTargets.swift against the package's TravelFormats, TravelCore, TravelDecoding,
#    TravelConfiguration, TravelControl and TravelMessages sources, module by module in dependency
#    order, with `swiftc -O -sanitize=fuzzer,address` (--debug: -Onone) into .build/fuzz, rebuilt
#    only when a source changed (about 2 minutes on 2 cores, not counted in the --short budget).
# 2. Seeds each target's corpus from Tests/Fixtures (copies; nothing outside the repository is
#    read) and runs it for N seconds (--short: 5 s per target, else 60 s), printing
#    `FIGURE fuzz_<target>_execs=N runs` and the crashes found. A crash's input is kept in
#    .build/fuzz/findings/<target>/ and the run fails.
# 3. Mutates the fixtures (bit flips, byte changes, truncations, splices) into N files
#    (--short: 150, else 3000) and runs each through `travelctl decode` and `travelctl --db X
#    import` with a 20 s timeout: a status >= 128 (a signal) is a crash, a timeout a hang.
# Targets: nmea gpsd gpx varlink config geojson csv geonames exif tzif (default: all).
set -euo pipefail

cd "$(dirname "$0")/../.."
export PATH=/opt/swift/usr/bin:$PATH

short=0
seconds=""
mutations=""
configuration=release
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --short) short=1 ;;
        --seconds) seconds="$2"; shift ;;
        --mutations) mutations="$2"; shift ;;
        --debug) configuration=debug ;;
        -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
        *) targets+=("$1") ;;
    esac
    shift
done
all=(nmea gpsd gpx varlink config geojson csv geonames exif tzif)
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
for target in "${targets[@]}"; do
    case " ${all[*]} " in *" $target "*) ;; *) echo "fuzz.sh: unknown target $target (${all[*]})" >&2; exit 2 ;; esac
done
if [ "$short" = 1 ]; then
    seconds=${seconds:-5}
    mutations=${mutations:-150}
else
    seconds=${seconds:-60}
    mutations=${mutations:-3000}
fi

work=$(mktemp -d)
children=()
cleanup() {
    for pid in "${children[@]:-}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

failed=0
started=$SECONDS

# --- 1. Build ----------------------------------------------------------------------------------
out=.build/fuzz
mkdir -p "$out"
# The package's modules the targets import, in dependency order (see Package.swift).
modules=(TravelFormats TravelCore TravelDecoding TravelConfiguration TravelControl TravelMessages)
module_sources=$(for module in "${modules[@]}"; do find "Sources/$module" -name '*.swift'; done | sort)
flags=(-swift-version 6 -package-name TravelCompanion -parse-as-library -sanitize=fuzzer,address -g
    -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility
    -enable-upcoming-feature InternalImportsByDefault)
[ "$configuration" = release ] && flags+=(-O) || flags+=(-Onone)
# shellcheck disable=SC2086
stamp=$( (cat $module_sources Fuzz/FuzzTargets.swift; echo "${flags[*]}"; swiftc --version 2>&1) |
    sha256sum | cut -c1-16)
binary="$out/travel-fuzz-$configuration"
if [ "$(cat "$out/stamp-$configuration" 2>/dev/null)" != "$stamp" ] || [ ! -x "$binary" ]; then
    echo "building the fuzz targets ($configuration)…"
    build_started=$SECONDS
    lib="$out/lib-$configuration"
    mkdir -p "$lib"
    libraries=()
    for module in "${modules[@]}"; do
        # shellcheck disable=SC2046
        swiftc "${flags[@]}" -module-name "$module" -I "$lib" -emit-module \
            -emit-module-path "$lib/$module.swiftmodule" -emit-library -static -o "$lib/lib$module.a" \
            $(find "Sources/$module" -name '*.swift' | sort)
        libraries=("-l$module" "${libraries[@]}")
    done
    swiftc "${flags[@]}" -module-name TravelFuzz -I "$lib" -L "$lib" "${libraries[@]}" \
        Fuzz/FuzzTargets.swift -o "$binary" 2> >(grep -v "Cannot export local symbol '__asan" >&2)
    echo "$stamp" > "$out/stamp-$configuration"
    echo "FIGURE fuzz_build_seconds=$((SECONDS - build_started)) s"
fi
if [ ! -f .build/debug/travelctl ] || [ -n "$(find Sources -newer .build/debug/travelctl -name '*.swift' | head -1)" ]; then
    echo "building travelctl…"
    swift build --product travelctl >/dev/null
fi
travelctl=$PWD/.build/debug/travelctl

# --- 2. Seeds, from the repository's own fixtures ------------------------------------------------
seed() { # target files…
    local dir="$work/corpus/$1"
    mkdir -p "$dir"
    shift
    for file in "$@"; do [ -f "$file" ] && cp "$file" "$dir/$(basename "$file")"; done
}
F=Tests/Fixtures
seed nmea $(ls $F/gpsd-nmea/*.log | head -60)
seed gpsd $F/gpsd-json/*.jsonl
seed gpx $F/tracks/*.gpx $F/poi/waypoints.gpx
seed varlink $F/fuzz/varlink/*
seed config config/travel-companion.conf $F/fuzz/config/*
seed geojson $F/poi/*.geojson
seed csv $F/poi/*.csv
seed geonames $F/poi/cities1000-sample.txt
seed exif $F/photos/*.jpg
seed tzif $F/fuzz/tzif/*

# --- 3. libFuzzer runs ---------------------------------------------------------------------------
for target in "${targets[@]}"; do
    findings="$out/findings/$target"
    mkdir -p "$findings"
    log="$work/$target.log"
    target_started=$SECONDS
    status=0
    # In the background, so that a signal to this script ends it too (the trap kills it).
    TC_FUZZ_TARGET=$target ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 SWIFT_BACKTRACE=enable=no "$binary" \
        -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$findings/" "$work/corpus/$target" >"$log" 2>&1 &
    children=($!)
    wait "${children[0]}" || status=$?
    children=()
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    if [ -z "$execs" ]; then
        # A crash ends the run before the final stats: the last status line has the count.
        execs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
    fi
    crashes=$(find "$findings" -newer "$log" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) 2>/dev/null | wc -l)
    echo "FIGURE fuzz_${target}_execs=${execs:-0} runs"
    echo "FIGURE fuzz_${target}_seconds=$((SECONDS - target_started)) s"
    echo "FIGURE fuzz_${target}_crashes=$crashes"
    if [ "$status" != 0 ] || [ "$crashes" != 0 ]; then
        failed=1
        echo "fuzz.sh: $target: libFuzzer exited $status; inputs in $findings" >&2
        grep -E 'ERROR|Fatal error|invariant violated|SUMMARY' "$log" | head -5 >&2 || true
    fi
done

# --- 4. Mutated files through the real binaries -------------------------------------------------
python3 - "$work/mutants" "$mutations" $F/gpsd-nmea/*.log $F/gpsd-json/*.jsonl $F/tracks/*.gpx <<'PY'
import os, random, sys
out, count, sources = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
os.makedirs(out, exist_ok=True)
rng = random.Random(14)
datas = [open(p, "rb").read()[:200_000] for p in sources]
kinds = ["flip", "byte", "truncate", "splice", "insert", "delete"]
for n in range(count):
    data = bytearray(rng.choice(datas))
    kind = kinds[n % len(kinds)]
    if kind == "flip":
        for _ in range(rng.randint(1, 64)):
            i = rng.randrange(len(data)); data[i] ^= 1 << rng.randrange(8)
    elif kind == "byte":
        for _ in range(rng.randint(1, 64)):
            data[rng.randrange(len(data))] = rng.choice([0, 0xFF, 0x7F, 0x80, ord("<"), ord("{"), ord("$"), ord("*"), ord(","), ord("\n"), rng.randrange(256)])
    elif kind == "truncate":
        data = data[: rng.randrange(len(data))]
    elif kind == "splice":
        other = rng.choice(datas)
        data = data[: rng.randrange(len(data))] + other[rng.randrange(len(other)):]
    elif kind == "insert":
        i = rng.randrange(len(data)); data[i:i] = os.urandom(rng.randint(1, 4096))
    else:
        i = rng.randrange(len(data)); del data[i : i + rng.randint(1, 4096)]
    with open(os.path.join(out, f"m{n:05d}-{kind}"), "wb") as f:
        f.write(data)
PY
mutation_started=$SECONDS
runs=0
crashes=0
hangs=0
mkdir -p "$out/findings/binaries"
check() { # status file command
    local status=$1 file=$2 command=$3
    runs=$((runs + 1))
    if [ "$status" = 124 ]; then
        hangs=$((hangs + 1)); cp "$file" "$out/findings/binaries/"
        echo "fuzz.sh: $command hung on $(basename "$file")" >&2
    elif [ "$status" -ge 128 ]; then
        crashes=$((crashes + 1)); cp "$file" "$out/findings/binaries/"
        echo "fuzz.sh: $command exited $status on $(basename "$file")" >&2
    fi
}
for file in "$work"/mutants/*; do
    status=0
    timeout -k 5 20 "$travelctl" decode --stats "$file" >/dev/null 2>&1 || status=$?
    check "$status" "$file" decode
    status=0
    timeout -k 5 20 "$travelctl" --db "$work/mutants.sqlite" import "$file" >/dev/null 2>&1 || status=$?
    check "$status" "$file" import
done
echo "FIGURE fuzz_mutated_files=$mutations files"
echo "FIGURE fuzz_mutated_runs=$runs runs"
echo "FIGURE fuzz_mutated_crashes=$crashes"
echo "FIGURE fuzz_mutated_hangs=$hangs"
echo "FIGURE fuzz_mutated_seconds=$((SECONDS - mutation_started)) s"
[ "$crashes" = 0 ] && [ "$hangs" = 0 ] || failed=1
integrity=$(sqlite3 "$work/mutants.sqlite" 'PRAGMA integrity_check' 2>&1 || true)
[ "$integrity" = ok ] || { echo "fuzz.sh: the import database after the mutants: $integrity" >&2; failed=1; }

echo "FIGURE fuzz_total_seconds=$((SECONDS - started)) s"
if [ "$failed" = 0 ]; then echo PASS; else echo FAIL; exit 1; fi
