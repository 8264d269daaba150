import Foundation
import Testing
import TravelCore
import TravelFormats

/// A trip of 100 000 route points exported through the daemon: the document is read, encoded and
/// sent a piece at a time, so the daemon's peak memory hardly moves, and the bytes are those
/// `travelctl --db` writes from the file.
@Suite struct ExportMemoryTests {
    /// A GPX track of `points` fixes a second apart, driving steadily east at 10 m/s on
    /// 2020-06-01 (before the car drive the daemon then replays): one trip.
    static func longDrive(points: Int, in directory: URL) throws -> String {
        let start = try #require(UTCTime(year: 2020, month: 6, day: 1, hour: 6))
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="ExportMemoryTests" xmlns="http://www.topografix.com/GPX/1/1">
            <trk><trkseg>

            """
        text.reserveCapacity(points * 100)
        for second in 0..<points {
            let longitude = 13.0 + Double(second) * 0.000_127
            let latitude = 45.2 + 0.01 * sin(Double(second) / 600)
            let elevation = 100 + Double(second % 500) / 10
            text += #"<trkpt lat="\#(latitude)" lon="\#(longitude)"><ele>\#(elevation)</ele>"#
            text += "<time>\(start.adding(seconds: Double(second)).iso8601)</time></trkpt>\n"
        }
        text += "</trkseg></trk></gpx>\n"
        let file = directory.appendingPathComponent("long-drive.gpx").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// The most resident memory process `pid` has had so far (VmHWM), in KiB.
    static func peakKiB(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    @Test func aTripOfAHundredThousandPointsStreamsThroughTheDaemonInBoundedMemory() throws {
        let points = 100_000
        let daemon = try ControlDaemon(replaying: ControlDaemon.car, speed: "0.001") { state in
            let drive = try Self.longDrive(points: points, in: state.url)
            let imported = try Binaries.run("travelctl", ["--db", state.database, "import", drive])
            #expect(imported.status == 0, "\(imported.standardError)")
        }
        defer { #expect(daemon.stop() == 0) }
        let trips = try Binaries.run("travelctl", ["trips", "--json", "--socket", daemon.socket])
        let list = try #require(
            try JSONValue(parsing: String(decoding: trips.standardOutput, as: UTF8.self)).arrayValue
        )
        #expect(list.count == 1, "one trip: \(list)")
        // A few of the first fixes go before the trip starts.
        let stored = try #require(list.first?["points"]?.intValue)
        #expect(stored > points - 100, "\(stored) points stored")
        let before = try Self.peakKiB(daemon.process.processIdentifier)

        for format in ["gpx", "geojson", "kml"] {
            let command = ["export", "--format", format, "--trip", "1"]
            let live = try Binaries.run("travelctl", command + ["--socket", daemon.socket])
            let offline = try Binaries.run("travelctl", command + ["--db", daemon.state.database])
            #expect(live.status == 0, "\(command): \(live.standardError)")
            #expect(live.standardOutput == offline.standardOutput, "\(command)")
            // 25–100 bytes a point: the whole route, not a piece of it.
            #expect(live.standardOutput.count > stored * 25, "\(command): \(live.standardOutput.count) bytes")
            if format == "gpx" {
                let file = daemon.state.url.appendingPathComponent("long.gpx")
                try live.standardOutput.write(to: file)
                try ExportCommandTests.requireValidGPX(file.path)
                let track = try ExportCommandTests.tool(
                    "gpsbabel",
                    ["-t", "-i", "gpx", "-f", file.path, "-o", "unicsv", "-F", "-"]
                )
                #expect(ExportCommandTests.csvRows(track) == stored)
            }
        }
        // Each export is 3–10 MB of text and 100 000 points: holding them whole showed here (+37 MB).
        // What an export holds whatever the trip's length is a few megabytes: SQLite's page cache
        // (2 MB), the replies the server lets wait unread (1 MiB and one more), a chunk, a piece.
        let growth = try Self.peakKiB(daemon.process.processIdentifier) - before
        #expect(growth < 12 * 1024, "the daemon's peak RSS grew \(growth) KiB over three exports")
    }
}
