# TravelCompanion — build, test, demo. `make demo` and `make test` install what they need.

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
export PATH := $(dir $(SWIFT)):$(PATH)
SWIFT_FORMAT ?= $(SWIFT) format
DEMO_LOG ?= Tests/Fixtures/tracks/limerick-bus-304-2019-02-18.gpx

.PHONY: all setup build release test lint format demo bench clean

all: build

setup:
	@scripts/setup.sh

build: setup
	$(SWIFT) build

release: setup
	$(SWIFT) build -c release

## The whole test suite: formatting, a warnings-as-errors build, unit and end-to-end tests.
test: setup lint
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --no-parallel

lint:
	$(SWIFT_FORMAT) lint --strict --recursive Package.swift Sources Tests Benchmarks

format:
	$(SWIFT_FORMAT) format --in-place --recursive Package.swift Sources Tests Benchmarks

## The main job on an embedded default: the daemon replays a bundled real drive, then the trips it stored.
demo: release
	@scripts/demo.sh "$(DEMO_LOG)"

## Decode throughput against gpsdecode and pynmea2 on the same input.
bench:
	scripts/bench-decode.sh

clean:
	rm -rf .build
