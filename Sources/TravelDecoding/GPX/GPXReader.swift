internal import TravelCore
package import TravelFormats

/// Reads GPX 1.0 and 1.1 files (as written by Garmin devices, phone apps, Strava, OsmAnd…) into
/// fixes and waypoints, without an XML library.
///
/// Elements are matched by local name, so namespace prefixes (`gpx:trkpt`) do not matter. Track
/// points are `trkpt` in `trk/trkseg`, route points `rtept` in `rte`, waypoints `wpt` in `gpx`.
/// A point becomes a `Fix` with source `.gpx`: time from `<time>`, altitude above MSL from `<ele>`,
/// mode 3D when `<ele>` is present (2D otherwise, or as `<fix>` says), `hdop`/`vdop`/`pdop`, `sat`,
/// and speed and course from GPX 1.0's `<speed>`/`<course>` or, failing those, from any extension
/// element of that local name (Garmin's `gpxtpx:speed`, OsmAnd's `speed`). Unknown elements are
/// ignored. Points without a valid latitude and longitude are counted in `skippedPoints`, never
/// fatal; broken markup is, with its byte offset. Anything after the root element is ignored.
/// Input that ends inside the root element (a logger that lost power, a copy cut short) is not an
/// error: every point complete before the cut is kept and `truncation` says where it ended.
package enum GPXReader {
    /// Reads a whole document from its UTF-8 bytes.
    package static func read(_ bytes: [UInt8]) throws(GPXError) -> GPXDocument {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            throw GPXError(offset: 0, reason: .unsupportedEncoding)
        }
        var builder = GPXDocumentBuilder(bytes: bytes)
        return try builder.build()
    }
}

/// The elements the reader acts on, by local name.
private enum GPXElement {
    case gpx, trk, trkseg, trkpt, rte, rtept, wpt
    case name, ele, time, hdop, vdop, pdop, sat, speed, course, fix, type, sym, geoidheight
    case other

    init(localName: String) {
        self =
            switch localName {
            case "gpx": .gpx
            case "trk": .trk
            case "trkseg": .trkseg
            case "trkpt": .trkpt
            case "rte": .rte
            case "rtept": .rtept
            case "wpt": .wpt
            case "name": .name
            case "ele": .ele
            case "time": .time
            case "hdop": .hdop
            case "vdop": .vdop
            case "pdop": .pdop
            case "sat": .sat
            case "speed": .speed
            case "course": .course
            case "fix": .fix
            case "type": .type
            case "sym": .sym
            case "geoidheight": .geoidheight
            default: .other
            }
    }
}

/// The child values of one `trkpt`, `rtept` or `wpt`, gathered until its end tag.
private struct GPXPoint {
    var element: GPXElement
    /// How many elements enclose the point.
    var depth: Int
    var latitude: Double?
    var longitude: Double?
    var values: [GPXElement: String] = [:]
    /// `speed`/`course` found deeper, in `<extensions>`; used when the direct child is absent.
    var extensionValues: [GPXElement: String] = [:]

    var coordinate: Coordinate? {
        guard let latitude, let longitude, (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            return nil
        }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    func number(_ element: GPXElement) -> Double? {
        (values[element] ?? extensionValues[element]).flatMap(GPXDocumentBuilder.number)
    }

    var time: UTCTime? { values[.time].flatMap(GPXDocumentBuilder.time) }

    func fix(at coordinate: Coordinate) -> Fix {
        let elevation = number(.ele)
        var fix = Fix(
            time: time,
            mode: elevation == nil ? .twoD : .threeD,
            latitude: coordinate.latitude,
            longitude: coordinate.longitude,
            altitudeMSL: elevation,
            geoidSeparation: number(.geoidheight),
            speed: number(.speed),
            track: number(.course),
            hdop: number(.hdop),
            vdop: number(.vdop),
            pdop: number(.pdop),
            satellitesUsed: values[.sat].flatMap { Int($0) },
            source: .gpx
        )
        fix.timeOfDay = fix.time.map { Int32($0.dayAndTimeOfDay.millisecondOfDay) }
        switch values[.fix] {
        case "none"?: fix.mode = .noFix
        case "2d"?: fix.mode = .twoD
        case "3d"?: fix.mode = .threeD
        case "dgps"?: fix.quality = .dgps
        case "pps"?: fix.quality = .pps
        default: break
        }
        return fix
    }
}

/// One pass over the tokens, keeping the stack of open elements and the track, segment, route or
/// point under construction.
private struct GPXDocumentBuilder {
    private var scanner: XMLScanner
    private var document = GPXDocument()
    private var open: [(element: GPXElement, name: Range<Int>)] = []
    private var track: GPXTrack?
    private var segment: [Fix]?
    private var route: GPXTrack?
    private var point: GPXPoint?
    /// The character data of the innermost element, collected while it may be a value we keep.
    private var text: [UInt8] = []

    init(bytes: [UInt8]) {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        scanner = XMLScanner(bytes: bytes, position: bytes.starts(with: bom) ? 3 : 0)
    }

    mutating func build() throws(GPXError) -> GPXDocument {
        do {
            while let token = try scanner.next() {
                switch token {
                case .startTag(let tag):
                    try start(tag)
                    if open.isEmpty { return document }
                case .endTag(let name, let offset):
                    try end(name: name, offset: offset)
                    if open.isEmpty { return document }
                case .text(let range):
                    if isCollectingText { text.append(contentsOf: scanner.decoded(range)) }
                case .cdata(let range):
                    if isCollectingText { text.append(contentsOf: scanner.bytes[range]) }
                }
            }
        } catch {
            // Only the end of the input is forgiven, and only once the root is open.
            guard case .unexpectedEnd = error.reason, !open.isEmpty else { throw error }
            return cutShort(error)
        }
        guard let innermost = open.last else { throw GPXError(offset: scanner.position, reason: .noRootElement) }
        return cutShort(
            GPXError(offset: scanner.position, reason: .unexpectedEnd(inside: "<\(string(innermost.name))>"))
        )
    }

