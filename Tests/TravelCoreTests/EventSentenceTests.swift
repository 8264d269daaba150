import Testing

@testable import TravelCore

/// The sentences people read for events (journal `MESSAGE`, hook `TC_MESSAGE`, desktop
/// notifications): local time in the configured zone, the place by name, coordinates only
/// where nothing names it.
@Suite struct EventSentenceTests {
    static let shanghai = LocalTimeZone(name: "Asia/Shanghai", posixRule: "CST-8")!
    static let newYork = LocalTimeZone(name: "America/New_York", posixRule: "EST5EDT,M3.2.0,M11.1.0")!

    static let start = UTCTime(iso8601: "2026-01-05T01:20:00.000Z")!
    static let end = UTCTime(iso8601: "2026-01-05T01:44:47.000Z")!

    static func tripEnded(place: String) -> EventPayload {
        let trip = TripSummary(
            startTime: start,
            endTime: end,
            start: Coordinate(latitude: 39.9, longitude: 116.3),
            end: Coordinate(latitude: 39.97568, longitude: 116.33054),
            distance: 12_345.6,
            endReason: .parked
        )
        return .tripEnded(trip, place: place)
    }

    @Test(arguments: [
        (shanghai, "trip ended at 2026-01-05 09:44 at Work: 12.3 km in 25 min (parked)"),
        (newYork, "trip ended at 2026-01-04 20:44 at Work: 12.3 km in 25 min (parked)"),
        (LocalTimeZone.utc, "trip ended at 2026-01-05 01:44 at Work: 12.3 km in 25 min (parked)"),
    ])
    func aTripEndReadsInLocalTimeAtItsPlace(zone: LocalTimeZone, sentence: String) {
        #expect(Self.tripEnded(place: "Work").sentence(in: zone) == sentence)
    }

    @Test func aPlaceWithoutANameReadsAsItsCoordinates() {
        #expect(
            Self.tripEnded(place: "39.97568, 116.33054").sentence(in: Self.shanghai)
                == "trip ended at 2026-01-05 09:44 at 39.97568, 116.33054: 12.3 km in 25 min (parked)"
        )
        let started = EventPayload.tripStarted(
            TripSummary(
                startTime: Self.start,
                endTime: Self.start,
                start: .init(latitude: 1, longitude: 2),
                end: .init(latitude: 1, longitude: 2)
            ),
            place: "Home"
        )
        #expect(started.sentence(in: Self.newYork) == "trip started at 2026-01-04 20:20 from Home")
    }

    @Test func zonesAndNearbyPlacesAreNamedNotPositioned() {
        let entered = EventPayload(
            .zoneEntered,
            [
                "time": .time(Self.end), "zone_id": .integer(4), "zone_name": .string("depot"),
                "latitude": .number(39.97568), "longitude": .number(116.33054), "while_off": .boolean(false),
                "trip_start": .time(Self.start),
            ]
        )
        #expect(entered.sentence(in: Self.shanghai) == "entered zone depot at 2026-01-05 09:44")
        var left = entered
        left.kind = .zoneExited
        left.values["while_off"] = .boolean(true)
        #expect(
            left.sentence(in: Self.newYork)
                == "left zone depot at 2026-01-04 20:44 (while the power was off; noticed at the first fix after)"
        )
        let nearby = EventPayload.nearby(
            NearbyAlert(
                time: Self.end,
                poiID: 2,
                poiName: "Fuel Stop",
                category: "fuel",
                coordinate: Coordinate(latitude: 39.97568, longitude: 116.33054),
                distance: 120.4
            )
        )
        #expect(nearby.sentence(in: Self.shanghai) == "Near Fuel Stop (fuel), 120 m at 2026-01-05 09:44")
    }

    /// The plan reminder says "plan", the id `plan list` shows, not the journey ids of `journey show`.
    @Test func remindersReadInLocalTimeAndNameThePlan() {
        let plan = EventPayload.reminder(
            .planTomorrow(planID: 3, destination: "Trieste", from: LocalDate(parsing: "2026-01-06")!),
            at: Self.end
        )
        #expect(
            plan.sentence(in: Self.shanghai) == "plan 3 to Trieste starts tomorrow, 2026-01-06 (travelctl plan list)"
        )
        let noTrip = EventPayload.reminder(.noTrip(lastTripEnd: Self.end, days: 7), at: Self.end)
        #expect(noTrip.sentence(in: Self.shanghai) == "no trip logged since 2026-01-05 09:44, 7 days or more")
        // One day is "1 day or more", not "1 days or more" (issue 26).
        let oneDay = EventPayload.reminder(.noTrip(lastTripEnd: Self.end, days: 1), at: Self.end)
        #expect(oneDay.sentence(in: Self.shanghai) == "no trip logged since 2026-01-05 09:44, 1 day or more")
    }

    /// One rounding for minutes: what `trips` shows, `trip_min` sends and the report draws.
    @Test(arguments: [(1470.0, "25 min", 25), (1487, "25 min", 25), (1469, "24 min", 24), (3570, "1 h 00 min", 60)])
    func minutesRoundToTheNearestEverywhere(seconds: Double, text: String, minutes: Int) {
        #expect(HumanText.duration(seconds) == text)
        #expect(HumanText.minutes(seconds) == minutes)
        let trip = TripSummary(
            startTime: Self.start,
            endTime: Self.start.adding(seconds: seconds),
            start: .init(latitude: 45, longitude: 13),
            end: .init(latitude: 45, longitude: 13)
        )
        let item = UplinkItem(stream: .tripEnd, key: 0, event: .tripEnded(trip))
        let query = OsmAndQuery(deviceID: "x").pathAndQuery(for: item) ?? ""
        #expect(query.contains("trip_min=\(minutes)"), "\(query)")
    }
}
