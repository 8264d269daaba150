import Testing

@testable import TravelCore
@testable import TravelConfiguration

/// Places, home and journeys on hand-made histories around a home in Istria.
@Suite struct JourneyGroupingTests {
    static let home = Coordinate(latitude: 45.283_10, longitude: 13.721_20)

    /// A point `north` km north and `east` km east of home (close enough for these distances).
    static func at(north: Double, east: Double = 0) -> Coordinate {
        Coordinate(latitude: home.latitude + north / 111.13, longitude: home.longitude + east / 78.5)
    }

    /// 2026-06-`day` at `hour`:`minute` UTC.
    static func time(_ day: Int, _ hour: Int, _ minute: Int = 0) -> UTCTime {
        UTCTime(year: 2026, month: 6, day: day, hour: hour, minute: minute)!
    }

    static func trip(
        _ id: Int64,
        _ start: UTCTime,
        _ end: UTCTime,
        from: Coordinate,
        to: Coordinate,
        km: Double,
        via farthest: Coordinate? = nil,
        ongoing: Bool = false
    ) -> JourneyTrip {
        JourneyTrip(
            id: id,
            summary: TripSummary(
                startTime: start,
                endTime: end,
                start: from,
                end: to,
                distance: km * 1000,
                endReason: ongoing ? nil : .parked
            ),
            farthestPoint: farthest
        )
    }

    // MARK: - UTC offsets

    @Test(arguments: [
        ("+01:00", 3600, "+01:00"), ("-05:30", -19_800, "-05:30"), ("+0545", 20_700, "+05:45"), ("+02", 7200, "+02:00"),
        ("Z", 0, "+00:00"), ("+14:00", 50_400, "+14:00"),
    ])
    func parsesUTCOffsets(_ text: String, _ seconds: Int, _ canonical: String) throws {
        let offset = try #require(UTCOffset(parsing: text))
        #expect(offset.seconds == seconds)
        #expect(offset.description == canonical)
    }

    @Test(arguments: ["", "01:00", "+1:00", "+01:60", "+15:00", "-13:00", "+01:00:00", "UTC", "+0a:00"])
    func rejectsMalformedOffsets(_ text: String) {
        #expect(UTCOffset(parsing: text) == nil)
    }