    /// The document as far as the input went: the point being read is dropped (its values may be
    /// cut too), the open segment, track and route are kept with the points they completed.
    private mutating func cutShort(_ error: GPXError) -> GPXDocument {
        if let segment { track?.segments.append(segment) }
        if let track { document.tracks.append(track) }
        if let route { document.routes.append(route) }
        document.truncation = error
        return document
    }

    private var isCollectingText: Bool { point != nil || open.last?.element == .name }

    private mutating func start(_ tag: XMLScanner.StartTag) throws(GPXError) {
        let element = GPXElement(localName: localName(tag.name))
        if open.isEmpty {
            guard element == .gpx else { throw GPXError(offset: tag.offset, reason: .notGPX(root: string(tag.name))) }
            document.version = attribute("version", of: tag)
        }
        let parent = open.last?.element
        switch (element, parent) {
        case (.trk, .gpx): track = GPXTrack()
        case (.trkseg, .trk): segment = []
        case (.rte, .gpx): route = GPXTrack(segments: [[]])
        case (.trkpt, .trkseg), (.rtept, .rte), (.wpt, .gpx):
            guard point == nil else { break }
            point = GPXPoint(
                element: element,
                depth: open.count,
                latitude: attribute("lat", of: tag).flatMap(Self.number),
                longitude: attribute("lon", of: tag).flatMap(Self.number)
            )
        default: break
        }
        text.removeAll(keepingCapacity: true)
        open.append((element, tag.name))
        if tag.isEmptyElement { try end(name: tag.name, offset: tag.offset) }
    }

    private mutating func end(name: Range<Int>, offset: Int) throws(GPXError) {
        guard let (element, openName) = open.popLast() else {
            throw GPXError(offset: offset, reason: .malformedMarkup(expected: "a start tag before </\(string(name))>"))
        }
        guard scanner.bytes[name].elementsEqual(scanner.bytes[openName]) else {
            throw GPXError(offset: offset, reason: .mismatchedEndTag(expected: string(openName), found: string(name)))
        }
        let parent = open.last?.element
        let value = String(decoding: text, as: UTF8.self).trimmed
        text.removeAll(keepingCapacity: true)

        if var current = point {
            if element == current.element, open.count == current.depth {
                finishPoint(current)
                return
            }
            if element == .other {
                // Not a value we read.
            } else if parent == current.element, open.count == current.depth + 1 {
                current.values[element] = value
            } else if element == .speed || element == .course {
                current.extensionValues[element] = value
            }
            point = current
            return
        }
        switch (element, parent) {
        case (.name, .trk): track?.name = value
        case (.name, .rte): route?.name = value
        case (.trkseg, _):
            if let segment { track?.segments.append(segment) }
            segment = nil
        case (.trk, _):
            if let track { document.tracks.append(track) }
            track = nil
        case (.rte, _):
            if let route { document.routes.append(route) }
            route = nil
        default: break
        }
    }

    private mutating func finishPoint(_ finished: GPXPoint) {
        point = nil
        guard let coordinate = finished.coordinate else {
            document.skippedPoints += 1
            return
        }
        switch finished.element {
        case .trkpt: segment?.append(finished.fix(at: coordinate))
        case .rtept: route?.segments[0].append(finished.fix(at: coordinate))
        default:
            document.waypoints.append(
                GPXWaypoint(
                    name: finished.values[.name],
                    coordinate: coordinate,
                    elevation: finished.number(.ele),
                    time: finished.time,
                    category: finished.values[.type] ?? finished.values[.sym]
                )
            )
        }
    }

    // MARK: Values

    private func attribute(_ localName: String, of tag: XMLScanner.StartTag) -> String? {
        tag.attributes.last { self.localName($0.name) == localName }
            .map { String(decoding: scanner.decoded($0.value), as: UTF8.self).trimmed }
    }

    private func string(_ range: Range<Int>) -> String { String(decoding: scanner.bytes[range], as: UTF8.self) }

    /// The part of a qualified name after its prefix.
    private func localName(_ name: Range<Int>) -> String {
        let colon = scanner.bytes[name].lastIndex(of: UInt8(ascii: ":"))
        return string(colon.map { ($0 + 1)..<name.upperBound } ?? name)
    }

    /// A finite decimal number; GPX uses `xsd:decimal`, so no `nan` or `inf`.
    static func number(_ text: String) -> Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// `xsd:dateTime` in UTC; a time without a zone designator is taken as UTC, as GPX requires
    /// UTC and some writers omit the `Z`.
    static func time(_ text: String) -> UTCTime? {
        if let time = UTCTime(iso8601: text) { return time }
        guard let last = text.utf8.last, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(last) else { return nil }
        return UTCTime(iso8601: text + "Z")
    }
}

extension String {
    /// Without leading and trailing XML whitespace.
    fileprivate var trimmed: String {
        let utf8 = self.utf8
        guard let first = utf8.firstIndex(where: { !XMLScanner.isWhitespace($0) }),
            let last = utf8.lastIndex(where: { !XMLScanner.isWhitespace($0) })
        else { return "" }
        return String(Substring(utf8[first...last]))
    }
}
