import Foundation
import TestSupport
import Testing
import TravelCore
import TravelDecoding
import TravelStore

/// Zone events, zone state and nearby alerts in a real SQLite file: the daemon's recorder and an
/// import store the same events; a restart neither repeats nor loses one; the state survives.
@Suite struct ZoneStoreTests {
    static let bus = TrackingRecorderTests.bus

    /// A 40 m circle around the bus route's 800th fix and a POI 50 m off its 1,400th: one pass each.
    static func addPlaces(to database: TravelDatabase) throws {
        let fixes = bus
        let zoneCenter = Coordinate(latitude: fixes[800].latitude!, longitude: fixes[800].longitude!)
        _ = try database.addZone(name: "roundabout", role: nil, shape: .circle(center: zoneCenter, radius: 40))
        let poiBase = Coordinate(latitude: fixes[1_400].latitude!, longitude: fixes[1_400].longitude!)
        let poi = POIDraft(
            name: "Fuel",
            category: "fuel",
            coordinate: Geodesy.direct(from: poiBase, azimuth: 0, distance: 50)
        )
        #expect(try database.addPOIs([poi, poi], source: "test") == 1)
    }

    static func eventLines(_ database: TravelDatabase) throws -> [String] {
        try database.placeEvents().map {
            "\($0.time) \($0.kind) \($0.payload.values["zone_name"] ?? $0.payload.values["poi_name"] ?? .null) trip=\($0.tripID.map(String.init) ?? "none")"
        }
    }

    @Test("the bus drive through a zone and past a POI: enter, exit and an alert, each with its trip")
    func driveThrough() throws {
        let directory = try TemporaryDirectory()
        let database = try TravelDatabase(path: directory.file("travel.sqlite"))
        try Self.addPlaces(to: database)
        let recorder = TrackingRecorder(database: database, configuration: .init())
        #expect(recorder.placesError == nil)
        for fix in Self.bus { recorder.ingest(fix) }
        recorder.endOfInput()
        try recorder.flush()
        let events = try database.placeEvents()
        #expect(events.map(\.kind) == ["enter", "exit", "nearby"])
        let trip = try #require(try database.trips().first?.id)
        #expect(events.allSatisfy { $0.tripID == trip })
        guard case .nearby(let alert) = events[2].event else {
            Issue.record("not an alert: \(events[2])")
            return
        }
        #expect(alert.message.hasPrefix("Near Fuel (fuel), "))
        #expect(
            events[2].payload.values["trip_start"] == .time(try #require(try database.trips().first).summary.startTime)
        )
        #expect(try database.placeEvents(kind: "nearby").count == 1)
        #expect(try database.placeEvents(zone: "roundabout").count == 2)
    }

    @Test(
        "the daemon's recorder, restarted mid-drive, stores exactly what an import stores",
        arguments: [300, 805, 1_402]
    )
    func restartGivesTheSameEvents(restartAfter: Int) throws {
        let directory = try TemporaryDirectory()
        let imported = try TravelDatabase(path: directory.file("import.sqlite"))
        try Self.addPlaces(to: imported)
        let importer = TrackingRecorder(database: imported, configuration: .init())
        for fix in Self.bus { importer.ingest(fix) }
        try importer.flush()

        let live = try TravelDatabase(path: directory.file("live.sqlite"))
        try Self.addPlaces(to: live)
        let first = try TrackingRecorder.resuming(live, configuration: .init()).recorder
        try TrackingRecorderTests.record(Self.bus[..<restartAfter], with: first)
        // Killed: what was not flushed is lost; the restart resumes from the database.
        let second = try TrackingRecorder.resuming(live, configuration: .init()).recorder
        let resumeAt = try #require(try live.trips().last.map { _ in second.engine.lastAcceptedTime })
        try TrackingRecorderTests.record(Self.bus[...].drop { $0.time! <= resumeAt! }, with: second)
        try second.flush(final: true)
        #expect(try Self.eventLines(live) == Self.eventLines(imported))
        #expect(try Self.eventLines(live).count == 3)
    }

    @Test("inside/outside survives a restart; leaving while off is stored at the first fix, flagged")
    func exitWhileOff() throws {
        let directory = try TemporaryDirectory()
        let database = try TravelDatabase(path: directory.file("travel.sqlite"))
        let home = Coordinate(latitude: 52.629_151, longitude: -8.661_746)
        let start = UTCTime(year: 2026, month: 11, day: 21, hour: 18)!
        func fix(_ at: Coordinate, _ seconds: Double, from: UTCTime) -> Fix {
            Fix(
                time: from.adding(seconds: seconds),
                mode: .threeD,
                latitude: at.latitude,
                longitude: at.longitude,
                hdop: 1
            )
        }
        // The car parks at home; the zone is drawn around it: inside, without an enter.
        let parked = try TrackingRecorder.resuming(database, configuration: .init()).recorder
        for second in 0..<30 { parked.ingest(fix(home, Double(second), from: start)) }
        try parked.flush(final: true)
        let position = try #require(try database.lastKnownPosition())
        let zone = try #require(
            try database.addZone(
                name: "home",
                role: "home",
                shape: .circle(center: home, radius: 150),
                inside: (true, position.time)
            )
        )
        let afterAdd = try TrackingRecorder.resuming(database, configuration: .init()).recorder
        for second in 30..<120 { afterAdd.ingest(fix(home, Double(second), from: start)) }
        try afterAdd.flush(final: true)
        #expect(try database.placeEvents().isEmpty)
        #expect(try database.zoneRecords().first?.inside == true)

        // Power off for the night; it was driven away meanwhile (the receiver was off).
        let morning = start.adding(seconds: 14 * 3_600)
        let away = Geodesy.direct(from: home, azimuth: 90, distance: 3_000)
        let restarted = try TrackingRecorder.resuming(database, configuration: .init()).recorder
        for second in 0..<90 { restarted.ingest(fix(away, Double(second), from: morning)) }
        try restarted.flush(final: true)
        let events = try database.placeEvents()
        #expect(events.map(\.kind) == ["exit"])
        #expect(events.first?.payload.values["while_off"] == .boolean(true))
        #expect(events.first?.time == morning)
        #expect(events.first?.payload.values["zone_id"] == .integer(zone))
        #expect(try database.zoneRecords().first?.inside == false)
        #expect(try database.zoneRecords().first?.since == morning)
    }

    @Test("removing a zone removes its events and state; POIs are listed by distance")
    func removeAndList() throws {
        let directory = try TemporaryDirectory()
        let database = try TravelDatabase(path: directory.file("travel.sqlite"))
        let center = Coordinate(latitude: 45.0, longitude: 13.0)
        #expect(try database.addZone(name: "a", role: "work", shape: .circle(center: center, radius: 100)) != nil)
        #expect(try database.addZone(name: "a", role: nil, shape: .circle(center: center, radius: 100)) == nil)
        #expect(try database.removeZone("a")?.name == "a")
        #expect(try database.removeZone("a") == nil)
        _ = try database.addPOIs(
            [0.0, 300, 100, 9_000].enumerated().map { index, metres in
                POIDraft(
                    name: "P\(index)",
                    category: index == 0 ? "x" : "y",
                    coordinate: Geodesy.direct(from: center, azimuth: 45, distance: metres)
                )
            },
            source: nil
        )
        #expect(try database.poiRecords(near: center, radius: 1_000).map(\.poi.name) == ["P0", "P2", "P1"])
        #expect(try database.poiRecords(category: "y").map(\.poi.name) == ["P1", "P2", "P3"])
    }
}
