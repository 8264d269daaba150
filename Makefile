# TravelCompanion — build, test, demo. `make demo` and `make test` install what they need.

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
export PATH := $(dir $(SWIFT)):$(PATH)
SWIFT_FORMAT ?= $(SWIFT) format
DEMO_LOG ?= Tests/Fixtures/tracks/limerick-bus-304-2019-02-18.gpx

.PHONY: all setup build release test reliability lint format demo bench clean release-static man completions install uninstall deb

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
	@$(MAKE) --no-print-directory reliability

## The short runs of the reliability scripts (docs/reliability.md): each prints its figures and
## PASS, or FAIL and a non-zero status. Without --short each runs the full version.
RELIABILITY ?= source-faults power-cut disk-full reconnect load sd-wear fuzz
reliability:
	@set -e; for name in $(RELIABILITY); do echo "== scripts/reliability/$$name.sh --short"; scripts/reliability/$$name.sh --short; done

## Formatting, and that every file README.md and docs/*.md cite is in the repository.
lint:
	$(SWIFT_FORMAT) lint --strict --recursive Package.swift Sources Tests Benchmarks Plugins
	scripts/check-doc-paths.py

format:
	$(SWIFT_FORMAT) format --in-place --recursive Package.swift Sources Tests Benchmarks Plugins

## The main job on an embedded default: the daemon replays a bundled real drive, then the trips it stored.
demo: release
	@scripts/demo.sh "$(DEMO_LOG)"

## Decode throughput against gpsdecode and pynmea2 on the same input.
bench:
	scripts/bench-decode.sh

## Installing: a release build with the Swift runtime linked in (`--static-swift-stdlib`), so the
## binaries need only system libraries at run time (and no $ORIGIN run path); the man pages and
## completions are made from it.
PREFIX ?= /usr/local
DESTDIR ?=
INSTALL_SCRATCH ?= .build-release
INSTALL_BIN = $(INSTALL_SCRATCH)/release
GENERATED = $(INSTALL_SCRATCH)/generated
STATIC_BUILD = $(SWIFT) build -c release --static-swift-stdlib --disable-local-rpath --scratch-path $(INSTALL_SCRATCH)
# Man pages dated by the last commit, so the same tree gives the same pages.
MAN_DATE ?= $(shell git log -1 --format=%cs 2>/dev/null || date +%F)
DEB_OUT ?= out

## Only the libraries the build links against: an install needs none of setup's test tools.
release-static:
	@pkg-config --exists sqlite3 libsystemd || scripts/setup.sh
	$(STATIC_BUILD) --product travel-companiond
	$(STATIC_BUILD) --product travelctl

## Man pages by swift-argument-parser's generate-manual, one per subcommand: travelctl in section
## 1, the daemon in section 8. The tool behind its plugin, run directly: the plugin would build
## every product (benchmarks too) a second time, without --static-swift-stdlib.
man: release-static
	$(STATIC_BUILD) --product generate-manual
	rm -rf $(GENERATED)/man && mkdir -p $(GENERATED)/man
	$(INSTALL_BIN)/generate-manual $(INSTALL_BIN)/travelctl --multi-page --section 1 --date $(MAN_DATE) -o $(GENERATED)/man
	$(INSTALL_BIN)/generate-manual $(INSTALL_BIN)/travel-companiond --multi-page --section 8 --date $(MAN_DATE) -o $(GENERATED)/man

## bash, zsh and fish completions, as each binary generates them (less bash's #! line: the
## script is sourced, not run).
completions: release-static
	rm -rf $(GENERATED)/completions && mkdir -p $(GENERATED)/completions
	for tool in travelctl travel-companiond; do for shell in bash zsh fish; do \
	    $(INSTALL_BIN)/$$tool --generate-completion-script $$shell >$(GENERATED)/completions/$$tool.$$shell || exit 1; \
	done; sed -i '1{/^#!/d}' $(GENERATED)/completions/$$tool.bash; done

## `make install [PREFIX=/usr/local] [DESTDIR=]`; `make uninstall` with the same values removes it.
install: release-static man completions
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" scripts/install.sh install $(INSTALL_BIN) $(GENERATED)

uninstall:
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" scripts/install.sh uninstall

## out/travel-companion_<version>_<arch>.deb, for `apt install ./out/travel-companion_*.deb`.
deb: release-static man completions
	scripts/build-deb.sh $(INSTALL_BIN) $(GENERATED) $(DEB_OUT)

clean:
	rm -rf .build $(INSTALL_SCRATCH) $(DEB_OUT)/travel-companion_*.deb
