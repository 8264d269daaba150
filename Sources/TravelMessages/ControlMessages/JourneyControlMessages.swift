package import TravelControl
package import TravelCore
package import TravelFormats

/// `ListJourneys`: the journeys starting within the bounds whose destination contains
/// `destination`, of one `type`, mentioning every word of `search`; every one given must hold.
package struct ListJourneysParameters: ControlParameters, Hashable {
    package var since: TimeBound?
    package var until: TimeBound?
    package var destination: String?
    package var type: JourneyType?
    package var search: String?

    package init(since: TimeBound?, until: TimeBound?, destination: String?, type: JourneyType?, search: String?) {
        self.since = since
        self.until = until
        self.destination = destination
        self.type = type
        self.search = search
    }

    package var json: JSONValue {
        [
            "since": since.parameter, "until": until.parameter,
            "destination": destination.map(JSONValue.string) ?? .null,
            "type": type.map { .string($0.rawValue) } ?? .null, "search": search.map(JSONValue.string) ?? .null,
        ]
    }

    package init(_ call: VarlinkCall) throws(VarlinkError) {
        try call.allowParameters(["since", "until", "destination", "type", "search"])
        let since = try call.timeBound("since")
        let until = try call.timeBound("until")
        let destination = try call.string("destination")
        let type = try call.string("type").map { text throws(VarlinkError) in
            guard let type = JourneyType(rawValue: text) else { throw .invalidParameter("type") }
            return type
        }
        self.init(since: since, until: until, destination: destination, type: type, search: try call.string("search"))
    }
}

/// `ListJourneys`' answer: `journeys` (`journeys --json`), the zone their local dates are in, and
/// what the table says around them: whether home is known and whether any trip is stored.
package struct ListJourneysReply: ControlReply, Hashable {
    package var journeys: [JourneyMessage]
    package var timeZone: String?
    package var utcOffset: String?
    package var homeKnown: Bool
    package var hasTrips: Bool

    package init(journeys: [JourneyMessage], timeZone: String?, utcOffset: String?, homeKnown: Bool, hasTrips: Bool) {
        self.journeys = journeys
        self.timeZone = timeZone
        self.utcOffset = utcOffset
        self.homeKnown = homeKnown
        self.hasTrips = hasTrips
    }

    package var json: JSONValue {
        [
            "journeys": .array(journeys.map(\.json)), "time_zone": timeZone.map(JSONValue.string) ?? .null,
            "utc_offset": utcOffset.map(JSONValue.string) ?? .null, "home_known": .bool(homeKnown),
            "has_trips": .bool(hasTrips),
        ]
    }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(
            journeys: try fields.array("journeys", JourneyMessage.init),
            timeZone: try fields.optionalString("time_zone"),
            utcOffset: try fields.optionalString("utc_offset"),
            homeKnown: try fields.bool("home_known"),
            hasTrips: try fields.bool("has_trips")
        )
    }
}

/// `GetJourney`'s answer: `journey` (`journey show --json`) and the zone its table's times are in.
package struct GetJourneyReply: ControlReply, Hashable {
    package var journey: JourneyDetailMessage
    package var timeZone: String?
    package var utcOffset: String?

    package init(journey: JourneyDetailMessage, timeZone: String?, utcOffset: String?) {
        self.journey = journey
        self.timeZone = timeZone
        self.utcOffset = utcOffset
    }

    package var json: JSONValue {
        [
            "journey": journey.json, "time_zone": timeZone.map(JSONValue.string) ?? .null,
            "utc_offset": utcOffset.map(JSONValue.string) ?? .null,
        ]
    }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(
            journey: try fields.object("journey", JourneyDetailMessage.init),
            timeZone: try fields.optionalString("time_zone"),
            utcOffset: try fields.optionalString("utc_offset")
        )
    }
}

/// `GetHome`'s answer: `home` (`home --json`), the area's radius in metres, and the zone local
/// days are counted in, which its table tells.
package struct GetHomeReply: ControlReply, Hashable {
    package var home: HomeMessage
    package var radius: Double
    package var timeZone: String?
    package var utcOffset: String?

    package init(home: HomeMessage, radius: Double, timeZone: String?, utcOffset: String?) {
        self.home = home
        self.radius = radius
        self.timeZone = timeZone
        self.utcOffset = utcOffset
    }

    package var json: JSONValue {
        [
            "home": home.json, "radius_m": .double(radius), "time_zone": timeZone.map(JSONValue.string) ?? .null,
            "utc_offset": utcOffset.map(JSONValue.string) ?? .null,
        ]
    }

    package init(_ fields: JSONFields) throws(MessageFieldError) {
        self.init(
            home: try fields.object("home", HomeMessage.init),
            radius: try fields.number("radius_m"),
            timeZone: try fields.optionalString("time_zone"),
            utcOffset: try fields.optionalString("utc_offset")
        )
    }
}
