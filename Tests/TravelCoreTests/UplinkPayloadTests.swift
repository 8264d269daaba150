import Testing

@testable import TravelCore
@testable import TravelFormats

/// OwnTracks JSON and OsmAnd queries, field by field, for each kind of outbox item.
@Suite struct UplinkPayloadTests {
    /// 2019-02-18T07:45:02.400Z.
    private static let time = UTCTime(milliseconds: 1_550_475_902_400)
    private static let createdAt = UTCTime(milliseconds: 1_550_476_000_900)
    private static let tripStart = UTCTime(milliseconds: 1_550_475_000_000)
    private static let settings = OwnTracksSettings(topic: "owntracks/jane/car", trackerID: "JC")
    private static let ownTracks = OwnTracksPayload(settings: settings)

    private static let point = RoutePoint(
        time: time,
        coordinate: Coordinate(latitude: 45.283_101_23, longitude: -13.721_2),
        altitude: 152.6,
        speed: 13.9,
        track: 359.6,
        horizontalError: 4.2
    )

    private static func routeItem(_ point: RoutePoint = point, startsTrip: Bool = false) -> UplinkItem {
        UplinkItem(
            stream: .route,
            key: point.time.milliseconds,
            event: .routePoint(tripStart: tripStart, point),
            startsTrip: startsTrip
        )
    }

    private static func json(_ message: OwnTracksMessage?) throws -> JSONValue {
        try JSONValue(parsing: try #require(message).payload)
    }

    private static func text(_ message: OwnTracksMessage?) -> String? {
        message.map { String(decoding: $0.payload, as: UTF8.self) }
    }

    // MARK: OwnTracks location

    @Test func aRoutePointIsALocationWithEveryField() {
        let message = Self.ownTracks.message(for: Self.routeItem(), createdAt: Self.createdAt)
        #expect(message?.topic == "owntracks/jane/car")
        #expect(message?.retain == false)
        #expect(
            Self.text(message)
                == #"{"_type":"location","_id":"route-1550475902400","tid":"JC","tst":1550475902,"#
                + #""lat":45.2831012,"lon":-13.7212,"acc":5,"alt":153,"vel":50,"cog":0,"t":"t","#
                + #""created_at":1550476000}"#
        )
    }

    @Test func aTripsFirstPointIsTriggeredV() throws {
        let json = try Self.json(
            Self.ownTracks.message(for: Self.routeItem(startsTrip: true), createdAt: Self.createdAt)
        )
        #expect(json["t"] == .string("v"))
    }

    @Test(
        arguments: [
            (nil, 10), (0.0, 1), (0.2, 1), (1.0, 1), (1.01, 2), (49.5, 50), (Double.nan, 10), (-3.0, 10),
        ] as [(Double?, Int64)]
    )
    func accuracyIsTheErrorRoundedUpAtLeastOneWithADefault(error: Double?, acc: Int64) throws {
        var point = Self.point
        point.horizontalError = error
        let json = try Self.json(Self.ownTracks.message(for: Self.routeItem(point), createdAt: Self.createdAt))
        #expect(json["acc"] == .integer(acc))
    }

    @Test func fieldsTheReceiverDidNotGiveAreLeftOut() throws {
        let bare = RoutePoint(time: Self.time, coordinate: Coordinate(latitude: 0.000_001, longitude: 180))
        let json = try Self.json(Self.ownTracks.message(for: Self.routeItem(bare), createdAt: Self.createdAt))
        #expect(json["alt"] == nil)
        #expect(json["vel"] == nil)
        #expect(json["cog"] == nil)
        #expect(json["lat"] == .double(0.000_001))
        #expect(json["lon"] == .integer(180))
        #expect(json["acc"] == .integer(10))
    }

    @Test(arguments: [(0.4, 0), (359.4, 359), (359.6, 0), (-10.0, 350), (720.2, 0)] as [(Double, Int64)])
    func courseIsWholeDegreesFrom0To359(track: Double, cog: Int64) throws {
        var point = Self.point
        point.track = track
        let json = try Self.json(Self.ownTracks.message(for: Self.routeItem(point), createdAt: Self.createdAt))
        #expect(json["cog"] == .integer(cog))
    }

    @Test func timesAreWholeSecondsRoundedDown() {
        #expect(UplinkNumbers.seconds(UTCTime(milliseconds: 1_999)) == 1)
        #expect(UplinkNumbers.seconds(UTCTime(milliseconds: -1)) == -1)
    }

    @Test func aHeartbeatIsAParkedLocation() throws {
        let message = Self.ownTracks.heartbeat(Self.point, createdAt: Self.createdAt)
        let json = try Self.json(message)
        #expect(message.topic == "owntracks/jane/car")
        #expect(json["_type"] == .string("location"))
        #expect(json["t"] == .string("k"))
        #expect(json["tst"] == .integer(1_550_475_902))
        #expect(json["_id"] == .string("heartbeat-1550475902400"))
    }

