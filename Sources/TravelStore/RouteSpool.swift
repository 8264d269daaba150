#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
package import TravelCore
internal import TravelFormats

/// The route points of the trip in progress that are not in the database yet, in an append-only
/// file beside it (`PATH-spool`): what lets the daemon commit to SQLite every few minutes while
/// still handing each flush's points to the kernel.
///
/// Why: every SQLite commit rewrites whole pages (the route's last leaf, the trip's row and its
/// index, the WAL index in `-shm`), so at one commit per flush the card wore several times what
/// a plain log of the same fixes costs. An append here is one `write` of 32 bytes a point; the
/// points reach the database with the next commit, which empties the file once that commit is on
/// the card. After a power cut, the next start replays what the file holds (`TrackingRecorder`).
///
/// Format (docs/schema.md): fixed 32-byte records, little-endian. Byte 0: bit 6 set (this
/// format), bit 7 clear for a point, with a presence mask in bits 0–3 (altitude, speed, track,
/// horizontal error); byte 1: 0; bytes 2–7 the time in milliseconds (48-bit signed); then, in
/// `RouteUnits`, latitude and longitude (Int32), altitude and error (Int32), speed and track
/// (UInt16), 0 when absent; bytes 28–31 an FNV-1a checksum (UInt32) of the 28 before it.
/// Reading stops at the first short or corrupt record: what a write torn by a power cut leaves.
///
/// The same file carries the uplinks' cursors between commits, so a daemon killed mid-drain
/// resends only what followed its last flush: a record whose first byte has bit 7 set, with the
/// stream's number in its low bits (`UplinkStream.allCases` order), the uplink's number
/// (`uplinkNames`) in the second byte, and the cursor's key where a point has its time.
///
/// A file in the earlier format (64-byte records of Float64 values, byte 0 without bit 6), left
/// by a version killed before its next commit, is rewritten in this one when opened.
package final class RouteSpool {
    /// The spool file.
    package let path: String
    private let descriptor: Int32
    /// Bytes of whole records in the file: where the next append goes.
    private var length: Int64

    /// Bytes per record.
    static let recordSize = 32
    /// Bytes per record of the earlier format.
    static let earlierRecordSize = 64

    /// Opens (or creates, mode 0640 like the database) the spool of the database at `databasePath`.
    package init(databasePath: String) throws(StoreError) {
        path = databasePath + "-spool"
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o640)
        guard descriptor >= 0 else { throw .spoolFailed(path: path, reason: systemErrorText()) }
        var info = stat()
        fstat(descriptor, &info)
        length = Int64(info.st_size)
        if let first = read(from: 0, count: 1).first, first & Self.formatFlag == 0 {
            try rewriteEarlierFormat()
        }
        // A torn last record is cut off, so appends stay aligned.
        length -= length % Int64(Self.recordSize)
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
        try write(bytes)
    }

    /// Empties the file: its points are in a commit the card holds.
    package func clear() throws(StoreError) {
        guard length > 0 else { return }
        guard ftruncate(descriptor, 0) == 0 else {
            throw .spoolFailed(path: path, reason: systemErrorText())
        }
        length = 0
    }

    /// The points the file holds, oldest first, up to the first torn or corrupt record.
    package func points() -> [RoutePoint] { Self.points(in: records()) }

    private static func points(in records: [Record]) -> [RoutePoint] {
        records.compactMap { record in
            if case .point(let point) = record { point } else { nil }
        }
    }

    /// The last cursor each uplink's records in the file give, per stream.
    package func cursors() -> [String: UplinkCursor] { Self.cursors(in: records()) }

    private static func cursors(in records: [Record]) -> [String: UplinkCursor] {
        var cursors: [String: UplinkCursor] = [:]
        for case .cursor(let uplink, let stream, let key) in records {
            cursors[uplink, default: UplinkCursor()][stream] = key
        }
        return cursors
    }

    /// The records the file holds, oldest first, up to the first torn or corrupt one.
    package func records() -> [Record] {
        Self.records(in: read(from: 0, count: Int(length)), size: Self.recordSize, decode: Self.decode)
    }

    private static func records(
        in bytes: [UInt8],
        size: Int,
        decode: (ArraySlice<UInt8>) -> Record?
    ) -> [Record] {
        var records: [Record] = []
        var offset = 0
        while offset + size <= bytes.count, let record = decode(bytes[offset..<offset + size]) {
            records.append(record)
            offset += size
        }
        return records
    }

    /// Appends `bytes` at `length`; on failure the file is cut back to `length`.
    private func write(_ bytes: [UInt8]) throws(StoreError) {
        guard !bytes.isEmpty else { return }
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(length)) }
        guard written == bytes.count else {
            let reason = written < 0 ? systemErrorText() : "only \(written) of \(bytes.count) bytes written"
            _ = ftruncate(descriptor, off_t(length))
            throw .spoolFailed(path: path, reason: reason)
        }
        length += Int64(bytes.count)
    }

    private func read(from offset: Int64, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(count, 0))
        let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        return Array(bytes.prefix(max(read, 0)))
    }

    /// Rewrites a file of the earlier format in this one, in place: its records read, the file
    /// emptied and its points and last cursors appended. A power cut between the two loses them, as one
    /// before their commit would have; the window is one `write`.
    private func rewriteEarlierFormat() throws(StoreError) {
        let earlier = Self.records(
            in: read(from: 0, count: Int(length)),
            size: Self.earlierRecordSize,
            decode: Self.decodeEarlier
        )
        try clear()
        try append(Self.points(in: earlier), cursors: Self.cursors(in: earlier))
    }

    static func encode(_ point: RoutePoint, into bytes: inout [UInt8]) {
        let stored = RouteUnits.Stored(point)
        var mask: UInt8 = 0
        for (bit, present) in [
            stored.altitude != nil, stored.speed != nil, stored.track != nil, stored.horizontalError != nil,
        ]
        .enumerated() where present {
            mask |= 1 << bit
        }
        encodeRecord(head: [formatFlag | mask, 0], time: point.time.milliseconds, into: &bytes) { bytes in
            for value in [stored.latitude, stored.longitude, stored.altitude ?? 0, stored.horizontalError ?? 0] {
                append(UInt64(UInt32(bitPattern: value)), bytes: 4, to: &bytes)
            }
            append(UInt64(stored.speed ?? 0), bytes: 2, to: &bytes)
            append(UInt64(stored.track ?? 0), bytes: 2, to: &bytes)
        }
    }

    static func encodeCursor(uplink: UInt8, stream: UplinkStream, key: Int64, into bytes: inout [UInt8]) {
        let head = [formatFlag | cursorFlag | UInt8(stream.number), uplink]
        encodeRecord(head: head, time: key, into: &bytes) { bytes in
            bytes.append(contentsOf: repeatElement(0, count: 20))
        }
    }

    /// Bit 7 of a record's first byte: the record is an uplink's cursor, not a point.
    private static let cursorFlag: UInt8 = 0x80
    /// Bit 6 of a record's first byte: the record is in this format (32 bytes), not the earlier one.
    private static let formatFlag: UInt8 = 0x40
    /// The times a record can hold: 48 bits of milliseconds, ±4 000 years around 1970.
    private static let times = -(Int64(1) << 47)..<(Int64(1) << 47)

    /// One record: `head`, the time, what `values` appends (20 bytes), the checksum. A time out of
    /// `times` (nothing a receiver gives) writes no record: it waits for the commit.
    private static func encodeRecord(
        head: [UInt8],
        time: Int64,
        into bytes: inout [UInt8],
        values: (inout [UInt8]) -> Void
    ) {
        guard times.contains(time) else { return }
        let start = bytes.count
        bytes.append(contentsOf: head)
        append(UInt64(bitPattern: time), bytes: 6, to: &bytes)
        values(&bytes)
        let checksum = fnv1a(bytes[start...])
        append(UInt64(checksum), bytes: 4, to: &bytes)
    }

    static func decode(_ record: ArraySlice<UInt8>) -> Record? {
        let base = record.startIndex
        func word(_ at: Int, _ count: Int) -> UInt64 {
            (0..<count).reduce(0) { $0 | UInt64(record[base + at + $1]) << (8 * $1) }
        }
        guard UInt32(word(28, 4)) == fnv1a(record[base..<base + 28]), record[base] & formatFlag != 0 else { return nil }
        // Sign-extended from 48 bits.
        let time = Int64(bitPattern: word(2, 6) << 16) >> 16
        let head = record[base] & ~formatFlag
        if head & cursorFlag != 0 {
            return cursor(number: Int(head & ~cursorFlag), uplink: Int(record[base + 1]), key: time)
        }
        guard head < 16 else { return nil }
        func signed(_ at: Int) -> Int32 { Int32(bitPattern: UInt32(word(at, 4))) }
        func present(_ bit: Int) -> Bool { head & (1 << bit) != 0 }
        let stored = RouteUnits.Stored(
            latitude: signed(8),
            longitude: signed(12),
            altitude: present(0) ? signed(16) : nil,
            speed: present(1) ? UInt16(word(24, 2)) : nil,
            track: present(2) ? UInt16(word(26, 2)) : nil,
            error: present(3) ? signed(20) : nil
        )
        return .point(stored.point(at: UTCTime(milliseconds: time)))
    }

    /// A record of the earlier format: 2 head bytes as now (without bit 6), 2 zero bytes, the
    /// time (Int64), six Float64 values (latitude, longitude, altitude, speed, track, error) and
    /// the checksum of the 60 bytes before it.
    static func decodeEarlier(_ record: ArraySlice<UInt8>) -> Record? {
        let base = record.startIndex
        func word(_ at: Int) -> UInt64 {
            (0..<8).reduce(0) { $0 | UInt64(record[base + at + $1]) << (8 * $1) }
        }
        let stored = (0..<4).reduce(UInt32(0)) { $0 | UInt32(record[base + 60 + $1]) << (8 * $1) }
        guard stored == fnv1a(record[base..<base + 60]) else { return nil }
        let time = Int64(bitPattern: word(4))
        if record[base] & cursorFlag != 0 {
            return cursor(number: Int(record[base] & ~cursorFlag), uplink: Int(record[base + 1]), key: time)
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

    private static func cursor(number: Int, uplink: Int, key: Int64) -> Record? {
        guard number < UplinkStream.allCases.count, uplink < uplinkNames.count else { return nil }
        return .cursor(uplink: uplinkNames[uplink], stream: UplinkStream.allCases[number], key: key)
    }

    private static func append(_ value: UInt64, bytes count: Int, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 8 * count, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    private static func fnv1a(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.reduce(2_166_136_261) { ($0 ^ UInt32($1)) &* 16_777_619 }
    }

}

extension UplinkStream {
    /// The stream's number in a spool's cursor records.
    var number: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}
