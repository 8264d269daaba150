/// Writes trips and stops as one GPX, GeoJSON or KML document, handing the bytes to `sink` in
/// blocks of about `flushThreshold` bytes. A trip's route comes point by point, in as many pieces
/// as the caller likes, so exporting years of history, or a trip of days, needs no more memory
/// than one block and one piece.
///
/// Call order: every stop, then every note and photo, then every trip (`beginTrip`, its points,
/// `endTrip`), then `finish()` (GPX 1.1 requires waypoints before tracks). Points that cannot be
/// placed on the globe (non-finite or out-of-range latitude or longitude) are left out rather than
/// written as invalid numbers.
package struct ExportWriter<Failure: Error> {
    private var encoding: any ExportEncoding
    private var buffer: [UInt8] = []
    private let flushThreshold: Int
    private let sink: ([UInt8]) throws(Failure) -> Void
    private let format: ExportFormat
    private var hasTrips = false
    /// The points the open trip's shape announced and those written so far; `nil` between trips.
    private var openTrip: (announced: Int?, written: Int)?

    /// Starts a document named `title`; nothing reaches `sink` before the first full block.
    package init(
        format: ExportFormat,
        title: String,
        flushThreshold: Int = 1 << 16,
        sink: @escaping (_ bytes: [UInt8]) throws(Failure) -> Void
    ) {
        encoding =
            switch format {
            case .gpx: GPXEncoding()
            case .geojson: GeoJSONEncoding()
            case .kml: KMLEncoding()
            }
        self.format = format
        self.flushThreshold = flushThreshold
        self.sink = sink
        buffer.reserveCapacity(flushThreshold + 4096)
        encoding.begin(title: title, into: &buffer)
    }

    /// Adds a stop as a waypoint; all stops come before the first trip.
    package mutating func add(_ stop: ExportStop) throws(Failure) {
        precondition(!hasTrips, "stops are written before trips")
        guard stop.coordinate.isExportable else { return }
        encoding.stop(stop, into: &buffer)
        try flushIfFull()
    }

    /// Adds a note or a photo as a waypoint; all of them come after the stops, before the first trip.
    package mutating func add(_ moment: ExportMoment) throws(Failure) {
        precondition(!hasTrips, "notes and photos are written before trips")
        guard moment.coordinate.isExportable else { return }
        encoding.moment(moment, into: &buffer)
        try flushIfFull()
    }

    /// Adds a trip with its whole route, in time order.
    package mutating func add(_ trip: ExportTrip, route: [RoutePoint]) throws(Failure) {
        beginTrip(trip, shape: format.needsRouteShape ? ExportRouteShape(route: route) : nil)
        for point in route { try add(point) }
        try endTrip()
    }

    /// Starts a trip whose route points follow through `add(_:)`, in time order. `shape` is the
    /// shape of exactly those points, measured beforehand; it may be `nil` when the format does
    /// not `needsRouteShape`.
    package mutating func beginTrip(_ trip: ExportTrip, shape: ExportRouteShape?) {
        precondition(openTrip == nil, "the previous trip is ended first")
        precondition(shape != nil || !format.needsRouteShape, "\(format) needs the route's shape")
        hasTrips = true
        openTrip = (shape?.count, 0)
        encoding.beginTrip(trip, shape: shape ?? ExportRouteShape(), into: &buffer)
    }

    /// Adds the open trip's next route point.
    package mutating func add(_ point: RoutePoint) throws(Failure) {
        guard point.coordinate.isExportable else { return }
        openTrip?.written += 1
        encoding.point(point, into: &buffer)
        try flushIfFull()
    }

    /// Ends the open trip.
    package mutating func endTrip() throws(Failure) {
        precondition(openTrip != nil, "a trip is begun first")
        assert(openTrip?.announced.map { $0 == openTrip?.written } != false, "the route's shape told another count")
        openTrip = nil
        encoding.endTrip(into: &buffer)
        try flushIfFull()
    }

    /// Closes the document and hands over the last bytes.
    package mutating func finish() throws(Failure) {
        encoding.end(into: &buffer)
        try sink(buffer)
        buffer.removeAll()
    }

    private mutating func flushIfFull() throws(Failure) {
        guard buffer.count >= flushThreshold else { return }
        try sink(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// One format's syntax: each call appends the bytes of one part of the document.
protocol ExportEncoding {
    mutating func begin(title: String, into output: inout [UInt8])
    mutating func stop(_ stop: ExportStop, into output: inout [UInt8])
    mutating func moment(_ moment: ExportMoment, into output: inout [UInt8])
    /// `shape` is that of the points `point` will then receive, for formats that must look ahead
    /// (an empty shape for a format that does not `needsRouteShape`).
    mutating func beginTrip(_ trip: ExportTrip, shape: ExportRouteShape, into output: inout [UInt8])
    mutating func point(_ point: RoutePoint, into output: inout [UInt8])
    mutating func endTrip(into output: inout [UInt8])
    mutating func end(into output: inout [UInt8])
}

extension Coordinate {
    /// Whether every format can write this position: a real latitude and a finite longitude.
    var isExportable: Bool { latitude.magnitude <= 90 && longitude.isFinite }

    /// Longitude in [−180, 180], as all three formats expect (receivers give it so already).
    var exportLongitude: Double { longitude.magnitude < 180 ? longitude : Degrees.normalized(longitude) }
}

extension RoutePoint {
    /// The altitude if it is a plausible number (within 10 000 km of sea level), else `nil`.
    var exportAltitude: Double? {
        guard let altitude, altitude.magnitude < 1e7 else { return nil }
        return altitude
    }
}
