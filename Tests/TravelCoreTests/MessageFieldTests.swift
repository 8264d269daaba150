import Testing
import TravelCore
import TravelFormats
import TravelMessages

/// The typed messages of the control socket and `--json`: what one writes, the other reads back
/// as it was; a member missing or of another type is an error that names it, never a default.
@Suite struct MessageFieldTests {
    static let summary = TripSummary(
        startTime: UTCTime(milliseconds: 1_777_622_400_123),
        endTime: UTCTime(milliseconds: 1_777_624_200_456),
        start: Coordinate(latitude: 45.1, longitude: 13.2),
        end: Coordinate(latitude: 45.3, longitude: 13.4),
        distance: 12_345.67,
        movingTime: 1_500,
        maximumSpeed: 27.777,
        pointCount: 42,
        endReason: .parked
    )

    @Test func aTripTravelsRoundedAndReadsBackAsItWasWritten() throws {
        let trip = TripMessage(id: 7, summary: Self.summary, startPlace: "Home", endPlace: nil, journeyID: 3)
        #expect(trip.distance == 12_345.7 && trip.maximumSpeed == 27.78)
        #expect(trip.averageSpeed == ((12_345.67 / 1_800.333) * 100).rounded() / 100)
        #expect(try TripMessage(JSONFields(trip.json)) == trip)
        // An ongoing trip has no end on the wire; its table end is its start plus its duration.
        var ongoing = Self.summary
        ongoing.endReason = nil
        let open = TripMessage(id: 8, summary: ongoing, startPlace: nil, endPlace: nil, journeyID: nil)
        #expect(open.json["end"] == .null && open.isOngoing)
        let read = try TripMessage(JSONFields(open.json))
        #expect(read == open && read.summary.endTime == Self.summary.endTime)
    }

    @Test func aMissingOrMistypedMemberIsNamed() throws {
        let trip = TripMessage(id: 7, summary: Self.summary, startPlace: nil, endPlace: nil, journeyID: nil)
        let members = trip.json.objectMembers ?? []
        let withoutDistance = JSONValue.object(members.filter { $0.key != "distance_m" })
        #expect(throws: MessageFieldError(path: "distance_m", expected: "a number")) {
            try TripMessage(JSONFields(withoutDistance))
        }
        let textID = JSONValue.object(members.map { $0.key == "id" ? .init("id", "7") : $0 })
        #expect(throws: MessageFieldError(path: "id", expected: "an integer")) { try TripMessage(JSONFields(textID)) }
        let badReason = JSONValue.object(members.map { $0.key == "end_reason" ? .init("end_reason", "towed") : $0 })
        #expect(throws: MessageFieldError(path: "end_reason", expected: "one of its known words")) {
            try TripMessage(JSONFields(badReason))
        }
        // Within arrays and objects, the path says where.
        let detail: JSONValue = ["trip": ["stops": [["id": 1, "arrival": "yesterday"]]]]
        let error = #expect(throws: MessageFieldError.self) {
            try JSONFields(detail).object("trip") { trip throws(MessageFieldError) in
                try trip.array("stops", StopMessage.init)
            }
        }
        #expect(error?.description == "trip.stops[0].arrival is missing or not a date and time (ISO-8601)")
        #expect(throws: MessageFieldError(path: "the message", expected: "an object")) { try JSONFields([1, 2]) }
    }

    @Test func statsTravelRoundedAndAnEmptyYearReadsAsNone() throws {
        let zone = LocalTimeZone.utc
        let totals = MonthlyTotals(
            year: 2026,
            journeys: [
                (UTCTime(year: 2026, month: 5, day: 1)!, 1_000.04), (UTCTime(year: 2026, month: 5, day: 2)!, 2.03),
            ],
            zone: zone
        )
        let stats = StatsMessage(totals)
        #expect(stats.distance == 1_002.1 && stats.months[4].distance == 1_002.1 && stats.months[4].journeys == 2)
        #expect(try StatsMessage.read(JSONFields(stats.json)) == stats)
        #expect(try StatsMessage.read(JSONFields(StatsMessage.emptyJSON)) == nil)
        let thirteen: JSONValue = [
            "year": 2026, "journeys": 0, "distance_m": 0.0,
            "months": [
                ["month": 13, "journeys": 0, "distance_m": 0.0]
            ],
        ]
        #expect(throws: MessageFieldError(path: "months[0].month", expected: "a month from 1 to 12")) {
            try StatsMessage.read(JSONFields(thirteen))
        }
    }

    @Test func aJourneyWritesTheSameBytesEitherWayAndReadsBack() throws {
        let journey = JourneyMessage(
            id: 4,
            type: .day,
            destination: "Trieste \"centre\"",
            start: UTCTime(milliseconds: 1_777_622_400_000),
            end: nil,
            startDate: LocalDate(parsing: "2026-05-01")!,
            endDate: LocalDate(parsing: "2026-05-02")!,
            isOpen: true,
            distance: 1_234.5,
            duration: 90_000,
            tripIDs: [7, 9],
            isManual: false,
            plan: .init(
                id: 2,
                type: .multiDay,
                from: LocalDate(parsing: "2026-05-01")!,
                to: LocalDate(parsing: "2026-05-03")!
            ),
            typeMismatch: true
        )
        var writer = JSONWriter()
        journey.write(to: &writer)
        #expect(writer.bytes == journey.json.serialized())
        #expect(try JourneyMessage(JSONFields(journey.json)) == journey)
        let members = journey.json.objectMembers ?? []
        let miscounted = JSONValue.object(members.map { $0.key == "trips" ? .init("trips", 3) : $0 })
        #expect(throws: MessageFieldError(path: "trips", expected: "the number of trip_ids")) {
            try JourneyMessage(JSONFields(miscounted))
        }
    }
}
