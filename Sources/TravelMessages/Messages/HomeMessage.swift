package import TravelCore
package import TravelFormats

/// `home --json`: whether home is known, where and how, and the nights that tell.
package struct HomeMessage: Sendable, Hashable {
    /// Places the vehicle spent nights at, and the nights recorded anywhere.
    package var places: Int
    package var nightsRecorded: Int
    /// Home, once configured or learned.
    package var home: Known?

    /// A known home.
    package struct Known: Sendable, Hashable {
        package var source: Home.Source
        package var coordinate: Coordinate
        package var nightsAtHome: Int
        /// 0 to 1, to 0.01.
        package var confidence: Double
        /// Where the vehicle spends its nights instead of a configured home near it (`Home.nightsElsewhere`).
        package var nightsElsewhere: Home.NightPlace?

        package init(
            source: Home.Source,
            coordinate: Coordinate,
            nightsAtHome: Int,
            confidence: Double,
            nightsElsewhere: Home.NightPlace? = nil
        ) {
            self.nightsElsewhere = nightsElsewhere
            self.source = source
            self.coordinate = coordinate
            self.nightsAtHome = nightsAtHome
            self.confidence = confidence
        }
    }

    package init(places: Int, nightsRecorded: Int, home: Known?) {
        self.places = places
        self.nightsRecorded = nightsRecorded
        self.home = home
    }

    /// The wire's home of `places`, `home` known or not; confidence to 0.01.
    package init(places: PlaceMap, home: Home?) {
        self.init(
            places: places.places.count,
            nightsRecorded: places.nightsRecorded,
            home: home.map {
                Known(
                    source: $0.source,
                    coordinate: $0.coordinate,
                    nightsAtHome: $0.nightsAtHome,
                    confidence: ($0.confidence * 100).rounded() / 100,
                    nightsElsewhere: $0.nightsElsewhere.map {
                        Home.NightPlace(coordinate: $0.coordinate, nights: $0.nights, distance: $0.distance.rounded())
                    }
                )
            }
        )
    }

    package var json: JSONValue {
        var members: [JSONValue.Member] = [
            .init("known", .bool(home != nil)),
            .init("places", .integer(Int64(places))),
            .init("nights_recorded", .integer(Int64(nightsRecorded))),
        ]
        if let home {
            members += [
                .init("source", .string(home.source.rawValue)),
                .init("lat", .double(home.coordinate.latitude)),
                .init("lon", .double(home.coordinate.longitude)),
                .init("nights_at_home", .integer(Int64(home.nightsAtHome))),
                .init("confidence", .double(home.confidence)),
            ]
            if let elsewhere = home.nightsElsewhere {
                members.append(
                    .init(
                        "nights_elsewhere",
                        .object([
                            .init("lat", .double(elsewhere.coordinate.latitude)),
                            .init("lon", .double(elsewhere.coordinate.longitude)),
                            .init("nights", .integer(Int64(elsewhere.nights))),
                            .init("distance_m", .double(elsewhere.distance)),
                        ])
                    )
                )
            }
        }
        return .object(members)
    }

    /// Reads back what `json` wrote; a missing or mistyped member throws.
    package init(_ fields: JSONFields) throws(MessageFieldError) {
        var home: Known?
        if try fields.bool("known") {
            home = Known(
                source: try fields.enumeration("source"),
                coordinate: try fields.coordinate(),
                nightsAtHome: Int(clamping: try fields.integer("nights_at_home")),
                confidence: try fields.number("confidence"),
                nightsElsewhere: try fields.optionalObject("nights_elsewhere") { (place) throws(MessageFieldError) in
                    Home.NightPlace(
                        coordinate: try place.coordinate(),
                        nights: Int(clamping: try place.integer("nights")),
                        distance: try place.number("distance_m")
                    )
                }
            )
        }
        self.init(
            places: Int(clamping: try fields.integer("places")),
            nightsRecorded: Int(clamping: try fields.integer("nights_recorded")),
            home: home
        )
    }
}
