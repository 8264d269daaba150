internal import TravelFormats

/// The file formats `travelctl export` writes.
package enum ExportFormat: String, Sendable, CaseIterable {
    /// GPX 1.1: what GPS tools, navigation apps and gpsbabel read.
    case gpx
    /// GeoJSON (RFC 7946): what GIS tools and web maps read.
    case geojson
    /// KML 2.2: what Google Earth and many map viewers read.
    case kml
}

/// A trip as an export shows it; the store's record, without depending on the store.
package struct ExportTrip: Sendable, Hashable {
    /// The trip's stable id (`travelctl export --trip ID`).
    package var id: Int64
    /// Times, ends, distance and duration; `endReason == nil` marks an ongoing trip.
    package var summary: TripSummary
    package var startPlace: String?
    package var endPlace: String?
    package var journeyID: Int64?

    package init(id: Int64, summary: TripSummary, startPlace: String?, endPlace: String?, journeyID: Int64?) {
        self.id = id
        self.summary = summary
        self.startPlace = startPlace
        self.endPlace = endPlace
        self.journeyID = journeyID
    }

    /// `Trip 3: Home → Ennis`, the name every format gives the track.
    var name: String {
        let from = startPlace ?? ExportText.coordinate(summary.start)
        if summary.endReason == nil { return "Trip \(id): from \(from) (ongoing)" }
        return "Trip \(id): \(from) → \(endPlace ?? ExportText.coordinate(summary.end))"
    }

    /// `13.9 km in 1 h 14 min`: what a map viewer shows next to the track.
    var description: String {
        "\(HumanText.distance(summary.distance)) in \(HumanText.duration(summary.duration))"
    }
}

/// Where the vehicle stayed between trips, shown as a waypoint.
package struct ExportStop: Sendable, Hashable {
    /// When the vehicle arrived.
    package var arrival: UTCTime
    /// When the next trip started; `nil` while the vehicle is still there.
    package var departure: UTCTime?
    package var coordinate: Coordinate
    /// The place label (zone, POI or coordinates).
    package var name: String
    /// Whether the next trip started elsewhere (`Stay.stoodHere` is false): the vehicle moved
    /// unrecorded, so when it left this spot is unknown and `departure` only bounds it.
    package var movedUnrecorded: Bool

    package init(
        arrival: UTCTime,
        departure: UTCTime?,
        coordinate: Coordinate,
        name: String,
        movedUnrecorded: Bool = false
    ) {
        self.arrival = arrival
        self.departure = departure
        self.coordinate = coordinate
        self.name = name
        self.movedUnrecorded = movedUnrecorded
    }

    /// `Parked from … until …`, in ISO-8601 UTC so every viewer shows the same instant; a stop
    /// the vehicle left unrecorded says so rather than claim it stood there until the next trip.
    var description: String {
        guard let departure else { return "Parked since \(arrival.iso8601)" }
        guard !movedUnrecorded else {
            return
                "Arrived \(arrival.iso8601); moved unrecorded before the next trip, which started elsewhere at \(departure.iso8601)"
        }
        return "Parked from \(arrival.iso8601) until \(departure.iso8601)"
    }

    /// When the vehicle is known to have left: `nil` while it is still there or when it moved unrecorded.
    var knownDeparture: UTCTime? { movedUnrecorded ? nil : departure }
}

/// Short human texts for names and descriptions; the machine values go in their own fields.
enum ExportText {
    /// `52.66123, -8.63012`, for an end no label names.
    static func coordinate(_ coordinate: Coordinate) -> String {
        var bytes: [UInt8] = []
        ExportBytes.appendDecimal(coordinate.latitude, fractionDigits: 5, to: &bytes)
        bytes.appendLiteral(", ")
        ExportBytes.appendDecimal(Degrees.normalized(coordinate.longitude), fractionDigits: 5, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
