public import TravelFormats
public import TravelCore

/// What a GPX file holds that the tracker uses: recorded tracks and planned routes as fixes, and
/// waypoints for the POI import.
public struct GPXDocument: Sendable, Hashable {
    /// `trk` elements, in document order.
    public var tracks: [GPXTrack] = []
    /// `rte` elements, in document order; each has one segment of its `rtept` points.
    public var routes: [GPXTrack] = []
    /// `wpt` elements, in document order.
    public var waypoints: [GPXWaypoint] = []
    /// Points (`trkpt`, `rtept`, `wpt`) left out because latitude or longitude was missing,
    /// unreadable or out of range.
    public var skippedPoints = 0
    /// The root's `version` attribute (`1.0`, `1.1`), when present.
    public var version: String?
    /// Where the input ended inside the document, when it did (a logger that lost power, a copy
    /// cut short): the points completed before that offset are all here, the one being written is
    /// not. `nil` for a complete document.
    public var truncation: GPXError?

    public init() {}
}

/// A track (or route): its name and its segments of fixes. A new segment means the recording was
/// interrupted (receiver off, signal lost), so no distance should be drawn between segments.
public struct GPXTrack: Sendable, Hashable {
    public var name: String?
    /// Fixes in document order, source `.gpx`.
    public var segments: [[Fix]]

    public init(name: String? = nil, segments: [[Fix]] = []) {
        self.name = name
        self.segments = segments
    }
}

/// A named point, imported as a POI.
public struct GPXWaypoint: Sendable, Hashable {
    public var name: String?
    public var coordinate: Coordinate
    /// Elevation, metres.
    public var elevation: Double?
    public var time: UTCTime?
    /// The waypoint's `type`, else its `sym` (symbol name).
    public var category: String?

    public init(
        name: String? = nil,
        coordinate: Coordinate,
        elevation: Double? = nil,
        time: UTCTime? = nil,
        category: String? = nil
    ) {
        self.name = name
        self.coordinate = coordinate
        self.elevation = elevation
        self.time = time
        self.category = category
    }
}
