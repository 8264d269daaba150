import Foundation
import Testing

/// `make demo`'s script, run against the binaries under test instead of a release build.
@Suite struct DaemonDemoTests {
    @Test func theDemoReplaysTheBundledDriveAndListsItsTripAndJourney() throws {
        let script = Binaries.fixtures.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/demo.sh").path
        let result = try Binaries.run(
            "/usr/bin/env",
            ["TRAVEL_BIN=\(Binaries.productsDirectory.path)", "DEMO_SPEED=0", script],
            absolute: true
        )
        #expect(result.status == 0, "\(result.output)\(result.standardError)")
        let lines = result.output.split(separator: "\n").map(String.init)
        let events = [
            "source connected", "fix acquired", "trip started", "trip ended", "replay finished", "ID  START",
            "1 trip, 13.9 km", "ID  TYPE",
        ]
        let positions = events.map { event in lines.firstIndex { $0.contains(event) } }
        #expect(positions.allSatisfy { $0 != nil }, "\(result.output)")
        #expect(
            positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(),
            "events in order, then the trips, then the journeys"
        )
        // The daemon's trip is a journey, as an imported one would be.
        #expect(lines.last == "1 journey, 13.9 km", "\(result.output)")
    }
}
