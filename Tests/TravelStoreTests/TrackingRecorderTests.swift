import Foundation
import TestSupport
import Testing
import TravelCore
import TravelDecoding
import TravelStore

/// The recorder the daemon runs: a crash between flushes, then a restart, gives the trips of an
/// uninterrupted run, although the engine state is saved only once a minute.
@Suite struct TrackingRecorderTests {
    static let bus: [Fix] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/tracks/limerick-bus-304-2019-02-18.gpx")
        guard let bytes = try? Data(contentsOf: url), let document = try? GPXReader.read(Array(bytes)) else {
            return []
        }
        return document.tracks.flatMap { $0.segments.flatMap { $0 } }
    }()

    static func essentials(_ database: TravelDatabase) throws -> [String] {
        try database.trips().map {
            "\($0.summary.startTime) \($0.summary.endTime) \(Int($0.summary.distance)) \($0.summary.pointCount)"
        }
    }

    /// The database of `fixes` recorded without a crash, to compare a crashed run with.
    static func uninterrupted(_ fixes: [Fix], in directory: TemporaryDirectory) throws -> TravelDatabase {
        let reference = try TravelDatabase(path: directory.file("reference.sqlite"))
        let recorder = try TrackingRecorder.resuming(reference, configuration: .init()).recorder
        try record(fixes[...], with: recorder)
        recorder.endOfInput()
        try recorder.flush(final: true)
        return reference
    }

    /// Records `fixes` with a flush every five, as the daemon's timer does.
    static func record(_ fixes: ArraySlice<Fix>, with recorder: TrackingRecorder) throws {
        for (index, fix) in zip(fixes.indices, fixes) {
            recorder.ingest(fix)
            if (index + 1) % 5 == 0 { try recorder.flush() }
        }
    }

    /// The row of the trip in progress is as current as the last flush, not as the trip's start;
    /// only a flush that commits new points of it rewrites it.
    @Test(arguments: [400, 1003, 1777])
    func theOngoingTripsRowHasTheEnginesTotalsAtEachFlush(flushAfter: Int) throws {
        let directory = try TemporaryDirectory()
        let database = try TravelDatabase(path: directory.file("ongoing.sqlite"))
        let recorder = try TrackingRecorder.resuming(database, configuration: .init()).recorder
        try Self.record(Self.bus[..<flushAfter], with: recorder)
        #expect(try recorder.flush() == false, "no trip started or ended since the last flush")
        let engine = try #require(recorder.engine.currentTrip)
        let row = try #require(try database.trips().first)
        #expect(row.isOngoing)
        #expect(row.summary == engine)
        #expect(row.summary.distance > 1_000)
    }

    @Test(arguments: [400, 1003, 1777])
    func aCrashAndRestartMidTripGivesTheUninterruptedTrips(crashAfter: Int) throws {
        let fixes = Self.bus
        try #require(fixes.count == 2144)
        let directory = try TemporaryDirectory()

        let reference = try Self.uninterrupted(fixes, in: directory)

        let path = directory.file("crashed.sqlite")
        do {
            let database = try TravelDatabase(path: path)
            let recorder = try TrackingRecorder.resuming(database, configuration: .init()).recorder
            try Self.record(fixes[..<crashAfter], with: recorder)
            // The process dies here: whatever was not flushed is gone, the state is up to a minute old.
        }
        let lastFlushed = crashAfter / 5 * 5
        let database = try TravelDatabase(path: path)
        let (resumed, error) = try TrackingRecorder.resuming(database, configuration: .init())
        #expect(error == nil)
        // The receiver goes on from the first fix the crash lost.
        try Self.record(fixes[lastFlushed...], with: resumed)
        resumed.endOfInput()
        try resumed.flush(final: true)

        #expect(try Self.essentials(database) == Self.essentials(reference))
    }

    /// Records `fixes` as the daemon does with a spool: a flush every five fixes, which appends
    /// to the spool, and a commit every sixth flush (or when more than route points wait).
    static func recordSpooling(_ fixes: ArraySlice<Fix>, with recorder: TrackingRecorder) throws {
        for (index, fix) in zip(fixes.indices, fixes) {
            recorder.ingest(fix)
            guard (index + 1) % 5 == 0 else { continue }
            if try (index + 1) % 30 == 0 || !recorder.spool() { try recorder.flush() }
        }
    }

    /// With commits far apart, the flushes between them go to the spool: a crash loses only what
    /// came after the last flush, as without a spool, because a restart replays the spool.
    @Test(arguments: [400, 1003, 1777])
    func aCrashBetweenCommitsLosesNothingTheSpoolHeld(crashAfter: Int) throws {
        let fixes = Self.bus
        let directory = try TemporaryDirectory()
        let reference = try Self.uninterrupted(fixes, in: directory)

        let path = directory.file("spooled.sqlite")
        do {
            let database = try TravelDatabase(path: path)
            try database.attachSpool()
            let recorder = try TrackingRecorder.resuming(database, configuration: .init()).recorder
            try Self.recordSpooling(fixes[..<crashAfter], with: recorder)
            // Killed here: the last commit is up to 30 fixes old, the spool holds the flushes since.
            #expect(database.hasSpooledRoute)
        }
        let committed = try TravelDatabase(path: path, readOnly: true).routePoints(after: UTCTime(milliseconds: 0))
        let spooled = try RouteSpool(databasePath: path).points()
        #expect(!spooled.isEmpty)
        #expect(spooled.first!.time > committed.last!.time, "the spool holds only what no commit holds")

        let database = try TravelDatabase(path: path)
        try database.attachSpool()
        let (resumed, error) = try TrackingRecorder.resuming(database, configuration: .init())
        #expect(error == nil)
        try Self.record(fixes[(crashAfter / 5 * 5)...], with: resumed)
        resumed.endOfInput()
        try resumed.flush(final: true)
        #expect(!database.hasSpooledRoute, "a commit empties the spool")
        #expect(try Self.essentials(database) == Self.essentials(reference))
    }
}
