import TestSupport
import Testing
import TravelCore
import TravelStore

/// The uplinks' outbox is the history itself: what the daemon holds before a commit reads the
/// same as the rows after it, batches after a cursor give every item once, and cursors survive a
/// crash through the spool and a commit.
@Suite struct UplinkOutboxTests {
    static let everything = Set(UplinkStream.allCases)

    /// The bus drive through a zone and past a POI, recorded by the daemon's kind of recorder,
    /// flushed or not.
    static func busDrive(in directory: TemporaryDirectory, flush: Bool) throws -> TravelDatabase {
        let database = try TravelDatabase(path: directory.file("travel.sqlite"))
        try ZoneStoreTests.addPlaces(to: database)
        let recorder = try TrackingRecorder.resuming(database, configuration: .init()).recorder
        for fix in TrackingRecorderTests.bus { recorder.ingest(fix) }
        recorder.endOfInput()
        if flush { try recorder.flush(final: true) }
        return database
    }

    static func all(_ database: TravelDatabase) throws -> [UplinkItem] {
        try database.uplinkItems(after: UplinkCursor(), streams: everything, limit: 1_000_000)
    }

    @Test("before a commit and after it, the outbox holds the same items, but the stop's points a trip's end cut")
    func bufferedAndCommittedReadAlike() throws {
        let directory = try TemporaryDirectory()
        let database = try Self.busDrive(in: directory, flush: false)
        let buffered = try Self.all(database)
        try TrackingRecorder.resuming(database, configuration: .init()).recorder.flush(final: true)
        let committed = try Self.all(database)

        let ends = buffered.compactMap { item -> TripSummary? in
            if case .tripEnded(let trip) = item.event { trip } else { nil }
        }
        try #require(ends.count == 1)
        let cut = buffered.filter { $0.stream != .route || $0.key <= ends[0].endTime.milliseconds }
        #expect(committed == cut)
        #expect(committed.filter { $0.stream == .zone }.count == 2)
        #expect(committed.filter { $0.stream == .nearby }.count == 1)
        #expect(committed.filter(\.startsTrip).map(\.key) == [committed.first { $0.stream == .route }!.key])
        #expect(committed.map(\.key) == committed.map(\.key).sorted(), "merged in key order")
    }

    @Test("batches read after a moving cursor give every item once", arguments: [1, 7, 100])
    func batchesAfterACursor(limit: Int) throws {
        let directory = try TemporaryDirectory()
        let database = try Self.busDrive(in: directory, flush: true)
        let expected = try Self.all(database)
        var cursor = UplinkCursor()
        var read: [UplinkItem] = []
        while true {
            let batch = try database.uplinkItems(after: cursor, streams: Self.everything, limit: limit)
            if batch.isEmpty { break }
            #expect(batch.count <= limit + 1)
            for item in batch { cursor[item.stream] = max(cursor[item.stream], item.key) }
            read += batch
        }
        #expect(read.count == expected.count)
        for stream in UplinkStream.allCases {
            #expect(read.filter { $0.stream == stream } == expected.filter { $0.stream == stream })
        }
        #expect(try database.uplinkBacklog(after: cursor, streams: Self.everything) == 0)
        #expect(try database.uplinkBacklog(after: UplinkCursor(), streams: [.route]) == expected.count - 4)
    }

    @Test("a cursor reaches the spool at the next flush, the database at the next commit")
    func cursorsSurviveACrash() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("travel.sqlite")
        let moved = UplinkCursor(keys: [.route: 1_550_477_141_000, .tripEnd: 7])
        do {
            let database = try TravelDatabase(path: path)
            try database.attachSpool()
            #expect(try database.uplinkCursor("mqtt") == UplinkCursor())
            database.setUplinkCursor(moved, for: "mqtt")
            try database.spoolRoute()
            // Killed here: no commit since.
        }
        do {
            let database = try TravelDatabase(path: path)
            try database.attachSpool()
            #expect(try database.uplinkCursor("mqtt") == moved, "read back from the spool")
            #expect(try database.uplinkCursor("traccar") == UplinkCursor())
            try database.flush()
            #expect(!database.hasSpooledRoute)
        }
        let database = try TravelDatabase(path: path)
        #expect(try database.uplinkCursor("mqtt") == moved, "committed")
    }

    @Test("cursor records in the spool are not points, the last per uplink wins, an unknown uplink is not spooled")
    func spoolCursorRecords() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("travel.sqlite")
        let spool = try RouteSpool(databasePath: path)
        let point = RoutePoint(
            time: UTCTime(milliseconds: 1_000),
            coordinate: Coordinate(latitude: 52.6, longitude: -8.6)
        )
        try spool.append([point], cursors: ["traccar": UplinkCursor(keys: [.route: 1_000])])
        try spool.append([], cursors: ["traccar": UplinkCursor(keys: [.route: 2_000]), "unknown": UplinkCursor()])
        #expect(spool.points() == [point])
        #expect(spool.cursors() == ["traccar": UplinkCursor(keys: [.route: 2_000])])
        #expect(spool.records().count == 3)
    }
}
