# Shared by the reliability scripts (sourced, not run): options, the build, a scratch directory
# removed on exit, every child process killed on exit, a real gpsd on a socat pty, figures.
# Each script: `source "$(dirname "$0")/lib.sh"; reliability_init "$@"`. TRAVEL_BIN=DIR uses the
# binaries in DIR instead of building; KEEP=1 keeps the scratch directory.

SHORT=0
CONFIGURATION=debug
FAILURES=0
PIDS=()
# File systems mounted by the script, unmounted on exit once every child is gone.
MOUNTS=()

reliability_init() {
    for argument in "$@"; do
        case $argument in
        --short) SHORT=1 ;;
        --release) CONFIGURATION=release ;;
        -h | --help)
            sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
            exit 0
            ;;
        *)
            echo "$(basename "$0"): unknown option $argument (expected --short, --release)" >&2
            exit 2
            ;;
        esac
    done
    cd "$(dirname "$0")/../.."
    export PATH=/opt/swift/usr/bin:$PATH
    local tool
    for tool in gpsd socat sqlite3 python3; do
        command -v "$tool" >/dev/null || scripts/setup.sh
    done
    if [[ -n ${TRAVEL_BIN:-} ]]; then
        # Binaries built elsewhere (a long run that must not see a rebuild).
        BIN=$TRAVEL_BIN
    else
        swift build -c "$CONFIGURATION" --product travel-companiond >&2
        swift build -c "$CONFIGURATION" --product travelctl >&2
        BIN=$(swift build -c "$CONFIGURATION" --show-bin-path)
    fi
    TRACK=$PWD/Tests/Fixtures/tracks/limerick-bus-304-2019-02-18.gpx
    WORK=$(mktemp -d)
    chmod 755 "$WORK"
    trap reliability_cleanup EXIT
    trap 'exit 130' INT TERM
}

reliability_cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do
        kill -CONT "$pid" 2>/dev/null || true
        kill -KILL "$pid" 2>/dev/null || true
    done
    wait 2>/dev/null || true
    local mounted
    for mounted in "${MOUNTS[@]}"; do umount "$mounted" 2>/dev/null || umount -l "$mounted" 2>/dev/null || true; done
    if [[ -n ${KEEP:-} ]]; then echo "kept $WORK" >&2; else rm -rf "$WORK"; fi
}

# `FIGURE name=value unit`, the line docs/reliability.md is filled from.
figure() { echo "FIGURE $1=$2${3:+ $3}"; }

# A failed check: said at once, counted for the final line.
check_failed() {
    echo "CHECK FAILED: $*"
    FAILURES=$((FAILURES + 1))
}

# The final PASS/FAIL line and the exit status.
finish() {
    if ((FAILURES == 0)); then
        echo PASS
        exit 0
    fi
    echo "FAIL ($FAILURES failed checks)"
    exit 1
}

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# A socat pty pair: the device DIR/gps0 and the feeder's end DIR/feeder. Sets SOCAT_PID. Both
# ends are also held open (write-only, never written): socat ends when the last reader of a pty
# closes it, and gpsd closing and reopening its device must not unplug it.
start_pty() {
    local dir=$1
    socat "pty,raw,echo=0,link=$dir/gps0,perm=0666" "pty,raw,echo=0,link=$dir/feeder" 2>/dev/null &
    SOCAT_PID=$!
    PIDS+=("$SOCAT_PID")
    local _
    for _ in $(seq 200); do
        if [[ -e $dir/feeder && -e $dir/gps0 ]]; then
            python3 -c 'import os, sys, time
ends = [os.open(path, os.O_WRONLY | os.O_NOCTTY) for path in sys.argv[1:]]
time.sleep(1e9)' "$dir/gps0" "$dir/feeder" &
            PIDS+=("$!")
            return 0
        fi
        sleep 0.01
    done
    echo "socat made no pty in $dir" >&2
    return 1
}

# A 10 Hz (RATE) receiver on DIR/feeder: the bundled bus route, dated now, from SKIP seconds into
# the track; every epoch written is logged to DIR/fed.log. Sets FEEDER_PID.
start_feeder() {
    local dir=$1 rate=${2:-10} skip=${3:-600}
    python3 scripts/reliability/feed.py "$dir/feeder" "$TRACK" "$rate" "$skip" "$dir/fed.log" &
    FEEDER_PID=$!
    PIDS+=("$FEEDER_PID")
}

# A real gpsd on PORT reading DIR/gps0 from its start (no probing). Sets GPSD_PID; waits until
# it accepts connections.
start_gpsd() {
    local dir=$1 port=$2
    gpsd -N -n -b -s 38400 -f 8N1 -S "$port" -F "$dir/gpsd.sock" "$dir/gps0" 2>/dev/null &
    GPSD_PID=$!
    PIDS+=("$GPSD_PID")
    python3 - "$port" <<'PY'
import socket, sys, time
for _ in range(500):
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1).close()
        sys.exit(0)
    except OSError:
        time.sleep(0.01)
sys.exit("gpsd did not listen")
PY
}

# The daemon's configuration file in DIR for SOURCE, with FLUSH seconds between commits.
write_configuration() {
    local dir=$1 source=$2 flush=${3:-10} extra=${4:-}
    printf '[Source]\nURL=%s\n[Storage]\nFlushIntervalSec=%s\n%s\n[Control]\nSocket=%s/control\n' \
        "$source" "$flush" "$extra" "$dir" >"$dir/travel-companion.conf"
}
