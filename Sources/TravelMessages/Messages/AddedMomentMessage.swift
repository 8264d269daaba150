public import TravelFormats
public import TravelCore

/// A note or photo just added, as `AddNote` and `AddPhoto` answer with it (the IDL's `Moment`):
/// when, where (`latitude`/`longitude`, `null` outside every trip and known stop) and the journey
/// holding it.
public struct AddedMomentMessage: Sendable, Hashable {
    public var id: Int64
    public var time: UTCTime
    public var coordinate: Coordinate?
    public var journeyID: Int64?

    public init(id: Int64, time: UTCTime, coordinate: Coordinate?, journeyID: Int64?) {
        self.id = id
        self.time = time
        self.coordinate = coordinate
        self.journeyID = journeyID
    }

    public var json: JSONValue {
        [
            "id": .integer(id), "time": .string(time.iso8601),
            "latitude": coordinate.map { .double($0.latitude) } ?? .null,
            "longitude": coordinate.map { .double($0.longitude) } ?? .null,
            "journey_id": journeyID.map(JSONValue.integer) ?? .null,
        ]
    }

    /// Reads back what `json` wrote; a missing or mistyped member throws.
    public init(_ fields: JSONFields) throws(MessageFieldError) {
        let latitude = try fields.optionalNumber("latitude")
        let longitude = try fields.optionalNumber("longitude")
        self.init(
            id: try fields.integer("id"),
            time: try fields.time("time"),
            coordinate: latitude.flatMap { latitude in longitude.map { Coordinate(latitude: latitude, longitude: $0) }
            },
            journeyID: try fields.optionalInteger("journey_id")
        )
    }
}
