// swift-tools-version:6.2
import PackageDescription

/// TravelCompanion: an always-on GPS trip logger for Linux.
///
/// The target graph keeps a pure, deterministic core (`TravelFormats`, `TravelCore`, `TravelDecoding`,
/// `TravelConfiguration`, `TravelMessages`) apart from the I/O edges, so a log replayed offline gives
/// exactly the events a live run gives. docs/architecture.md draws the graph.
let package = Package(
    name: "TravelCompanion",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "travel-companiond", targets: ["travel-companiond"]),
        .executable(name: "travelctl", targets: ["travelctl"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The daemon's lifecycle (Service, ServiceGroup, signals) and logging; neither pulls in Foundation.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // Pure core: no I/O, no clock reads, no Foundation. Bytes and fixes in, values out.
        // Byte formats with no domain knowledge: JSON, SHA-256 and Base64, the XML scanner, CSV records.
        .target(name: "TravelFormats"),
        // The domain: fixes, geodesy, time, tracking, trips, zones, journeys, POIs, places, reminders,
        // uplink payloads, export encoders.
        .target(name: "TravelCore", dependencies: ["TravelFormats"]),
        // Receiver decoding: NMEA, gpsd JSON and GPX bytes in, fixes out; POI files in, POI drafts out.
        .target(name: "TravelDecoding", dependencies: ["TravelCore", "TravelFormats"]),
        // The configuration file's parser and the daemon's settings.
        .target(name: "TravelConfiguration", dependencies: ["TravelCore", "TravelFormats"]),
        // The typed messages of the history and the control protocol's methods.
        .target(name: "TravelMessages", dependencies: ["TravelCore", "TravelFormats", "TravelControl"]),

        // SQLite through its C API (system libsqlite3), no ORM: see docs/domain.md on footprint.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(
            name: "TravelStore",
            dependencies: ["TravelCore", "TravelFormats", "TravelDecoding", "TravelMessages", "CSQLite"]
        ),

        // libsystemd: journal, sd_notify, sd-bus.
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),

        // libmosquitto, the MQTT client of the uplink (Debian libmosquitto-dev, EPL-2.0/EDL-1.0).
        .systemLibrary(
            name: "CMosquitto",
            pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]
        ),
        // libcurl, the HTTP client of the Traccar uplink (Debian libcurl4-openssl-dev, curl licence).
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),

        // Thin POSIX edges for the executables: file input and output, stderr, configuration files.
        .target(
            name: "TravelIO",
            dependencies: ["TravelCore", "TravelFormats", "TravelDecoding", "TravelConfiguration"]
        ),

        // The Varlink control protocol shared by the daemon and the CLI: framing, server, client.
        // Knows JSON, not the domain.
        .target(name: "TravelControl", dependencies: ["TravelFormats"]),

        // The daemon's edges: sources, sinks, configuration, lifecycle.
        .target(
            name: "TravelDaemon",
            dependencies: [
                "TravelFormats", "TravelCore", "TravelDecoding", "TravelConfiguration", "TravelMessages", "TravelStore",
                "TravelControl", "TravelIO", "CSystemd", "CMosquitto", "CCurl",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        .executableTarget(
            name: "travel-companiond",
            dependencies: [
                "TravelDaemon",
                "TravelCore",
                "TravelConfiguration",
                "TravelIO",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The HTML page of `travelctl report`: Leaflet, Chart.js, the basemap and the page's own
        // files in Sources/TravelReport/Assets, inlined at build time by the ReportAssets plugin.
        .target(name: "TravelReport", dependencies: ["TravelCore"], exclude: ["Assets"], plugins: ["ReportAssets"]),
        .plugin(name: "ReportAssets", capability: .buildTool(), dependencies: ["report-assets-embedder"]),
        .executableTarget(name: "report-assets-embedder", path: "Plugins/ReportAssetsEmbedder"),

        .executableTarget(
            name: "travelctl",
            dependencies: [
                "TravelFormats",
                "TravelCore",
                "TravelDecoding",
                "TravelConfiguration",
                "TravelMessages",
                "TravelStore",
                "TravelControl",
                "TravelIO",
                "TravelReport",
                "CSystemd",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // A small benchmark harness, run in release mode by scripts/bench-decode.sh.
        .executableTarget(
            name: "travel-benchmarks",
            dependencies: ["TravelFormats", "TravelCore", "TravelDecoding", "TravelIO"],
            path: "Benchmarks/DecodeBenchmark"
        ),

        // journeys, stats and export on ten years of generated history (scripts/bench-history.sh).
        .executableTarget(
            name: "history-benchmarks",
            dependencies: ["TravelCore", "TravelStore"],
            path: "Benchmarks/HistoryBenchmark"
        ),

        // travelctl report on a generated year: 700 trips, 1 M route points (scripts/bench-report.sh).
        .executableTarget(
            name: "report-benchmarks",
            dependencies: ["TravelCore", "TravelStore", "TravelReport", "SeededRandom"],
            path: "Benchmarks/ReportBenchmark"
        ),

        // The control socket's Status round trip and 100 subscribers (scripts/bench-control.sh).
        .executableTarget(
            name: "control-benchmarks",
            dependencies: ["TravelFormats", "TravelControl"],
            path: "Benchmarks/ControlBenchmark"
        ),

        // Per-fix zone and POI checks with 10 000 zones and 1 M POIs (scripts/bench-zones.sh).
        .executableTarget(
            name: "zone-benchmarks",
            dependencies: ["TravelCore", "TravelIO", "SeededRandom"],
            path: "Benchmarks/ZoneBenchmark"
        ),

        // What the test targets share: temporary directories, process launchers, free ports, and
        // the real programs tests run (gpsd, a socat pty receiver, mosquitto, a Traccar stub).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // SplitMix64, for the tests and the benchmarks that need repeatable random data.
        .target(name: "SeededRandom", path: "Tests/SeededRandom"),
        .testTarget(
            name: "TravelCoreTests",
            dependencies: [
                "TravelFormats", "TravelCore", "TravelDecoding", "TravelConfiguration", "TravelMessages",
                "SeededRandom",
            ]
        ),
        .testTarget(
            name: "TravelStoreTests",
            dependencies: [
                "TravelFormats", "TravelCore", "TravelDecoding", "TravelMessages", "TravelStore", "TestSupport",
            ]
        ),
        .testTarget(
            name: "TravelControlTests",
            dependencies: ["TravelFormats", "TravelCore", "TravelControl", "TravelMessages"]
        ),
        .testTarget(
            name: "TravelIOTests",
            dependencies: [
                "TravelIO", "TravelCore", "TravelConfiguration", "TestSupport",
            ]
        ),
        .testTarget(
            name: "TravelDaemonTests",
            dependencies: [
                "TravelDaemon", "TravelFormats", "TravelCore", "TravelDecoding", "TravelConfiguration", "TravelControl",
                "TravelMessages", "TravelStore", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
        // Spawns the built executables, so it depends on them being built first.
        .testTarget(
            name: "EndToEndTests",
            // TravelControl: the hostile control-socket clients speak raw Varlink (JSON from TravelFormats).
            dependencies: [
                "travelctl", "travel-companiond", "TravelFormats", "TravelCore", "TravelControl", "TestSupport",
                "SeededRandom",
            ]
        ),
    ]
)

for target in package.targets where target.type != .system && target.type != .plugin {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v6))
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    settings.append(.treatAllWarnings(as: .error))
    target.swiftSettings = settings
}
