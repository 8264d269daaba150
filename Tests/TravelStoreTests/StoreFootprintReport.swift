import Foundation
import TestSupport
import Testing
import TravelCore
import TravelStore

/// Prints what the store costs; asserts only that the data arrived. Run it alone for figures that
/// mean something (`swift test --filter StoreFootprintReport`, in release mode for throughput).
/// The bulk insert writes 260 000 points by default, to keep ordinary test runs short; set
/// `TRAVEL_FOOTPRINT_POINTS=2600000` for the figure docs/schema.md reports.
@Suite(.serialized) struct StoreFootprintReport {
    @Test func bytesWrittenForAnHourOfTracking() throws {
        for savesEngineState in [true, false] {
            let directory = try TemporaryDirectory()
            let path = directory.file("hour.sqlite")
            let figures = try StoreFootprint.measureTrackingHour(databasePath: path, savesEngineState: savesEngineState)
            print(figures)
            #expect(figures.points == 3600)
            #expect(figures.flushes == 720)
            #expect(figures.bytesWritten > 0)
            let database = try TravelDatabase(path: path, readOnly: true)
            let trip = try #require(try database.trips().first)
            // The synthetic drive counts its last 30 points as the arrival a trip's end is back-dated to.
            #expect(trip.summary.pointCount == 3570)
            #expect(try database.loadEngineState() != nil || !savesEngineState)
        }
    }

    /// The daemon's path: the real engine and `TrackingRecorder`, state saved every 12 flushes, at
    /// the default flush interval (10 s), and at 5 s and 30 s for comparison.
    @Test(arguments: [10, 5, 30]) func liveTrackingHourThroughTheRecorder(flushInterval: Int) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("live.sqlite")
        let figures = try StoreFootprint.measureLiveHour(databasePath: path, flushInterval: flushInterval)
        print("recorder: \(figures)")
        #expect(figures.flushes == 3600 / flushInterval)
        let database = try TravelDatabase(path: path, readOnly: true)
        let trip = try #require(try database.trips().first)
        #expect(trip.isOngoing)
        #expect(try database.loadEngineState() != nil)
    }

    @Test func bulkInsertThroughput() throws {
        let points = ProcessInfo.processInfo.environment["TRAVEL_FOOTPRINT_POINTS"].flatMap(Int.init) ?? 260_000
        let directory = try TemporaryDirectory()
        let path = directory.file("bulk.sqlite")
        let figures = try StoreFootprint.measureBulkInsert(databasePath: path, points: points)
        print(figures)
        // Each hour-long trip keeps 3570 of its 3600 points: its last 30 fall after its end.
        let trips = (points + 3599) / 3600
        let kept = points - 30 * (points / 3600) - max(0, points % 3600 - 3570)
        #expect(try count("trips", in: path) == trips)
        #expect(try count("route_points", in: path) == kept)
    }
}
