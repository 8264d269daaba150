import TestSupport
import Testing
import TravelCore
import TravelFormats
import TravelStore

/// Exports of trips thousands of points long (`LongTrips`), written a piece at a time.
@Suite struct HistoryExportTests {
    static let selections: [ExportSelection] = [
        .all, .trip(2), .trip(5),
        .range(
            since: .instant(LongTrips.start.adding(seconds: 3 * 3600)),
            through: .instant(LongTrips.start.adding(seconds: 9 * 3600))
        ),
    ]

    /// Size and SHA-256 of each document (by format, then `selections` in order) as the export
    /// wrote it while it held each trip's whole route (commit d83058f): pieces must not change a byte.
    /// Since issue 26 a stop the vehicle left unrecorded says so, and GeoJSON stops have `moved_unrecorded`.
    static let wholeTripDocuments: [ExportFormat: [(bytes: Int, sha256: String)]] = [
        .gpx: [
            (1_042_032, "e4cb7aef1bc94b0bc5f9a228a7eafadb42b1c9eefd888330a726998ffce60b6f"),
            (300_683, "69d8f5aba6182f7683a438b64affd564c100a8736befc1fd3aeecbf5f60cb036"),
            (247_133, "3ae2a57ff3c5a51c357ff80fdda4a0a2a15740a302afdc365aa294013a7c1b8f"),
            (301_164, "2759bdd1d845840645108f1e1bb2e93600f9ba36f8a3da80735e420cc34b773e"),
        ],
        .geojson: [
            (259_172, "5330b82aa29b3271f5762448a08078fd1f285b435877222acb4f0f98261f272a"),
            (64_171, "c8a80d1f9afc31a02a69b7d124294f22e6cd3c7c7a280b98d2a9166f204483af"),
            (64_547, "2fbd21d485e4c02d364756ea1571f3d33ebb2f9fb7e30cc17c4da2be3fd25061"),
            (64_908, "ac757675b1bf24d03b6dbb3912a6e4a6f41611b235a992de3d7f184a73747ec5"),
        ],
        .kml: [
            (256_375, "872b74cccb40a66f1f5b27fcded56a9b22ab9bc24d40391497631943670a999f"),
            (75_973, "d98da54aaa72b67d06dab03fee1573a3787d127f63c88911f0191ec649a4f10d"),
            (59_780, "afd827ab887f7ccb09953b503f66f40ecac23e10ee2d65b7a173a87c825ccea8"),
            (76_773, "73deed7b73aafb318abf9fae61162ae146195a8bc3873fe24d4e651a2395597c"),
        ],
    ]

    static func history() throws -> (TemporaryDirectory, TravelDatabase) {
        let directory = try TemporaryDirectory()
        let database = try TravelDatabase(path: directory.file("travel.sqlite"))
        try LongTrips.record(in: database)
        return (directory, database)
    }

    static func sha256(_ bytes: [UInt8]) -> String {
        var hash = SHA256()
        bytes.withUnsafeBytes { hash.update($0) }
        return hash.hexDigest()
    }

    /// The bytes each `writeNextPiece()` handed to the sink, in order.
    static func pieces(
        _ database: TravelDatabase,
        _ format: ExportFormat,
        _ selection: ExportSelection
    ) throws
        -> [[UInt8]]
    {
        var pieces: [[UInt8]] = []
        var written: [UInt8] = []
        var export = try HistoryExport(database, format: format, selection: selection, zone: .utc) { written += $0 }
        pieces.append(written)
        written.removeAll()
        while try export.writeNextPiece() {
            pieces.append(written)
            written.removeAll()
        }
        return pieces
    }

    @Test(arguments: ExportFormat.allCases)
    func everyDocumentIsTheOneWrittenFromWholeRoutes(_ format: ExportFormat) throws {
        let (directory, database) = try Self.history()
        _ = directory
        for (number, selection) in Self.selections.enumerated() {
            let bytes = Array(try Self.pieces(database, format, selection).joined())
            let expected = try #require(Self.wholeTripDocuments[format]?[number])
            #expect(bytes.count == expected.bytes, "\(format) \(selection)")
            #expect(Self.sha256(bytes) == expected.sha256, "\(format) \(selection)")
        }
    }

    @Test(arguments: ExportFormat.allCases)
    func aLongTripIsWrittenInPiecesOfBoundedSize(_ format: ExportFormat) throws {
        let (directory, database) = try Self.history()
        _ = directory
        let pieces = try Self.pieces(database, format, .trip(1))
        // The header, the trip's start, its 5 000 points in pieces of 1 024 (the last one with the
        // trip's end), the document's end.
        #expect(pieces.count == 1 + 1 + 5 + 1)
        let whole = pieces.reduce(0) { $0 + $1.count }
        // At most a piece's text and what the writer kept of its block of 64 KiB: less than the trip.
        let bytesPerPoint = format == .gpx ? 110 : 40
        let bound = HistoryExport.pieceSize * bytesPerPoint + (64 << 10)
        #expect(pieces.allSatisfy { $0.count <= bound }, "\(pieces.map(\.count)) of \(whole)")
        #expect(whole > bound)
    }

    @Test func theCursorMeasuresEachShapeAndSkipsWhatIsLeftOfARoute() throws {
        let (directory, database) = try Self.history()
        _ = directory
        let trips = try database.trips()
        var cursor = try database.routeCursor(of: trips, measuringShapes: true)
        for trip in trips {
            let (handedOut, shape) = try #require(try cursor.nextTrip())
            #expect(handedOut.id == trip.id)
            let stored = try database.routePoints(tripID: trip.id)
            #expect(shape == ExportRouteShape(route: stored), "trip \(trip.id)")
            // Only the first 10 points are read: the next trip starts with its own first point.
            var read: [RoutePoint] = []
            while read.count < 10, let point = try cursor.nextPoint() { read.append(point) }
            #expect(read.map(\.time) == stored.prefix(10).map(\.time), "trip \(trip.id)")
        }
        #expect(try cursor.nextTrip() == nil)
        #expect(try cursor.nextPoint() == nil)
        // GPX needs no shape: none is measured.
        var plain = try database.routeCursor(of: trips)
        #expect(try #require(try plain.nextTrip()).1 == nil)
    }

    @Test func anExportReadsTheDatabaseAsItWasWhenItBegan() throws {
        let (directory, database) = try Self.history()
        var bytes: [UInt8] = []
        let reader = try TravelDatabase(path: directory.file("travel.sqlite"), readOnly: true)
        var export = try HistoryExport(reader, format: .geojson, selection: .trip(5), zone: .utc) { bytes += $0 }
        // The trip's start: its shape is measured, 2 500 points. Then half of them go.
        #expect(try export.writeNextPiece())
        let writer = try SQLiteDatabase(path: directory.file("travel.sqlite"))
        try writer.execute("DELETE FROM route_points_packed WHERE trip_id = 5 AND t_ms % 2000 = 0")
        try export.writeAll()
        let expected = try #require(Self.wholeTripDocuments[.geojson]?[2])
        #expect(bytes.count == expected.bytes)
        #expect(Self.sha256(bytes) == expected.sha256)
        // The next export sees the change.
        var after: [UInt8] = []
        var again = try HistoryExport(database, format: .geojson, selection: .trip(5), zone: .utc) { after += $0 }
        try again.writeAll()
        #expect(after.count < bytes.count)
    }
}