    @Test func localDaysFollowTheOffset() throws {
        let lateEvening = Self.time(10, 23, 30)
        let plusOne = LocalTimeZone.fixed(try #require(UTCOffset(parsing: "+01:00")))
        let minusOne = LocalTimeZone.fixed(try #require(UTCOffset(parsing: "-01:00")))
        #expect(plusOne.localDay(of: lateEvening) == LocalTimeZone.utc.localDay(of: lateEvening) + 1)
        #expect(minusOne.localDay(of: Self.time(10, 0, 30)) == LocalTimeZone.utc.localDay(of: lateEvening) - 1)
        #expect(plusOne.instant(day: plusOne.localDay(of: lateEvening), secondOfDay: 0) == Self.time(10, 23))
    }

    // MARK: - Places and home

    @Test func staysAtTheSameSpotClusterWhateverTheOrderTheyArriveIn() {
        let stays = [
            Stay(coordinate: Self.at(north: 0.05), arrival: Self.time(1, 18), departure: Self.time(2, 7)),
            Stay(coordinate: Self.at(north: 40), arrival: Self.time(2, 9), departure: Self.time(2, 16)),
            Stay(coordinate: Self.at(north: -0.08, east: 0.05), arrival: Self.time(2, 18), departure: Self.time(3, 7)),
            Stay(coordinate: Self.at(north: 40.1), arrival: Self.time(3, 9), departure: Self.time(3, 16)),
            Stay(coordinate: Self.at(north: 0.4), arrival: Self.time(3, 18), departure: nil),
        ]
        let rules = JourneyRules()
        let map = PlaceMap(stays: stays, rules: rules)
        #expect(map.places.count == 3)
        #expect(map.placeOfStay == [0, 1, 0, 1, 2])
        #expect(map.places.map(\.stays) == [2, 2, 1])
        #expect(map.places.map(\.nights) == [2, 0, 0], "the open stay counts no nights")
        #expect(map.places[0].seed == stays[0].coordinate)
        #expect(Geodesy.distance(map.places[0].centre, Self.home) < 50)

        let shuffled = PlaceMap(stays: [stays[3], stays[4], stays[0], stays[2], stays[1]], rules: rules)
        #expect(shuffled.places == map.places)
        #expect(shuffled.placeOfStay == [1, 2, 0, 0, 1])
    }

    @Test func nightsAreCountedAtThreeInTheMorningLocalTime() throws {
        // Parked from 00:30 to 01:30 UTC: before 03:00 in UTC, across it at +02:00 (02:30 to 03:30).
        let stay = Stay(coordinate: Self.home, arrival: Self.time(5, 0, 30), departure: Self.time(5, 1, 30))
        #expect(PlaceMap.nights(of: stay, rules: JourneyRules()) == 0)
        let plusTwo = JourneyRules(timeZone: .fixed(try #require(UTCOffset(parsing: "+02:00"))))
        #expect(PlaceMap.nights(of: stay, rules: plusTwo) == 1)
        let week = Stay(coordinate: Self.home, arrival: Self.time(1, 18), departure: Self.time(8, 18))
        #expect(PlaceMap.nights(of: week, rules: JourneyRules()) == 7)
        // Leaving from elsewhere: the vehicle moved unrecorded, so its nights are nobody's.
        var moved = week
        moved.departureCoordinate = Self.at(north: 30)
        #expect(PlaceMap.nights(of: moved, rules: JourneyRules()) == 0)
        moved.departureCoordinate = Self.at(north: 0.1)
        #expect(PlaceMap.nights(of: moved, rules: JourneyRules()) == 7)
    }

    @Test func homeIsLearnedWhereMostNightsAreSpentWithTheShareAsConfidence() throws {
        var stays: [Stay] = []
        for day in 1...5 {
            stays.append(
                Stay(coordinate: Self.at(north: 0.02), arrival: Self.time(day, 18), departure: Self.time(day + 1, 7))
            )
        }
        stays.append(Stay(coordinate: Self.at(north: 120), arrival: Self.time(6, 20), departure: Self.time(8, 10)))
        let rules = JourneyRules()
        let home = try #require(Home(places: PlaceMap(stays: stays, rules: rules), rules: rules))
        #expect(home.source == .learned)
        #expect(home.nightsAtHome == 5)
        #expect(home.nightsRecorded == 7)
        #expect(abs(home.confidence - 5.0 / 7.0) < 1e-12)
        #expect(Geodesy.distance(home.coordinate, Self.at(north: 0.02)) < 1)

        let oneNight = Array(stays.prefix(1))
        #expect(Home(places: PlaceMap(stays: oneNight, rules: rules), rules: rules) == nil)

        let configured = JourneyRules(home: Self.home)
        let set = try #require(Home(places: PlaceMap(stays: oneNight, rules: configured), rules: configured))
        #expect(set.source == .configured && set.confidence == 1 && set.nightsAtHome == 1)
    }

    @Test func aConfiguredHomeAFewHundredMetresFromWhereTheNightsAreSpentIsFlagged() throws {
        let nightsAt = Self.at(north: 0.4)
        let stays = [
            Stay(coordinate: nightsAt, arrival: Self.time(1, 18), departure: Self.time(2, 7)),
            Stay(coordinate: nightsAt, arrival: Self.time(2, 18), departure: Self.time(3, 7)),
        ]
        let rules = JourneyRules(home: Self.home)
        let home = try #require(Home(places: PlaceMap(stays: stays, rules: rules), rules: rules))
        let elsewhere = try #require(home.nightsElsewhere)
        #expect(elsewhere.nights == 2 && elsewhere.coordinate == nightsAt)
        #expect(abs(elsewhere.distance - 400) < 5)
        // Nights at home, or nights far away (a holiday house), say nothing.
        let atHome = JourneyRules(home: nightsAt)
        #expect(Home(places: PlaceMap(stays: stays, rules: atHome), rules: atHome)?.nightsElsewhere == nil)
        let farAway = JourneyRules(home: Self.at(north: 30))
        #expect(Home(places: PlaceMap(stays: stays, rules: farAway), rules: farAway)?.nightsElsewhere == nil)
    }

    // MARK: - Journeys

    @Test func errandsInTownAreOneLocalJourney() {
        let trips = [
            Self.trip(1, Self.time(3, 8), Self.time(3, 8, 20), from: Self.home, to: Self.at(north: 6), km: 7),
            Self.trip(
                2,
                Self.time(3, 9),
                Self.time(3, 9, 15),
                from: Self.at(north: 6),
                to: Self.at(north: 3, east: 4),
                km: 5
            ),
            Self.trip(
                3,
                Self.time(3, 11),
                Self.time(3, 11, 20),
                from: Self.at(north: 3, east: 4),
                to: Self.home,
                km: 6
            ),
        ]
        let journeys = JourneyGrouping.group(trips, home: Self.home, rules: JourneyRules(home: Self.home))
        #expect(journeys.count == 1)
        let journey = journeys[0]
        #expect(journey.tripIDs == [1, 2, 3])
        #expect(journey.type == .local)
        #expect(journey.destination == Self.at(north: 6))
        #expect(journey.distance == 18_000)
        #expect(journey.duration == 3 * 3600 + 20 * 60)
        #expect(!journey.isOpen)
    }

    @Test func aDayOutAndAWeekAwayAreTypedByLocalCalendarDays() throws {
        let rules = JourneyRules(home: Self.home, timeZone: .fixed(try #require(UTCOffset(parsing: "+02:00"))))
        let trips = [
            // A day at the seaside 60 km away, back at 21:30 UTC: 23:30 local, the same day.
            Self.trip(1, Self.time(3, 7), Self.time(3, 8), from: Self.home, to: Self.at(north: 60), km: 70),
            Self.trip(2, Self.time(3, 20, 30), Self.time(3, 21, 30), from: Self.at(north: 60), to: Self.home, km: 70),
            // Back at 22:30 UTC is 00:30 local the next day: multi-day, though under 24 hours.
            Self.trip(3, Self.time(5, 7), Self.time(5, 8), from: Self.home, to: Self.at(north: 50), km: 55),
            Self.trip(4, Self.time(5, 21, 30), Self.time(5, 22, 30), from: Self.at(north: 50), to: Self.home, km: 55),
            // A week away with a stop on the way; back to a car park 3 km from home ends it.
            Self.trip(5, Self.time(10, 6), Self.time(10, 9), from: Self.home, to: Self.at(north: 200), km: 230),
            Self.trip(
                6,
                Self.time(11, 9),
                Self.time(11, 12),
                from: Self.at(north: 200),
                to: Self.at(north: 350),
                km: 180
            ),
            Self.trip(
                7,
                Self.time(17, 8),
                Self.time(17, 14),
                from: Self.at(north: 350),
                to: Self.at(north: 3),
                km: 390
            ),
            Self.trip(8, Self.time(17, 18), Self.time(17, 18, 10), from: Self.at(north: 3), to: Self.home, km: 3),
        ]
        let journeys = JourneyGrouping.group(trips.reversed(), home: Self.home, rules: rules)
        #expect(journeys.map(\.tripIDs) == [[1, 2], [3, 4], [5, 6, 7], [8]])
        #expect(journeys.map(\.type) == [.day, .multiDay, .multiDay, .local])
        #expect(journeys[2].destination == Self.at(north: 350))
        #expect(journeys[2].distance == 800_000)
    }

    @Test func aLoopThatNeverStopsAwayIsADayJourneyWhoseDestinationIsTheStopNotItsTurningPoint() {
        let rules = JourneyRules(home: Self.home)
        let turn = Self.at(north: 40)
        let loop = Self.trip(1, Self.time(3, 7), Self.time(3, 9), from: Self.home, to: Self.home, km: 82, via: turn)
        #expect(JourneyGrouping.routeReference(for: loop.summary, home: Self.home, rules: rules) == Self.home)
        let journeys = JourneyGrouping.group([loop], home: Self.home, rules: rules)
        #expect(journeys.map(\.type) == [.day], "the route shows it left the area")
        #expect(journeys.first?.destination == Self.home, "the car never stopped at its turning point")
        // A trip ending 40 km away needs no route: its end shows it left the area.
        let away = Self.trip(2, Self.time(3, 7), Self.time(3, 9), from: Self.home, to: turn, km: 45)
        #expect(JourneyGrouping.routeReference(for: away.summary, home: Self.home, rules: rules) == nil)
    }

    @Test func aJourneyTheVehicleCameBackFromUnrecordedEndsWhenItLeavesHomeAgain() {
        let trips = [
            Self.trip(1, Self.time(3, 7), Self.time(3, 9), from: Self.home, to: Self.at(north: 80), km: 90),
            // The drive home was not recorded (receiver unplugged): the next trip starts at home.
            Self.trip(2, Self.time(6, 7), Self.time(6, 7, 30), from: Self.home, to: Self.at(north: 10), km: 11),
            Self.trip(
                3,
                Self.time(6, 12),
                Self.time(6, 12, 30),
                from: Self.at(north: 10),
                to: Self.at(north: 90),
                km: 85,
                ongoing: true
            ),
        ]
        let journeys = JourneyGrouping.group(trips, home: Self.home, rules: JourneyRules(home: Self.home))
        #expect(journeys.map(\.tripIDs) == [[1], [2, 3]])
        #expect(journeys.map(\.isOpen) == [false, true], "the last one is still under way")
        #expect(journeys.map(\.type) == [.day, .day])
    }

    @Test func aJourneyEndsWhereTheVehicleMovedUnrecordedFarFromHome() {
        // Two holidays a year apart, neither back home on record (the Limerick and Istria drives).
        let later = UTCTime(year: 2027, month: 6, day: 3, hour: 7)!
        let trips = [
            Self.trip(1, Self.time(3, 7), Self.time(3, 10), from: Self.home, to: Self.at(north: 300), km: 320),
            Self.trip(2, Self.time(4, 9), Self.time(4, 10), from: Self.at(north: 300), to: Self.at(north: 310), km: 12),
            // The next trip starts 1 000 km away: the drive there was never recorded.
            Self.trip(
                3,
                later,
                later.adding(seconds: 3600),
                from: Self.at(north: -1000),
                to: Self.at(north: -990),
                km: 11
            ),
        ]
        let journeys = JourneyGrouping.group(trips, home: Self.home, rules: JourneyRules(home: Self.home))
        #expect(journeys.map(\.tripIDs) == [[1, 2], [3]])
        #expect(journeys.map(\.isOpen) == [false, true], "the first ended at its last stop; the second is still away")
        #expect(journeys[0].end == Self.time(4, 10))
        #expect(journeys.map(\.destination) == [Self.at(north: 310), Self.at(north: -990)])
    }

    @Test func aTripStartingWhereTheLastEndedContinuesTheJourneyUnlessTheStopOutlastsTheMaximum() {
        let trips = [
            Self.trip(1, Self.time(3, 7), Self.time(3, 10), from: Self.home, to: Self.at(north: 300), km: 320),
            // 150 m from where the car parked, a week later: the same journey.
            Self.trip(2, Self.time(10, 9), Self.time(10, 12), from: Self.at(north: 300.15), to: Self.home, km: 320),
        ]
        let rules = JourneyRules(home: Self.home)
        #expect(JourneyGrouping.group(trips, home: Self.home, rules: rules).map(\.tripIDs) == [[1, 2]])
        var shorter = rules
        shorter.maximumStop = 5 * 86_400
        let split = JourneyGrouping.group(trips, home: Self.home, rules: shorter)
        #expect(split.map(\.tripIDs) == [[1], [2]])
        #expect(split.map(\.isOpen) == [false, false])
    }

    @Test func theDestinationIsTheFarthestStopNeverTheLatestPointOfATripUnderWay() {
        let trips = [
            Self.trip(1, Self.time(3, 7), Self.time(3, 8), from: Self.home, to: Self.at(north: 30), km: 33),
            Self.trip(
                2,
                Self.time(3, 9),
                Self.time(3, 10),
                from: Self.at(north: 30),
                to: Self.at(north: 90),
                km: 65,
                ongoing: true
            ),
        ]
        let rules = JourneyRules(home: Self.home)
        let open = JourneyGrouping.group(trips, home: Self.home, rules: rules)
        #expect(open.map(\.isOpen) == [true])
        #expect(open.first?.destination == Self.at(north: 30), "where it parked, as its trips name it")
        let firstUnderWay = JourneyGrouping.group([trips[1]], home: Self.home, rules: rules)
        #expect(firstUnderWay.map(\.destination) == [nil], "stopped nowhere yet")
    }

    @Test func withoutAHomeEachTripIsAJourneyAndOnlyAMultiDayOneHasAType() {
        let trips = [
            Self.trip(1, Self.time(3, 7), Self.time(3, 8), from: Self.home, to: Self.at(north: 10), km: 12),
            Self.trip(2, Self.time(3, 9), Self.time(3, 11), from: Self.at(north: 10), to: Self.at(north: 90), km: 95),
            Self.trip(3, Self.time(3, 22), Self.time(4, 1), from: Self.at(north: 90), to: Self.at(north: 60), km: 40),
        ]
        let journeys = JourneyGrouping.group(trips, home: nil, rules: JourneyRules())
        #expect(journeys.map(\.tripIDs) == [[1], [2], [3]])
        #expect(journeys.map(\.type) == [nil, nil, .multiDay], "local and day speak of a home area nobody knows yet")
        #expect(journeys.map(\.destination) == trips.map(\.summary.end))
    }

    // MARK: - Configuration

    @Test func theJourneysSectionConfiguresHomeRadiusAndOffset() throws {
        let text = "[Journeys]\nHome=45.28310, 13.72120\nHomeRadiusMeters=40000\nUTCOffset=+01:00\n"
        let configuration = try TravelConfiguration(main: ConfigurationText(name: "t.conf", text: text), dropIns: [])
        let rules = configuration.journeyRules
        #expect(rules.home == Self.home)
        #expect(rules.homeRadius == 40_000)
        #expect(rules.timeZone == .fixed(try #require(UTCOffset(seconds: 3600))))
        #expect(TravelConfiguration().journeyRules.home == nil)
        #expect(TravelConfiguration().journeys.home == "auto")

        for bad in ["Home=45.2, 200", "Home=north", "UTCOffset=CET", "HomeRadiusMeters=10"] {
            #expect(throws: ConfigurationError.self) {
                try TravelConfiguration(
                    main: ConfigurationText(name: "t.conf", text: "[Journeys]\n\(bad)\n"),
                    dropIns: []
                )
            }
        }
    }
}
