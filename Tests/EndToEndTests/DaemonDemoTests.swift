import Foundation
import Testing

/// `make demo`'s script, run against the binaries under test instead of a release build.
@Suite struct DaemonDemoTests {
    @Test func theDemoReplaysTheBundledDriveAndListsItsTripAndJourneyThenWritesItsReport() throws {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("tc-demo-\(UUID().uuidString).html")
        defer { try? FileManager.default.removeItem(at: report) }
        let script = Binaries.fixtures.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/demo.sh").path
        let result = try Binaries.run(
            "/usr/bin/env",
            ["TRAVEL_BIN=\(Binaries.productsDirectory.path)", "DEMO_SPEED=0", "DEMO_REPORT=\(report.path)", script],
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
        #expect(lines.contains("1 journey, 13.9 km"), "\(result.output)")
        // It ends with the drive's report, written where it says.
        #expect(lines.last == "The report of the demo drive, a single HTML file that works offline: \(report.path)")
        let page = try String(contentsOf: report, encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>") && page.contains("\"trips\":[{\"id\":1,"), "\(page.prefix(200))")
    }
}
