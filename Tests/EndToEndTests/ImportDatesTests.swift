import Foundation
import Testing

/// `travelctl import` of logs recorded before `[Tracking] EarliestFixDate`: their dates are real
/// and stay (only an NMEA date the evidence says rolled over is moved, never into the future).
@Suite struct ImportDatesTests {
    /// The B&G Zeus² 9 log of the gpsd corpus, captured 2018-08-20 (its header, and `decode`).
    static let zeus = Binaries.fixtures.appendingPathComponent("gpsd-nmea/bundg_zeus_9.log").path

    @Test func anNMEALogOf2018LandsIn2018() throws {
        let (directory, db) = try ImportCommandTests.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        let decoded = try Binaries.run("travelctl", ["decode", Self.zeus])
        #expect(decoded.output.contains("\"time\":\"2018-08-20T09:47"), "decode prints the receiver's dates")
        let result = try Binaries.run("travelctl", ["--db", db, "import", Self.zeus])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.output.contains("re-dated"), "\(result.output)")
        let trips = try ImportCommandTests.trips(db)
        #expect(trips.count == 1)
        #expect((trips.first?["start"] as? String)?.hasPrefix("2018-08-20T09:47") == true, "\(trips)")
    }

    @Test func aGPXOf2012LandsIn2012() throws {
        let (directory, db) = try ImportCommandTests.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bus = try String(contentsOfFile: ImportCommandTests.tracks[0], encoding: .utf8)
        let old = directory.appendingPathComponent("limerick-bus-2012.gpx")
        try bus.replacingOccurrences(of: "<time>2019-02-18", with: "<time>2012-02-18")
            .write(to: old, atomically: true, encoding: .utf8)
        let result = try Binaries.run("travelctl", ["--db", db, "import", old.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.output.hasSuffix("2144 fixes read, 2144 accepted; 1 trip found\n"), "\(result.output)")
        let trips = try ImportCommandTests.trips(db)
        #expect((trips.first?["start"] as? String)?.hasPrefix("2012-02-18T07:") == true, "\(trips)")
    }
}
