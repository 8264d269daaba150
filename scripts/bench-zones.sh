#!/usr/bin/env bash
# Per-fix cost of the zone and POI checks with 10 000 zones and 1 000 000 POIs, next to a linear
# scan of the same data. Goal (issue 6): ≤ 20 µs per fix on the target machine.
#
# Usage: scripts/bench-zones.sh [ZONES [POIS]]
# Environment: SCRATCH (SwiftPM scratch path, default .build).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null && [[ -x /opt/swift/usr/bin/swift ]]; then PATH=/opt/swift/usr/bin:$PATH; fi
scratch=${SCRATCH:-.build}
swift build -c release --scratch-path "$scratch" --product zone-benchmarks >/dev/null
"$(swift build -c release --scratch-path "$scratch" --show-bin-path)/zone-benchmarks" "$@"
