package import TravelCore
package import TravelFormats

/// The receiver-log formats TravelCompanion reads.
package enum LogFormat: String, Sendable, CaseIterable {
    /// NMEA 0183 sentences, as a receiver sends them or a logger recorded them.
    case nmea
    /// gpsd JSON reports, one per line (`gpspipe -w`).
    case gpsd
    /// GPX 1.0/1.1 tracks.
    case gpx

    /// The format of a log from its first meaningful bytes: `{` is gpsd JSON, `<?xml` or `<gpx`
    /// is GPX, anything else NMEA (whose decoder copes with noise before the first sentence).
    /// `nil` while only whitespace has been seen.
    package static func detect(_ prefix: UnsafeRawBufferPointer) -> LogFormat? {
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }  // UTF-8 byte-order mark
        bytes = bytes.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let first = bytes.first else { return nil }
        if first == UInt8(ascii: "{") { return .gpsd }
        if bytes.starts(with: Array("<?xml".utf8)) || bytes.starts(with: Array("<gpx".utf8)) { return .gpx }
        return .nmea
    }
}

/// Decodes a log of any `LogFormat` into fixes, chunk by chunk; the format is fixed up front or
/// detected from the first meaningful bytes. The same path serves `travelctl decode`, `travelctl
/// import` and the daemon's replay source.
package struct LogDecoder: Sendable {
    private enum State: Sendable {
        case undecided
        case nmea(NMEADecoder)
        case gpsd(GPSDDecoder)
        /// GPX is read as a whole document at the end.
        case gpx([UInt8])
        case gpxRead(GPXDocument?, error: GPXError?)
    }

    private var state: State

    /// A decoder for `format`, or one that detects the format when `format` is `nil`.
    package init(format: LogFormat? = nil) {
        switch format {
        case .nmea: state = .nmea(NMEADecoder())
        case .gpsd: state = .gpsd(GPSDDecoder())
        case .gpx: state = .gpx([])
        case nil: state = .undecided
        }
    }

    /// The format in use, once known.
    package var format: LogFormat? {
        switch state {
        case .undecided: nil
        case .nmea: .nmea
        case .gpsd: .gpsd
        case .gpx, .gpxRead: .gpx
        }
    }

    /// Decodes one chunk, handing each completed epoch to `onFix`.
    package mutating func decode(_ chunk: UnsafeRawBufferPointer, onFix: (Fix) -> Void) {
        if case .undecided = state, let format = LogFormat.detect(chunk) {
            self = LogDecoder(format: format)
        }
        switch state {
        case .undecided, .gpxRead:
            return
        case .nmea(var decoder):
            decoder.decode(chunk, onFix: onFix)
            state = .nmea(decoder)
        case .gpsd(var decoder):
            decoder.decode(chunk, onFix: onFix)
            state = .gpsd(decoder)
        case .gpx(var bytes):
            state = .undecided  // release the buffer's uniqueness before appending
            bytes.append(contentsOf: chunk)
            state = .gpx(bytes)
        }
    }

    /// Ends the log: emits the last epoch (or, for GPX, every track point in order).
    package mutating func finish(onFix: (Fix) -> Void) {
        switch state {
        case .undecided, .gpxRead:
            return
        case .nmea(var decoder):
            decoder.finish(onFix: onFix)
            state = .nmea(decoder)
        case .gpsd(var decoder):
            decoder.finish(onFix: onFix)
            state = .gpsd(decoder)
        case .gpx(let bytes):
            do {
                let document = try GPXReader.read(bytes)
                for track in document.tracks + document.routes {
                    for segment in track.segments {
                        for fix in segment { onFix(fix) }
                    }
                }
                state = .gpxRead(document, error: nil)
            } catch {
                state = .gpxRead(nil, error: error)
            }
        }
    }

    /// Why a GPX document could not be read, if it could not.
    package var gpxError: GPXError? {
        if case .gpxRead(_, let error) = state { return error }
        return nil
    }

    /// Whether the log ended inside a GPX document (a logger that lost power): the points before
    /// the cut were delivered, and a summary should say the file was cut short.
    package var endsMidDocument: Bool {
        if case .gpxRead(let document?, _) = state { return document.truncation != nil }
        return false
    }

    /// One line of counters, worded for people (`travelctl decode --stats`, import summaries).
    package var statisticsSummary: String {
        switch state {
        case .undecided:
            return "empty input"
        case .nmea(let decoder):
            let s = decoder.statistics
            return """
                nmea: \(s.sentencesOK) sentences ok, \(s.badChecksum) bad checksum, \
                \(s.missingChecksum) missing checksum, \(s.malformed) malformed, \
                \(s.unknown) unknown or proprietary, \(s.junkBytes) junk bytes, \
                \(s.commentLines) comment lines; \(s.epochs) epochs
                """
        case .gpsd(let decoder):
            let s = decoder.statistics
            let classes = s.messagesByClass.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
            let known = classes.isEmpty ? ["no known messages"] : classes
            let parts = (decoder.version.map { ["\($0)"] } ?? []) + known
            return """
                gpsd: \(parts.joined(separator: ", ")), \(s.ignoredMessages) ignored, \
                \(s.malformedLines) malformed lines; \(s.epochs) epochs
                """
        case .gpx(let bytes):
            return "gpx: \(bytes.count) bytes not yet read"
        case .gpxRead(let document, let error):
            guard let document else { return "gpx: unreadable (\(error.map { "\($0)" } ?? "unknown error"))" }
            let points = (document.tracks + document.routes).reduce(0) { $0 + $1.segments.reduce(0) { $0 + $1.count } }
            return """
                gpx: \(document.tracks.count) tracks, \(document.routes.count) routes, \(points) points, \
                \(document.waypoints.count) waypoints, \(document.skippedPoints) points skipped
                """
        }
    }
}
