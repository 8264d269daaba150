package import TravelCore
package import TravelFormats

/// What a GPX file holds that the tracker uses: recorded tracks and planned routes as fixes, and
/// waypoints for the POI import.
package struct GPXDocument: Sendable, Hashable {
    /// `trk` elements, in document order.
    package var tracks: [GPXTrack] = []
    /// `rte` elements, in document order; each has one segment of its `rtept` points.
    package var routes: [GPXTrack] = []
    /// `wpt` elements, in document order.
    package var waypoints: [GPXWaypoint] = []
    /// Points (`trkpt`, `rtept`, `wpt`) left out because latitude or longitude was missing,
    /// unreadable or out of range.
    package var skippedPoints = 0
    /// The root's `version` attribute (`1.0`, `1.1`), when present.
    package var version: String?
    /// Where the input ended inside the document, when it did (a logger that lost power, a copy
    /// cut short): the points completed before that offset are all here, the one being written is
    /// not. `nil` for a complete document.
    package var truncation: GPXError?

    package init() {}
}

/// A track (or route): its name and its segments of fixes. A new segment means the recording was
/// interrupted (receiver off, signal lost), so no distance should be drawn between segments.
package struct GPXTrack: Sendable, Hashable {
    package var name: String?
    /// Fixes in document order, source `.gpx`.
    package var segments: [[Fix]]

    package init(name: String? = nil, segments: [[Fix]] = []) {
        self.name = name
        self.segments = segments
    }
}

/// A named point, imported as a POI.
package struct GPXWaypoint: Sendable, Hashable {
    package var name: String?
    package var coordinate: Coordinate
    /// Elevation, metres.
    package var elevation: Double?
    package var time: UTCTime?
    /// The waypoint's `type`, else its `sym` (symbol name).
    package var category: String?

    package init(
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
