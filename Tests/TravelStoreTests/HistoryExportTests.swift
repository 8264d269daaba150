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
    static let wholeTripDocuments: [ExportFormat: [(bytes: Int, sha256: String)]] = [
        .gpx: [
            (1_041_918, "57056446136d15e89de2a70add564c24f4e24da55045da7e3fe186d9db204d86"),
            (300_626, "b13550902df7a836d13c1abaf3db29800a247e3969a9e787a1558b1a93f0aa8b"),
            (247_133, "89218ce93f45f37d6639e26226a51291def5e0522c1c58a15c57d66e7b9e968d"),
            (301_107, "87565c56ce2af219c20d6915ead2369d03471f3061d9d2819ba6b14855efa99c"),
        ],
        .geojson: [
            (259_004, "64f227b61d6d1120079be337ea854d72022c78f1434b4548ef5310248116f527"),
            (64_112, "b460b55da7786d5c5360e45357567a317d5967ade71e9e2dcf6b20e3930fa652"),
            (64_547, "2fbd21d485e4c02d364756ea1571f3d33ebb2f9fb7e30cc17c4da2be3fd25061"),
            (64_824, "213bec8c450111d8059dbb2e1ddd1f79650c5aa0e46dd43687e0baea703b6c2b"),
        ],
        .kml: [
            (256_331, "7cdcd4a70a8f04ec800aee77d0533a87c6225e0bd84cfceea59abb8719abb460"),
            (75_951, "7fc7415509e915ffc9a8c6f62e784308517a102bf1203dfbd83c538612caaa92"),
            (59_780, "b9fd1ea59a56ad444da3fde52c9647185bb71fd49075e73d30b9e78d89aba479"),
            (76_751, "6905d9de33d321830ea523adf759503279b1954bf733014e8eb3bc48a12abcff"),
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
