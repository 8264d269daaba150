#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
package import TravelCore

/// The route points of the trip in progress that are not in the database yet, in an append-only
/// file beside it (`PATH-spool`): what lets the daemon commit to SQLite every few minutes while
/// still handing each flush's points to the kernel.
///
/// Why: every SQLite commit rewrites whole pages (the route's last leaf, the trip's row and its
/// index, the WAL index in `-shm`), so at one commit per flush the card wore several times what
/// a plain log of the same fixes costs. An append here is one `write` of 64 bytes a point; the
/// points reach the database with the next commit, which empties the file once that commit is on
/// the card. After a power cut, the next start replays what the file holds (`TrackingRecorder`).
///
/// Format (docs/schema.md): fixed 64-byte records, little-endian: a presence mask (bit 0 altitude,
/// 1 speed, 2 track, 3 horizontal error), 3 zero bytes, the time in milliseconds (Int64), latitude,
/// longitude, altitude, speed, track and error (Float64, 0 when absent) and an FNV-1a checksum
/// (UInt32) of the 60 bytes before it. Reading stops at the first short or corrupt record: what a
/// write torn by a power cut leaves.
///
/// The same file carries the uplinks' cursors between commits, so a daemon killed mid-drain
/// resends only what followed its last flush: a record whose first byte has bit 7 set, with the
/// stream's number in its low bits (`UplinkStream.allCases` order), the uplink's number
/// (`uplinkNames`) in the second byte, and the cursor's key where a point has its time.
package final class RouteSpool {
    /// The spool file.
    package let path: String
    private let descriptor: Int32
    /// Bytes of whole records in the file: where the next append goes.
    private var length: Int64

    /// Bytes per record.
    static let recordSize = 64

    /// Opens (or creates, mode 0640 like the database) the spool of the database at `databasePath`.
    package init(databasePath: String) throws(StoreError) {
        path = databasePath + "-spool"
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o640)
        guard descriptor >= 0 else { throw .spoolFailed(path: path, reason: Self.errorText()) }
        var info = stat()
        fstat(descriptor, &info)
        // A torn last record is cut off, so appends stay aligned.
        length = Int64(info.st_size) - Int64(info.st_size) % Int64(Self.recordSize)
    }

    deinit { close(descriptor) }

    /// Whether the file holds no point.
    package var isEmpty: Bool { length == 0 }

    /// The uplinks whose cursors a spool can hold, by their number in its records.
    package static let uplinkNames = ["mqtt", "traccar"]

    /// What a record holds.
    package enum Record: Equatable {
        case point(RoutePoint)
        /// An uplink's cursor in one stream, as a flush left it.
        case cursor(uplink: String, stream: UplinkStream, key: Int64)
    }

    /// Appends `points`, then the `cursors` of the uplinks it knows, in one write. On failure (a
    /// full disk) the file is cut back to what it held, so a retry appends them whole.
    package func append(
        _ points: some Collection<RoutePoint>,
        cursors: [String: UplinkCursor] = [:]
    ) throws(StoreError) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(points.count * Self.recordSize)
        for point in points { Self.encode(point, into: &bytes) }
        for (uplink, cursor) in cursors.sorted(by: { $0.key < $1.key }) {
            guard let number = Self.uplinkNames.firstIndex(of: uplink) else { continue }
            for (stream, key) in cursor.keys.sorted(by: { $0.key.number < $1.key.number }) {
                Self.encodeCursor(uplink: UInt8(number), stream: stream, key: key, into: &bytes)
            }
        }
        guard !bytes.isEmpty else { return }
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(length)) }
        guard written == bytes.count else {
            let reason = written < 0 ? Self.errorText() : "only \(written) of \(bytes.count) bytes written"
            _ = ftruncate(descriptor, off_t(length))
            throw .spoolFailed(path: path, reason: reason)
        }
        length += Int64(bytes.count)
    }

    /// Empties the file: its points are in a commit the card holds.
    package func clear() throws(StoreError) {
        guard length > 0 else { return }
        guard ftruncate(descriptor, 0) == 0 else {
            throw .spoolFailed(path: path, reason: Self.errorText())
        }
        length = 0
    }

    /// The points the file holds, oldest first, up to the first torn or corrupt record.
    package func points() -> [RoutePoint] {
        records().compactMap { record in
            if case .point(let point) = record { point } else { nil }
        }
    }

    /// The last cursor each uplink's records in the file give, per stream.
    package func cursors() -> [String: UplinkCursor] {
        var cursors: [String: UplinkCursor] = [:]
        for case .cursor(let uplink, let stream, let key) in records() {
            cursors[uplink, default: UplinkCursor()][stream] = key
        }
        return cursors
    }

    /// The records the file holds, oldest first, up to the first torn or corrupt one.
    package func records() -> [Record] {
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        var records: [Record] = []
        var offset = 0
        while offset + Self.recordSize <= max(count, 0),
            let record = Self.decode(bytes[offset..<offset + Self.recordSize])
        {
            records.append(record)
            offset += Self.recordSize
        }
        return records
    }

    static func encode(_ point: RoutePoint, into bytes: inout [UInt8]) {
        let optionals = [point.altitude, point.speed, point.track, point.horizontalError]
        var mask: UInt8 = 0
        for (bit, value) in optionals.enumerated() where value != nil { mask |= 1 << bit }
        let values = [point.coordinate.latitude, point.coordinate.longitude] + optionals.map { $0 ?? 0 }
        encodeRecord(head: [mask, 0], time: point.time.milliseconds, values: values, into: &bytes)
    }

    static func encodeCursor(uplink: UInt8, stream: UplinkStream, key: Int64, into bytes: inout [UInt8]) {
        let head = [cursorFlag | UInt8(stream.number), uplink]
        encodeRecord(head: head, time: key, values: Array(repeating: 0, count: 6), into: &bytes)
    }

    /// Bit 7 of a record's first byte: the record is an uplink's cursor, not a point.
    private static let cursorFlag: UInt8 = 0x80

    private static func encodeRecord(head: [UInt8], time: Int64, values: [Double], into bytes: inout [UInt8]) {
        let start = bytes.count
        bytes.append(contentsOf: head + [0, 0])
        append(UInt64(bitPattern: time), to: &bytes)
        for value in values { append(value.bitPattern, to: &bytes) }
        let checksum = fnv1a(bytes[start...])
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: checksum >> shift)) }
    }

    static func decode(_ record: ArraySlice<UInt8>) -> Record? {
        let base = record.startIndex
        func word(_ at: Int) -> UInt64 {
            (0..<8).reduce(0) { $0 | UInt64(record[base + at + $1]) << (8 * $1) }
        }
        let stored = (0..<4).reduce(UInt32(0)) { $0 | UInt32(record[base + 60 + $1]) << (8 * $1) }
        guard stored == fnv1a(record[base..<base + 60]) else { return nil }
        let time = Int64(bitPattern: word(4))
        if record[base] & cursorFlag != 0 {
            let number = Int(record[base] & ~cursorFlag)
            let uplink = Int(record[base + 1])
            guard number < UplinkStream.allCases.count, uplink < uplinkNames.count else { return nil }
            return .cursor(uplink: uplinkNames[uplink], stream: UplinkStream.allCases[number], key: time)
        }
        guard record[base] < 16 else { return nil }
        let mask = record[base]
        let values = (0..<6).map { Double(bitPattern: word(12 + 8 * $0)) }
        func optional(_ bit: Int) -> Double? { mask & (1 << bit) != 0 ? values[2 + bit] : nil }
        let point = RoutePoint(
            time: UTCTime(milliseconds: time),
            coordinate: Coordinate(latitude: values[0], longitude: values[1]),
            altitude: optional(0),
            speed: optional(1),
            track: optional(2),
            horizontalError: optional(3)
        )
        return .point(point)
    }

    private static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    private static func fnv1a(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.reduce(2_166_136_261) { ($0 ^ UInt32($1)) &* 16_777_619 }
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}

extension UplinkStream {
    /// The stream's number in a spool's cursor records.
    var number: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}
