extension LocalTimeZone {
    /// Parses a TZif file (RFC 8536, versions 1 to 4), as `/usr/share/zoneinfo` holds them. From
    /// version 2 on, the 64-bit data block and the footer's POSIX rule (for instants after the
    /// last transition) are used; a version 1 file has only its 32-bit block. Leap-second records
    /// are skipped: instants here are POSIX time, as the `right/` zones are not.
    package init(name: String, tzif bytes: [UInt8]) throws(TimeZoneError) {
        // Built by static functions rather than by a throwing delegating initializer: the latter,
        // with typed throws, crashed the optimized (-O) build in swift_release on every call.
        self = try Self.parsed(name: name, tzif: bytes)
    }

    private static func parsed(name: String, tzif bytes: [UInt8]) throws(TimeZoneError) -> LocalTimeZone {
        var reader = TZifReader(name: name, bytes: bytes)
        let first = try reader.header()
        guard first.version >= 2 else {
            return try zone(name: name, block: try reader.block(first, timeSize: 4), rule: nil)
        }
        try reader.skip(first.size(timeSize: 4))
        let second = try reader.header()
        let block = try reader.block(second, timeSize: 8)
        let footer = try reader.footer()
        var rule: POSIXTimeZoneRule?
        if !footer.isEmpty {
            guard let parsed = POSIXTimeZoneRule(parsing: footer) else {
                throw .malformed(name: name, reason: "its footer rule '\(footer)' does not parse")
            }
            rule = parsed
        }
        return try zone(name: name, block: block, rule: rule)
    }

    private static func zone(
        name: String,
        block: TZifReader.Block,
        rule: POSIXTimeZoneRule?
    ) throws(TimeZoneError) -> LocalTimeZone {
        guard !block.types.isEmpty, block.transitionTypes.allSatisfy({ $0 < block.types.count }),
            zip(block.transitions, block.transitions.dropFirst()).allSatisfy({ $0 < $1 })
        else { throw .malformed(name: name, reason: "its transitions or types are inconsistent") }
        return LocalTimeZone(
            name: name,
            transitions: block.transitions,
            transitionTypes: block.transitionTypes,
            types: block.types,
            rule: rule
        )
    }
}

/// Why a time zone could not be had.
package enum TimeZoneError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No zone of that name: not in the tz database, or a name that could not be one.
    case unknown(name: String, reason: String)
    /// The zone's file exists but is not a TZif file this reader understands.
    case malformed(name: String, reason: String)
    /// A name that reads as opposite offsets to different readers (`CST-8`, `Etc/GMT+8`);
    /// `reason` says what to write instead.
    case ambiguous(name: String, reason: String)

    package var description: String {
        switch self {
        case .unknown(let name, let reason): "unknown time zone '\(name)': \(reason)"
        case .malformed(let name, let reason): "time zone '\(name)' cannot be read: \(reason)"
        case .ambiguous(let name, let reason): "ambiguous time zone '\(name)': \(reason)"
        }
    }

    /// Why, without the name: `no file /usr/share/zoneinfo/Bogus/Zone`.
    package var reason: String {
        switch self {
        case .unknown(_, let reason), .malformed(_, let reason), .ambiguous(_, let reason): reason
        }
    }
}

/// Reads a TZif file's headers, data blocks and footer, big-endian as RFC 8536 writes them.
private struct TZifReader {
    struct Header {
        var version: Int
        var isUTCCount: Int
        var isStandardCount: Int
        var leapCount: Int
        var timeCount: Int
        var typeCount: Int
        var characterCount: Int

        /// The data block's size in bytes.
        func size(timeSize: Int) -> Int {
            timeCount * timeSize + timeCount + typeCount * 6 + characterCount + leapCount * (timeSize + 4)
                + isStandardCount + isUTCCount
        }
    }

    struct Block {
        var transitions: [Int64]
        var transitionTypes: [Int]
        var types: [LocalTimeType]
    }

    let name: String
    let bytes: [UInt8]
    var index = 0

    init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    mutating func header() throws(TimeZoneError) -> Header {
        guard index + 44 <= bytes.count, bytes[index..<(index + 4)].elementsEqual("TZif".utf8) else {
            throw .malformed(name: name, reason: "it is not a TZif file")
        }
        let versionByte = bytes[index + 4]
        let version = versionByte == 0 ? 1 : Int(versionByte) - Int(UInt8(ascii: "0"))
        guard (1...9).contains(version) else { throw .malformed(name: name, reason: "unknown TZif version") }
        index += 20
        let counts = (0..<6).map { _ in Int(integer(size: 4, signed: false)) }
        let header = Header(
            version: version,
            isUTCCount: counts[0],
            isStandardCount: counts[1],
            leapCount: counts[2],
            timeCount: counts[3],
            typeCount: counts[4],
            characterCount: counts[5]
        )
        return header
    }

    mutating func skip(_ count: Int) throws(TimeZoneError) {
        guard index + count <= bytes.count else { throw .malformed(name: name, reason: "it is truncated") }
        index += count
    }

    mutating func block(_ header: Header, timeSize: Int) throws(TimeZoneError) -> Block {
        guard index + header.size(timeSize: timeSize) <= bytes.count else {
            throw .malformed(name: name, reason: "it is truncated")
        }
        let transitions = (0..<header.timeCount).map { _ in integer(size: timeSize, signed: true) }
        let transitionTypes = (0..<header.timeCount).map { _ in Int(integer(size: 1, signed: false)) }
        let records = (0..<header.typeCount).map { _ in
            (
                offset: Int(integer(size: 4, signed: true)),
                isDaylightSaving: integer(size: 1, signed: false) != 0,
                designation: Int(integer(size: 1, signed: false))
            )
        }
        let characters = bytes[index..<(index + header.characterCount)]
        index +=
            header.characterCount + header.leapCount * (timeSize + 4) + header.isStandardCount
            + header.isUTCCount
        var types: [LocalTimeType] = []
        for record in records {
            guard record.designation < characters.count else {
                throw .malformed(name: name, reason: "an abbreviation lies outside the file")
            }
            let start = characters.startIndex + record.designation
            let abbreviation = characters[start...].prefix { $0 != 0 }
            types.append(
                LocalTimeType(
                    offset: record.offset,
                    isDaylightSaving: record.isDaylightSaving,
                    abbreviation: String(decoding: abbreviation, as: UTF8.self)
                )
            )
        }
        return Block(transitions: transitions, transitionTypes: transitionTypes, types: types)
    }

    /// The POSIX rule between the two newlines after the version 2 data block.
    mutating func footer() throws(TimeZoneError) -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\n"),
            let end = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "\n"))
        else { throw .malformed(name: name, reason: "its footer is missing") }
        return String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
    }

    private mutating func integer(size: Int, signed: Bool) -> Int64 {
        var value: UInt64 = 0
        for byte in bytes[index..<(index + size)] { value = value << 8 | UInt64(byte) }
        index += size
        guard signed, size < 8 else { return Int64(bitPattern: value) }
        let shift = UInt64(64 - size * 8)
        return Int64(bitPattern: value << shift) >> Int64(shift)
    }
}