    @Test func aTripsEndIsAParkedLocationAtTheArrivalWithTheTripsSummary() {
        let trip = TripSummary(
            startTime: Self.tripStart,
            endTime: Self.time,
            start: Coordinate(latitude: 45, longitude: 13),
            end: Coordinate(latitude: 45.5, longitude: 13.25),
            distance: 12_345.6,
            movingTime: 780,
            maximumSpeed: 25,
            pointCount: 900,
            endReason: .parked
        )
        let item = UplinkItem(stream: .tripEnd, key: Self.time.milliseconds, event: .tripEnded(trip))
        let message = Self.ownTracks.message(for: item, createdAt: Self.createdAt)
        #expect(message?.topic == "owntracks/jane/car")
        // 902.4 s: 15 min; 12.3456 km in 902.4 s is 49.25 km/h.
        #expect(
            Self.text(message)
                == #"{"_type":"location","_id":"trip-end-1550475902400","tid":"JC","tst":1550475902,"#
                + #""lat":45.5,"lon":13.25,"acc":10,"vel":0,"t":"k","created_at":1550476000,"#
                + #""trip_start":1550475000,"trip_km":12.35,"trip_min":15,"trip_moving_min":13,"#
                + #""trip_max_kmh":90,"trip_avg_kmh":49,"trip_end_reason":"parked"}"#
        )
    }

    @Test func aPOIAlertIsALocationWithPOI() {
        let alert = NearbyAlert(
            time: Self.time,
            poiID: 42,
            poiName: "Fuel \"Stop\"",
            category: "fuel",
            coordinate: Coordinate(latitude: 45.1, longitude: 13.2),
            distance: 120.4,
            tripStart: Self.tripStart
        )
        let item = UplinkItem(stream: .nearby, key: Self.time.milliseconds, event: .nearby(alert))
        #expect(
            Self.text(Self.ownTracks.message(for: item, createdAt: Self.createdAt))
                == #"{"_type":"location","_id":"nearby-1550475902400-42","tid":"JC","tst":1550475902,"#
                + #""lat":45.1,"lon":13.2,"acc":10,"t":"t","created_at":1550476000,"poi":"Fuel \"Stop\"","#
                + #""poi_category":"fuel","poi_distance_m":120}"#
        )
    }

    // MARK: OwnTracks transition

    @Test(arguments: [ZoneEvent.Kind.enter, .exit])
    func aZoneEventIsATransitionOnTheEventTopicAlwaysWithDesc(kind: ZoneEvent.Kind) throws {
        let event = ZoneEvent(
            time: Self.time,
            zoneID: 3,
            zoneName: "Home",
            kind: kind,
            coordinate: Coordinate(latitude: 45.25, longitude: 13.5)
        )
        let item = UplinkItem(stream: .zone, key: Self.time.milliseconds, event: .zone(event))
        let message = Self.ownTracks.message(for: item, createdAt: Self.createdAt)
        #expect(message?.topic == "owntracks/jane/car/event")
        #expect(message?.retain == false)
        let word = kind == .enter ? "enter" : "leave"
        #expect(
            Self.text(message)
                == #"{"_type":"transition","_id":"zone-1550475902400-3-\#(kind.rawValue)","tid":"JC","#
                + #""tst":1550475902,"wtst":3,"lat":45.25,"lon":13.5,"acc":10,"event":"\#(word)","desc":"Home","#
                + #""rid":"zone-3","t":"c","created_at":1550476000}"#
        )
    }

    @Test func aZoneWithoutANameStillHasDescAndAChangeWhileOffSaysSo() throws {
        let event = ZoneEvent(
            time: Self.time,
            zoneID: 7,
            zoneName: "",
            kind: .exit,
            coordinate: Coordinate(latitude: 1, longitude: 2),
            whileOff: true
        )
        let item = UplinkItem(stream: .zone, key: Self.time.milliseconds, event: .zone(event))
        let json = try Self.json(Self.ownTracks.message(for: item, createdAt: Self.createdAt))
        #expect(json["desc"] == .string("zone 7"))
        #expect(json["while_off"] == .bool(true))
    }

    @Test func eventsAnUplinkDoesNotCarryHaveNoMessage() {
        let trip = TripSummary(
            startTime: Self.tripStart,
            endTime: Self.time,
            start: .init(latitude: 0, longitude: 0),
            end: .init(latitude: 0, longitude: 0)
        )
        let item = UplinkItem(stream: .tripEnd, key: 0, event: .tripStarted(trip))
        #expect(Self.ownTracks.message(for: item, createdAt: Self.createdAt) == nil)
        #expect(OsmAndQuery(deviceID: "x").pathAndQuery(for: item) == nil)
    }

    @Test func identifiersAreStablePerRow() {
        let first = OwnTracksPayload.identifier(of: Self.routeItem())
        #expect(first == OwnTracksPayload.identifier(of: Self.routeItem()))
        var later = Self.point
        later.time = later.time.adding(seconds: 1)
        #expect(first != OwnTracksPayload.identifier(of: Self.routeItem(later)))
    }

    // MARK: Home Assistant discovery

    @Test func theDiscoveryConfigIsRetainedAndPointsAtTheOwnTracksTopic() throws {
        let settings = OwnTracksSettings(topic: "owntracks/jane/my car", trackerID: "ar", discoveryPrefix: "ha")
        let message = OwnTracksPayload(settings: settings).discoveryConfig()
        #expect(message.topic == "ha/device_tracker/travel_companion_owntracks_jane_my_car/config")
        #expect(message.retain)
        let json = try JSONValue(parsing: message.payload)
        #expect(json["unique_id"] == .string("travel_companion_owntracks_jane_my_car"))
        #expect(json["json_attributes_topic"] == .string("owntracks/jane/my car"))
        #expect(json["state_topic"] == nil)
        #expect(json["source_type"] == .string("gps"))
        #expect(json["name"] == .null)
        let template = try #require(json["json_attributes_template"]?.stringValue)
        for attribute in [
            "'latitude': value_json.lat", "'longitude': value_json.lon", "'gps_accuracy': value_json.acc",
        ] {
            #expect(template.contains(attribute))
        }
        #expect(json["device"]?["identifiers"] == .array([.string("travel_companion_owntracks_jane_my_car")]))
        #expect(json["device"]?["name"] == .string("my car"))
    }

    @Test func theDefaultTrackerIDIsTheLastTwoCharactersOfTheDevice() {
        #expect(OwnTracksSettings.defaultTrackerID(forTopic: "owntracks/jane/car") == "ar")
        #expect(OwnTracksSettings.defaultTrackerID(forTopic: "owntracks/jane/x") == "x")
    }

    // MARK: OsmAnd

    @Test func aRoutePointIsAMovingOsmAndPointInKnots() {
        let query = OsmAndQuery(deviceID: "car 1&2").pathAndQuery(for: Self.routeItem())
        #expect(
            query
                == "/?id=car%201%262&timestamp=1550475902&lat=45.2831012&lon=-13.7212&speed=27.02&bearing=0"
                + "&altitude=152.6&accuracy=5&motion=true"
        )
    }

    @Test(arguments: [(OsmAndSpeedUnit.knots, "27.02"), (.kmh, "50.04"), (.mps, "13.9")])
    func speedIsInTheConfiguredUnit(unit: OsmAndSpeedUnit, speed: String) throws {
        let query = try #require(OsmAndQuery(deviceID: "1", speedUnit: unit).pathAndQuery(for: Self.routeItem()))
        #expect(query.contains("&speed=\(speed)&"))
    }

    @Test func aHeartbeatAndATripsEndAreNotMoving() {
        let bare = RoutePoint(time: Self.time, coordinate: Coordinate(latitude: 1.5, longitude: 2.5))
        #expect(
            OsmAndQuery(deviceID: "7").heartbeat(bare)
                == "/?id=7&timestamp=1550475902&lat=1.5&lon=2.5&accuracy=10&motion=false"
        )
        let trip = TripSummary(
            startTime: Self.tripStart,
            endTime: Self.time,
            start: Coordinate(latitude: 1, longitude: 2),
            end: Coordinate(latitude: 1.5, longitude: 2.5),
            distance: 2_000
        )
        let item = UplinkItem(stream: .tripEnd, key: Self.time.milliseconds, event: .tripEnded(trip))
        #expect(
            OsmAndQuery(deviceID: "7").pathAndQuery(for: item)
                == "/?id=7&timestamp=1550475902&lat=1.5&lon=2.5&speed=0&accuracy=10&motion=false"
                + "&trip_start=1550475000&trip_km=2&trip_min=15"
        )
    }

    @Test func zoneEventsAndPOIAlertsCarryTheirNamesEncoded() {
        let event = ZoneEvent(
            time: Self.time,
            zoneID: 3,
            zoneName: "Café & Bar",
            kind: .exit,
            coordinate: Coordinate(latitude: 1, longitude: 2),
            tripStart: Self.tripStart
        )
        let zone = UplinkItem(stream: .zone, key: Self.time.milliseconds, event: .zone(event))
        #expect(
            OsmAndQuery(deviceID: "7").pathAndQuery(for: zone)
                == "/?id=7&timestamp=1550475902&lat=1&lon=2&accuracy=10&motion=true&zone=Caf%C3%A9%20%26%20Bar"
                + "&zone_event=leave"
        )
        let alert = NearbyAlert(
            time: Self.time,
            poiID: 1,
            poiName: "a=b",
            category: nil,
            coordinate: Coordinate(latitude: 1, longitude: 2),
            distance: 5
        )
        let nearby = UplinkItem(stream: .nearby, key: Self.time.milliseconds, event: .nearby(alert))
        #expect(
            OsmAndQuery(deviceID: "7").pathAndQuery(for: nearby)
                == "/?id=7&timestamp=1550475902&lat=1&lon=2&accuracy=10&motion=false&poi=a%3Db"
        )
    }
}
