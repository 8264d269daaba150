package import TravelCore
internal import TravelFormats

/// Turns a gpsd JSON stream (one object per line, as `gpspipe -w` prints or gpsd's socket sends
/// after `?WATCH={"enable":true,"json":true}`) into one `Fix` per receiver epoch.
///
/// gpsd reports an epoch several times as sentences arrive, each TPV with the same `time` and more
/// fields; the decoder merges them (later values win, absent fields keep earlier values) and emits
/// the epoch when a TPV with another time arrives, or at `finish`. SKY reports add dilutions and
/// satellite counts to the epoch in progress. TPVs without a 2D/3D mode are heartbeats: they become
/// fixes carrying their mode but never a position, so a consumer can tell gpsd is alive. Anything
/// else — unknown classes, malformed or over-long lines, chunk boundaries anywhere — is counted in
/// `statistics` and never stops decoding.
package struct GPSDDecoder: Sendable {
    /// Longest line accepted, in bytes without the line end. gpsd's own reports stay far below
    /// this; longer lines are noise and are dropped without being buffered whole.
    package static let maximumLineLength = 65_536

    /// What the stream contained so far.
    package private(set) var statistics = GPSDStatistics()
    /// The version gpsd announced, once its VERSION greeting has been read.
    package private(set) var version: GPSDVersion?
    /// The message of the most recent ERROR report (gpsd's answer to a bad request).
    package private(set) var lastError: String?

    /// The start of a line whose end has not arrived yet.
    private var partialLine: [UInt8] = []
    /// Set while skipping the rest of a line already counted as over-long.
    private var isDiscardingLine = false
    /// The epoch being assembled from TPV and SKY reports.
    private var pendingEpoch: Fix?
    /// A SKY report that arrived before any TPV of its epoch, kept for the next epoch.
    private var heldSky: SKYReport?
    /// The time of the epoch `flushEpoch` emitted early: later TPVs of it are late, not new.
    private var flushedTime: UTCTime?
    /// Receivers gpsd reads as plain NMEA (its `NMEA0183` driver), by path. Their TPVs' `eph` is
    /// not the receiver's estimate but gpsd's model of the HDOP (HDOP × 19 m, ÷ 4 with DGPS, in
    /// 3.22 whatever GST or PGRME says), which the same receiver read directly does not have: it
    /// is dropped, so a receiver gives the same fixes through gpsd as on its serial line.
    private var plainNMEADevices: Set<String> = []

    /// A decoder at the start of a stream (before gpsd's VERSION greeting).
    package init() {}

    /// Decodes one chunk of the stream; lines may be split across chunks at any byte. Calls
    /// `onFix` for every epoch completed by this chunk.
    package mutating func decode(_ bytes: UnsafeRawBufferPointer, onFix: (Fix) -> Void) {
        var lineStart = 0
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\n") else {
                index += 1
                continue
            }
            let chunkPart = UnsafeRawBufferPointer(rebasing: bytes[lineStart..<index])
            if isDiscardingLine {
                isDiscardingLine = false
            } else if partialLine.isEmpty {
                decodeLine(chunkPart, onFix: onFix)
            } else if partialLine.count + chunkPart.count > Self.maximumLineLength + 1 {
                statistics.malformedLines += 1
            } else {
                partialLine.append(contentsOf: chunkPart)
                decodePartialLine(onFix: onFix)
            }
            partialLine.removeAll(keepingCapacity: true)
            index += 1
            lineStart = index
        }
        guard !isDiscardingLine, lineStart < bytes.count else { return }
        let tail = UnsafeRawBufferPointer(rebasing: bytes[lineStart...])
        // One byte of slack for the CR of a CRLF line end.
        if partialLine.count + tail.count > Self.maximumLineLength + 1 {
            statistics.malformedLines += 1
            partialLine.removeAll()
            isDiscardingLine = true
        } else {
            partialLine.append(contentsOf: tail)
        }
    }

    /// Ends the stream: decodes a last line that lacks its line end, then emits the pending epoch.
    /// The decoder can be reused afterwards; statistics, version and last error are kept.
    package mutating func finish(onFix: (Fix) -> Void) {
        if !isDiscardingLine, !partialLine.isEmpty {
            decodePartialLine(onFix: onFix)
        }
        partialLine.removeAll()
        isDiscardingLine = false
        heldSky = nil
        emitPendingEpoch(onFix: onFix)
    }

    /// Emits the epoch in progress now: a live gpsd has gone quiet after it, so no more TPVs of it
    /// are coming (gpsd reports an epoch several times only while it learns a receiver's cycle).
    /// A TPV of the same time that still arrives is counted in `statistics.lateReports` and dropped.
    package mutating func flushEpoch(onFix: (Fix) -> Void) {
        flushedTime = pendingEpoch?.time
        emitPendingEpoch(onFix: onFix)
    }

    /// Whether an epoch is waiting for `flushEpoch`, `finish` or the next epoch.
    package var hasOpenEpoch: Bool { pendingEpoch != nil }

    /// Decodes a whole recorded stream at once, for tests and offline tools.
    package static func decodeAll(_ bytes: [UInt8]) -> [Fix] {
        var decoder = GPSDDecoder()
        var fixes: [Fix] = []
        bytes.withUnsafeBytes { decoder.decode($0) { fixes.append($0) } }
        decoder.finish { fixes.append($0) }
        return fixes
    }

    // MARK: Lines and messages

    /// Decodes the line assembled in `partialLine`, keeping its buffer for the next one.
    private mutating func decodePartialLine(onFix: (Fix) -> Void) {
        var line: [UInt8] = []
        swap(&line, &partialLine)
        line.withUnsafeBytes { decodeLine($0, onFix: onFix) }
        line.removeAll(keepingCapacity: true)
        partialLine = line
    }

    private mutating func decodeLine(_ rawLine: UnsafeRawBufferPointer, onFix: (Fix) -> Void) {
        var line = rawLine
        if let last = line.last, last == UInt8(ascii: "\r") {
            line = UnsafeRawBufferPointer(rebasing: line.dropLast())
        }
        guard line.count <= Self.maximumLineLength else {
            statistics.malformedLines += 1
            return
        }
        guard line.contains(where: { !Self.isWhitespace($0) }) else { return }
        guard let message = try? JSONValue(parsing: line), let members = message.objectMembers,
            let className = message["class"]?.stringValue
        else {
            statistics.malformedLines += 1
            return
        }
        let isDecoded: Bool
        switch className {
        case "TPV":
            isDecoded = decodeTPV(members, onFix: onFix)
        case "SKY":
            isDecoded = decodeSKY(members)
        case "VERSION":
            isDecoded = decodeVersion(message)
        case "ERROR":
            guard let text = message["message"]?.stringValue else {
                isDecoded = false
                break
            }
            lastError = text
            isDecoded = true
        case "DEVICE":
            noteDriver(message)
            isDecoded = true
        case "DEVICES":
            for device in message["devices"]?.arrayValue ?? [] { noteDriver(device) }
            isDecoded = true
        case "WATCH":
            isDecoded = true
        default:
            statistics.ignoredMessages += 1
            statistics.countMessage(ofClass: className, isDecoded: false)
            return
        }
        if isDecoded {
            statistics.countMessage(ofClass: className, isDecoded: true)
        } else {
            statistics.malformedLines += 1
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    private mutating func decodeVersion(_ message: JSONValue) -> Bool {
        guard let release = message["release"]?.stringValue, let major = message["proto_major"]?.intValue,
            let minor = message["proto_minor"]?.intValue
        else { return false }
        version = GPSDVersion(release: release, protocolMajor: major, protocolMinor: minor)
        return true
    }

    // MARK: Epochs

    /// Remembers whether the device a DEVICE object describes is read by gpsd's plain NMEA driver.
    private mutating func noteDriver(_ device: JSONValue) {
        guard let path = device["path"]?.stringValue, let driver = device["driver"]?.stringValue else { return }
        if driver == "NMEA0183" {
            plainNMEADevices.insert(path)
        } else {
            plainNMEADevices.remove(path)
        }
    }

    private mutating func decodeTPV(_ members: [JSONValue.Member], onFix: (Fix) -> Void) -> Bool {
        guard var report = TPVReport(members: members) else { return false }
        statistics.unknownFields += report.unknownFields
        if let device = report.device, plainNMEADevices.contains(device) { report.horizontalError = nil }
        if let time = report.time, let pending = pendingEpoch, pending.time == time {
            report.apply(to: &pendingEpoch!)
            return true
        }
        if let time = report.time, time == flushedTime {
            statistics.lateReports += 1
            return true
        }
        flushedTime = nil
        emitPendingEpoch(onFix: onFix)
        var epoch = Fix(source: .gpsd)
        report.apply(to: &epoch)
        if let sky = heldSky, sky.time == nil || sky.time == epoch.time {
            sky.apply(to: &epoch)
        }
        heldSky = nil
        pendingEpoch = epoch
        return true
    }

    /// A SKY report belongs to the epoch in progress unless its own time says otherwise; one that
    /// arrives before its epoch's first TPV waits for it.
    private mutating func decodeSKY(_ members: [JSONValue.Member]) -> Bool {
        guard let report = SKYReport(members: members) else { return false }
        statistics.unknownFields += report.unknownFields
        if let pending = pendingEpoch, report.time == nil || report.time == pending.time {
            report.apply(to: &pendingEpoch!)
        } else {
            heldSky = report
        }
        return true
    }

    /// Emits the epoch in progress, stripping what a heartbeat must not carry and defaulting the
    /// quality of a real fix to plain GPS.
    private mutating func emitPendingEpoch(onFix: (Fix) -> Void) {
        guard var fix = pendingEpoch else { return }
        pendingEpoch = nil
        if fix.mode >= .twoD {
            if fix.quality == nil { fix.quality = .gps }
        } else {
            fix.quality = nil
            fix.latitude = nil
            fix.longitude = nil
            fix.altitudeMSL = nil
            fix.altitudeHAE = nil
            fix.geoidSeparation = nil
            fix.speed = nil
            fix.track = nil
            fix.magneticVariation = nil
            fix.horizontalError = nil
        }
        statistics.epochs += 1
        onFix(fix)
    }
}
